"""Several swept axes: every effect read along one axis with the others held fixed.

A run that sweeps more than one setting (``players = [3, 4]`` and
``"roles.trusted.rp_as_vp" = [1, 2]``, grid) has variants that differ by one axis and variants
that differ by several. A difference between two variants that differ by several axes mixes
their effects, so here each variant is compared with the variant that has the same values on
every other axis (its *stratum*, e.g. "4 players") and the first value of the axis read
(``rp_as_vp 1 -> 2``). The player count is never an axis read this way: fair shares change
with it, so it is always part of the stratum (no pooling across player counts).

An *interaction* is named when an axis's effect on a role differs between two strata: their
95% intervals do not overlap.
"""

from __future__ import annotations

import json

import polars as pl

# reports.load imports this module (variant labels), so nothing is imported back from it.
KEY = ["run", "variant"]  # as reports.load.KEY: a (run, variant) pair names a variant

PLAYERS = "players"


def _flat_setup(v: dict) -> dict:
    """A variant's setup as one level of settings: players, bots, roles, params, data."""
    setup = v.get("setup") if isinstance(v.get("setup"), dict) else {}
    out = {}
    for k, x in setup.items():
        if k in ("params", "data") and isinstance(x, dict):
            out.update({str(a): b for a, b in x.items()})
        elif k == "bots" and isinstance(x, list):
            names = [str(b) for b in x]
            out[k] = names[0] if len(set(names)) == 1 else ",".join(names)
        elif k == "data_file" and isinstance(x, dict):
            out["data"] = x.get("name")
        else:
            out[k] = x
    out.update(v.get("swept") if isinstance(v.get("swept"), dict) else {})
    return out


def variant_values(runs: list) -> dict[tuple[str, str], dict]:
    """{(run, variant): its swept values} from the manifests.

    With several runs, a variant's values are every setting of its setup (players, bots, roles,
    params, data) that differs between the runs' variants: the runs are aligned by what differs.
    """
    entries = [
        (run.name, v)
        for run in runs
        for v in run.manifest.get("variants") or []
        if isinstance(v, dict)
    ]
    if len(runs) > 1:
        flat = {(name, str(v.get("id"))): _flat_setup(v) for name, v in entries}
        seen: dict[str, set] = {}
        for f in flat.values():
            for k in set().union(*flat.values()):
                seen.setdefault(k, set()).add(json.dumps(f.get(k), sort_keys=True, default=str))
        differ = [k for k, vs in seen.items() if len(vs) > 1]
        order = sorted(differ, key=lambda k: (k != PLAYERS, k != "bots", k))
        return {key: {k: f.get(k) for k in order} for key, f in flat.items()}
    return {
        (name, str(v.get("id"))): dict(v["swept"])
        for name, v in entries
        if isinstance(v.get("swept"), dict)
    }


def axis_name(axis: str) -> str:
    """The last part of a dotted setting: roles.trusted.rp_as_vp -> rp_as_vp."""
    return axis.rsplit(".", 1)[-1]


def value_text(value) -> str:
    """A swept value as the config writes it: true/false in TOML's spelling, else as is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def value_words(axis: str, value) -> str:
    """'4 players', 'rp_as_vp 2', 'advanced true', 'search bots'."""
    if axis == PLAYERS:
        return f"{value} player" + ("" if str(value) == "1" else "s")
    if axis == "bots":
        return f"{value_text(value)} bots"
    return f"{axis_name(axis)} {value_text(value)}"


def swept_words(swept: dict) -> str:
    """A variant's swept values in words: '4 players, rp_as_vp 2' (players first)."""
    order = sorted(swept, key=lambda k: (k != PLAYERS, list(swept).index(k)))
    return ", ".join(value_words(k, swept[k]) for k in order)


def swept_axes(values: dict) -> list[str]:
    """The axes that take more than one value among the variants, in manifest order."""
    seen: dict[str, set] = {}
    for swept in values.values():
        for k, v in swept.items():
            seen.setdefault(k, set()).add(repr(v))
    return [k for k, vs in seen.items() if len(vs) > 1]


def several_axes(values: dict) -> bool:
    return len(swept_axes(values)) > 1


def axis_comparisons(keys: pl.DataFrame, values: dict) -> pl.DataFrame:
    """One row per (variant, axis read): the variant, its baseline along that axis (same run,
    same values on every other axis, the axis's first value), the axis, the stratum in words,
    and the two values. Same columns as `stats.comparisons` plus axis, stratum, from, to."""
    axes = swept_axes(values)
    rows = []
    by_run: dict = {}  # (several runs are aligned by their values: one pool)
    for r in keys.iter_rows(named=True):
        sw = values.get((r["run"], r["variant"]))
        if sw is not None:
            by_run.setdefault("", []).append((r, sw))
    for members in by_run.values():
        for axis in axes:
            if axis == PLAYERS:
                continue
            firsts: dict = {}
            for r, sw in members:
                if axis not in sw:
                    continue
                rest = tuple((k, repr(v)) for k, v in sorted(sw.items()) if k != axis)
                firsts.setdefault(rest, (r, sw))
            for r, sw in members:
                if axis not in sw:
                    continue
                rest = tuple((k, repr(v)) for k, v in sorted(sw.items()) if k != axis)
                b, bsw = firsts[rest]
                if b["order"] == r["order"]:
                    continue
                stratum = {k: v for k, v in sw.items() if k != axis}
                rows.append(
                    {
                        **{k: r[k] for k in ("order", *KEY, "label", "players")},
                        "paired_run": bool(r["paired_run"] and b["paired_run"]),
                        "base_order": b["order"],
                        "base_run": b["run"],
                        "base_variant": b["variant"],
                        "base_label": b["label"],
                        "axis": axis,
                        "stratum": swept_words(stratum) if stratum else "",
                        "from": value_text(bsw[axis]),
                        "to": value_text(sw[axis]),
                    }
                )
    schema = {
        "order": pl.UInt32,
        "run": pl.String,
        "variant": pl.String,
        "label": pl.String,
        "players": pl.String,
        "paired_run": pl.Boolean,
        "base_order": pl.UInt32,
        "base_run": pl.String,
        "base_variant": pl.String,
        "base_label": pl.String,
        "axis": pl.String,
        "stratum": pl.String,
        "from": pl.String,
        "to": pl.String,
    }
    return pl.DataFrame(rows, schema=schema)


def effect_label(r: dict) -> str:
    """'at 4 players, rp_as_vp 1 -> 2' (a differences row with axis columns)."""
    move = f"{axis_name(r['axis'])} {r['from']} → {r['to']}"
    return f"at {r['stratum']}, {move}" if r.get("stratum") else move


def interactions(diff: pl.DataFrame) -> list[dict]:
    """Per (axis, unit, group, from, to): pairs of strata whose intervals do not overlap."""
    if "axis" not in diff.columns or not diff.height:
        return []
    out = []
    for _, part in diff.group_by(["axis", "unit", "group", "from", "to"], maintain_order=True):
        rows = part.sort("diff").to_dicts()
        if len(rows) < 2:
            continue
        lo, hi = rows[0], rows[-1]
        if lo["ci_high"] < hi["ci_low"]:
            out.append({"low": lo, "high": hi})
    return out
