"""The report of a `menhir screen`: which numbers move which output, which change nothing.

Writes ``report/screen.md`` and a self-contained ``report/screen.html`` (plots embedded, every
user text escaped), with ``morris_<k>.png``: per output, the levers ranked by mu* with their
bootstrap 95% intervals and the output's noise floor.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import polars as pl  # noqa: E402

from reports.outdir import write_atomically  # noqa: E402
from reports.plots import save  # noqa: E402
from reports.wording import counted  # noqa: E402

SHOWN = 15  # levers per chart and per table
LISTED = 40  # names listed in a sentence before "and N more"


def _names(names: list[str]) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:LISTED])
    return shown + (f" and {len(names) - LISTED} more" if len(names) > LISTED else "")


def _num(x) -> str:
    return "n/a" if x is None else f"{x:.3g}"


def explained(sobol: pl.DataFrame, output: str, share: float = 0.8) -> tuple[list[str], float]:
    """The fewest levers (by ST) whose complement's total indices sum to at most 1 - share.

    Sobol's closed index of a set A is at least 1 - sum of ST outside A, so A explains at
    least that share of the output's variance over the stage-2 design. Returns (levers, bound).
    """
    rows = sobol.filter((pl.col("output") == output) & pl.col("other").is_null())
    pairs = sorted(zip(rows["lever"], rows["ST"], strict=True), key=lambda x: (-x[1], x[0]))
    chosen, rest = [], sum(max(st, 0.0) for _, st in pairs)
    for lever, st in pairs:
        if 1 - rest >= share:
            break
        chosen.append(lever)
        rest -= max(st, 0.0)
    return chosen, max(0.0, 1 - rest)


def sentences(sc, morris: pl.DataFrame, sobol: pl.DataFrame) -> list[str]:
    """One sentence per output: how few numbers explain it, how many change nothing."""
    total = len(sc.levers)
    out = []
    for output in sc.outputs:
        rows = morris.filter(pl.col("output") == output)
        if rows.is_empty():
            out.append(f"- {output}: not analysed (missing at some point: too few games)")
            continue
        inert = rows.filter(pl.col("inert")).height
        moving = rows.filter(~pl.col("inert")).sort("rank")["lever"].to_list()
        nothing = f"{inert} {'changes' if inert == 1 else 'change'} nothing measurable"
        if not moving:
            none = f"none of {total} numbers moves" if total > 1 else "the one number does not move"
            out.append(f"- {none} {output} beyond noise.")
            continue
        chosen, share = explained(sobol, output)
        staged = set(sobol.filter(pl.col("output") == output)["lever"].to_list())
        if chosen and share >= 0.8 and set(moving) <= staged and set(chosen) <= set(moving):
            out.append(
                f"- {len(chosen)} of {total} numbers explain at least {share:.0%} of "
                f"{output}'s variance: {_names(chosen)}; {nothing}."
            )
            continue
        line = (
            f"- {len(moving)} of {total} numbers {'moves' if len(moving) == 1 else 'move'} "
            f"{output} beyond noise: "
            f"{_names(moving)}; {nothing}."
        )
        if chosen:  # stage 2 did not hold every lever that moves it: say what it covers
            line += (
                f" Of the stage-2 levers, {_names(chosen)} "
                f"{'explains' if len(chosen) == 1 else 'explain'} "
                f"at least {share:.0%} of its "
                "variance with the others at their printed values."
            )
        out.append(line)
    return out


def _lines(sc, morris: pl.DataFrame, sobol: pl.DataFrame, summary: dict) -> list[str]:
    pts = summary["points"]
    lines = [
        f"# Screen: {sc.game}, {sc.players} players, bots {sc.bots}",
        "",
        f"Bot level that played: **{sc.bots}**. A lever the bots do not play toward shows only "
        "its effect on the scoring, not what a player aware of it would make of it.",
        "",
        f"{summary['levers']} levers screened ({summary['candidates']} numbers named; "
        f"{counted(len(summary['notes']), 'note')} below). Cost: ({pts['morris']} Morris points + "
        f"{pts['sobol']} Sobol points) x {summary['games_per_point']:,} games = "
        f"{summary['games']:,} games, {summary['seconds']} s. Every point played the same "
        "seeds (common random numbers).",
        "",
        "## What matters",
        "",
        *sentences(sc, morris, sobol),
        "",
        f"Inert for every output ({len(summary['inert'])}): {_names(summary['inert']) or 'none'}.",
        "",
        "A lever is inert for an output when mu* minus its bootstrap 95% interval is at most "
        "the noise floor f = 2 s / (sqrt(pi) delta): the mean elementary effect that noise "
        "alone gives (s: the output's standard error at the games per point).",
        "",
        "## Stage 2: Sobol indices",
        "",
    ]
    singles = sobol.filter(pl.col("other").is_null())
    if singles.is_empty():
        lines += ["No Sobol stage: no lever moved an output beyond noise (or sobol_top = 0).", ""]
    else:
        lines += [
            f"Levers: {_names(summary['top'])} (the others at their printed values).",
            "",
            "| output | lever | S1 | ST | ST - S1 | interacts |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for r in singles.iter_rows(named=True):
            lines.append(
                f"| {r['output']} | `{r['lever']}` | {_num(r['S1'])} ± {_num(r['S1_conf'])} | "
                f"{_num(r['ST'])} ± {_num(r['ST_conf'])} | "
                f"{_num(r['gap'])} ± {_num(r['gap_conf'])} | {'yes' if r['interacts'] else ''} |"
            )
        pairs = sobol.filter(pl.col("other").is_not_null() & pl.col("interacts"))
        lines += ["", "Interacting pairs (second-order S2 beyond its interval, S2 >= 0.05):", ""]
        if pairs.is_empty():
            lines.append("- none found")
        for r in pairs.iter_rows(named=True):
            lines.append(
                f"- {r['output']}: `{r['lever']}` x `{r['other']}`, S2 = {_num(r['S2'])} ± "
                f"{_num(r['S2_conf'])}"
            )
        lines.append("")
    lines += ["## Stage 1: Morris, top levers per output", ""]
    for output in sc.outputs:
        rows = morris.filter(pl.col("output") == output).sort("rank").head(SHOWN)
        if rows.is_empty():
            continue
        lines += [
            f"### {output} (noise: s = {_num(rows['noise_se'][0])}, floor f = "
            f"{_num(rows['noise_floor'][0])})",
            "",
            "| rank | lever | mu* | mu | sigma | inert |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for r in rows.iter_rows(named=True):
            lines.append(
                f"| {r['rank']} | `{r['lever']}` | {_num(r['mu_star'])} ± "
                f"{_num(r['mu_star_conf'])} | {_num(r['mu'])} | {_num(r['sigma'])} | "
                f"{'inert' if r['inert'] else ''} |"
            )
        lines.append("")
    if summary["notes"]:
        lines += ["## Notes on the levers", "", *(f"- {n}" for n in summary["notes"]), ""]
    lines += [
        "Effects are per whole range: mu* is the mean absolute change of the output when the "
        "lever moves from its low to its high end. `morris.csv`, `sobol.csv` and "
        "`screen.parquet` (every point played) hold everything shown here.",
        "",
    ]
    return lines


def _chart(morris: pl.DataFrame, output: str, path: Path) -> None:
    rows = morris.filter(pl.col("output") == output).sort("rank").head(SHOWN)
    fig, ax = plt.subplots(figsize=(7, 0.35 * rows.height + 1.2))
    y = list(range(rows.height))[::-1]
    colours = ["#bbbbbb" if i else "#0173b2" for i in rows["inert"]]
    ax.barh(y, rows["mu_star"], xerr=rows["mu_star_conf"], color=colours, capsize=2)
    ax.set_yticks(y, [n if len(n) <= 40 else "…" + n[-39:] for n in rows["lever"]], fontsize=7)
    ax.axvline(rows["noise_floor"][0], color="#d55e00", linestyle="--", label="noise floor")
    ax.set_xlabel(f"mu* of {output} (bootstrap 95% interval; grey: inert)")
    ax.legend(fontsize=7)
    save(fig, path.parent, path.stem, [])


def _inline(text: str) -> str:
    escaped = html.escape(text)
    escaped = re.sub(r"`([^`]*)`", r"<code>\1</code>", escaped)
    return re.sub(r"\*\*([^*]*)\*\*", r"<b>\1</b>", escaped)


def markdown_to_html(lines: list[str]) -> str:
    """The shapes screen.md uses: headings, paragraphs, bullets, pipe tables (all escaped)."""
    out, table, bullets = [], [], []
    for line in [*lines, ""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not all(set(c) <= {"-", " "} for c in cells):
                table.append(cells)
            continue
        if table:
            head, *body = table
            out.append("<table><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in head) + "</tr>")
            for row in body:
                out.append("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>")
            out.append("</table>")
            table = []
        if line.startswith("- "):
            bullets.append(f"<li>{_inline(line[2:])}</li>")
            continue
        if bullets:
            out.append("<ul>" + "".join(bullets) + "</ul>")
            bullets = []
        heading = re.match(r"^(#{1,3}) (.*)$", line)
        if heading:
            level = len(heading[1])
            out.append(f"<h{level}>{_inline(heading[2])}</h{level}>")
        elif line.strip():
            out.append(f"<p>{_inline(line)}</p>")
    return "\n".join(out)


def write_screen_report(sc, out: Path, morris: pl.DataFrame, sobol: pl.DataFrame, summary) -> Path:
    """Write the report into ``out/report`` (atomically; only an earlier report is replaced)."""

    def write(tmp: Path) -> None:
        lines = _lines(sc, morris, sobol, summary)
        plots = []
        for k, output in enumerate(sc.outputs):
            if not morris.filter(pl.col("output") == output).is_empty():
                name = f"morris_{k}.png"
                _chart(morris, output, tmp / name)
                plots.append((output, name))
        md = [*lines, *(f"![mu* of {o}]({p})" for o, p in plots)]
        (tmp / "screen.md").write_text("\n".join(md) + "\n", encoding="utf-8")
        images = "".join(
            f"<figure><img alt='mu* of {html.escape(o, quote=True)}' src='data:image/png;base64,"
            f"{base64.b64encode((tmp / p).read_bytes()).decode()}'></figure>"
            for o, p in plots
        )
        style = (
            "body{font-family:sans-serif;max-width:60rem;margin:auto;padding:1rem}"
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem}"
            "img{max-width:100%}"
        )
        (tmp / "screen.html").write_text(
            "<!doctype html><html><head><meta charset='utf-8'><title>screen</title>"
            f"<style>{style}</style></head><body>{markdown_to_html(lines)}"
            f"<h2>Morris charts</h2>{images}</body></html>",
            encoding="utf-8",
        )

    return write_atomically(out / "report", [], write)
