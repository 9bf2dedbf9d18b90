"""The command line through click's CliRunner: output and error paths (STYLE.md 9)."""

import pytest
from click.testing import CliRunner

from experiments.cli import cli
from sim.core.bench import games_per_second
from sim.core.registry import GAME_MODULES, make_setup


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


def test_games_lists_every_game_with_parameters(runner):
    result = runner.invoke(cli, ["games"])
    assert result.exit_code == 0, result.output
    for game_id in GAME_MODULES:
        assert game_id in result.output
    assert "romans_in_play = 14/13/12/11 by players" in result.output
    assert "fastest" in result.output and "greedy" in result.output
    # issue 24: each game's word for a role, and how a shared win counts
    assert "a win shared by k players counts 1/k" in result.output.splitlines()[0]
    assert "leaders: " in result.output and "roles: " in result.output


def test_play_prints_scores_and_trace_is_deterministic(runner):
    args = ["play", "celtic_trader", "--players", "3", "--seed", "7", "--trace"]
    first = runner.invoke(cli, args)
    second = runner.invoke(cli, args)
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    assert first.output.count("seat ") >= 3 and "score" in first.output
    other = runner.invoke(
        cli, ["play", "celtic_trader", "--players", "3", "--seed", "8", "--trace"]
    )
    assert other.output != first.output


def test_play_with_overrides_and_bots(runner):
    result = runner.invoke(
        cli,
        [
            "play",
            "celtic_trader",
            "-p",
            "2",
            "--bots",
            "greedy,random",
            "--set",
            "romans_in_play=11",
            "--set",
            "turn_limit=5",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "seat 0 greedy" in result.output and "seat 1 random" in result.output


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["play", "celtic_trader", "--players", "6"], "players = 6 is not allowed"),
        (["play", "celtic_trader", "--players", "1"], "2 to 5"),
        (["play", "celtic_trader", "--set", "romans=3"], "unknown parameter 'romans'"),
        (["play", "celtic_trader", "--set", "romans_in_play=40"], "'romans_in_play' = 40"),
        (["play", "celtic_trader", "--set", "romans_in_play"], "KEY=VALUE"),
        (["play", "celtic_trader", "--bots", "genius"], "unknown bot 'genius'"),
        (["play", "celtic_trader", "--roles", "boss,fastest"], "unknown role 'boss'"),
        (["play", "chess"], "unknown game 'chess'"),
        (["bench", "--game", "chess"], "unknown game 'chess'"),
        (["bench", "--game", "celtica", "--bot", "gredy"], "unknown bot 'gredy'"),
    ],
)
def test_user_errors_are_one_line_exit_2(runner, args, fragment):
    result = runner.invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert fragment in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_bench_rate_measurement_runs(fake_game_cli):
    setup = make_setup("fake_dice", 2)
    games, elapsed = games_per_second(setup, 0.05)
    assert games >= 16 and elapsed >= 0.05


@pytest.fixture
def fake_game_cli(monkeypatch):
    from sim.core import registry

    monkeypatch.setitem(registry.GAME_MODULES, "fake_dice", "tests.core.fake_game")


def test_ctrl_c_in_a_command_is_one_line_exit_130(runner, monkeypatch):
    """Issue 19, defect 9: no traceback, no 'Aborted!' after a blank line."""

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("sim.core.batch.trace_game", interrupted)
    result = runner.invoke(cli, ["play", "celtic_trader", "--players", "2"])
    assert result.exit_code == 130
    assert result.output == "menhir: interrupted; nothing was written\n"


def test_command_modules_import_no_sibling_and_not_the_entry_module():
    """Issue 19: the group and MenhirError live below the commands (sim.core.cli), so the
    import graph of the command line has no circle."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    commands = {
        "experiments.run_cli": "experiments/run_cli.py",
        "experiments.balance_cli": "experiments/balance_cli.py",
        "experiments.check_cli": "experiments/check_cli.py",
        "reports.cli": "reports/cli.py",
        "strategies.ladder_cli": "strategies/ladder_cli.py",
    }
    forbidden = {"experiments.cli", *commands}
    for name, path in commands.items():
        tree = ast.parse((root / path).read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} | {
            a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names
        }
        assert not (imported & (forbidden - {name})), f"{name} imports {imported & forbidden}"
    base = ast.parse((root / "sim/core/cli.py").read_text())
    assert not any(
        isinstance(n, ast.ImportFrom)
        and n.module
        and n.module.startswith(("experiments", "reports"))
        for n in ast.walk(base)
    )


def test_play_names_a_side_only_where_it_is_not_the_role_itself(runner):
    troy = runner.invoke(cli, ["play", "catan_troy", "-p", "4"])
    assert troy.exit_code == 0, troy.output
    assert "decision card troy" in troy.output and "side troy" not in troy.output
    celtae = runner.invoke(cli, ["play", "celtae", "-p", "2"])
    assert celtae.exit_code == 0, celtae.output
    assert " side A" in celtae.output or " side B" in celtae.output  # a leader's chosen side
