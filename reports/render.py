"""Render the report's sections: Markdown for summary.md, one self-contained HTML page.

A report is a title, a headline (plain sentences), a context paragraph and a list of
`Section`s, each with Markdown text, an optional display table (a pandas frame of strings) and
the plots that belong to it with a one-line caption. `markdown` prints it all as Markdown;
`html` renders the same sections through a jinja2 template: the text by markdown-it-py, the
tables by pandas' Styler, the images embedded as base64 (no network, no CDN), a table of
contents, and a stylesheet that keeps lines readable, scrolls wide tables inside their own box
and prints to PDF.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from html import escape as html_escape
from pathlib import Path

import pandas as pd
from jinja2 import Environment, PackageLoader, select_autoescape
from markdown_it import MarkdownIt

from reports.wording import FAR, SIG, markdown_table


@dataclass
class Section:
    anchor: str
    title: str
    text: list[str] = field(default_factory=list)
    table: pd.DataFrame | None = None
    after: list[str] = field(default_factory=list)
    images: list[tuple[str, str]] = field(default_factory=list)  # (png stem, caption)


@dataclass
class Page:
    title: str
    headline: list[str]
    context: list[str]
    sections: list[Section]
    files: list[tuple[str, str]]  # (file name, what it holds)


def markdown(page: Page) -> str:
    lines = [f"# {page.title}", "", " ".join(page.headline), "", *page.context]
    for s in page.sections:
        lines += [f"## {s.title}", ""]
        if s.text:
            lines += [*s.text, ""]
        if s.table is not None and len(s.table):
            lines += [*markdown_table(s.table), ""]
        if s.after:
            lines += [*s.after, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


_MD = MarkdownIt("commonmark", {"html": False}).enable("table")


def _md(lines: list[str]) -> str:
    return _MD.render("\n".join(lines)) if lines else ""


def _marked(value) -> str:
    text = str(value)
    if text.endswith(SIG + FAR):
        return "font-weight: bold; color: #9a3412"
    if text.endswith(SIG):
        return "font-weight: bold"
    return ""


def table_html(frame: pd.DataFrame) -> str:
    """A display table: no index, significant cells in bold, each cell labelled by its column.

    Every cell and column header is HTML-escaped, since labels come from users' files (a
    variant data file's name, a role's name). Each cell carries its column's header in
    ``data-label``: on a phone the stylesheet shows every row as a card of "header: value"
    lines, so every number stays reachable without sideways scrolling.
    """
    heads = [html_escape(str(c)) for c in frame.columns]
    lines = ['<table class="data">', "<thead><tr>"]
    lines += [f'<th scope="col">{h}</th>' for h in heads]
    lines.append("</tr></thead><tbody>")
    for row in frame.itertuples(index=False):
        cells = []
        for head, value in zip(heads, row, strict=True):
            style = _marked(value)
            attr = f' style="{style}"' if style else ""
            cells.append(f'<td data-label="{head}"{attr}>{html_escape(str(value))}</td>')
        lines.append("<tr>" + "".join(cells) + "</tr>")
    lines.append("</tbody></table>")
    return "\n".join(lines)


def _image(out: Path, stem: str) -> str | None:
    path = out / f"{stem}.png"
    if not path.exists():
        return None
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode()


def html(page: Page, out: Path) -> str:
    env = Environment(
        loader=PackageLoader("reports", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
    )
    sections = []
    for s in page.sections:
        figures = []
        for stem, caption in s.images:
            src = _image(out, stem)
            if src:
                figures.append({"src": src, "caption": caption, "stem": stem})
        sections.append(
            {
                "anchor": s.anchor,
                "title": s.title,
                "text": _md(s.text),
                "table": table_html(s.table) if s.table is not None and len(s.table) else "",
                "after": _md(s.after),
                "figures": figures,
            }
        )
    return env.get_template("report.html.j2").render(
        title=page.title,
        headline=" ".join(page.headline),
        context=_md(page.context),
        sections=sections,
        files=page.files,
    )


def anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
