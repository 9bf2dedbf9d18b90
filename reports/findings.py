"""The report's findings in words: the lines of its flags, context and sections.

Each function turns the aggregated tables of `analysis.analyse` into Markdown lines: safety-cap
and never/always-wins flags, stalemates, the baseline, shared defeats, chi-square tests, which
roles and seats can be told apart, rule holes, skill in mixed games and unfinished runs.
`page.py` puts them in order.
"""

from __future__ import annotations

import re

import polars as pl

from reports import axes, decisions, pairwise, stats, wording
from reports.load import KEY, Run
from reports.wording import compare_label


def _pts(x: float) -> str:
    return wording.pts(x)


def stalemate_lines(bal: pl.DataFrame) -> list[str]:
    lines = []
    for r in bal.filter(pl.col("stalemates") > 0).iter_rows(named=True):
        lines.append(
            f"- STALEMATE: variant {r['label']}: {_count(r['stalemates'])} of "
            f"{_count(r['games'])} games "
            f"({r['no_score']} with no one scoring, {r['capped']} ended by a cap)."
        )
    return lines


def flags(t: dict, word: str = "role") -> list[str]:
    flags = []
    for r in t["balance"].filter(pl.col("turn_cap_share") > 0).iter_rows(named=True):
        capped = round(r["turn_cap_share"] * r["games"])
        flags.append(
            f"- RULE HOLE? {capped} games of variant {r['label']} ended by the safety cap "
            "(`turn_cap`)."
        )
    # one line per role (or seat) and finding, however many variants it holds in
    found: dict[tuple, list[str]] = {}
    has_roles = t["win_by_role"].height > 0
    for unit, table in (("role", t["win_by_role"]), ("seat", t["win_by_seat"])):
        for r in table.sort("order").iter_rows(named=True):
            if unit == "seat" and has_roles and _solo(r):
                continue  # a solo seat is its role: flagged once, above
            what = _never_always(r)
            if what is None:
                continue
            who = wording.named(unit, r[unit], word)  # as the other flags name it
            games = "solo games" if _solo(r) else "games"
            wins = f"{r['wins']:,.0f}" if float(r["wins"]).is_integer() else f"{r['wins']:,.1f}"
            share = 100 * r["win_rate"]
            share = wording.num(share, ".2g" if 0 < share < 1 else ".1f")
            where = f"{r['label']} ({wins} of {r['n']:,} {games}, {share}%)"
            found.setdefault((who, what), []).append(where)
    for (who, what), where in found.items():
        if len(where) == 1:
            flags.append(f"- {who} {what} in variant {where[0]}.")
        else:
            flags.append(f"- {who} {what} in {len(where)} variants: {'; '.join(where)}.")
    return flags


NEVER_WINS, ALWAYS_WINS = 0.01, 0.99  # "never wins" at or below 1% of its games, "always" from 99%


def _never_always(r: dict) -> str | None:
    """'never wins (at most 1% of its games)' / 'always wins (at least 99% ...)' (or '...
    reaches the solo target ...') for a win-table row at or below NEVER_WINS or at or above
    ALWAYS_WINS; None otherwise (each variant's count follows in the flag). A row whose fair
    share is itself that low (the game nearly always ends with nobody winning) is not flagged as
    never winning unless it wins less than half its fair share."""
    rate = r["win_rate"]
    low = rate <= NEVER_WINS and (_solo(r) or rate < r["fair"] / 2)
    if not (low or rate >= ALWAYS_WINS):
        return None
    what = "never" if low else "always"
    share = 100 * (NEVER_WINS if low else ALWAYS_WINS)
    bound = f" ({'at most' if low else 'at least'} {share:.0f}% of its games)"
    verb = "reaches the solo target" if _solo(r) else "wins"
    return f"{what} {verb}{bound}"


def _solo(r: dict) -> bool:
    """A win-table row of a solo variant: there is no fair share to compare with."""
    return r["fair"] is None


