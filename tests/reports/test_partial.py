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
