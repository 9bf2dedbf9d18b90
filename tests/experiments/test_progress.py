"""Progress output: a bar with games/s and ETA on a terminal, one line per variant otherwise."""

import io

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