def baseline_text(keys: pl.DataFrame, diff: pl.DataFrame | None = None) -> str:
    """The baseline, or with several player counts the baseline of each one."""
    if diff is not None and "axis" in diff.columns:
        return (
            "Several settings are swept: each is read one at a time, the others held fixed "
            "(each variant against the variant with the same player count and other values "
            "and that setting's first value); player counts are never pooled."
        )
    if not stats.several_player_counts(keys):
        return f"Baseline variant: {keys['label'][0]}."
    groups = keys.group_by("players_group", maintain_order=True).agg(
        pl.col("players").first(), pl.col("label").first(), pl.len()
    )
    compared = groups.filter(pl.col("len") > 1)
    alone = groups.filter(pl.col("len") == 1)["players"].to_list()
    parts = ["Variants are compared only with the baseline of their player count"]
    if compared.height:
        bases = "; ".join(f"players {r['players']}: {r['label']}" for r in compared.to_dicts())
        parts[0] += f" ({bases})"
    if alone:
        parts.append(f"players {', '.join(alone)}: one variant each, not compared")
    return "; ".join(parts) + "."


def chi_line(r: dict) -> str:
    sig = "significant" if r["significant"] else "not significant"
    where = f"players {r['players']}: " if "players" in r else ""
    return (
        f"- {where}{r['test']}: chi2 = {wording.stat(r['chi2'])}, dof {r['dof']}, "
        f"p {wording.p_is(r['p_holm'])} (Holm), {sig}"
    )


def _count(n: int) -> str:
    return f"{n:,}"


def gap_words(lo: float, hi: float) -> str:
    """The gap between two groups, ``lo`` to ``hi`` points: whole points, or tenths when the
    widest is under 2 (a gap of 0.4 is not "0 points", nor one of 1.3 "1 points"); a range
    whose low end rounds to 0 reads "up to" its top."""
    digits = 1 if hi < 1.95 else 0
    a, b = f"{lo:.{digits}f}", f"{hi:.{digits}f}"
    if a == b:
        return f"{a} points"
    return f"up to {b} points" if float(a) == 0 else f"{a}-{b} points"


def _group_line(r0: dict, pairs: pl.DataFrame, unit_word: str) -> str:
    """One variant's levels in groups that cannot be told apart, and the gaps between groups."""
    rates: dict = {}
    for r in pairs.iter_rows(named=True):
        rates[r["a"]], rates[r["b"]] = r["win_a"], r["win_b"]
    cut = pairwise.groups(pairs)
    games = _count(r0["games"])
    name = (lambda x: f"seat {x}") if unit_word == "seat" else (lambda x: x)
    parts = []
    for i, group in enumerate(cut):
        text = ", ".join(f"{name(x)} {100 * rates[x]:.1f}%" for x in group)
        if len(group) == len(rates):
            text += f": no two can be told apart at {games} games"
        elif len(group) > 1:
            text += f" cannot be told apart at {games} games"
        if i + 1 < len(cut):
            below = cut[i + 1]
            cross = pairs.filter(pl.col("a").is_in(group) & pl.col("b").is_in(below))
            gap = gap_words(100 * cross["diff"].min(), 100 * cross["diff"].max())
            who = {1: "", 2: "both ", 3: "all three "}.get(len(group), "all ")
            apart = int(cross["told_apart"].sum())
            sure = (
                "every pair told apart"
                if apart == cross.height
                else f"only {apart} of {cross.height} pairs told apart"
            )
            close = cross.row(int(cross["diff"].arg_min()), named=True)
            sure += (
                "; closest "
                f"{wording.pts_ci(close['diff'], close['lo_simul95'], close['hi_simul95'])}"
                " simultaneous"
            )
            nxt = ", ".join(name(x) for x in below)
            text += f"; {who}ahead of {nxt} by {gap} ({sure})"
        parts.append(text)
    return f"- {r0['label']}: " + "; then ".join(parts) + "."


PAIRWISE_VARIANTS = 6  # variants whose groups the summary spells out


