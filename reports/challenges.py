"""The report's "Would a better player change it?" section: the verdicts of `menhir challenge`.

`menhir report RUN --challenge DIR` reads ``DIR/challenge.json`` (one or more targets) and puts
each target's verdict beside the findings it tests: the default and the tuned win rate with
their intervals, and the bot parameters that moved. A challenge of another game is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from reports.load import ReportError

RESULT = "challenge.json"


def read_challenges(folders, game: str) -> pl.DataFrame:
    """One row per challenged target of every folder; one-line ReportError when unreadable."""
    rows = []
    for folder in folders:
        path = Path(folder) / RESULT
        try:
            result = json.loads(path.read_text())
            targets = result["targets"]
        except FileNotFoundError:
            raise ReportError(f"{path}: missing (not a menhir challenge folder)") from None
        except (OSError, ValueError, KeyError, TypeError):
            raise ReportError(f"{path}: corrupt (not the challenge.json menhir writes)") from None
        if result.get("game") != game:
            raise ReportError(
                f"{path}: a challenge of {result.get('game')}, not of this run's game {game}"
            )
        for name, t in targets.items():
            default, tuned = t.get("default") or {}, t.get("tuned") or {}
            moved = ", ".join(
                f"{k} {v['default']:g} -> {v['tuned']:.3g}"
                for k, v in (t.get("moved") or {}).items()
            )
            rows.append(
                {
                    "target": str(name),
                    "direction": t.get("direction"),
                    "holds": t.get("holds"),
                    "default_rate": default.get("rate"),
                    "tuned_rate": tuned.get("rate"),
                    "tuned_low": tuned.get("low"),
                    "tuned_high": tuned.get("high"),
                    "games": t.get("games"),
                    "moved": moved or None,
                    "verdict": t.get("verdict"),
                    "folder": str(folder),
                }
            )
    return pl.DataFrame(rows, infer_schema_length=None)


def section_lines(table: pl.DataFrame) -> list[str]:
    """Markdown of the section: a title, then one bullet per target."""
    if table is None or not table.height:
        return []
    lines = [
        "## Would a better player change it?",
        "",
        "`menhir challenge` tuned the bot of each target (or, for a strong target, its "
        "opponents' bots) and confirmed the best policy on fresh seeds. A tuned greedy is a "
        "better player, not the best one: a finding that holds is stronger, not proven.",
        "",
    ]
    for r in table.iter_rows(named=True):
        lines.append(f"- **{r['target']}**: {r['verdict']}")
    return [*lines, ""]
