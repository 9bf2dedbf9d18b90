"""The memo a designer reads first: headline sentences, flags and display tables.

Everything here turns the report's aggregated tables into words and into small display tables
(pandas frames of strings: one row per role, seat or variant, one column per variant) that
`summary.md` prints as Markdown and `report.html` renders with pandas' Styler. Numbers are shown
the way a designer reads them: win rates as percentages with their 95% interval
(`56.7% [55.9, 57.6]`), differences in points, p-values to two significant digits, counts with
thousands separators (the formatting itself is in ``wording.py``); internal column names never
appear.

A role or seat is *far from its fair share* when its win rate is significantly off the fair
share (Holm) and outside ``FAR_BAND`` times the fair share (0.5x to 1.5x): that is a flag.
"""

from __future__ import annotations

import pandas as pd
import polars as pl

from reports.axes import axis_name, effect_label, interactions, value_words
from reports.wording import (  # noqa: F401 (num, pts, p_is: used as memo.num by others)
    FAR,
    FAR_BAND,
    P_FLOOR,
    SIG,
    compare_label,
    count,
    named,
    num,
    p_is,
    p_text,
    pct,
    pct_ci,
    plural,
    pretty,
    pts,
    pts_ci,
    stat,
    title,
)


def far(r: dict) -> bool:
    """Significantly off the fair share and outside the band (never for solo variants)."""
    if r.get("fair") is None or not r.get("p_holm_significant"):
        return False
    ratio = r["win_rate"] / r["fair"]
    return ratio < FAR_BAND[0] or ratio > FAR_BAND[1]


def _cell(r: dict) -> str:
    text = pct_ci(r["win_rate"], r["ci_low"], r["ci_high"])
    if r.get("fair") is not None and r.get("p_holm_significant"):
        text += " " + SIG + (FAR if far(r) else "")
    return text


def _variants(table: pl.DataFrame) -> list[str]:
    return table.sort("order")["label"].unique(maintain_order=True).to_list()


def rate_table(table: pl.DataFrame, key: str, name) -> pd.DataFrame:
    """One row per role (or seat), one column per variant, then the fair share and games."""
    variants = _variants(table)
    whos = sorted(table[key].unique().to_list())
    cells = {(r[key], r["label"]): r for r in table.iter_rows(named=True)}
    rows = []
    for who in whos:
        row = {"": name(who)}
        for v in variants:
            r = cells.get((who, v))
            row[v] = _cell(r) if r else "-"
        rows.append(row)
    firsts = {v: next(r for (w, lab), r in cells.items() if lab == v) for v in variants}
    if any(r["fair"] is not None for r in firsts.values()):
        rows.append(
            {"": "fair share"}
            | {
                v: "solo" if r["fair"] is None else f"{100 * r['fair']:.0f}%"
                for v, r in firsts.items()
            }
        )
    games = table.group_by("label").agg(pl.col("n").sum())
    n = dict(games.iter_rows())
    rows.append(
        {"": f"{'seats' if key == 'seat' else 'plays'} counted"}
        | {v: count(n[v]) for v in variants}
    )
    return pd.DataFrame(rows)


def far_flags(t: dict, word: str) -> list[str]:
    """One flag per role or seat far from its fair share in some variant."""
    lines = []
    for unit, table in (("role", t["win_by_role"]), ("seat", t["win_by_seat"])):
        if not table.height:
            continue
        rows = [r for r in table.sort("order").iter_rows(named=True) if far(r)]
        by_who: dict = {}
        for r in rows:
            by_who.setdefault(r[unit], []).append(r)
        total = table["label"].n_unique()
        for who, rs in by_who.items():
            low = [r for r in rs if r["win_rate"] < r["fair"]]
            side = "below half" if len(low) == len(rs) else "above 1.5 times"
            if low and len(low) < len(rs):
                side = "outside 0.5 to 1.5 times"
            ext = max(rs, key=lambda r: abs(r["win_rate"] / r["fair"] - 1))
            where = f" in {len(rs)} of {total} variants" if total > 1 else ""
            lines.append(
                f"- FAR FROM FAIR: {named(unit, who, word)} wins {side} its fair share{where} "
                f"(furthest: {pct_ci(ext['win_rate'], ext['ci_low'], ext['ci_high'])} against a "
                f"fair {100 * ext['fair']:.0f}%"
                + (f" in {ext['label']}" if total > 1 else "")
                + ")."
            )
    return lines


