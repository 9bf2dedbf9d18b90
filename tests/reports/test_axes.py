"""Several swept axes (issue 37 item 1): each effect is read along one axis with the others held
fixed, per stratum, paired; interactions are named; plots never pool player counts.

The synthetic grid sweeps players [3, 4] x rp_as_vp [1, 2] (v0: 3 players rp 1, v1: 3 players
rp 2, v2: 4 players rp 1, v3: 4 players rp 2) on common random numbers; the Trusted's score gets
+10 in v1 and +40 in v3, so rp_as_vp moves the Trusted at both counts, by different amounts.
"""

import polars as pl
import pytest

from reports import make_report, plots
from reports.synthetic import write_run
from reports.wording import pts_ci
from tests.reports.mdtable import section, table

GRID = {"players": [3, 4], "roles.trusted.rp_as_vp": [1, 2]}


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    base = tmp_path_factory.mktemp("axes")
    run = write_run(
        base / "run", games=3000, grid=GRID, boost={1: ("trusted", 10), 3: ("trusted", 40)}
    )
    calls = {"heat": [], "panels": []}
    mp = pytest.MonkeyPatch()
    heat, panel = plots.sns.heatmap, plots._sweep_panel
    mp.setattr(
        plots.sns, "heatmap", lambda data, **kw: calls["heat"].append(data) or heat(data, **kw)
    )

    def spy(ax, t, *a, **k):
        calls["panels"].append(t)
        return panel(ax, t, *a, **k)

    mp.setattr(plots, "_sweep_panel", spy)
    try:
        out = make_report([run], base / "report")
    finally:
        mp.undo()
    return run, out, calls


def _paired_trusted(run, variant, base) -> tuple[float, int]:
    """Mean per-game difference of the Trusted's wins, variant minus base, by hand."""
    p = pl.read_parquet(run / "players" / "*" / "*.parquet", hive_partitioning=False)
    per = p.filter(pl.col("role") == "trusted").group_by("variant", "game").agg(pl.col("win").sum())
    a = per.filter(pl.col("variant") == variant).drop("variant")
    b = per.filter(pl.col("variant") == base).drop("variant").rename({"win": "wb"})
    j = a.join(b, on="game")
    return float((j["win"] - j["wb"]).mean()), j.height


def test_each_variant_is_compared_along_one_axis_within_its_player_count(grid):
    run, out, _ = grid
    d = pl.read_csv(out / "variant_differences.csv")
    pairs = set(zip(d["variant"], d["baseline"], d["axis"], d["stratum"], strict=True))
    # v1 against v0 (3 players), v3 against v2 (4 players): never v3 against v0 (both axes)
    assert {(v, a, s) for v, _, a, s in pairs} == {
        ("v1", "roles.trusted.rp_as_vp", "3 players"),
        ("v3", "roles.trusted.rp_as_vp", "4 players"),
    }
    assert set(d["method"]) == {"paired"}
    for variant, base, stratum in (("v1", "v0", "3 players"), ("v3", "v2", "4 players")):
        row = d.filter((pl.col("variant") == variant) & (pl.col("group") == "trusted")).row(
            0, named=True
        )
        diff, n = _paired_trusted(run, variant, base)
        assert row["diff"] == pytest.approx(diff)
        assert row["n"] == n
        assert row["stratum"] == stratum
        assert (row["from"], row["to"]) == (1, 2)


def test_headline_reads_each_stratum_and_names_the_interaction(grid):
    run, out, _ = grid
    d = pl.read_csv(out / "variant_differences.csv").filter(pl.col("group") == "trusted")
    r4 = d.filter(pl.col("stratum") == "4 players").row(0, named=True)
    r3 = d.filter(pl.col("stratum") == "3 players").row(0, named=True)
    text = (out / "summary.md").read_text()
    head = text.split("\n## ")[0]
    effect4 = pts_ci(r4["diff"], r4["ci_low"], r4["ci_high"])
    moved = f"At 4 players, rp_as_vp 1 → 2 moves the Trusted {effect4} points (paired"
    assert moved in head and "(paired) (after Holm)" not in head
    assert "At 3 players, rp_as_vp 1 → 2 moves" in head
    # the two strata's intervals are apart: an interaction, with both effects
    assert r4["ci_low"] > r3["ci_high"]
    effect3 = pts_ci(r3["diff"], r3["ci_low"], r3["ci_high"])
    assert "Interaction: the effect of rp_as_vp 1 → 2 depends on the other settings" in head
    assert f"{effect4} at 4 players, {effect3} at 3 players" in head
    # never the old sentence that moves both axes at once
    assert "Changing players" not in head
    assert "players=" not in head


def test_tables_are_headed_by_the_values_in_words(grid):
    _, out, _ = grid
    text = (out / "summary.md").read_text()
    cols = list(table(section(text, "Significant differences from the baseline"))[0])
    assert cols[1:] == ["3 players, rp_as_vp 1 → 2", "4 players, rp_as_vp 1 → 2"]
    roles = list(table(section(text, "Roles"))[0])
    assert roles[1:] == [
        "3 players, rp_as_vp 1",
        "3 players, rp_as_vp 2",
        "4 players, rp_as_vp 1",
        "4 players, rp_as_vp 2",
    ]


def test_plots_have_one_panel_per_stratum(grid):
    _, _, calls = grid
    # role x seat heatmap: one panel per player count, each with its own seats
    assert [list(h.columns) for h in calls["heat"]] == [[0, 1, 2], [0, 1, 2, 3]]
    # sweep plots (roles, seats): one panel per player count, each with that count's variants
    strata = [sorted(set(t["stratum"])) for t in calls["panels"]]
    assert strata == [["3 players"], ["4 players"]] * 2


def test_axes_and_load_name_variants_alike():
    """reports.axes keeps its own copy of the (run, variant) key: load imports axes."""
    from reports import axes, load

    assert axes.KEY == load.KEY
