"""Read the Markdown tables of summary.md in tests."""


def section(summary: str, title: str) -> str:
    """The text of the section `## title` up to the next section."""
    return summary.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def table(text: str) -> list[dict]:
    """The first pipe table in `text`, as one dict per row keyed by its header."""
    lines = [x for x in text.splitlines() if x.startswith("|")]
    cells = [[c.strip() for c in x.strip().strip("|").split(" | ")] for x in lines]
    header, rows = cells[0], cells[2:]
    return [dict(zip(header, row, strict=True)) for row in rows]
