"""A balance search's outcome: the recommended trial, its confirmation run and the verdict.

The recommendation is confirmed on fresh seeds (``confirm_seed``); ``verdict`` says in words
whether the target is met, met within noise, or not met and why the search stopped.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from experiments.balance_config import BalanceConfig
from experiments.balance_trials import WIN_DENOM, measured, scalar_column
from experiments.config import UserError


def recommend(bc: BalanceConfig, trials: pl.DataFrame) -> dict:
    """The trial to confirm: meets the tolerance with the fewest and smallest changes, else best."""
    rows = [r for r in trials.iter_rows(named=True) if r["feasible"] and r.get("repeat_of") is None]
    if not rows:
        raise UserError(f"{bc.source}: no lever values the search tried were allowed by the game")

    def changes(row):
        values = json.loads(row["values"])
        moved = [lv.change(values[lv.name]) for lv in bc.levers]
        return (sum(m > 0 for m in moved), sum(moved))

    met = [r for r in rows if r.get("worst", r["objective"]) <= bc.tolerance and not r["pruned"]]
    if met:
        return min(met, key=lambda r: (*changes(r), r["objective"], r["trial"]))
    return min(rows, key=lambda r: (r["objective"], *changes(r), r["trial"]))


def confirm_seed(seed: int) -> int:
    """A root seed the search never used (SplitMix64 step of the experiment seed)."""
    z = (seed + 0x9E3779B97F4A7C15) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    return (z ^ (z >> 31)) % 2**63


def confirmation_rates(bc: BalanceConfig, run_dir: Path) -> dict:
    """Every measured value of the confirmation run with its interval and wanted value; only
    ``counted`` ones are judged (one member of a group: only that member)."""
    from reports.load import listed_files

    manifest = json.loads((run_dir / "manifest.json").read_text())
    games = pl.read_parquet(listed_files(run_dir, manifest, "games"))
    players = pl.read_parquet(listed_files(run_dir, manifest, "players"))
    labels = {v["id"]: v["label"] for v in manifest["variants"]}
    out = {}
    for entry in manifest["variants"]:
        vid = entry["id"]
        variant = _ConfirmVariant(vid, entry["setup"]["players"])
        g = games.filter(pl.col("variant") == vid).sort("game")
        pl_ = players.filter(pl.col("variant") == vid).sort("game", "seat")
        if bc.goal.scalar:
            values = scalar_column(bc.goal.scalar, g, pl_)
            counts = {
                bc.goal.scalar: (int(values.sum()), int((values * values).sum()), values.len())
            }
        else:
            column = bc.goal.column
            agg = (
                pl_.filter(pl.col(column).is_not_null())
                .group_by(column)
                .agg(
                    (pl.col("win") * WIN_DENOM).round().cast(pl.Int64).sum().alias("wins"),
                    pl.len().alias("n"),
                )
            )
            counts = {str(k): (int(w), int(n)) for k, w, n in agg.iter_rows()}
        for key, value, lo, hi, want, counted in measured(bc.goal, variant, counts):
            who = key.split("/", 1)[1]
            who = who if len(labels) == 1 else f"{who} ({labels[vid]})"
            n = counts[bc.goal.scalar][2] if bc.goal.scalar else counts[key.split("/", 1)[1]][1]
            out[who] = {"rate": value, "low": lo, "high": hi, "fair": want, "n": n,
                        "counted": counted}  # fmt: skip
    return out


@dataclass(frozen=True)
class _ConfirmVariant:
    """The two fields of a Variant that ``measured`` reads, from a run's manifest."""

    id: str
    players: int

    @property
    def setup(self):
        return self


def show_rate(bc: BalanceConfig, r: dict) -> str:
    """A confirmed value with its interval: "26.1% [24.9%, 27.4%]" (a share) or "9.20 [...]"."""
    if bc.goal.unit == "share":
        return f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"
    return f"{r['rate']:.2f} [{r['low']:.2f}, {r['high']:.2f}]"


def wanted_words(bc: BalanceConfig, r: dict) -> str:
    """What the value should be: "fair 25.0% ± 2.0%" or "wanted 9.00 ± 0.5"."""
    want = f"{r['fair']:.1%}" if bc.goal.unit == "share" else f"{r['fair']:.2f}"
    tol = f"{bc.tolerance:.1%}" if bc.goal.unit == "share" else f"{bc.tolerance:g}"
    return f"{'fair' if bc.goal.group else 'wanted'} {want} ± {tol}"