def difference_table(diff: pl.DataFrame, word: str) -> pd.DataFrame:
    """Variant minus baseline, points with interval: one row per role (and seat 0), one column
    per variant that has at least one significant difference."""
    shown = diff.filter(pl.col("significant")).select("run", "variant").unique()
    d = diff.join(shown, on=["run", "variant"], how="semi")
    columns, cells, whos = [], {}, []
    for r in d.iter_rows(named=True):
        col = compare_label(r["label"], r["baseline"])
        if r.get("axis"):
            col = effect_label(r).removeprefix("at ")
        elif "players" in r and " player" not in col:  # not when the label says it
            col = f"players {r['players']}, {col}"
        who = f"seat {r['group']}" if r["unit"] == "seat" else pretty(r["group"])
        if col not in columns:
            columns.append(col)
        if who not in whos:
            whos.append(who)
        mark = f" {SIG}" if r["significant"] else ""
        cells[(who, col)] = pts_ci(r["diff"], r["ci_low"], r["ci_high"]) + mark
    # the first column's header names what its rows are: roles, seats, or both
    seats = [w.startswith("seat ") for w in whos]
    head = "seat" if all(seats) else word if not any(seats) else f"{word} or seat"
    rows = [{head: w} | {c: cells.get((w, c), "") for c in columns} for w in whos]
    return pd.DataFrame(rows)


def balance_table(bal: pl.DataFrame, word: str) -> pd.DataFrame:
    rows = []
    for r in bal.iter_rows(named=True):
        if r["spread"] is None:
            spread = strongest = weakest = ""
        else:
            spread = f"{100 * r['spread']:.1f}"
            if r.get("spread_low") is not None:
                spread += f" [{100 * r['spread_low']:.1f}, {100 * r['spread_high']:.1f}]"
            strongest = f"{pretty(r['best_role'])} {pct(r['best_rate'])}"
            weakest = f"{pretty(r['worst_role'])} {pct(r['worst_rate'])}"
        if r["seat0_advantage"] is None:
            seat0 = "n/a (solo)"
        else:
            seat0 = pts_ci(r["seat0_advantage"], r["seat0_adv_low"], r["seat0_adv_high"])
        capped = round(r["turn_cap_share"] * r["games"])
        rows.append(
            {
                "variant": r["label"],
                "games": count(r["games"]),
                f"{word} spread (points)": spread,
                "strongest": strongest,
                "weakest": weakest,
                "first-seat advantage (points)": seat0,
                "rounds": f"{r['mean_rounds']:.1f}",
                "turns": f"{r['mean_turns']:.1f}",
                "ended by the safety cap": count(capped),
            }
        )
    frame = pd.DataFrame(rows)
    # only the columns that apply to the game: a game without roles has no role spread
    empty = [c for c in frame.columns if len(frame) and (frame[c] == "").all()]
    return frame.drop(columns=empty)


def chi_table(chi: pl.DataFrame) -> pd.DataFrame:
    rows = []
    for r in chi.iter_rows(named=True):
        test = f"players {r['players']}: {r['test']}" if "players" in r else r["test"]
        rows.append(
            {
                "test": test,
                "chi-square": stat(r["chi2"]),
                "degrees of freedom": str(r["dof"]),
                "p (Holm)": p_text(r["p_holm"]),
                "significant": "yes" if r["significant"] else "no",
            }
        )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- headline


def _extremes(table: pl.DataFrame) -> tuple[dict, dict] | None:
    """The strongest and the weakest of the variant where they are furthest apart."""
    rows = [r for r in table.sort("order").iter_rows(named=True) if r["fair"] is not None]
    if not rows:
        return None
    best = None
    for label in dict.fromkeys(r["label"] for r in rows):
        part = [r for r in rows if r["label"] == label]
        top = max(part, key=lambda r: r["win_rate"] / r["fair"])
        bottom = min(part, key=lambda r: r["win_rate"] / r["fair"])
        gap = (top["win_rate"] - bottom["win_rate"]) / top["fair"]
        if best is None or gap > best[0] + 1e-12:
            best = (gap, top, bottom)
    return best[1], best[2]


