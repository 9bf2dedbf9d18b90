"""What the players did: decision mix by role and bot, and the rule holes it reveals.

Every game counts each seat's decisions by kind (``act_<kind>`` columns of the players table,
declared by the game). The report shows the mix per role (or seat) and per bot, and flags:

- a decision kind that no seat ever took in a variant: a dead rule, or one the bots never use;
- a decision kind that only one role ever takes (when several roles are in play);
- a score component that is always zero for a role while others score it.
"""

from __future__ import annotations

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


def disabled_kinds(setup: dict, kinds: list[str], word: str = "role") -> set[str]:
    """The decision kinds a variant's setup switches off: choosing a role when roles are dealt
    at random or fixed (`setup["roles"]` other than "draft")."""
    if setup.get("roles", "random") == "draft":
        return set()
    words = {*ROLE_CHOICE, word}
    return {k for k in kinds if words & set(k.split("_"))}


def rule_holes(
    mix: pl.DataFrame, group: str, labels: dict, word: str, disabled: dict | None = None
) -> list[str]:
    """Plain-words flags from the decision mix table (one row per variant, group, strategy).

    `disabled` maps (run, variant) to the decision kinds its setup switches off
    (`disabled_kinds`): those are not flagged. A kind never taken in a variant but taken in
    another variant of the same run is what the variant's settings change, said apart (its line
    ends "not a rule hole").
    """
    acts = [c for c in mix.columns if c.startswith("act_")]
    pts = [c for c in mix.columns if c.startswith("sum_pts_")]
    disabled = disabled or {}
    taken = (
        mix.group_by(["run", "variant"])
        .agg(pl.col(acts).sum())
        .group_by("run")
        .agg(*((pl.col(a) > 0).sum().alias(a) for a in acts))
    )
    variants_taking = {r["run"]: r for r in taken.iter_rows(named=True)}
    lines = []
    for (run, variant), part in mix.group_by(KEY, maintain_order=True):
        label = labels.get((run, variant), variant)
        off = disabled.get((run, variant), set())
        never = [a[4:] for a in acts if part[a].sum() == 0 and a[4:] not in off]
        elsewhere = [k for k in never if variants_taking[run][f"act_{k}"] > 0]
        never = [k for k in never if k not in elsewhere]
        if never:
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
            zero = per_group.filter(pl.col(p) == 0)[group].to_list()
            if zero and len(zero) < per_group.height:
                lines.append(
                    f"- variant {label}: {p[8:]} points are always zero for "
                    f"{', '.join(str(z) for z in zero)}."
                )
    return lines


def mix_table(mix: pl.DataFrame) -> pl.DataFrame:
    """The CSV: mean decisions of each kind per game, by variant, group and bot."""
    return mix.drop([c for c in mix.columns if c.startswith("sum_")])
