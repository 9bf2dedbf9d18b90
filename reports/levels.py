"""Is it the game or the bot? Findings checked across bot levels.

A run that sweeps ``bots`` (``bots = ["greedy", "search:rollouts=32"]``) plays the same setup at
several levels. For every role (and the first seat) whose win rate is significantly off its fair
share at some level, this module says whether the finding

- holds at every level (the same direction everywhere, intervals of similar size),
- holds with a different size (same direction, intervals of the deviation do not overlap),
- vanishes at some level (significant at one level, not at another), or
- flips (significant in opposite directions),
- is not called (not significant at a level whose interval also holds a significant level's
  rate: too few games there to tell),

and flags the last two as depending on the bot (a size that changes is shown, not flagged).
Variants are matched on everything they sweep except the bots (and on the run). A variant whose
seats play different bots is a mixed game: the win share of each bot there, against its fair
share, measures skill expression.
Only role and seat findings are checked across levels, not variant-vs-variant differences.
"""

from __future__ import annotations

import json

import polars as pl

from reports.load import Run

ROBUST = "holds at every level"
SIZE = "holds at every level with a different size"
VANISHES = "vanishes at some level"
FLIPS = "flips between levels"
TOO_FEW = "not called: too few games at"


def variant_levels(runs: list[Run]) -> pl.DataFrame:
    """(run, variant, level, context): a level is the one bot every seat plays (else null).

    With several runs (`menhir report A B`), variants are matched across runs on every setting
    that differs between them except the bots (reports/axes.py), so runs that differ only by
    bot level are one level sweep; `run` is then empty (the runs are pooled by context).
    """
    from reports.axes import variant_values

    several = len(runs) > 1
    values = variant_values(runs) if several else {}
    rows = []
    for run in runs:
        for v in run.manifest.get("variants") or []:
            bots = (v.get("setup") or {}).get("bots") or []
            names = {str(b) for b in bots}
            swept = {k: x for k, x in (v.get("swept") or {}).items() if k != "bots"}
            if several:
                swept = {
                    k: x
                    for k, x in values.get((run.name, str(v.get("id"))), {}).items()
                    if k != "bots"
                }
            rows.append(
                {
                    "run": "" if several else run.name,
                    "source_run": run.name,
                    "variant": v.get("id"),
                    "level": names.pop() if len(names) == 1 else None,
                    "context": json.dumps(swept, sort_keys=True, default=str),
                }
            )
    schema = {
        "run": pl.String,
        "source_run": pl.String,
        "variant": pl.String,
        "level": pl.String,
        "context": pl.String,
    }
    return pl.DataFrame(rows, schema=schema)


def _verdict(rows: list[dict]) -> str | None:
    """Classify one unit's finding from its rows (one per level); None if never significant."""
    sig = [r for r in rows if r["p_holm_significant"]]
    if not sig:
        return None
    signs = {1 if r["win_rate"] > r["fair"] else -1 for r in sig}
    if len(signs) > 1:
        return FLIPS
    if len(sig) < len(rows):
        # a level whose interval holds both the fair share and a significant level's rate has
        # too few games to say the finding vanishes there
        rates = [r["win_rate"] for r in sig]
        unsure = [
            r
            for r in rows
            if not r["p_holm_significant"] and any(r["ci_low"] <= x <= r["ci_high"] for x in rates)
        ]
        if unsure:
            return f"{TOO_FEW} {', '.join(str(r['level']) for r in unsure)} to call it"
        return VANISHES
    sign = signs.pop()
    # the deviation's interval at each level, oriented so that positive = the finding's side
    lows = [sign * (r["ci_low" if sign > 0 else "ci_high"] - r["fair"]) for r in rows]
    highs = [sign * (r["ci_high" if sign > 0 else "ci_low"] - r["fair"]) for r in rows]
    return ROBUST if max(lows) <= min(highs) else SIZE


