"""What the players did: decision mix by role and bot, and the rule holes it reveals.

Every game counts each seat's decisions by kind (``act_<kind>`` columns of the players table,
declared by the game). The report shows the mix per role (or seat) and per bot, and flags:

- a decision kind that no seat ever took in a variant: a gap of the bots when random play of
  the same setup takes it (a few hundred seeded random games, or a random-bot variant of the
  report with the same setup), else a dead rule;
- a decision kind that only one role ever takes (when several roles are in play);
- a score component that is always zero for a role while others score it.
"""

from __future__ import annotations

import json

import polars as pl

from reports.load import KEY


def act_columns(players: pl.LazyFrame) -> list[str]:
    return [c for c in players.collect_schema().names() if c.startswith("act_")]


def decisions_lazy(players: pl.LazyFrame, group: str, pts: list[str]) -> pl.LazyFrame | None:
    """Per (run, variant, group, strategy): seats, mean decisions of each kind, points summed."""
    acts = act_columns(players)
    if not acts:
        return None
    return (
        players.filter(pl.col(group).is_not_null())
        .group_by([*KEY, group, "strategy"])
        .agg(
            pl.len().alias("n"),
            *(pl.col(a).mean().alias(a) for a in acts),
            *(pl.col(p).abs().sum().alias(f"sum_{p}") for p in pts),
        )
        .sort([*KEY, group, "strategy"])
    )


ROLE_CHOICE = ("role", "draft")  # words of a decision kind that chooses a role (with the
# game's own word for a role): no decision at all when roles are dealt or fixed, not drafted


def choice_kinds(kinds: list[str], word: str = "role") -> list[str]:
    """The decision kinds that choose a seat's role: named with "role", "draft" or the game's
    word for a role (Celtic Quest's keep_destiny, Celtae's draft_leader)."""
    words = {*ROLE_CHOICE, word}
    return [k for k in kinds if words & set(k.split("_"))]


def disabled_kinds(setup: dict, kinds: list[str], word: str = "role") -> set[str]:
    """The decision kinds a variant's setup switches off: choosing a role when roles are dealt
    at random or fixed (`setup["roles"]` other than "draft")."""
    if setup.get("roles", "random") == "draft":
        return set()
    return set(choice_kinds(kinds, word))


def chosen_roles(mix: pl.DataFrame, word: str = "role") -> dict[tuple[str, str], list[str]]:
    """{(run, variant): the choice kinds its seats took} for the variants where the bots chose
    their role (kept one destiny of two, drafted a leader) instead of being dealt it, from the
    decision mix (`decisions_lazy` grouped by role); a variant whose seats never took such a
    decision is not listed."""
    if mix is None or not mix.height or "role" not in mix.columns:
        return {}
    kinds = choice_kinds([c[4:] for c in mix.columns if c.startswith("act_")], word)
    if not kinds:
        return {}
    taken = mix.group_by(KEY, maintain_order=True).agg(
        (pl.col(f"act_{k}") * pl.col("n")).sum().alias(k) for k in kinds
    )
    out = {}
    for r in taken.iter_rows(named=True):
        used = [k for k in kinds if r[k] > 0]
        if used:
            out[(r["run"], r["variant"])] = used
    return out


RANDOM_GAMES = 200  # random games played per setup to tell a bot gap from a rule hole
RANDOM_ROOT_SEED = 0  # their seeds: games 0 .. RANDOM_GAMES - 1 of this root seed
_RANDOM_CACHE: dict[str, dict[str, float] | None] = {}


def random_play_use(game: str, setup: dict, games: int = RANDOM_GAMES) -> dict[str, float] | None:
    """Mean decisions of each kind per game when every seat of `setup` (a manifest's variant
    setup) plays the random bot: `games` games, seeds fixed (the same answer every time, kept
    for the process). None when the game is not registered here or the setup cannot be rebuilt
    (a whole variant data file: the manifest keeps only its name and hash)."""
    from sim.core.params import ParamError
    from sim.core.registry import GAME_MODULES, make_setup

    if game not in GAME_MODULES or "data_file" in setup:
        return None
    key = json.dumps([game, {k: v for k, v in setup.items() if k != "bots"}, games], default=str)
    if key not in _RANDOM_CACHE:
        import numpy as np

        from sim.core.batch import play_batch

        try:
            made = make_setup(
                game,
                setup.get("players"),
                setup.get("params") or {},
                "random",
                setup.get("roles", "random"),
                setup.get("data") or None,
            )
        except ParamError:
            _RANDOM_CACHE[key] = None
            return None
        _, players = play_batch(made, np.arange(games), RANDOM_ROOT_SEED)
        acts = act_columns(players.lazy())
        sums = players.select(pl.col(acts).sum()).row(0, named=True)
        _RANDOM_CACHE[key] = {a[4:]: float(v) / games for a, v in sums.items()}
    return _RANDOM_CACHE[key]