def pairwise_lines(t: dict, word: str) -> list[str]:
    pairs = t["pairwise"]
    if not pairs.height:
        return []
    lines = [
        f"## Which {wording.plural(word)} and seats can be told apart"
        if (pairs["unit"] == "role").any()
        else "## Which seats can be told apart",
        "",
        "Each pair's win-rate difference has an interval that accounts for the games the "
        "two share (delta method) and is simultaneous over the variant's pairs: all of them "
        "cover their true differences together 95% of the time (a max-t band). A pair is told "
        "apart when its interval excludes 0, which is when its adjusted p (max-t) is below "
        "0.05 (`pairwise.csv`: `lo_simul95`, `hi_simul95`, `p_maxt`).",
        "",
    ]
    for unit, unit_word in (("role", word), ("seat", "seat")):
        sub = pairs.filter(pl.col("unit") == unit)
        if not sub.height:
            continue
        lines.append(f"{wording.plural(unit_word).capitalize()}:")
        parts = [v for _, v in sub.group_by(KEY, maintain_order=True)]
        # the list must not grow with the sweep: the first variants, then pairwise.csv
        for v in parts[:PAIRWISE_VARIANTS]:
            lines.append(_group_line(v.row(0, named=True), v, unit_word))
        if len(parts) > PAIRWISE_VARIANTS:
            lines.append(
                f"- and {len(parts) - PAIRWISE_VARIANTS} more variants: every pair in "
                "`pairwise.csv`."
            )
        lines.append("")
    worst = pairwise.worth_playing(pairs)
    if worst is not None:
        unit_word = word if worst["unit"] == "role" else "seat"
        lines.append(
            f"More games: {pairwise.needed_text(worst, unit_word)} ({worst['label']}; 80% "
            "power at the observed gap to be told apart as above, by the simultaneous "
            "interval). That is the largest such number among "
            f"the gaps of {100 * pairwise.MIN_GAP:.0f} point or more not yet told apart; "
            "`games_needed` in `pairwise.csv` has every pair."
        )
        lines.append("")
    return lines


def rule_hole_lines(t: dict, word: str, runs: list[Run] | None = None) -> list[str]:
    mix = t.get("_mix")
    if mix is None or not mix.height:
        return []
    group = t["_meta"]["group"][0]
    labels = {(r["run"], r["variant"]): r["label"] for r in t["keys"].iter_rows(named=True)}
    kinds = [c[4:] for c in mix.columns if c.startswith("act_")]
    disabled = {
        (run.name, str(v.get("id"))): decisions.disabled_kinds(v.get("setup") or {}, kinds, word)
        for run in runs or []
        for v in run.manifest.get("variants") or []
        if isinstance(v, dict)
    }
    holes = _merge_variants(
        decisions.rule_holes(
            mix,
            group,
            labels,
            word if group == "role" else "seat",
            disabled,
            _random_use(t, runs or [], labels),
        ),
        t["keys"]["label"].to_list(),
    )
    title = "## Rule holes: what the players never or only sometimes did"
    return [title, "", *holes, ""] if holes else []


