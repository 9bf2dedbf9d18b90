"""Words and numbers as a designer reads them: the formatting every part of a report shares.

Percentages with their 95% interval (``56.7% [55.9, 57.6]``), differences in points, p-values to
two significant digits, counts with thousands separators, names in prose, the marks of a
significant cell (``SIG``) and a flag (``FAR``), a variant's comparison label and a Markdown pipe
table. The memo (``memo.py``), the findings (``findings.py``), the page (``page.py``), the plots
(``plots.py``) and the rendering (``render.py``) import these from here; nothing here imports
another module of ``reports``.
"""

from __future__ import annotations

import math

import pandas as pd


def plural(word: str) -> str:
    """``word`` in the plural (role -> roles, destiny -> destinies)."""
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is 1: '1 note', '3 notes', '0 notes'."""
    return f"{n:,} {word if n == 1 else plural(word)}"


FAR_BAND = (0.5, 1.5)
SIG = "*"  # significant after Holm
FAR = "!"  # outside FAR_BAND of the fair share


def num(x: float, spec: str = ".1f") -> str:
    """`format(x, spec)` that never prints a negative zero: -0.0004 -> "0.0" ("+0.0" for a
    signed spec), so no "-0.0" reaches a report."""
    text = format(x, spec)
    if text.startswith("-") and not set(text[1:]) - set("0.,%"):
        text = ("+" if "+" in spec else "") + text[1:]
    return text


def pct(x: float) -> str:
    return num(100 * x) + "%"


def pct_ci(rate: float, lo: float, hi: float) -> str:
    return f"{num(100 * rate)}% [{num(100 * lo)}, {num(100 * hi)}]"


def pts(d: float) -> str:
    """A difference in points, signed: +1.3, -0.7, +0.0."""
    return num(100 * d, "+.1f")


def pts_ci(d: float, lo: float, hi: float) -> str:
    return f"{pts(d)} [{pts(lo)}, {pts(hi)}]"


P_FLOOR = 0.001  # p-values below it print as "< 0.001"


def p_text(p: float | None) -> str:
    """A p-value as "< 0.001" or to two significant digits (0.0012, 0.050, 0.34, 1.0)."""
    if p is None or p != p:
        return "n/a"
    if p < P_FLOOR:
        return f"< {P_FLOOR:g}"
    q = float(f"{p:.2g}")  # round first: 0.0999 -> 0.1, printed "0.10"
    decimals = max(1, 1 - math.floor(math.log10(q)))
    return f"{q:.{decimals}f}"


def p_is(p: float | None) -> str:
    """'= 0.0012' or '< 0.001', to follow 'p'."""
    text = p_text(p)
    return text if text.startswith("<") else f"= {text}"


def title(name) -> str:
    """A role's name in prose, as a rulebook writes it: the Trusted."""
    return pretty(name).title()


def named(unit: str, who, word: str) -> str:
    """In prose: the Trusted (roles), the leader Boadicee (another word), seat 2."""
    if unit == "seat":
        return f"seat {who}"
    return f"the {title(who)}" if word == "role" else f"the {word} {title(who)}"


def count(n) -> str:
    return f"{int(n):,}"


def pretty(name) -> str:
    return str(name).replace("_", " ")


def stat(x: float) -> str:
    """A test statistic to at most four significant digits (1,256 or 12.3)."""
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.1f}"


def compare_label(label: str, base: str) -> str:
    """'romans_in_play 14' (or 'romans_in_play=14') vs 'romans_in_play 11' ->
    'romans_in_play 14 vs 11'."""
    a, b = label.rpartition("("), base.rpartition("(")
    inner_a = a[2].rstrip(")") if a[1] else label
    inner_b = b[2].rstrip(")") if b[1] else base
    ka, _, va = inner_a.partition("=")
    kb, _, vb = inner_b.partition("=")
    single = inner_a.count("=") == 1 and inner_b.count("=") == 1 and "," not in va + vb
    if single and va and vb and ka == kb and ":" not in label + base:
        return f"{ka} {va} vs {vb}"
    # swept values in words that differ in one: 'romans_in_play 14' vs 'romans_in_play 11',
    # '3 players, rp_as_vp 2' vs '3 players, rp_as_vp 1' -> '3 players, rp_as_vp 2 vs 1'
    pa, pb = label.split(", "), base.split(", ")
    differ = [i for i, (x, y) in enumerate(zip(pa, pb, strict=False)) if x != y]
    if len(pa) == len(pb) and len(differ) == 1 and ":" not in label + base:
        i = differ[0]
        wa, _, xa = pa[i].rpartition(" ")
        wb, _, xb = pb[i].rpartition(" ")
        ya, _, ka = pa[i].partition(" ")
        yb, _, kb = pb[i].partition(" ")
        if wa and wa == wb and "[" not in pa[i] + pb[i]:
            return ", ".join([*pa[:i], f"{wa} {xa} vs {xb}", *pa[i + 1 :]])
        if ka and ka == kb and ka in ("players", "bots"):  # '4 players', 'search bots'
            return ", ".join([*pa[:i], f"{ya} vs {yb} {ka}", *pa[i + 1 :]])
    return f"{label} vs {base}"


def markdown_table(frame: pd.DataFrame) -> list[str]:
    """A pipe table (GitHub/markdown-it syntax)."""

    def esc(x) -> str:
        return str(x).replace("|", "\\|")

    cols = [esc(c) or " " for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join(" --- " for _ in cols) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(esc(x) for x in row) + " |")
    return lines
