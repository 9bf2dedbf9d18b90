"""The report as a page: its headline, context and sections, for summary.md and report.html.

`build_page` orders the memo's headline (memo.py), the context lines and the findings
(findings.py) into sections, each with its display table and the figures that belong to it
with a one-line caption; render.py prints the page as Markdown and as HTML.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from reports import findings, levels, memo, render, wording
from reports.figures import numeric
from reports.load import Run


def summary_text(runs: list[Run], t: dict, bots: str) -> str:
    """summary.md: the headline, then the sections of the report as Markdown."""
    return render.markdown(build_page(runs, t, bots, None))


_CSV_FILES = [
    ("win_by_role.csv", "win rate of each role per variant, Wilson interval, test against fair"),
    ("win_by_role_side.csv", "the same per role and side"),
    ("win_by_seat.csv", "win rate of each seat per variant"),
    ("variant_differences.csv", "every variant minus its baseline, per role and seat 0"),
    ("pairwise.csv", "every pair of roles and of seats, told apart or not, games needed"),
    ("balance.csv", "spread, first-seat advantage, length and caps per variant"),
    ("chi_square.csv", "chi-square tests across variants"),
    ("stalemates.csv", "stalemates and capped games per variant"),
    ("game_length.csv", "mean rounds and turns per variant"),
    ("end_reasons.csv", "how games end, per variant"),
    ("everybody_lost.csv", "games nobody won (a collective defeat) per variant, Wilson interval"),
    (
        "everybody_lost_differences.csv",
        "the share of games nobody won, each variant minus its baseline (paired where possible)",
    ),
    ("score_components.csv", "mean points of each scoring component"),
    ("decision_mix.csv", "mean decisions of each kind per game"),
    ("same_decisions.csv", "paired variants: games where the bots decided as in the baseline"),
    ("across_levels.csv", "findings checked across bot levels"),
    ("skill_in_mixed_games.csv", "each bot's win share in mixed games"),
]

_CAPTIONS = {
    "win_by_role_sweep": "One line per {word} against {param}, with its 95% band: a line that "
    "climbs or falls is what the parameter changes; flat lines it does not.",
    "win_by_role": "Win rate by {word}, one bar per variant with its 95% interval: bars far "
    "from the dashed fair-share line are the imbalance.",
    "everybody_lost_sweep": "Share of games nobody won (a shared defeat) against {param}, with its "
    "95% band: a line that climbs is a game the parameter makes harder.",
    "role_seat_heatmap": "Win rate by {word} and seat, one panel per player count: a row or "
    "column much "
    "lighter or darker than the rest is a {word} or seat effect.",
    "win_by_seat": "Win rate by seat: a bar above the dashed fair-share line is a seat advantage.",
    "win_by_seat_sweep": "One line per seat against {param}, with its 95% band: lines apart are "
    "a seat effect, lines that move are what the parameter does to it.",
    "variant_differences": "Variant vs baseline, one colour per variant: a dot is the change in "
    "points, right of zero helps that {word} or seat; its bar is its own 95% interval (not "
    "simultaneous, so a bar can clear zero without a star); a star is significant after Holm "
    "over every comparison.",
    "pairwise_heatmap": "Row minus column win rate for every pair, strongest first: strong "
    "colours are big gaps, * marks pairs told apart.",
    "balance": "Left: strongest minus weakest {word}; right: the first seat's edge over its "
    "fair share, with its interval.",
    "game_length": "Game length in rounds: a long tail or a second peak points to a stalling rule.",
    "end_reasons": "How games end: any share ended by a cap or a stalemate is a rule hole to "
    "look at.",
    "score_distribution": "Final scores (box: middle half, whiskers: 5th to 95th percentile): "
    "boxes apart mean scores differ, not only wins.",
    "score_components": "Where the points come from: a colour missing for one {group} is a "
    "scoring rule it never uses.",
    "decision_mix": "Decision mix: a dark column is a decision nobody takes, a rule the bots "
    "never use.",
}


def _figures(names: list[str], out: Path | None, word: str, param, group: str) -> list:
    shown = []
    for name in names:
        if out is None or (out / f"{name}.png").exists():
            caption = _CAPTIONS[name].format(word=word, param=param, group=group)
            shown.append((name, caption))
    return shown


def sides_chosen(sides: pl.DataFrame) -> bool:
    """Whether a role is played on more than one side (Celtae's leaders, side A or B): a table by
    side then says something the role table does not. In Troy the side is the decision card
    itself, one side per role, and that table would repeat the role table."""
    if not sides.height:
        return False
    per_role = sides.group_by("role").agg(pl.col("side").drop_nulls().n_unique().alias("n"))
    return per_role["n"].max() > 1


def none_significant(comparisons: int, methods: str) -> str:
    """The line of a run whose comparisons with the baseline are none significant."""
    if comparisons == 1:
        return f"- the one comparison is not significant ({methods})."
    return f"- none of {comparisons} comparisons is significant after Holm ({methods})."


def build_page(runs: list[Run], t: dict, bots: str, out: Path | None) -> render.Page:
    """The report as a page: headline, context, then sections (tables and their plots)."""
    info, bal, diff = t["info"], t["balance"], t["variant_differences"]
    meta = t["_meta"].row(0, named=True)
    word, group, param = meta.get("word") or "role", meta["group"], meta["param"]
    solo_only = t["win_by_seat"]["fair"].null_count() == t["win_by_seat"].height
    paired = ", ".join(f"{r.name}: {r.manifest.get('paired')}" for r in runs)
    game_ids = dict.fromkeys(str(r.manifest.get("game")) for r in runs)
    holes = findings.rule_hole_lines(t, word, runs)
    n_holes = sum(x.startswith("- ") and "not a rule hole" not in x for x in holes)
    stalemates = findings.stalemate_lines(bal)
    unfinished = findings.incomplete_lines(runs)
    played = wording.count(info["games"].sum())
    context = [
        *([*unfinished, ""] if unfinished else []),
        *([*stalemates, ""] if stalemates else []),
        f"Game `{'`, `'.join(game_ids)}`; bots: {bots}; {played} games; "
        f"common random numbers: {paired}. {findings.baseline_text(t['keys'], diff)}",
        "",
        f"Win rates are wins per game played by that {word} or seat; a win shared by k players "
        "counts 1/k to each.",
        "",
        *findings.everybody_lost_lines(t),
        *levels.headline(t.get("across_levels", pl.DataFrame())),
    ]
    fig = lambda names: _figures(names, out, word, param, group)  # noqa: E731
    far = memo.far_flags(t, word)
    sections = [
        render.Section(
            "flags",
            "Flags",
            far + findings.flags(t, word)
            or [f"- none: no safety-cap ends, no {word} or seat always/never wins."],
        )
    ]
    marks = (
        f"{wording.SIG} significant after Holm against the fair share, "
        f"{wording.SIG}{wording.FAR} also outside {wording.FAR_BAND[0]}x to "
        f"{wording.FAR_BAND[1]}x of it (a flag)."
    )
    rates_text = (
        "Reaching the solo target: share of games, 95% Wilson interval."
        if solo_only
        else f"Wins per game played, 95% Wilson interval; {marks}"
    )
    if not solo_only and t["win_by_seat"]["fair"].null_count():
        rates_text += " In solo variants: the share of games reaching the solo target."
    chosen = findings.chosen_note(t, word)
    if t["win_by_role"].height:
        sweep = "win_by_role_sweep" if numeric(t["_sweep"], param) else None
        sections.append(
            render.Section(
                "roles",
                wording.plural(word).capitalize(),
                [f"Win rate by {word}. {rates_text}", *([chosen] if chosen else [])],
                memo.rate_table(t["win_by_role"], "role", wording.pretty).rename(
                    columns={"": word}
                ),
                images=fig([sweep or "win_by_role", "role_seat_heatmap"]),
            )
        )
    sides = t["win_by_role_side"]
    if sides_chosen(sides):
        both = sides.with_columns(
            (pl.col("role") + pl.lit(", side ") + pl.col("side")).alias("role_side")
        )
        sections.append(
            render.Section(
                "sides",
                f"{wording.plural(word).capitalize()} by side",
                [
                    f"Win rate by {word} and side. {rates_text} The side is chosen by the bot, "
                    "not dealt: a side's rate mixes what the side is worth with when the bot "
                    "picks it (selection bias), so a gap between sides is not a rule effect by "
                    "itself."
                ],
                memo.rate_table(both, "role_side", str).rename(columns={"": f"{word}, side"}),
            )
        )
    sections.append(
        render.Section(
            "seats",
            "Seats",
            [f"Win rate by seat (seat 0 plays first). {rates_text}"],
            memo.rate_table(t["win_by_seat"], "seat", lambda s: f"seat {s}").rename(
                columns={"": "seat"}
            ),
            images=fig(
                ["win_by_seat_sweep" if numeric(t["_seat_sweep"], param) else "win_by_seat"]
                + ["everybody_lost_sweep"]
            ),
        )
    )
    if diff.height:
        # a forest plot of many variants is unreadable: the table and the sweep plot say it
        forest = ["variant_differences"] if diff["label"].n_unique() <= 6 else []
        sig = diff.filter(pl.col("significant"))
        methods = ", ".join(sorted(set(diff["method"])))
        if sig.height:
            bases = ", ".join(diff["baseline"].unique(maintain_order=True).to_list())
            if "axis" in diff.columns:
                bases = "one setting at a time, the others held fixed"
            text = [
                f"Win-rate change from the baseline ({bases}) in points, 95% interval "
                f"({methods}); {wording.SIG} significant after Holm over all {diff.height} "
                f"comparisons (smallest p {wording.p_is(sig['p_holm'].min())}). Only variants "
                "with a significant change are shown; `variant_differences.csv` has them all."
            ]
            table = memo.difference_table(diff, word)
        else:
            text = [none_significant(diff.height, methods)]
            table = None
        biased = findings.chosen_differences_note(t, word)
        if biased:
            text.append(biased)
        sections.append(
            render.Section(
                "differences",
                "Significant differences from the baseline",
                text,
                table,
                images=fig(forest),
            )
        )
    pair_lines = findings.pairwise_lines(t, word)
    if pair_lines:
        sections.append(
            render.Section(
                "pairwise", pair_lines[0][3:], pair_lines[2:], images=fig(["pairwise_heatmap"])
            )
        )
    spread_note = (
        f"The {word} spread is the strongest minus the weakest {word}; max minus min of noisy "
        "rates is biased upward, and its interval allows for it. "
        if group == "role"
        else ""  # a game without roles has no spread column: no note for it
    )
    seat_note = "" if solo_only else "First-seat advantage: seat 0's win rate minus its fair share."
    sections.append(
        render.Section(
            "balance",
            "Balance per variant",
            [(spread_note + seat_note).strip()],
            memo.balance_table(bal, word),
            images=fig(["balance", "game_length", "end_reasons"]),
        )
    )
    chi = t["chi_square"]
    if chi.height:
        sections.append(
            render.Section(
                "chi-square",
                "Chi-square tests across variants",
                [findings.chi_line(r) for r in chi.iter_rows(named=True)],
            )
        )
    if holes:
        sections.append(
            render.Section("rule-holes", holes[0][3:], holes[2:], images=fig(["decision_mix"]))
        )
    elif out is not None and (out / "decision_mix.png").exists():
        sections.append(
            render.Section("decisions", "What the players did", images=fig(["decision_mix"]))
        )
    lv = levels.summary_lines(t.get("across_levels", pl.DataFrame()))
    if lv:
        sections.append(render.Section("across-levels", lv[0][3:], lv[2:]))
    skill = findings.skill_lines(t)
    if skill:
        sections.append(render.Section("skill", skill[0][3:], skill[2:]))
    if "challenges" in t:
        from reports.challenges import section_lines

        tried = section_lines(t["challenges"])
        if tried:
            sections.append(render.Section("challenges", tried[0][3:], tried[2:]))
    sections.append(
        render.Section("scores", "Scores", images=fig(["score_distribution", "score_components"]))
    )
    files = [(n, w) for n, w in _CSV_FILES if out is None or (out / n).exists()]
    return render.Page(
        title=f"menhir report: {', '.join(r.name for r in runs)}",
        headline=memo.headline(t, word, group, param, n_holes),
        context=context,
        sections=sections,
        files=files,
    )