def _random_use(t: dict, runs: list[Run], labels: dict):
    """random_use(run, variant) for decisions.rule_holes: random play's mean decisions of each
    kind per game in that variant's setup, from a random-bot variant of the report with the
    same setup when there is one, else from decisions.random_play_use (seeded random games);
    None for a variant whose own bots are all random."""
    mix = t["_mix"]
    strategies = mix.group_by(KEY).agg(pl.col("strategy").unique())
    all_random = {
        (r["run"], r["variant"]): set(r["strategy"]) == {"random"}
        for r in strategies.iter_rows(named=True)
    }
    entries = {
        (run.name, str(v.get("id"))): (str(run.manifest.get("game")), v.get("setup") or {})
        for run in runs
        for v in run.manifest.get("variants") or []
        if isinstance(v, dict)
    }
    games = {(r["run"], r["variant"]): r["games"] for r in t["info"].iter_rows(named=True)}
    acts = [c for c in mix.columns if c.startswith("act_")]

    def same_setup(a: tuple, b: tuple) -> bool:
        drop = lambda s: {k: v for k, v in s.items() if k != "bots"}  # noqa: E731
        return a[0] == b[0] and drop(a[1]) == drop(b[1])

    def use(run: str, variant: str):
        key = (run, variant)
        if all_random.get(key, True) or key not in entries:
            return None
        for other, entry in entries.items():
            if all_random.get(other) and other in games and same_setup(entry, entries[key]):
                part = mix.filter((pl.col("run") == other[0]) & (pl.col("variant") == other[1]))
                sums = part.select((pl.col(a) * pl.col("n")).sum() for a in acts).row(0)
                means = {a[4:]: x / games[other] for a, x in zip(acts, sums, strict=True)}
                return means, games[other], f"of the report's variant {labels[other]}"
        found = decisions.random_play_use(*entries[key])
        return None if found is None else (found, decisions.RANDOM_GAMES, "of this setup")

    return use


# the figures of random play's rates in a rule-hole line, which differ from variant to variant
_RANDOM_RATES = re.compile(r"(?<=random play does \()[^)]*(?=\))")
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")


def _figures_masked(text: str) -> tuple[str, list[str]]:
    """``text`` with the figures of its random-play rates as ``#``, and those figures."""
    m = _RANDOM_RATES.search(text)
    if m is None:
        return text, []
    inner = m.group(0)
    return text[: m.start()] + _FIGURE.sub("#", inner) + text[m.end() :], _FIGURE.findall(inner)


def _figures_filled(text: str, figures: list[list[str]]) -> str:
    """The masked ``text`` with each ``#`` the figure of every variant, or their range."""
    m = _RANDOM_RATES.search(text)
    if m is None:
        return text
    slots = iter(zip(*figures, strict=True))

    def fill(_):
        values = sorted(set(next(slots)), key=lambda x: float(x.replace(",", "")))
        return values[0] if len(values) == 1 else f"{values[0]}-{values[-1]}"

    return text[: m.start()] + re.sub("#", fill, m.group(0)) + text[m.end() :]


def _merge_variants(lines: list[str], labels: list[str]) -> list[str]:
    """One line per finding, not per variant: "- variant v0 (...): X" lines that say the same X
    in several variants become "- variants v0 (...), v1 (...): X" or "- every variant: X". A
    line on random play's rates says them once, as a range across its variants ("discard
    12.9-15.3 a game")."""
    found: dict[str, list[str]] = {}
    figures: dict[str, list[list[str]]] = {}
    for line in lines:
        label = next((x for x in labels if line.startswith(f"- variant {x}: ")), None)
        if label is None:
            found.setdefault(line, [])
            continue
        text, numbers = _figures_masked(line.removeprefix(f"- variant {label}: "))
        found.setdefault(text, []).append(label)
        figures.setdefault(text, []).append(numbers)
    out = []
    for masked, where in found.items():
        text = _figures_filled(masked, figures[masked]) if where else masked
        if not where:
            out.append(text)
        elif len(where) == 1:
            out.append(f"- variant {where[0]}: {text}")
        elif len(where) == len(labels):
            out.append(f"- every variant: {text}")
        else:
            out.append(f"- variants {', '.join(where)}: {text}")
    return out


def skill_lines(t: dict) -> list[str]:
    skill = t.get("skill_in_mixed_games", pl.DataFrame())
    if not skill.height:
        return []
    lines = ["## Skill expression (games where seats play different bots)", ""]
    for r in skill.iter_rows(named=True):
        lines.append(
            f"- {r['strategy']} wins {r['win_rate']:.1%} [{r['ci_low']:.1%}, {r['ci_high']:.1%}] "
            f"of its seats against a fair {r['fair']:.0%} ({_count(r['n'])} seats)"
        )
    return [*lines, ""]


