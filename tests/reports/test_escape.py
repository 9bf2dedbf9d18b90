"""report.html escapes every table cell and header (issue 36, defect 11): a variant data file
named `<img src=x onerror=alert(1)>.toml` became 4 live tags."""

import pandas as pd

from reports.render import table_html

HOSTILE = "<img src=x onerror=alert(1)>"


def test_cells_and_headers_are_escaped():
    frame = pd.DataFrame({HOSTILE: [HOSTILE, "ok"], "win rate": ["25.0% *", HOSTILE + " *"]})
    html = table_html(frame)
    assert "<img" not in html
    # the header, two cells, and the header again as the data-label of its column's two cells
    assert html.count("&lt;img src=x onerror=alert(1)&gt;") == 5
    assert "font-weight: bold" in html  # the significance marking still applies