def across_levels(t: dict, levels: pl.DataFrame, word: str) -> pl.DataFrame:
    """One row per (context, unit, who) found off its fair share at some level."""
    plain = levels.filter(pl.col("level").is_not_null())
    if plain["level"].n_unique() < 2:
        return pl.DataFrame()
    tables = [("role", t["win_by_role"], "role"), ("seat", t["win_by_seat"], "seat")]
    out = []
    for unit, table, col in tables:
        if not table.height:
            continue
        if unit == "seat":
            table = table.filter(pl.col("seat") == 0)
        joined = (
            table.rename({"run": "source_run"})
            .join(plain, on=["source_run", "variant"], how="inner")
            .filter(pl.col("fair").is_not_null())
        )
        for (run, context, who), part in joined.group_by(
            ["run", "context", col], maintain_order=True
        ):
            rows = part.sort("order").to_dicts()
            if len({r["level"] for r in rows}) < 2:
                continue
            verdict = _verdict(rows)
            if verdict is None:
                continue
            top = rows[-2:]  # the last two levels listed: the strongest, listed weakest first
            top_verdict = _verdict(top)
            # each level at its own game count (never cut to the smallest)
            sizes = "; ".join(
                f"{r['level']}: {r['win_rate']:.1%} [{r['ci_low']:.1%}, {r['ci_high']:.1%}]"
                + ("*" if r["p_holm_significant"] else "")
                + f" ({r['n']:,} plays)"
                for r in rows
            )
            out.append(
                {
                    "run": run,
                    "context": context,
                    "unit": word if unit == "role" else "seat",
                    "who": str(who),
                    "fair": rows[0]["fair"],
                    "verdict": verdict,
                    "bot_dependent": verdict in (VANISHES, FLIPS),
                    "levels": len({r["level"] for r in rows}),
                    "strongest_levels": " vs ".join(r["level"] for r in top),
                    "holds_at_strongest": top_verdict in (ROBUST, SIZE),
                    "by_level": sizes,
                }
            )
    return pl.DataFrame(out) if out else pl.DataFrame()


def skill_expression(mix_players: pl.DataFrame) -> pl.DataFrame:
    """Win share of each bot in mixed games (seats with different bots), against fair."""
    if not mix_players.height:
        return pl.DataFrame()
    return mix_players.sort("win_rate", descending=True)


def summary_lines(table: pl.DataFrame) -> list[str]:
    """The "Across bot levels" section, robust findings first."""
    if not table.height:
        return []
    lines = ["## Across bot levels", ""]
    unsure = pl.col("verdict").str.starts_with(TOO_FEW)
    robust = table.filter(~pl.col("bot_dependent") & ~unsure)
    dependent = table.filter(pl.col("bot_dependent"))
    not_called = table.filter(unsure)
    if robust.height:
        names = ", ".join(_who(r) for r in robust.iter_rows(named=True))
        lines.append(f"Robust (off its fair share, same side, at every bot level): {names}.")
    if not_called.height:
        names = ", ".join(_who(r) for r in not_called.iter_rows(named=True))
        lines.append(
            f"Not called (significant at one level; another level has too few games to tell "
            f"whether it holds there): {names}."
        )
    if dependent.height:
        names = ", ".join(_who(r) for r in dependent.iter_rows(named=True))
        lines.append(f"Depends on the bot: {names}.")
        top = dependent.filter(pl.col("holds_at_strongest"))
        if top.height:
            levels = top["strongest_levels"][0]
            names = ", ".join(_who(r) for r in top.iter_rows(named=True))
            lines.append(
                f"Of these, the same at the two strongest levels ({levels}, the last two listed): "
                f"{names}."
            )
    lines.append("")
    for r in table.iter_rows(named=True):
        flag = "BOT-DEPENDENT: " if r["bot_dependent"] else ""
        lines.append(
            f"- {flag}{r['unit']} {r['who']}{_context_text(r['context'])} {r['verdict']} "
            f"(fair {r['fair']:.0%}; {r['by_level']}; * = significant after Holm)"
        )
    lines.append("")
    return lines


def headline(table: pl.DataFrame) -> list[str]:
    """The summary's first words on robustness, when the run sweeps bot levels."""
    if not table.height:
        return []
    unsure = table.filter(pl.col("verdict").str.starts_with(TOO_FEW)).height
    dependent = table.filter(pl.col("bot_dependent")).height
    robust = table.height - unsure - dependent
    top = table.filter(pl.col("holds_at_strongest")).height
    # with two levels, the two strongest are every level: said once
    strongest = (
        f"; {top} hold between the two strongest levels ({table['strongest_levels'][0]})"
        if table["levels"].max() > 2
        else f" ({table['strongest_levels'][0]})"
    )
    parts = [f"{robust} of {table.height} findings hold at every level{strongest}"]
    parts.append(f"{dependent} depend on the bot")
    if unsure:
        parts.append(f"{unsure} not called (too few games at a level)")
    return [f"Across bot levels: {'; '.join(parts)} (section 'Across bot levels').", ""]


def _who(r: dict) -> str:
    return f"{r['unit']} {r['who']}{_context_text(r['context'])}"


def _context_text(context: str) -> str:
    """The settings the level comparison holds fixed, in words: ' (advanced true)'."""
    from reports.axes import swept_words

    values = json.loads(context)
    return f" ({swept_words(values)})" if values else ""