def _uses(kinds: list[str], use: dict[str, float]) -> str:
    return ", ".join(f"{k} {use[k]:.1f}" if use[k] >= 0.1 else f"{k} {use[k]:.2g}" for k in kinds)


def rule_holes(
    mix: pl.DataFrame,
    group: str,
    labels: dict,
    word: str,
    disabled: dict | None = None,
    random_use=None,
) -> list[str]:
    """Plain-words flags from the decision mix table (one row per variant, group, strategy).

    `disabled` maps (run, variant) to the decision kinds its setup switches off
    (`disabled_kinds`): those are not flagged. A kind never taken in a variant but taken in
    another variant of the same run is what the variant's settings change, said apart (its line
    ends "not a rule hole"). `random_use(run, variant)` gives random play's use of each kind in
    the variant's setup, ``(mean per game by kind, games, where)``, or None (the variant's
    own bots are random, or no random play is at hand): a kind the bots never take that random
    play takes is a gap of the bots, not a rule hole; one random play never takes either is a
    dead rule in that setup.
    """
    acts = [c for c in mix.columns if c.startswith("act_")]
    pts = [c for c in mix.columns if c.startswith("sum_pts_")]
    disabled = disabled or {}
    # per run and set of bots: how many variants take each kind (a bot-level sweep's variants
    # differ by their bots, not by settings, and are not compared here)
    taken = (
        mix.group_by(KEY)
        .agg(pl.col(acts).sum(), pl.col("strategy").unique().sort().str.join(",").alias("bots"))
        .group_by("run", "bots")
        .agg(*((pl.col(a) > 0).sum().alias(a) for a in acts))
    )
    variants_taking = {(r["run"], r["bots"]): r for r in taken.iter_rows(named=True)}
    taken_in_run = taken.group_by("run").agg(pl.col(acts).sum())
    any_taking = {r["run"]: r for r in taken_in_run.iter_rows(named=True)}
    lines = []
    for (run, variant), part in mix.group_by(KEY, maintain_order=True):
        label = labels.get((run, variant), variant)
        off = disabled.get((run, variant), set())
        bots = ",".join(sorted(part["strategy"].unique().to_list()))
        never = [a[4:] for a in acts if part[a].sum() == 0 and a[4:] not in off]
        elsewhere = [k for k in never if variants_taking[(run, bots)][f"act_{k}"] > 0]
        never = [k for k in never if k not in elsewhere]
        rand = random_use(run, variant) if never and random_use is not None else None
        if rand is not None:
            use, games, where = rand
            gap = [k for k in never if use.get(k, 0) > 0]
            never = [k for k in never if k not in gap]
            if gap:
                lines.append(
                    f"- variant {label}: the bots never did {', '.join(gap)}; random play does "
                    f"({_uses(gap, use)} a game, {games:,} random games {where}): a gap of the "
                    "bots, not a rule hole."
                )
            if never:
                lines.append(
                    f"- variant {label}: decision(s) never taken by any seat, nor by random "
                    f"play in {games:,} games {where}: {', '.join(never)} (a dead rule in this "
                    "setup)."
                )
        elif never and bots == "random":
            others = [k for k in never if any_taking[run][f"act_{k}"] > 0]
            never = [k for k in never if k not in others]
            if others:
                lines.append(
                    f"- variant {label}: random play never did {', '.join(others)}; the run's "
                    "other bots do (not a rule hole)."
                )
            if never:
                lines.append(
                    f"- variant {label}: decision(s) never taken by any seat, random play as it "
                    f"is: {', '.join(never)} (a dead rule in this setup)."
                )
        elif never:
            lines.append(
                f"- variant {label}: decision(s) never taken by any seat: {', '.join(never)} "
                "(a dead rule, or one the bots never use)."
            )
        if elsewhere:
            lines.append(
                f"- variant {label}: decision(s) not taken here but taken in other variants: "
                f"{', '.join(elsewhere)} (what this variant's settings change, not a rule hole)."
            )
        per_group = part.group_by(group).agg(pl.col(acts).sum(), pl.col(pts).sum())
        if per_group.height < 2:
            continue
        for a in acts:
            takers = per_group.filter(pl.col(a) > 0)[group].to_list()
            if len(takers) == 1:
                lines.append(f"- variant {label}: only the {word} {takers[0]} ever takes {a[4:]}.")
        for p in pts:
            zero = sorted(per_group.filter(pl.col(p) == 0)[group].to_list())
            if zero and len(zero) < per_group.height:
                lines.append(
                    f"- variant {label}: {p[8:]} points are always zero for "
                    + ", ".join(f"seat {z}" if group == "seat" else str(z) for z in zero)
                    + "."
                )
    return lines