def _imbalance_sentence(t: dict, word: str, group: str, several: bool) -> str | None:
    """The strongest and the weakest role (or seat); said to be selection-biased when the
    bots chose their role in that variant (decisions.chosen_roles)."""
    text = _extremes_sentence(t, word, group, several)
    if text is None or group != "role":
        return text
    from reports.decisions import chosen_roles

    chosen = chosen_roles(t.get("_mix"), word)
    ext = _extremes(t["win_by_role"])
    if ext and any((r["run"], r["variant"]) in chosen for r in ext):
        text = (
            text[:-1] + f" (there the bot chooses its {word}: selection-biased, see "
            f"{plural(word).capitalize()})."
        )
    return text


def _extremes_sentence(t: dict, word: str, group: str, several: bool) -> str | None:
    table = t["win_by_role"] if group == "role" else t["win_by_seat"]
    ext = _extremes(table)

    def name(r):
        text = named(group, r[group], word)
        return text[0].upper() + text[1:]

    def where(r):
        return f" in {r['label']}" if several else ""

    if ext is None:
        rows = table.sort("win_rate", descending=True).to_dicts()
        if not rows:
            return None
        a, b = rows[0], rows[-1]
        return (
            f"{name(a)} reaches the solo target in "
            f"{pct_ci(a['win_rate'], a['ci_low'], a['ci_high'])} of its games{where(a)}, "
            f"{named(group, b[group], word)} in "
            f"{pct_ci(b['win_rate'], b['ci_low'], b['ci_high'])}{where(b)}."
        )
    top, bottom = ext
    if not (top["p_holm_significant"] or bottom["p_holm_significant"]):
        who = word if group == "role" else "seat"
        rates = (
            f"{pct_ci(bottom['win_rate'], bottom['ci_low'], bottom['ci_high'])} to "
            f"{pct_ci(top['win_rate'], top['ci_low'], top['ci_high'])}"
        )
        if several:  # the variants' fair shares may differ (a player-count sweep)
            return (
                f"No {who} wins significantly more or less than its fair share in any variant; "
                f"the rates are furthest apart in {top['label']}: {rates}, against a fair "
                f"{100 * top['fair']:.0f}%."
            )
        return (
            f"No {who} wins significantly more or less than its fair share of "
            f"{100 * top['fair']:.0f}%: the rates run from {rates}."
        )
    lower = named(group, bottom[group], word)
    if several and top["label"] == bottom["label"]:
        # one variant holds both extremes: name it once, first
        return (
            f"At {top['label']}, {named(group, top[group], word)} wins "
            f"{pct_ci(top['win_rate'], top['ci_low'], top['ci_high'])} of its games and {lower} "
            f"{pct_ci(bottom['win_rate'], bottom['ci_low'], bottom['ci_high'])}, against a fair "
            f"{100 * top['fair']:.0f}%."
        )
    fair = (
        f"against a fair {100 * top['fair']:.0f}%"
        if abs(top["fair"] - bottom["fair"]) < 1e-9
        else f"against fair shares of {100 * top['fair']:.0f}% and {100 * bottom['fair']:.0f}%"
    )
    return (
        f"{name(top)} wins {pct_ci(top['win_rate'], top['ci_low'], top['ci_high'])} of its games"
        f"{where(top)} and {lower} "
        f"{pct_ci(bottom['win_rate'], bottom['ci_low'], bottom['ci_high'])}{where(bottom)}, {fair}."
    )


def and_more(more: int, word: str) -> str:
    """' and 2 more roles' after the roles a sentence names; ' and 1 more role'; '' for none."""
    if more <= 0:
        return ""
    return f" and {more} more {word if more == 1 else plural(word)}"


