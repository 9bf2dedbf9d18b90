"""The report of a `menhir balance` search: the fix beside the printed values, before and after.

Writes ``report/balance.md``, a self-contained ``report/balance.html`` (plots embedded),
``search_path.png`` (the objective against games spent), ``lever_effects.png`` (each targeted
win rate against each lever's value, from the trials) and ``before_after.png``.
"""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import polars as pl  # noqa: E402
import seaborn as sns  # noqa: E402

from reports.outdir import write_atomically  # noqa: E402
from reports.plots import save  # noqa: E402

PCT = "{:.1%}"


def _before(trials: pl.DataFrame) -> dict:
    """Win rates of the printed values (the first trial when it was the printed one)."""
    first = trials.filter(pl.col("trial") == 0)
    if first.is_empty() or not first["feasible"][0]:
        return {}
    return json.loads(first["rates"][0] or "{}")


def _group(key: str) -> str:
    return key.split("/", 1)[1]


def _fmt(rec: dict, value: float) -> str:
    """A share as a percentage, any other scalar (rounds, a score margin) as a number."""
    return f"{value:.1%}" if rec.get("unit", "share") == "share" else f"{value:.2f}"


def _lines(bc, trials: pl.DataFrame, rec: dict) -> list[str]:
    dump = json.dumps
    if rec.get("unit", "share") == "share":
        goal = f"within ±{bc.tolerance:.1%} of the fair share"
    else:
        goal = f"within ±{bc.tolerance:g} of the wanted value"
    lines = [
        f"# Balance: {bc.game}, target {rec.get('target_words', bc.target)} {goal}",
        "",
        f"**Verdict: {rec['verdict']}.**",
        "",
        "| lever | printed | recommended |",
        "| --- | --- | --- |",
    ]
    for name, value in rec["levers"].items():
        lines.append(f"| `{name}` | {dump(rec['printed'][name])} | {dump(value)} |")
    lines += [
        "",
        f"The search played {rec['games']:,} games in {rec['trials']} trials "
        f"({rec['seconds']} s in all); the recommendation was confirmed on "
        f"{rec['confirmation_games']:,} games per variant on fresh seeds the search never used.",
        "",
        f"| who | {'fair' if rec.get('unit', 'share') == 'share' else 'wanted'} "
        "| before (printed values, search) | after (confirmation) |",
        "| --- | --- | --- | --- |",
    ]
    before = _before(trials)
    by_group = {_group(k): v for k, v in before.items()} if len(before) else {}
    for who, r in rec["win_rates"].items():
        b = by_group.get(who)
        f = lambda v: _fmt(rec, v)  # noqa: E731
        shown = f"{f(b[0])} [{f(b[1])}, {f(b[2])}]" if b else "n/a"
        after = f"{f(r['rate'])} [{f(r['low'])}, {f(r['high'])}]"
        lines.append(f"| {who} | {f(rec['fair'][who])} | {shown} | {after} |")
    lines += [
        "",
        "Intervals are Wilson 95%. A shared win counts 1/k for each of k tied winners. "
        "`trials.parquet` holds every trial (lever values, games, objective with its interval); "
        "`confirm/` is an ordinary run directory (`menhir report` reads it).",
        "",
    ]
    return lines


def _fresh(trials: pl.DataFrame) -> pl.DataFrame:
    """Trials that played games (not a setting the sampler proposed again)."""
    if "repeat_of" in trials.columns:
        trials = trials.filter(pl.col("repeat_of").is_null())
    return trials.filter(pl.col("feasible"))


def _search_path(trials: pl.DataFrame, tolerance: float, path: Path) -> None:
    t = _fresh(trials).sort("trial")
    fig, ax = plt.subplots(figsize=(7, 3.6))
    x = t["games_spent"].to_list()
    ax.errorbar(
        x,
        t["objective"].to_list(),
        yerr=[
            (t["objective"] - t["objective_low"]).clip(lower_bound=0).to_list(),
            (t["objective_high"] - t["objective"]).clip(lower_bound=0).to_list(),
        ],
        fmt="o",
        ms=4,
        alpha=0.7,
        label="trial (worst deviation, 95%)",
    )
    best = t["objective"].cum_min().to_list()
    ax.step(x, best, where="post", color="black", label="best so far")
    ax.axhline(tolerance, color="red", ls="--", label="tolerance")
    ax.set_xlabel("games spent")
    ax.set_ylabel("worst |win rate - fair|")
    ax.legend(fontsize=8)
    ax.set_title("Search path: the worst imbalance of each trial")
    save(fig, path.parent, path.stem, [])