SAME_SHARE = 0.99  # "the same decisions in nearly every game": at least this share of games


def same_decisions_lazy(players: pl.LazyFrame, paired: pl.DataFrame) -> pl.LazyFrame | None:
    """Per paired comparison: games matched with the baseline and games with the same decisions.

    `paired` holds the comparisons made on common random numbers (rows of
    `stats.comparisons` with `base_run`, `base_variant`). A game has the same decisions when
    every seat's ``act_*`` counts equal the baseline's in the same game index, row for row
    (one 64-bit hash of the counts per row is compared; a collision is a 2^-64 event). None
    when the game declares no decision kinds or nothing is paired.
    """
    acts = act_columns(players)
    if not acts or not paired.height:
        return None
    rows = players.select(*KEY, "game", "seat", pl.struct(acts).hash(seed=7).alias("h"))
    pairs = paired.select(*KEY, "base_run", "base_variant").lazy()
    base = rows.select(
        pl.col("run").alias("base_run"),
        pl.col("variant").alias("base_variant"),
        "game",
        "seat",
        pl.col("h").alias("h_base"),
    )
    per_game = (
        rows.join(pairs, on=KEY)
        .join(base, on=["base_run", "base_variant", "game", "seat"])
        .group_by([*KEY, "game"])
        .agg((pl.col("h") == pl.col("h_base")).all().alias("same"))
    )
    return per_game.group_by(KEY).agg(
        pl.len().alias("games"), pl.col("same").sum().cast(pl.Int64).alias("same_games")
    )


def same_decisions_table(same: pl.DataFrame, paired: pl.DataFrame) -> pl.DataFrame:
    """The CSV: per paired variant, its baseline, games compared, games with the same decisions
    and their share; `nearly_all` when the share is at least SAME_SHARE."""
    if not same.height:
        return pl.DataFrame()
    return (
        paired.select("order", *KEY, "label", "short", "base_label", "base_run", "base_variant")
        .join(same, on=KEY, how="inner")
        .with_columns((pl.col("same_games") / pl.col("games")).alias("share"))
        .with_columns((pl.col("share") >= SAME_SHARE).alias("nearly_all"))
        .sort("order")
    )


def _in_words(label: str) -> str:
    """A variant's label in words: 'v1 (players=4,roles.trusted.rp_as_vp=2)' -> 'players 4,
    roles.trusted.rp_as_vp 2'; a label without settings stays as it is."""
    inner = label.rpartition("(")[2].rstrip(")") if label.endswith(")") else label
    run = label.split(": ", 1)[0] + ": " if ": " in label else ""
    return run + ", ".join(part.replace("=", " ") for part in inner.split(","))


def same_sentence(table: pl.DataFrame) -> str | None:
    """The headline's sentence when paired variants made the same decisions in (nearly) every
    game: 'The variant <variant> differs from <baseline> only in scoring: the bots made the same
    decisions in every game (2,000 paired games).'"""
    if not table.height:
        return None
    rows = table.filter(pl.col("nearly_all")).to_dicts()
    if not rows:
        return None
    parts = []
    for r in rows[:3]:
        a, b = _in_words(r["label"]), _in_words(r["base_label"])
        if r["same_games"] == r["games"]:
            parts.append(
                f"{a} differs from {b} only in scoring: the bots made the same decisions in "
                f"every game ({r['games']:,} paired games)"
            )
        else:
            parts.append(
                f"{a} differs from {b} almost only in scoring: the bots made the same decisions "
                f"in {100 * r['share']:.1f}% of the games ({r['same_games']:,} of "
                f"{r['games']:,} paired games; the threshold is {100 * SAME_SHARE:.0f}%)"
            )
    more = len(rows) - len(parts)
    text = "; ".join(parts)
    if more:
        text += f"; so do {more} more variant{'s' if more > 1 else ''} (`same_decisions.csv`)"
    return f"The variant {text}."


def mix_table(mix: pl.DataFrame) -> pl.DataFrame:
    """The CSV: mean decisions of each kind per game, by variant, group and bot."""
    return mix.drop([c for c in mix.columns if c.startswith("sum_")])
