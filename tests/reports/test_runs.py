"""Several runs in one report (issue 37 item 2): variants aligned by what differs, one setting
changed per comparison, the "Across bot levels" section for runs that differ by bot level, each
level at its own game count, and a verdict that says when a level has too few games.

Two synthetic runs sweep romans_in_play [11, 13] (the Trusted +30 score at 13); the greedy run
plays 4,000 games a variant, the search run 150 (another seed: not paired with greedy).
"""

import json

import polars as pl
import pytest

from reports import make_report
from reports.levels import TOO_FEW
from reports.load import ReportError
from reports.synthetic import write_run


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    boost = {1: ("trusted", 30)}
    a = write_run(base / "greedy", games=4000, name="greedy", boost=boost)
    b = write_run(base / "search", games=150, name="search", bot="search", seed=1, boost=boost)
    return a, b, make_report([a, b], base / "report")


def _swept(run) -> dict:
    m = json.loads((run / "manifest.json").read_text())
    return {v["id"]: {"bots": v["setup"]["bots"][0], **v["swept"]} for v in m["variants"]}


def test_each_comparison_changes_one_setting_and_says_which(two):
    a, b, out = two
    values = {("greedy", k): v for k, v in _swept(a).items()}
    values |= {("search", k): v for k, v in _swept(b).items()}
    d = pl.read_csv(out / "variant_differences.csv")
    assert d.height
    for r in d.iter_rows(named=True):
        mine = values[(r["run"], r["variant"])]
        # the baseline's run and variant are in the label's words: find it by its values
        changed = set()
        for key, theirs in values.items():
            diff = {k for k in mine if mine[k] != theirs[k]}
            if diff == {r["axis"].rsplit(".")[-1]}:
                changed.add(key)
        assert changed, r
        assert str(mine[r["axis"]]) == str(r["to"])
    bots = d.filter(pl.col("axis") == "bots")
    assert set(bots["from"]) == {"greedy"} and set(bots["to"]) == {"search"}
    assert set(bots["method"]) == {"unpaired"}  # other seeds: never paired
    text = (out / "summary.md").read_text()
    assert "romans_in_play 13, bots greedy → search" in text
    assert "at True" not in text


def test_runs_differing_by_bot_level_get_the_across_levels_section(two):
    a, b, out = two
    text = (out / "summary.md").read_text()
    assert "## Across bot levels" in text
    across = pl.read_csv(out / "across_levels.csv")
    p = pl.concat(
        [
            pl.read_parquet(r / "players" / "*" / "*.parquet", hive_partitioning=False)
            for r in (a, b)
        ]
    )
    plays = dict(
        p.filter(pl.col("role") == "trusted")
        .group_by("strategy", "variant")
        .len()
        .select(pl.concat_str("strategy", "variant", separator="/"), "len")
        .iter_rows()
    )
    trusted = across.filter((pl.col("who") == "trusted") & pl.col("context").str.contains("13"))
    by_level = trusted["by_level"][0]
    # each level at its own game count, not cut to the smaller run's
    assert f"({plays['greedy/v1']:,} plays)" in by_level
    assert f"({plays['search/v1']:,} plays)" in by_level


def test_too_few_games_is_said_not_vanishes(two):
    _, _, out = two
    across = pl.read_csv(out / "across_levels.csv")
    unsure = across.filter(pl.col("verdict").str.starts_with(TOO_FEW))
    assert unsure.height  # 150 search games cannot confirm every greedy finding
    for r in unsure.iter_rows(named=True):
        assert r["verdict"] == f"{TOO_FEW} search to call it"
        assert not r["bot_dependent"]
    text = (out / "summary.md").read_text()
    assert "not called (too few games at a level)" in text
    assert "Not called (significant at one level" in text


def test_runs_of_different_games_are_refused_in_one_line(two, tmp_path):
    a, _, _ = two
    other = write_run(tmp_path / "other", games=50, name="other")
    m = json.loads((other / "manifest.json").read_text())
    m["game"] = "celtae"
    (other / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(ReportError) as err:
        make_report([a, other], tmp_path / "rep")
    assert "\n" not in str(err.value) and "one game" in str(err.value)