def incomplete_lines(runs: list[Run]) -> list[str]:
    """A warning per run that was killed or is still running (issue 19, defect 4)."""
    from reports.load import incomplete

    lines = []
    for r in runs:
        missing = incomplete(r.path)
        if missing is not None:
            lines.append(
                f"- INCOMPLETE RUN: {r.name} played {missing[0]:,} of {missing[1]:,} games; "
                "this report covers those games only (complete it with menhir run --resume)."
            )
    return lines


def everybody_lost_lines(t: dict) -> list[str]:
    """Games nobody won (a collective defeat): a share of games with its interval, never ties."""
    lost = t.get("everybody_lost")
    if lost is None or not lost.height:
        return []
    lines = [
        "Everybody lost (the game ended by a collective defeat, no winner) in: "
        + "; ".join(
            f"{r['label']} {100 * r['share']:.1f}% [{100 * r['ci_low']:.1f}%, "
            f"{100 * r['ci_high']:.1f}%] of {r['games']:,} games"
            for r in lost.iter_rows(named=True)
        )
        + " (95% Wilson). Those games are no win for any seat, not ties; the fair share is "
        "1/players of the games someone won.",
        "",
    ]
    diff = t.get("everybody_lost_differences")
    if diff is not None and diff.height:
        parts = []
        for r in diff.iter_rows(named=True):
            what = compare_label(r["label"], r["baseline"])
            if r.get("axis"):
                what = axes.effect_label(r)
            parts.append(
                f"{what}: {wording.pts_ci(r['diff'], r['ci_low'], r['ci_high'])}"
                f" points ({r['method']}, p {wording.p_is(r['p_holm'])} Holm"
                + (f", {wording.SIG}" if r["significant"] else "")
                + ")"
            )
        lines[-1:-1] = [
            "Change in the share of games nobody won, from the baseline, 95% interval: "
            + "; ".join(parts)
            + " (`everybody_lost_differences.csv`).",
            "",
        ]
    return lines


def chosen_note(t: dict, word: str) -> str | None:
    """The selection-bias note of the roles' table when the bots chose their role (Celtic
    Quest's advanced rules: keep one destiny of two; a draft) in some variants; None when every
    role was dealt."""
    chosen = decisions.chosen_roles(t.get("_mix"), word)
    if not chosen:
        return None
    keys = t["keys"]
    labels = [r["label"] for r in keys.iter_rows(named=True) if (r["run"], r["variant"]) in chosen]
    kinds = sorted({k for used in chosen.values() for k in used})
    if len(labels) == keys.height:
        where = "every variant"
    else:
        where = ("the variant " if len(labels) == 1 else "the variants ") + "; ".join(labels)
    dealt = "" if len(labels) == keys.height else f" Elsewhere the {word} is dealt at random."
    return (
        f"The {word} is chosen by the bot (decision {', '.join(kinds)}), not dealt, in {where}: "
        f"a {word}'s rate there mixes what the {word} is worth with when the bot picks it "
        f"(selection bias), so a gap between {wording.plural(word)}, or a difference from a "
        f"variant that deals them, is not a rule effect by itself.{dealt}"
    )


def chosen_differences_note(t: dict, word: str) -> str | None:
    """The differences section's note when some of its {word} rows compare a variant where the
    bot chooses its role (or against such a baseline): they carry the selection bias."""
    chosen = decisions.chosen_roles(t.get("_mix"), word)
    diff = t["variant_differences"]
    if not chosen or not diff.height:
        return None
    labels = {
        r["label"] for r in t["keys"].iter_rows(named=True) if (r["run"], r["variant"]) in chosen
    }
    rows = diff.filter(
        (pl.col("unit") == "role")
        & (pl.col("label").is_in(list(labels)) | pl.col("baseline").is_in(list(labels)))
    )
    if not rows.height:
        return None
    return (
        f"{rows.height} of the {word} differences involve a variant where the bot chooses its "
        f"{word} ({'; '.join(sorted(labels))}): they carry its selection bias (section "
        f"{wording.plural(word).capitalize()})."
    )
