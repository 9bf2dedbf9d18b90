"""`menhir report --partial` of a killed run: the games it has, and a warning saying how many of
how many (issue 19, defect 4); without --partial the run is refused (tests/test_bad_inputs.py)."""

import json

import pytest
from click.testing import CliRunner

import experiments
from experiments.cli import cli
from sim.core import registry
from tests.experiments.conftest import FAKE, FAKE_MODULE, config_text


@pytest.fixture(autouse=True)
def fake_game(monkeypatch):
    monkeypatch.setitem(registry.GAME_MODULES, FAKE, FAKE_MODULE)


def test_partial_report_of_a_killed_run_warns_with_the_counts(tmp_path):
    config = tmp_path / "exp.toml"
    config.write_text(config_text(games=40, chunk_games=20, params={"dice": [2, 3]}))
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    path = run / "manifest.json"
    m = json.loads(path.read_text())
    m["status"] = "running"
    m["variants"][1]["chunks"].pop()
    m["variants"][1].update(games_done=20, stop_reason=None)
    path.write_text(json.dumps(m))
    (run / "games" / "variant=v1" / "part-000000000020-20.parquet").unlink()
    (run / "players" / "variant=v1" / "part-000000000020-20.parquet").unlink()
    result = CliRunner().invoke(cli, ["report", str(run), "--partial"])
    assert result.exit_code == 0, result.output
    assert (
        f"menhir: warning: {run}: incomplete run, 60 of 80 games played; "
        "the report covers these games only"
    ) in result.stderr
    summary = (run / "report" / "summary.md").read_text()
    assert "INCOMPLETE RUN: t played 60 of 80 games" in summary  # at the top, not only on stderr
    assert summary.index("INCOMPLETE RUN") < summary.index("## Flags")
    assert "INCOMPLETE RUN" in (run / "report" / "report.html").read_text()


def _finished(tmp_path):
    config = tmp_path / "exp.toml"
    config.write_text(config_text(games=60, chunk_games=20, params={"dice": [2, 3]}))
    return experiments.run(config, tmp_path / "run", jobs=1, progress=False)


def test_a_duplicated_chunk_is_refused_not_counted_twice(tmp_path):
    """Issue 36, defect 5: a copied chunk file made v0 400 games in a 300-game run."""
    run = _finished(tmp_path)
    for table in ("games", "players"):
        folder = run / table / "variant=v0"
        src = folder / "part-000000000000-20.parquet"
        (folder / "part-000000000100-20.parquet").write_bytes(src.read_bytes())
    result = CliRunner().invoke(cli, ["report", str(run)])
    assert result.exit_code == 2
    assert "part-000000000100-20.parquet: a chunk file the manifest does not list" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (run / "report").exists()
    result = CliRunner().invoke(cli, ["report", str(run), "--partial"])
    assert result.exit_code == 0, result.output
    from reports.load import load_run

    games = load_run(run, partial=True).games.collect()
    assert games.height == 120  # 2 variants x 60 listed games, not 140


def test_a_listed_chunk_missing_from_a_complete_run_is_refused(tmp_path):
    """Issue 36, defect 5: a chunk missing from a run marked complete was left out, exit 0."""
    run = _finished(tmp_path)
    (run / "players" / "variant=v1" / "part-000000000020-20.parquet").unlink()
    result = CliRunner().invoke(cli, ["report", str(run)])
    assert result.exit_code == 2
    assert "listed in the manifest but missing" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (run / "report").exists()
