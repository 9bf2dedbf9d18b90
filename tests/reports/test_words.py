"""Labels in words (issue 37 item 3): every table header, sentence and plot of a report names a
variant by its swept values in words (`romans_in_play 13`, `4 players, rp_as_vp 2`, `search
bots`), never by its id (`v1`) or a `key=value` label; the CSVs keep the ids. The forest plot
explains its marks in a legend."""

import re

import matplotlib.text
import polars as pl
import pytest

from reports import make_report, plots
from reports.axes import value_words
from reports.synthetic import write_run
from tests.reports.mdtable import section, table

VARIANT_ID = re.compile(r"\bv\d+\b")
KEY_VALUE = re.compile(r"[a-z_]=[0-9A-Za-z]")
IMAGE = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]+")


def _report_and_figures(runs, out):
    """The report of `runs` and every text of its figures, read just before each is closed."""
    seen: dict[str, list] = {}
    close = plots.plt.close

    def spy(fig=None):
        if fig is not None and not isinstance(fig, str):
            titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
            texts = [t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]
            legends = [
                (leg.get_title().get_text(), [t.get_text() for t in leg.get_texts()])
                for ax in fig.axes
                for leg in ax.findobj(matplotlib.legend.Legend)
            ]
            seen[titles[0] if titles else str(len(seen))] = [texts, legends]
        return close(fig)

    mp = pytest.MonkeyPatch()
    mp.setattr(plots.plt, "close", spy)
    try:
        report = make_report(runs, out)
    finally:
        mp.undo()
    return report, seen


@pytest.fixture(scope="module")
def one_axis(tmp_path_factory):
    base = tmp_path_factory.mktemp("words1")
    run = write_run(base / "run", games=800, values=(11, 13, 14), boost={2: ("trusted", 30)})
    return _report_and_figures([run], base / "report")


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    base = tmp_path_factory.mktemp("words2")
    run = write_run(
        base / "run",
        games=600,
        grid={"players": [3, 4], "roles.trusted.rp_as_vp": [1, 2]},
        boost={3: ("trusted", 40)},
    )
    return _report_and_figures([run], base / "report")


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("words3")
    a = write_run(base / "a", games=600, name="low", bot="greedy", seed=2)
    b = write_run(base / "b", games=600, name="high", bot="search", seed=2)
    return _report_and_figures([a, b], base / "report")


CASES = ["one_axis", "grid", "two_runs"]


@pytest.mark.parametrize("case", CASES)
def test_no_variant_id_nor_key_value_label_reaches_a_reader(case, request):
    out, figures = request.getfixturevalue(case)
    summary = (out / "summary.md").read_text()
    html = IMAGE.sub("", (out / "report.html").read_text())
    assert not VARIANT_ID.findall(summary), VARIANT_ID.findall(summary)[:5]
    assert not KEY_VALUE.findall(summary), KEY_VALUE.findall(summary)[:5]
    assert not VARIANT_ID.findall(html), VARIANT_ID.findall(html)[:5]
    for name, (texts, _) in figures.items():
        bad = [t for t in texts if VARIANT_ID.search(t) or KEY_VALUE.search(t)]
        assert not bad, (name, bad)


@pytest.mark.parametrize(
    "case, headers",
    [
        ("one_axis", ["romans_in_play 11", "romans_in_play 13", "romans_in_play 14"]),
        (
            "grid",
            [
                "3 players, rp_as_vp 1",
                "3 players, rp_as_vp 2",
                "4 players, rp_as_vp 1",
                "4 players, rp_as_vp 2",
            ],
        ),
        (
            "two_runs",
            [
                "greedy bots, romans_in_play 11",
                "greedy bots, romans_in_play 13",
                "search bots, romans_in_play 11",
                "search bots, romans_in_play 13",
            ],
        ),
    ],
)
def test_columns_are_the_swept_values_in_words_and_csvs_keep_the_ids(case, headers, request):
    out, _ = request.getfixturevalue(case)
    summary = (out / "summary.md").read_text()
    roles = table(section(summary, "Roles"))
    assert list(roles[0])[1:] == headers
    seats = pl.read_csv(out / "win_by_seat.csv")
    assert seats["label"].unique(maintain_order=True).to_list() == headers
    assert set(seats["variant"]) <= {f"v{i}" for i in range(4)}  # the ids, for scripts
    balance = pl.read_csv(out / "balance.csv")
    assert {"run", "variant", "label"} <= set(balance.columns)