def _sweep_sentence(t: dict, word: str, param: str | None) -> str | None:
    chi = t["chi_square"]
    if not chi.height or not t["win_by_role"].height:
        return None
    per = chi.filter(pl.col("test").str.ends_with(" win rate across variants"))
    if not per.height:
        return None
    changed = per.filter(pl.col("significant"))["test"].str.replace(
        " win rate across variants$", ""
    )
    same = per.filter(~pl.col("significant"))["test"].str.replace(" win rate across variants$", "")
    by_role = t["win_by_role"].sort("order")
    what = f"Across the {by_role['label'].n_unique()} variants,"
    sweep = t.get("_sweep")
    if param and sweep is not None and sweep[param].dtype.is_numeric() and sweep.height:
        values = sweep[param].drop_nulls()
        what = f"Changing {param} from {values.min()} to {values.max()}"
    elif param:
        what = f"Across the values of {param},"
    parts = []
    source = t["_sweep"].sort(param) if t.get("_sweep") is not None and param else by_role
    at = param or "label"
    spans = []
    for role in changed.to_list():
        rows = source.filter(pl.col("role") == role)
        lo, hi = (
            rows.row(rows["win_rate"].arg_min(), named=True),
            rows.row(rows["win_rate"].arg_max(), named=True),
        )
        spans.append((hi["win_rate"] - lo["win_rate"], role, lo, hi))
    for _, role, lo, hi in sorted(spans, key=lambda x: (-x[0], x[1]))[:3]:
        where = (lambda r: f" at {_value(param, r[at])}") if param else (lambda r: f" in {r[at]}")
        parts.append(
            f"{named('role', role, word)} between {pct(lo['win_rate'])}{where(lo)} and "
            f"{pct(hi['win_rate'])}{where(hi)}"
        )
    more = len(changed) - len(parts)
    moves = "moves" if what.startswith("Changing") else "the win rate moves for"
    text = what + " "
    if parts:
        text += f"{moves} {', '.join(parts)}" + and_more(more, word)
        text += " (significant after Holm)"
        if len(same):
            text += f" but not the {', '.join(title(x) for x in same)}"
    elif what.startswith("Changing"):
        text += f"changes no {word}'s win rate significantly (after Holm)"
    else:
        text += f"no {word}'s win rate changes significantly (after Holm)"
    return text + "."


