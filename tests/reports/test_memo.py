"""The memo's words and tables (issue 22): the headline names the largest imbalance with its
interval, a role far from its fair share is a flag, and a sweep of 20 variants x 6 roles stays
one table and one plot."""

import re

import polars as pl
import pytest

from reports import make_report
from reports.memo import FAR_BAND, p_text, pct_ci
from reports.synthetic import write_run
from tests.reports.mdtable import section, table


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    """20 values of a numeric parameter; the trusted wins every game at the sixth."""
    root = tmp_path_factory.mktemp("memo")
    run = write_run(root / "run", games=300, values=tuple(range(1, 21)), rig={5: "trusted"})
    return make_report([run], root / "report")


def test_headline_names_the_largest_imbalance_with_its_interval(sweep):
    summary = (sweep / "summary.md").read_text()
    lines = summary.splitlines()
    assert lines[0].startswith("# menhir report") and lines[1] == ""
    headline = lines[2]
    rates = pl.read_csv(sweep / "win_by_role.csv").filter(pl.col("variant") == "v5")
    trusted = rates.filter(pl.col("role") == "trusted").row(0, named=True)
    shown = pct_ci(trusted["win_rate"], trusted["ci_low"], trusted["ci_high"])
    assert f"At {trusted['label']}, the Trusted wins {shown} of its games" in headline
    assert "against a fair 25%" in headline
    assert "Changing romans_in_play from 1 to 20 moves the Trusted between" in headline
    assert "Flags: " in headline and "the Trusted" in headline.split("Flags: ")[1]
    assert 3 <= len(re.findall(r"[.!?](?:\s|$)", headline)) <= 6


def test_a_role_far_from_its_fair_share_is_a_flag(sweep):
    flags = section((sweep / "summary.md").read_text(), "Flags")
    line = next(x for x in flags.splitlines() if x.startswith("- FAR FROM FAIR: the Trusted"))
    assert f"above {FAR_BAND[1]:g} times its fair share in 1 of 20 variants" in line
    # the always-wins flag is said once, not once per variant
    assert sum("always wins" in x for x in flags.splitlines()) == 1


def test_a_sweep_of_20_variants_stays_one_table_and_one_plot(sweep):
    summary = (sweep / "summary.md").read_text()
    roles = table(section(summary, "Roles"))
    assert [r["role"] for r in roles] == [
        "fastest", "haggler", "strongest", "trusted", "versatile", "wanderer",
        "fair share", "plays counted",
    ]  # fmt: skip
    assert len(roles[0]) == 1 + 20
    assert all(re.fullmatch(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]( \*!?)?", c) for c in
               list(roles[0].values())[1:])  # fmt: skip
    assert roles[-1]["romans_in_play 1"] == "1,200"
    assert "- variant" not in section(summary, "Roles")
    html = (sweep / "report.html").read_text()
    roles_html = html.split('<section id="roles">')[1].split("</section>")[0]
    assert roles_html.count("<table") == 1 and 'alt="win_by_role_sweep"' in roles_html
    assert 'alt="win_by_role"' not in roles_html  # no grouped bars for a numeric sweep
    for internal in ("p_holm_significant", "seat0_adv_low", "spread_low", "ci_high"):
        assert internal not in html.split("Full detail")[0]


def test_p_values_have_two_significant_digits_or_read_below_0_001():
    assert p_text(0.0008252) == "< 0.001"
    assert p_text(2.037e-09) == "< 0.001" and p_text(0.0) == "< 0.001"
    assert p_text(0.0012345) == "0.0012" and p_text(0.00015) == "< 0.001"
    assert p_text(0.04999) == "0.050" and p_text(0.0999) == "0.10" and p_text(0.1) == "0.10"
    assert p_text(0.3456) == "0.35" and p_text(1.0) == "1.0" and p_text(0.001) == "0.0010"
    assert p_text(None) == "n/a"