def test_a_difference_column_says_the_one_value_that_changes(one_axis, grid):
    (out, _), (out2, _) = one_axis, grid
    title = "Significant differences from the baseline"
    diff = table(section((out / "summary.md").read_text(), title))
    assert "romans_in_play 14 vs 11" in diff[0]
    diff2 = table(section((out2 / "summary.md").read_text(), title))
    assert "4 players, rp_as_vp 1 → 2" in diff2[0]


def test_values_in_words():
    assert value_words("advanced", True) == "advanced true"
    assert value_words("advanced", False) == "advanced false"
    assert value_words("bots", "search") == "search bots"
    assert value_words("players", 1) == "1 player"
    assert value_words("roles.trusted.rp_as_vp", 2) == "rp_as_vp 2"


def test_the_forest_plot_explains_its_marks(one_axis):
    _, figures = one_axis
    texts, legends = figures["Variant vs baseline (star: significant after Holm)"]
    titles = dict(legends)
    assert set(titles) == {"variant (colour)", "marks"}
    assert titles["variant (colour)"] == ["romans_in_play 13", "romans_in_play 14"]
    marks = " ".join(titles["marks"])
    for said in ("dot: the change", "bar: its own 95% interval", "not simultaneous", "star:"):
        assert said in marks, marks
    comparisons = pl.read_csv(one_axis[0] / "variant_differences.csv").height
    assert f"significant (Holm, {comparisons} tests)" in marks


@pytest.mark.parametrize(
    "lo, hi, words",
    [
        (1.0, 1.3, "1.0-1.3 points"),  # not "1 points"
        (1.3, 1.3, "1.3 points"),
        (0.4, 0.4, "0.4 points"),  # not "0 points"
        (0.4, 1.2, "0.4-1.2 points"),
        (2.6, 2.6, "3 points"),
        (2.6, 4.2, "3-4 points"),
        (11.8, 12.1, "12 points"),
        (0.3, 8.7, "up to 9 points"),  # not "0-9 points"
        (0.02, 1.2, "up to 1.2 points"),
    ],
)
def test_the_gap_between_groups_in_words(lo, hi, words):
    from reports.findings import gap_words

    assert gap_words(lo, hi) == words


def _seat_rows(label, fair, rates):
    return [
        {
            "order": i,
            "label": label,
            "seat": s,
            "fair": fair,
            "win_rate": w,
            "ci_low": w - 0.02,
            "ci_high": w + 0.02,
            "p_holm_significant": False,
        }
        for i, (s, w) in enumerate(enumerate(rates))
    ]


def test_no_significant_seat_over_player_counts_names_the_variant_and_its_fair_share():
    from reports.memo import _extremes_sentence

    rows = _seat_rows("2 players", 0.5, [0.484, 0.516])
    rows += _seat_rows("5 players", 0.2, [0.206, 0.204, 0.177, 0.201, 0.212])
    t = {"win_by_seat": pl.DataFrame(rows)}
    several = _extremes_sentence(t, "role", "seat", several=True)
    assert several == (
        "No seat wins significantly more or less than its fair share in any variant; the rates "
        "are furthest apart in 5 players: 17.7% [15.7, 19.7] to 21.2% [19.2, 23.2], against a "
        "fair 20%."
    )
    one = _extremes_sentence({"win_by_seat": pl.DataFrame(rows[2:])}, "role", "seat", False)
    assert one.startswith("No seat wins significantly more or less than its fair share of 20%")


def test_and_more_counts_in_the_singular_and_the_plural():
    from reports.memo import and_more

    assert and_more(1, "role") == " and 1 more role"  # the level run read "1 more roles"
    assert and_more(3, "role") == " and 3 more roles"
    assert and_more(2, "destiny") == " and 2 more destinies"
    assert and_more(0, "role") == ""


def _step(unit, group, significant=False):
    return {
        "axis": "breaches_to_lose",
        "from": 5,
        "to": 8,
        "stratum": "4 players",
        "unit": unit,
        "group": group,
        "diff": 0.01,
        "ci_low": -0.01,
        "ci_high": 0.03,
        "method": "paired",
        "significant": significant,
    }


def test_a_sweep_without_roles_moves_no_seat_not_no_role():
    from reports.memo import axis_sentences

    seats = pl.DataFrame([_step("seat", "0")])  # the Great Wall: seat 0 only, no roles
    assert axis_sentences(seats, "role") == [
        "At 4 players, breaches_to_lose 5 → 8 moves no seat's win rate significantly (after Holm)."
    ]
    roles = pl.DataFrame([_step("role", "trusted"), _step("seat", "0")])
    assert "moves no role's win rate" in axis_sentences(roles, "role")[0]