def _value(param: str, value) -> str:
    """A swept value after "at": the number (at 12), else in words (at advanced true)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return value_words(param, value)


def _seat_sentence(t: dict) -> str | None:
    seats = [r for r in t["win_by_seat"].iter_rows(named=True) if r["fair"] is not None]
    if not seats:
        return None
    several = t["win_by_seat"]["label"].n_unique() > 1
    sig = [r for r in seats if r["p_holm_significant"]]
    if not sig:
        bal = [r for r in t["balance"].iter_rows(named=True) if r["seat0_advantage"] is not None]
        r = bal[0]
        return (
            "No seat wins significantly more or less than its fair share (first-seat advantage "
            f"{pts_ci(r['seat0_advantage'], r['seat0_adv_low'], r['seat0_adv_high'])} points"
            + (f" in {r['label']}" if several else "")
            + ")."
        )
    r = max(sig, key=lambda r: abs(r["win_rate"] - r["fair"]))
    first = " (the first player)" if r["seat"] == 0 else ""
    return (
        f"Seat {r['seat']}{first} wins {pct_ci(r['win_rate'], r['ci_low'], r['ci_high'])} of its "
        f"games against a fair {100 * r['fair']:.0f}%"
        + (f" in {r['label']}" if several else "")
        + f", the largest seat effect ({len(sig)} of {len(seats)} seat rates differ significantly)."
    )


def _flag_sentence(t: dict, word: str, far_lines: list[str], holes: int) -> str:
    parts = []
    if far_lines:
        names = [x.split(" wins ")[0].removeprefix("- FAR FROM FAIR: ") for x in far_lines]
        shown = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        parts.append(
            f"{shown} {'is' if len(names) == 1 else 'are'} outside "
            f"{FAR_BAND[0]}x to {FAR_BAND[1]}x of the fair share"
        )
    bal = t["balance"]
    capped = int(round((bal["turn_cap_share"] * bal["games"]).sum()))
    if capped:
        parts.append(f"{count(capped)} games ended by the safety cap")
    stalemates = int(bal["stalemates"].sum()) if "stalemates" in bal.columns else 0
    if stalemates:
        parts.append(f"{count(stalemates)} stalemates")
    if holes:
        parts.append(f"{holes} possible rule hole{'s' if holes > 1 else ''}")
    across = t.get("across_levels", pl.DataFrame())
    if across.height and across["bot_dependent"].any():
        n = int(across["bot_dependent"].sum())
        parts.append(
            f"{n} finding{'s' if n > 1 else ''} depend{'s' if n == 1 else ''} on the bot level"
        )
    if not parts:
        return (
            f"No flags: no {word} or seat outside {FAR_BAND[0]}x to {FAR_BAND[1]}x of its share, "
            "no safety-cap ends, no rule holes."
        )
    return "Flags: " + "; ".join(parts) + "."


def _same_decisions_sentence(t: dict) -> str | None:
    """Paired variants whose bots decided alike in (nearly) every game (reports/decisions.py)."""
    from reports.decisions import same_sentence

    return same_sentence(t.get("same_decisions", pl.DataFrame()))


def _effect(r: dict) -> str:
    return f"{pts_ci(r['diff'], r['ci_low'], r['ci_high'])} points ({r['method']})"


def axis_sentences(diff: pl.DataFrame, word: str) -> list[str]:
    """Several swept axes: per axis and stratum, the largest significant effect on a role (or
    seat 0), read with the other axes held fixed; then the interactions (an axis's effect on one
    role whose intervals in two strata do not overlap)."""
    if "axis" not in diff.columns or not diff.height:
        return []
    out = []
    # an axis of three values or more: the headline reads its whole step, first to last value
    # (the table and variant_differences.csv keep every step)
    last = {a: p["to"][-1] for (a,), p in diff.group_by(["axis"], maintain_order=True)}
    diff = diff.filter(pl.col("to") == pl.col("axis").replace_strict(last, default=None))
    for (axis, frm, to), part in diff.group_by(["axis", "from", "to"], maintain_order=True):
        step = f"{axis_name(axis)} {frm} → {to}"
        for (stratum,), rows in part.group_by(["stratum"], maintain_order=True):
            sig = rows.filter(pl.col("significant"))
            at = f"At {stratum}, " if stratum else ""
            move = step if at else step[0].upper() + step[1:]
            if not sig.height:
                # a game without roles compares seats only (the Great Wall, Catan)
                whose = word if (rows["unit"] == "role").any() else "seat"
                out.append(f"{at}{move} moves no {whose}'s win rate significantly (after Holm).")
                continue
            top = sig.row(sig["diff"].abs().arg_max(), named=True)
            more = sig.height - 1
            who = named(top["unit"], top["group"], word)
            effect = pts_ci(top["diff"], top["ci_low"], top["ci_high"])
            out.append(
                f"{at}{move} moves {who} {effect} points ({top['method']}, after Holm)."
                if not more
                else f"{at}{move} moves {who} {_effect(top)} and {more} more significantly "
                "(after Holm)."
            )
    by_move: dict = {}
    for x in interactions(diff):
        by_move.setdefault((x["low"]["axis"], x["low"]["from"], x["low"]["to"]), []).append(x)
    for (axis, frm, to), xs in by_move.items():
        x = max(xs, key=lambda x: x["high"]["diff"] - x["low"]["diff"])
        lo, hi = x["low"], x["high"]
        others = f" (and for {len(xs) - 1} more)" if len(xs) > 1 else ""
        out.append(
            f"Interaction: the effect of {axis_name(axis)} {frm} → {to} depends on the other "
            f"settings{others}: {named(lo['unit'], lo['group'], word)} "
            f"{pts_ci(hi['diff'], hi['ci_low'], hi['ci_high'])} at {hi['stratum']}, "
            f"{pts_ci(lo['diff'], lo['ci_low'], lo['ci_high'])} at {lo['stratum']} "
            "(intervals apart)."
        )
    return out


def _lost_sentence(t: dict) -> str | None:
    """The largest significant change in the share of games nobody won (a shared defeat)."""
    d = t.get("everybody_lost_differences")
    if d is None or not d.height or not d["significant"].any():
        return None
    sig = d.filter(pl.col("significant"))
    r = sig.row(sig["diff"].abs().arg_max(), named=True)
    what = effect_label(r) if r.get("axis") else "with " + compare_label(r["label"], r["baseline"])
    more = sig.height - 1
    return (
        f"The share of games nobody won (a shared defeat) moves "
        f"{pts_ci(r['diff'], r['ci_low'], r['ci_high'])} points ({r['method']}) {what}"
        + (f"; {more} more change{'s' if more > 1 else ''} significant" if more else "")
        + " (after Holm)."
    )


def headline(t: dict, word: str, group: str, param: str | None, holes: int) -> list[str]:
    """Three to six plain sentences from the data, the report's first words."""
    several = t["keys"].height > 1
    by_axis = axis_sentences(t["variant_differences"], word)
    sentences = [
        _imbalance_sentence(t, word, group, several),
        *by_axis,
        _lost_sentence(t),
        _sweep_sentence(t, word, param) if several and not by_axis else None,
        _same_decisions_sentence(t),
        _seat_sentence(t) if group == "role" else None,
        _flag_sentence(t, word, far_flags(t, word), holes),
    ]
    info = t["info"]
    sentences.append(
        f"From {count(info['games'].sum())} simulated games in {t['keys'].height} "
        f"variant{'s' if several else ''}; intervals are 95%."
    )
    return [s for s in sentences if s]
