"""Progress output: a bar with games/s and ETA on a terminal, one line per variant otherwise."""

import io

import pytest

import experiments


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_terminal_gets_a_bar_with_rate_and_eta(write_config, tmp_path, monkeypatch):
    stream = Terminal()
    monkeypatch.setattr("sys.stderr", stream)
    experiments.run(
        write_config(params={"dice": [2, 3]}, games=400, chunk_games=50), tmp_path / "run", jobs=1
    )
    text = stream.getvalue()
    assert "800/800" in text and "game/s" in text and "<00:00" in text
    assert "v0 dice 2: 400 games" in text and "v1 dice 3: 400 games" in text


def test_a_pipe_gets_one_line_per_variant(write_config, tmp_path, capsys):
    experiments.run(write_config(params={"dice": [2, 3]}, games=100), tmp_path / "run", jobs=1)
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("v0 dice 2: 100 games, ") and lines[0].endswith("stop: games")
    assert "games/s" in lines[1]


def test_progress_false_is_silent(write_config, tmp_path, capsys):
    experiments.run(write_config(), tmp_path / "run", jobs=1, progress=False)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "command, module, function",
    [
        ("run", "experiments.runner", "run_experiment"),
        ("challenge", "experiments.challenge_search", "challenge"),
        ("balance", "experiments.balance_search", "balance"),
        ("screen", "experiments.screening", "screen"),
    ],
)
def test_every_long_command_takes_no_progress(command, module, function, tmp_path, monkeypatch):
    """--progress/--no-progress on every command that plays for long: the flag reaches it."""
    import importlib

    from click.testing import CliRunner

    from experiments.cli import cli

    seen = {}

    class Stop(Exception):
        pass

    def fake(*args, **kwargs):
        seen.update(kwargs)
        raise Stop

    monkeypatch.setattr(importlib.import_module(module), function, fake)
    config = tmp_path / "c.toml"
    config.write_text('name = "c"\ngame = "celtic_trader"\n')
    args = [command, str(config), "--out", str(tmp_path / "out"), "--no-progress"]
    if command == "challenge":
        args += ["--target", "trusted"]
    result = CliRunner().invoke(cli, args)
    assert isinstance(result.exception, Stop), result.output
    assert seen["progress"] is False