def judge(bc: BalanceConfig, rates: dict) -> tuple[bool, bool]:
    """(sure, inside): every counted interval, or every counted value, inside the tolerance."""
    tol = bc.tolerance
    counted = [r for r in rates.values() if r.get("counted", True)]
    inside = all(abs(r["rate"] - r["fair"]) <= tol for r in counted)
    sure = all(r["fair"] - tol <= r["low"] and r["high"] <= r["fair"] + tol for r in counted)
    return sure, inside


def verdict(bc: BalanceConfig, rates: dict, values: dict, search: dict | None = None) -> str:
    """The verdict in words: met, met within noise, or not met and why the search stopped.

    ``search``: ``tried`` (distinct settings), ``size`` (settings the levers allow, inf with a
    float lever), ``stopped`` ("trials" | "budget" | "settled" | "exhausted").
    """
    sure, inside = judge(bc, rates)
    counted = {k: r for k, r in rates.items() if r.get("counted", True)}
    worst = max(counted.items(), key=lambda kv: abs(kv[1]["rate"] - kv[1]["fair"]))
    shown, wanted = show_rate(bc, worst[1]), wanted_words(bc, worst[1])
    about = f"{bc.goal.words()}: {worst[0]} {shown}, {wanted}"
    if sure:
        return f"target met ({about})"
    if inside:
        return f"target met within noise ({about})"
    shown = ", ".join(f"{k} = {json.dumps(v)}" for k, v in values.items())
    best = f"best found {shown}: {about}"
    search = search or {}
    tried, size = search.get("tried"), search.get("size")
    if tried is not None and size is not None and math.isfinite(size) and tried >= size:
        return f"target not reachable: every setting tried ({int(size)} settings); {best}"
    if tried is None:
        return f"target not reachable with these levers; {best}"
    why = {"trials": "max_trials spent", "budget": "budget_games spent"}.get(
        search.get("stopped"), "the search stopped"
    )
    of = f"{tried} of {int(size)} settings" if math.isfinite(size) else (
        f"{tried} distinct settings (continuous levers)"
    )  # fmt: skip
    return f"target not found in {of} tried ({why}); {best}"


def coarse_lever(bc: BalanceConfig, trials: pl.DataFrame, values: dict) -> str | None:
    """With one integer or choice lever: the two neighbouring settings between which the target
    lies, when neither meets it ("this lever is too coarse"), else None."""
    if len(bc.levers) != 1:
        return None
    lever = bc.levers[0]
    if not (lever.integer or lever.choices):
        return None
    order = list(lever.choices) if lever.choices else None
    rows = {}
    for r in trials.iter_rows(named=True):
        if r.get("repeat_of") is None and r["feasible"] and r["rates"] not in (None, "{}"):
            rows[r["values"]] = r

    def signed(value, key=None):
        """(key, value, wanted) of the worst counted quantity at a setting (or of ``key``)."""
        row = rows.get(json.dumps({lever.name: value}))
        if row is None:
            return None
        rates, wanted = json.loads(row["rates"]), json.loads(row.get("wanted") or "{}")
        keys = [k for k in rates if bc.goal.member is None or k.endswith(f"/{bc.goal.member}")]
        if bc.goal.scalar:
            keys = [k for k in rates if k.endswith(f"/{bc.goal.scalar}")]
        if key is not None:
            keys = [k for k in keys if k == key]
        if not keys or not wanted:
            return None
        key = max(keys, key=lambda k: abs(rates[k][0] - wanted[k]))
        return key, rates[key][0], wanted[key]

    best = values[lever.name]
    if order is not None:
        i = order.index(best)
        neighbours = [order[j] for j in (i - 1, i + 1) if 0 <= j < len(order)]
    else:
        neighbours = [v for v in (best - 1, best + 1) if lever.low <= v <= lever.high]
    here = signed(best)
    if here is None:
        return None
    for other in neighbours:
        there = signed(other, here[0])
        if there is None:
            continue
        (_, a, want), (_, b, _) = here, there
        if (a - want) * (b - want) < 0 and abs(b - want) > bc.tolerance:
            fmt = "{:.1%}" if bc.goal.unit == "share" else "{:.2f}"
            who = here[0].split("/", 1)[1]
            lo, hi = sorted([(best, a), (other, b)], key=lambda t: json.dumps(t[0]))
            return (
                f"this lever is too coarse: {lever.name} = {json.dumps(lo[0])} gives {who} "
                f"{fmt.format(lo[1])} and {json.dumps(hi[0])} gives {fmt.format(hi[1])} "
                f"(wanted {fmt.format(want)}): the target lies between two settings"
            )
    return None