def _lever_effects(bc, trials: pl.DataFrame, path: Path) -> None:
    t = _fresh(trials).filter(pl.col("rates") != "{}")
    rows = []
    for r in t.iter_rows(named=True):
        values = json.loads(r["values"])
        for key, (rate, _, _) in json.loads(r["rates"]).items():
            for lever in bc.levers:
                v = values[lever.name]
                x = v if not lever.choices else lever.choices.index(v)
                rows.append({"lever": lever.name, "x": x, "who": _group(key), "rate": rate})
    fig, axes = plt.subplots(1, len(bc.levers), figsize=(5 * len(bc.levers), 3.6), squeeze=False)
    frame = pl.DataFrame(rows) if rows else None
    for ax, lever in zip(axes[0], bc.levers, strict=True):
        if frame is not None:
            part = frame.filter(pl.col("lever") == lever.name).to_pandas()
            sns.scatterplot(data=part, x="x", y="rate", hue="who", ax=ax, s=25)
        ax.set_xlabel(lever.name + (" (choice index)" if lever.choices else ""))
        ax.set_ylabel("win rate")
        ax.legend(fontsize=7)
    fig.suptitle("Each lever's effect on the targeted win rates (from the trials)")
    save(fig, path.parent, path.stem, [])


def _bars(rate: float, low: float, high: float) -> list[list[float]]:
    """Error-bar lengths, never negative (a bound at 0 or 1 can sit a rounding error past)."""
    return [[max(0.0, rate - low)], [max(0.0, high - rate)]]


def _before_after(trials: pl.DataFrame, rec: dict, path: Path) -> None:
    before = {_group(k): v for k, v in _before(trials).items()}
    whos = list(rec["win_rates"])
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * len(whos)))
    for i, who in enumerate(whos):
        a = rec["win_rates"][who]
        ax.errorbar(a["rate"], i + 0.15, xerr=_bars(a["rate"], a["low"], a["high"]),
                    fmt="o", color="C1", label="after" if i == 0 else None)  # fmt: skip
        if who in before:
            r, lo, hi = before[who]
            ax.errorbar(r, i - 0.15, xerr=_bars(r, lo, hi), fmt="o", color="C0",
                        label="before" if i == 0 else None)  # fmt: skip
        fair = rec["fair"][who]
        ax.plot([fair - rec["tolerance"], fair + rec["tolerance"]], [i, i], color="grey", lw=6,
                alpha=0.3)  # fmt: skip
    ax.set_yticks(range(len(whos)), whos)
    ax.set_xlabel("win rate (grey: fair share ± tolerance)")
    ax.legend(fontsize=8)
    save(fig, path.parent, path.stem, [])


def _markdown_to_html(lines: list[str]) -> str:
    """The few shapes balance.md uses: a title, paragraphs, bold verdict, pipe tables."""
    out, table = [], []
    for line in [*lines, ""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not all(set(c) <= {"-", " "} for c in cells):
                table.append(cells)
            continue
        if table:
            head, *body = table
            out.append("<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in head))
            for row in body:
                out.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>")
            out.append("</table>")
            table = []
        if line.startswith("# "):
            out.append(f"<h1>{html.escape(line[2:])}</h1>")
        elif line.strip():
            text = html.escape(line).replace("**", "")
            out.append(f"<p>{text}</p>")
    return "\n".join(out)


def write_balance_report(bc, out: Path, trials: pl.DataFrame, rec: dict) -> Path:
    """Write the report into ``out/report`` (atomically; only an earlier report is replaced)."""

    def write(tmp: Path) -> None:
        lines = _lines(bc, trials, rec)
        plots = ["before_after.png", "search_path.png", "lever_effects.png"]
        _before_after(trials, rec, tmp / plots[0])
        _search_path(trials, bc.tolerance, tmp / plots[1])
        _lever_effects(bc, trials, tmp / plots[2])
        (tmp / "balance.md").write_text("\n".join([*lines, *(f"![{p}]({p})" for p in plots)]))
        images = "".join(
            f"<img alt='{p}' src='data:image/png;base64,"
            f"{base64.b64encode((tmp / p).read_bytes()).decode()}'>"
            for p in plots
        )
        style = (
            "body{font-family:sans-serif;max-width:60rem;margin:auto;padding:1rem}"
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem}"
            "img{max-width:100%}"
        )
        (tmp / "balance.html").write_text(
            f"<!doctype html><html><head><meta charset='utf-8'><title>balance</title>"
            f"<style>{style}</style></head><body>{_markdown_to_html(lines)}{images}"
            "</body></html>"
        )

    return write_atomically(out / "report", [], write)
