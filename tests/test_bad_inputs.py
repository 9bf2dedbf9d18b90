"""Every bad input, one table (issue 19): the command, exit code 2, one line naming what is wrong
and what is allowed, no traceback, and every folder left exactly as it was.

Each case is ``(name, argv, fragment, prepare)``: ``argv`` is formatted with the case's folder
(``{tmp}``), a complete run of the fake game (``{run}``) and a config of it (``{cfg}``);
``prepare(tmp)``, when given, sets up what the case needs before the folder is snapshotted.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import experiments
from experiments.cli import cli
from sim.core import registry
from tests.experiments.conftest import FAKE, FAKE_MODULE, config_text

MAX_SEED = 2**63 - 1


@pytest.fixture(scope="module", autouse=True)
def fake_game():
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.GAME_MODULES, FAKE, FAKE_MODULE)
        yield


@pytest.fixture(scope="module")
def complete_run(tmp_path_factory, fake_game):
    """A small complete run of the fake game, copied into each case that needs one."""
    folder = tmp_path_factory.mktemp("complete")
    config = folder / "exp.toml"
    config.write_text(config_text(games=20, params={"dice": [2, 3]}))
    experiments.run(config, folder / "run", jobs=1, progress=False)
    return folder


def _write(name: str, text: str | bytes):
    def prepare(tmp: Path) -> None:
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)

    return prepare


def _config(filename: str = "bad.toml", **kwargs):
    return _write(filename, config_text(**kwargs))


def _huge_grid(tmp: Path) -> None:
    """10 x 100 x 1000 = 10**6 variants: refused before any is built."""
    bonus = [round(0.05 * k, 2) for k in range(100)]
    delay = [float(k) for k in range(1000)]
    _config("bad.toml", params={"dice": list(range(1, 11)), "bonus": bonus, "delay_ms": delay})(tmp)


def _manifest(text: str):
    def prepare(tmp: Path) -> None:
        (tmp / "run" / "manifest.json").write_text(text)

    return prepare


def _wrong_chunks(tmp: Path) -> None:
    path = tmp / "run" / "manifest.json"
    m = json.loads(path.read_text())
    m["variants"][0]["chunks"] = [[0]]
    path.write_text(json.dumps(m))


def _symlink_loop(tmp: Path) -> None:
    os.symlink(tmp / "loop.toml", tmp / "loop.toml")


def _unreadable(name: str):
    """chmod 000 does not stop root (the test machine), so the read itself is made to fail."""

    def prepare(tmp: Path, monkeypatch) -> None:
        target = tmp / name
        real = Path.read_bytes
        real_text = Path.read_text

        def read_bytes(self):
            if self == target:
                raise PermissionError(13, "Permission denied", str(self))
            return real(self)

        def read_text(self, *args, **kwargs):
            if self == target:
                raise PermissionError(13, "Permission denied", str(self))
            return real_text(self, *args, **kwargs)

        monkeypatch.setattr(Path, "read_bytes", read_bytes)
        monkeypatch.setattr(Path, "read_text", read_text)

    prepare.needs_monkeypatch = True
    return prepare


def _other_game_run(tmp: Path) -> None:
    shutil.copytree(tmp / "run", tmp / "run2")
    path = tmp / "run2" / "manifest.json"
    m = json.loads(path.read_text())
    m["game"] = "celtica"
    path.write_text(json.dumps(m))


def _killed_run(tmp: Path) -> None:
    """As a kill leaves it: status running, a chunk not yet played."""
    path = tmp / "run" / "manifest.json"
    m = json.loads(path.read_text())
    m["status"] = "running"
    first, n = m["variants"][1]["chunks"].pop()
    m["variants"][1]["games_done"] -= n
    m["variants"][1]["stop_reason"] = None
    path.write_text(json.dumps(m))


_held_locks: list[int] = []


def _hold_lock(tmp: Path) -> None:
    """Another process holds the run: an flock on RUN/.lock with its pid written in it."""
    fd = os.open(tmp / "run" / ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.ftruncate(fd, 0)
    os.write(fd, b"4242\n")
    _held_locks.append(fd)


def _variant_file(game: str, old: str, new: str):
    """A config of ``game`` playing ``my.toml``: the shipped data file with ``old`` replaced."""

    def prepare(tmp: Path) -> None:
        text = registry.get_game(game).data.file.read_text()
        assert old in text, old
        (tmp / "my.toml").write_text(text.replace(old, new, 1))
        (tmp / "var.toml").write_text(
            f'name = "var"\ngame = "{game}"\ngames = 10\nbots = "random"\ndata = "my.toml"\n'
        )

    return prepare


VARIANT = ["run", "{tmp}/var.toml", "--out", "{tmp}/new"]


RUN = ["run", "{cfg}", "--out", "{tmp}/new"]
RESUME = ["run", "{cfg}", "--out", "{run}", "--resume"]

# (name, argv, message fragment, prepare)
CASES = [
    # defect 2: non-finite numbers in any parameter
    (
        "nan bot parameter in a config",
        ["run", "{tmp}/bad.toml", "--out", "{tmp}/new"],
        "'edge' = nan is not allowed: a finite number",
        _config(bots="greedy:edge=nan"),
    ),
    (
        "inf game parameter in a config",
        ["run", "{tmp}/bad.toml", "--out", "{tmp}/new"],
        "'bonus' = inf is not allowed: a finite number",
        _write("bad.toml", config_text() + "[params]\nbonus = inf\n"),
    ),
    (
        "nan bot parameter in play",
        ["play", FAKE, "--bots", "greedy:edge=nan"],
        "'edge' = nan is not allowed: a finite number",
        None,
    ),
    (
        "nan weight of a real game's bot in play",
        ["play", "celtic_trader", "--bots", "greedy:claim_weight=nan"],
        "'claim_weight' = nan is not allowed: a finite number",
        None,
    ),
    (
        "-inf game parameter in play",
        ["play", FAKE, "--set", "bonus=-inf"],
        "'bonus' = -inf is not allowed: a finite number",
        None,
    ),
    (
        "nan bot parameter in ladder",
        ["ladder", FAKE, "--bots", "random,greedy:edge=nan"],
        "'edge' = nan is not allowed: a finite number",
        None,
    ),
    # defect 5: seeds are 0 .. 2**63 - 1 in every command
    (
        "negative seed in play",
        ["play", FAKE, "--seed", "-1"],
        f"--seed: '-1' is not allowed: an integer in [0, {MAX_SEED}]",
        None,
    ),
    (
        "seed 2**63 in play",
        ["play", FAKE, "--seed", str(2**63)],
        f"is not allowed: an integer in [0, {MAX_SEED}]",
        None,
    ),
    (
        "seed 2**64 in ladder",
        ["ladder", FAKE, "--seed", str(2**64)],
        f"--seed: '{2**64}' is not allowed: an integer in [0, {MAX_SEED}]",
        None,
    ),
    (
        "negative seed in ladder",
        ["ladder", FAKE, "--seed", "-1"],
        f"an integer in [0, {MAX_SEED}]",
        None,
    ),
    (
        "seed 2**63 in a config",
        ["run", "{tmp}/bad.toml", "--out", "{tmp}/new"],
        f"key 'seed': {2**63} is not allowed: an integer in [0, {MAX_SEED}]",
        _config(seed=2**63),
    ),
    # defect 7: the size of a sweep
    (
        "a 10**6-variant grid",
        ["run", "{tmp}/bad.toml", "--out", "{tmp}/new"],
        "the sweep makes 1,000,000 variants (params.dice 10 x params.bonus 100 x params.delay_ms "
        "1000), more than the limit of 10,000; allow it with --max-variants 1000000",
        _huge_grid,
    ),
    (
        "a lowered limit",
        ["run", "{tmp}/bad.toml", "--out", "{tmp}/new", "--max-variants", "3"],
        "the sweep makes 4 variants",
        _config(players=[2, 3], params={"dice": [1, 2]}),
    ),
    (
        "--max-variants 0",
        [*RUN, "--max-variants", "0"],
        "--max-variants: '0' is not allowed: an integer >= 1",
        None,
    ),
    # defect 10: tracebacks instead of one line
    (
        "config path through a file",
        ["run", "{tmp}/file.toml/x.toml", "--out", "{tmp}/new"],
        "file.toml/x.toml: cannot read the config file (Not a directory)",
        _write("file.toml", "x = 1\n"),
    ),
    (
        "config symlink loop",
        ["run", "{tmp}/loop.toml", "--out", "{tmp}/new"],
        "loop.toml: cannot read the config file (Too many levels of symbolic links)",
        _symlink_loop,
    ),
    (
        "unreadable config",
        ["run", "{tmp}/c.toml", "--out", "{tmp}/new"],
        "c.toml: cannot read the config file (Permission denied)",
        [_config("c.toml"), _unreadable("c.toml")],
    ),
    (
        "manifest not an object",
        [*RESUME],
        "manifest.json: corrupt manifest (not a JSON object",
        _manifest("[1, 2]"),
    ),
    (
        "manifest variants not a list",
        [*RESUME],
        "corrupt manifest (key 'variants'",
        _manifest('{"variants": {"v0": 1}, "chunk_games": 1, "games_per_variant": 2}'),
    ),
    (
        "manifest chunk of the wrong shape",
        [*RESUME],
        "corrupt manifest (variants[0].chunks",
        _wrong_chunks,
    ),
    (
        "unreadable manifest",
        [*RESUME],
        "manifest.json: cannot read (Permission denied)",
        _unreadable("run/manifest.json"),
    ),
    (
        "report of an unreadable manifest",
        ["report", "{run}", "--out", "{tmp}/rep"],
        "manifest.json: cannot read (Permission denied)",
        _unreadable("run/manifest.json"),
    ),
    (
        "report of a manifest not an object",
        ["report", "{run}", "--out", "{tmp}/rep"],
        "manifest.json: not a JSON object",
        _manifest("[1, 2]"),
    ),
    # defect 3: a report of one run twice, or of runs of different games
    (
        "report of one run twice",
        ["report", "{run}", "{tmp}/./run", "--out", "{tmp}/rep"],
        "{run} and {tmp}/run are the same run; give each run once",
        None,
    ),
    (
        "report of two games",
        ["report", "{run}", "{tmp}/run2", "--out", "{tmp}/rep"],
        "{run} is a run of fake_runner and {tmp}/run2 a run of celtica",
        _other_game_run,
    ),
    # defect 4: a report of a killed run needs --partial
    (
        "report of a killed run",
        ["report", "{run}", "--out", "{tmp}/rep"],
        "{run}: incomplete run, 20 of 40 games played; complete it with",
        _killed_run,
    ),
    # defect 11: run names are safe folder names
    (
        "run name '.'",
        ["run", "{tmp}/bad.toml"],
        "key 'name': '.' is not allowed",
        _config(name="."),
    ),
    (
        "run name '..'",
        ["run", "{tmp}/bad.toml"],
        "key 'name': '..' is not allowed",
        _config(name=".."),
    ),
    (
        "hidden run name",
        ["run", "{tmp}/bad.toml"],
        "not starting with '.'",
        _config(name=".hidden"),
    ),
    # defect 12: --resume of a folder that does not exist
    (
        "resume of a missing folder",
        ["run", "{cfg}", "--out", "{tmp}/nothing", "--resume"],
        "nothing: no run to resume (the folder does not exist); start it without --resume",
        None,
    ),
    # defect 13: click's own errors, one line naming the option and what is allowed
    ("--games 0", [*RUN, "--games", "0"], "--games: '0' is not allowed: an integer >= 1", None),
    ("--jobs 0", [*RUN, "--jobs", "0"], "--jobs: '0' is not allowed: an integer >= 1", None),
    ("--jobs abc", [*RUN, "--jobs", "abc"], "--jobs: 'abc' is not allowed: an integer >= 1", None),
    (
        "--seed abc",
        ["play", FAKE, "--seed", "abc"],
        f"--seed: 'abc' is not allowed: an integer in [0, {MAX_SEED}]",
        None,
    ),
    (
        "--out is a file",
        ["run", "{cfg}", "--out", "{tmp}/afile"],
        "--out: '{tmp}/afile' is a file, not allowed: a folder",
        _write("afile", "mine"),
    ),
    (
        "report --out is a file",
        ["report", "{run}", "--out", "{tmp}/afile"],
        "--out: '{tmp}/afile' is a file, not allowed: a folder",
        _write("afile", "mine"),
    ),
    (
        "ladder --games 0",
        ["ladder", FAKE, "--games", "0"],
        "--games: '0' is not allowed: an integer in [1, 100000000]",
        None,
    ),
    (
        "ladder --jobs -2",
        ["ladder", FAKE, "--jobs", "-2"],
        "--jobs: '-2' is not allowed: an integer >= 1",
        None,
    ),
    ("bench --jobs 0", ["bench", "--jobs", "0"], "--jobs: '0' is not allowed", None),
    (
        "--backend",
        [*RUN, "--backend", "mpi"],
        "--backend: 'mpi' is not one of 'local', 'dask'",
        None,
    ),
    (
        "unknown option",
        [*RUN, "--gmaes", "3"],
        "No such option '--gmaes'. Did you mean '--games'? (see '",
        None,
    ),
    ("missing config", ["run"], "Missing argument 'CONFIG'", None),
    ("unknown command", ["rnu"], "No such command 'rnu'", None),
    # defect 14: messages that name what is wrong
    (
        "space in the file name",
        ["run", "{tmp}/my exp.toml"],
        "the file name gives the run name 'my exp', which is not a safe folder name",
        _config("my exp.toml", name=None),
    ),
    (
        "resume with another seed",
        ["run", "{tmp}/other.toml", "--out", "{run}", "--resume"],
        "key 'seed' differs from the config recorded in",
        _config("other.toml", seed=4, games=20, params={"dice": [2, 3]}),
    ),
    (
        "duplicate role",
        ["run", "{tmp}/bad.toml", "--out", "{tmp}/new"],
        "colour 'red' is given to 2 seats; each colour to one seat only",
        _config(roles=["red", "red"]),
    ),
    (
        "duplicate role in play",
        ["play", FAKE, "--roles", "blue,blue"],
        "colour 'blue' is given to 2 seats",
        None,
    ),
    # defect 8: one process at a time in a run folder
    ("run folder in use", [*RESUME], "in use by another menhir run (pid 4242)", _hold_lock),
    # growing a run (issue 24): never shrinking
    (
        "shrinking a run",
        [*RESUME, "--games", "10"],
        "--games 10: the run in {run} already plans 20 games per variant; a run can grow, not "
        "shrink",
        None,
    ),
    # issue 36, defect 8: non-finite numbers in command options
    (
        "check --max-capped nan",
        ["check", FAKE, "--max-capped", "nan"],
        "--max-capped: 'nan' is not allowed: a number in [0, 100]",
        None,
    ),
    (
        "bench --seconds inf",
        ["bench", "--game", FAKE, "--seconds", "inf"],
        "--seconds: 'inf' is not allowed: a number in [0.01, 600]",
        None,
    ),
    (
        "bench --seconds nan",
        ["bench", "--game", FAKE, "--seconds", "nan"],
        "--seconds: 'nan' is not allowed",
        None,
    ),
    # issue 36, defect 17: counts that cannot fit in memory, runs that would not end
    (
        "check --games 10**11",
        ["check", FAKE, "--games", str(10**11)],
        "--games: '100000000000' is not allowed: an integer in [1, 100000000]",
        None,
    ),
    (
        "ladder --games 10**12",
        ["ladder", FAKE, "--games", str(10**12)],
        "--games: '1000000000000' is not allowed: an integer in [1, 100000000]",
        None,
    ),
    (
        "bench --seconds 1e9",
        ["bench", "--game", FAKE, "--seconds", "1e9"],
        "--seconds: '1e9' is not allowed",
        None,
    ),
    (
        "bench --history not UTF-8",
        ["bench", "--game", FAKE, "--seconds", "0.01", "--history", "{tmp}/h.csv"],
        "h.csv: not a bench history (not UTF-8 text)",
        _write("h.csv", b"\xff\xfe\x00garbage"),
    ),
    (
        "bench --floors with a bot the game has not",
        ["bench", "--game", FAKE, "--seconds", "0.01", "--floors", "{tmp}/f.toml"],
        "f.toml: floor 1: fake_runner has no bot 'gredy'",
        _write(
            "f.toml",
            b'[metrics]\ngames_per_s = "at least"\n[[floor]]\ngame = "fake_runner"\n'
            b'bot = "gredy"\nplayers = 3\njobs = 1\nmetric = "games_per_s"\nfloor = 10\n',
        ),
    ),
    # issue 36, defect 10: check seeds past 2**63 - 1 (play refuses their replay commands)
    (
        "check seeds past the last seed",
        ["check", FAKE, "--seed", str(MAX_SEED - 5), "--games", "10"],
        f"--seed: {MAX_SEED - 5} + --games 10 - 1 is past the last seed {MAX_SEED}",
        None,
    ),
    # issue 36, defect 3: a report or a run written inside a run's partition folders
    (
        "report --out inside a partition folder",
        ["report", "{run}", "--out", "{run}/games/variant=v0/w"],
        "inside the run directory",
        None,
    ),
    (
        "run --out inside a partition folder",
        ["run", "{cfg}", "--out", "{run}/games/variant=v0/inner"],
        "inside the run directory",
        None,
    ),
    # issue 36, defect 20: ambiguous input is refused, not settled silently
    (
        "--set the same key twice",
        ["play", FAKE, "--set", "bonus=1", "--set", "bonus=2"],
        "--set bonus: given twice",
        None,
    ),
    (
        "a bot parameter twice",
        ["play", FAKE, "--bots", "greedy:edge=1:edge=2"],
        "parameter 'edge' given twice",
        None,
    ),
    (
        "a line break inside --set",
        ["play", FAKE, "--set", "bonus=1\ndice=3"],
        "--set bonus: a line break",
        None,
    ),
    # issue 36, defects 6 and 19: a variant data file is checked leaf by leaf against the
    # shipped file's kinds, and every message names the user's file and the dotted key
    (
        "a fraction where the data file has an integer",
        VARIANT,
        "my.toml: 'roles.fastest.movement.1' = 14.9 is not allowed: an integer",
        _variant_file(
            "celtic_trader",
            "movement = [0, 14, 24, 37, 53]",
            "movement = [0, 14.9, 24, 37, 53.5]",
        ),
    ),
    (
        "nan in a data file",
        VARIANT,
        "my.toml: 'roles.trusted.rp_as_vp' = nan is not allowed: an integer",
        _variant_file("celtic_trader", "rp_as_vp = 1 ", "rp_as_vp = nan "),
    ),
    (
        "a string for a number in a data file",
        VARIANT,
        """my.toml: 'roles.trusted.rp_as_vp' = "114" is not allowed: an integer""",
        _variant_file("celtic_trader", "rp_as_vp = 1 ", 'rp_as_vp = "114" '),
    ),
    (
        "a table for a number in a data file",
        VARIANT,
        "my.toml: 'game.players_max' = {{",
        _variant_file("celtic_trader", "players_max = 5", "players_max = {a = 1}"),
    ),
    (
        "players_min out of range is reported as players_min",
        VARIANT,
        "my.toml: 'game.players_min' must be a player count within 2..",
        _variant_file("celtic_trader", "players_min = 2", "players_min = 1"),
    ),
    (
        "a validator's error names the user's file (Celtic Trader)",
        VARIANT,
        "my.toml: 'game.players_max' must be within players_min..",
        _variant_file("celtic_trader", "players_max = 5", "players_max = 9"),
    ),
    (
        "a validator's error names the user's file (Celtica)",
        VARIANT,
        "my.toml: 'druids.colours' must name",
        _variant_file("celtica", 'colours = ["white", "red", ', "colours = ["),
    ),
    (
        "a validator's error names the user's file (Catan)",
        VARIANT,
        "my.toml: 'game.resources' must name",
        _variant_file("catan", 'resources = ["lumber", ', "resources = ["),
    ),
    # issue 36, defect 17: a Dask scheduler that is not an address
    (
        "--scheduler not an address",
        [*RUN, "--backend", "dask", "--scheduler", "not an address"],
        "--scheduler 'not an address': not a scheduler address (missing port number",
        None,
    ),
    # issue 36, defect 14: a report folder under a file
    (
        "report --out under a file",
        ["report", "{run}", "--out", "{tmp}/notes.txt/w"],
        "{tmp}/notes.txt/w: {tmp}/notes.txt is a file, not a folder",
        _write("notes.txt", "mine"),
    ),
    # issue 36, defect 16: hostile config files
    (
        "a config of 5,000 nested lists",
        ["run", "{tmp}/deep.toml", "--out", "{tmp}/new"],
        "deep.toml: nested too deeply to be a menhir config",
        _write("deep.toml", 'name = "x"\ngame = "fake_runner"\nx = ' + "[" * 5000 + "]" * 5000),
    ),
    (
        "a config that is a device",
        ["run", "/dev/zero", "--out", "{tmp}/new"],
        "/dev/zero: not a regular file",
        None,
    ),
    (
        "a config that is a FIFO",
        ["run", "{tmp}/fifo.toml", "--out", "{tmp}/new"],
        "fifo.toml: not a regular file",
        lambda tmp: os.mkfifo(tmp / "fifo.toml"),
    ),
    (
        "a config of 2 MB",
        ["run", "{tmp}/big.toml", "--out", "{tmp}/new"],
        "big.toml: 2,000,001 bytes; a config file is at most 1,000,000 bytes",
        _write("big.toml", "#" * 2_000_000 + "\n"),
    ),
]


def _snapshot(folder: Path) -> dict:
    """Every path under ``folder`` with its kind, size, mtime and (for small files) content."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            out[str(path)] = ("link", os.readlink(path))
        elif path.is_dir():
            out[str(path)] = ("dir",)
        elif not path.is_file():  # a FIFO: reading it would block
            out[str(path)] = ("special",)
        else:
            stat = path.stat()
            out[str(path)] = ("file", stat.st_size, stat.st_mtime_ns, path.read_bytes())
    return out


@pytest.mark.parametrize("name, argv, fragment, prepare", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_exit_2_and_changes_nothing(
    name, argv, fragment, prepare, complete_run, tmp_path, monkeypatch
):
    tmp = tmp_path / "case"
    tmp.mkdir()
    shutil.copytree(complete_run / "run", tmp / "run")
    shutil.copy(complete_run / "exp.toml", tmp / "exp.toml")
    monkeypatch.chdir(tmp)  # a default --out (runs/<name>) lands here too
    patchers = []
    for step in prepare if isinstance(prepare, list) else [prepare] if prepare else []:
        if getattr(step, "needs_monkeypatch", False):
            patchers.append(step)
        else:
            step(tmp)
    before = _snapshot(tmp)
    for step in patchers:
        step(tmp, monkeypatch)
    fields = {"tmp": tmp, "run": tmp / "run", "cfg": tmp / "exp.toml"}
    args = [a.format(**fields) for a in argv]
    try:
        result = CliRunner().invoke(cli, args)
    finally:
        while _held_locks:
            os.close(_held_locks.pop())
        monkeypatch.undo()
    message = result.output.strip()
    assert result.exit_code == 2, (result.exit_code, message, result.exception)
    assert "Traceback" not in message
    assert message.count("\n") == 0, message
    assert message.startswith("menhir: error: "), message
    assert fragment.format(**fields) in message, message
    assert _snapshot(tmp) == before


def test_a_run_name_may_hold_letters_of_any_script(tmp_path):
    """Issue 36, defect 19: ``name = "ünïcode"`` is a folder name like any other."""
    from experiments.config import load_config

    path = tmp_path / "exp.toml"
    path.write_text(config_text(name="ünïcode"))
    assert load_config(path).name == "ünïcode"


def test_sigterm_during_a_report_is_one_line_exit_143_and_leaves_nothing(
    complete_run, tmp_path, monkeypatch
):
    """Issue 36, defect 13: SIGTERM while a report is written removes its temporary folder."""
    import signal

    from reports import report

    run = tmp_path / "run"
    shutil.copytree(complete_run / "run", run)
    before = _snapshot(tmp_path)

    def terminated(runs, tables, tmp):
        (tmp / "half.png").write_text("x")
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(report, "_write", terminated)
    result = CliRunner().invoke(cli, ["report", str(run)])
    assert result.exit_code == 143, (result.output, result.exception)
    message = result.output.strip()
    assert message.count("\n") == 0 and "report terminated; nothing was written" in message
    assert _snapshot(tmp_path) == before


# Issue 36, defect 14: a disk that refuses a write (full, read-only) is one line, exit 1, and
# leaves the folder as it was (a run keeps the chunks it wrote and resumes exactly).
def _refused(kind: int, filename=None):
    def raise_it(*args, **kwargs):
        raise OSError(kind, os.strerror(kind), filename)

    return raise_it


def _report_case(complete_run, tmp_path, monkeypatch, argv, patch):
    run = tmp_path / "run"
    shutil.copytree(complete_run / "run", run)
    before = _snapshot(tmp_path)
    patch(monkeypatch)
    result = CliRunner().invoke(cli, [a.format(tmp=tmp_path, run=run) for a in argv])
    monkeypatch.undo()
    message = result.output.strip()
    assert result.exit_code == 1, (result.output, result.exception)
    assert message.count("\n") == 0 and message.startswith("menhir: error: "), message
    assert _snapshot(tmp_path) == before
    return message


@pytest.mark.parametrize(
    "where, patch, said",
    [
        (
            "full disk",
            lambda mp: mp.setattr("reports.report._write", _refused(errno.ENOSPC)),
            "No space left on device",
        ),
        (
            "full disk seen by polars",
            lambda mp: mp.setattr(
                "reports.report._write",
                _raise(pl.exceptions.ComputeError("IO error: No space left (os error 28)")),
            ),
            "No space left on device",
        ),
        (
            "read-only target",
            lambda mp: mp.setattr("reports.outdir.tempfile.mkdtemp", _refused(errno.EROFS, "x")),
            "Read-only file system",
        ),
    ],
)
def test_a_report_the_disk_refuses_is_one_line(
    where, patch, said, complete_run, tmp_path, monkeypatch
):
    for i, argv in enumerate([["report", "{run}"], ["report", "{run}", "--out", "{tmp}/w"]]):
        folder = tmp_path / str(i)
        folder.mkdir()
        message = _report_case(complete_run, folder, monkeypatch, argv, patch)
        assert said in message and "the report was not written" in message, message


def _raise(exc):
    def raise_it(*args, **kwargs):
        raise exc

    return raise_it


def test_a_run_on_a_full_disk_is_one_line_and_resumes_exactly(complete_run, tmp_path, monkeypatch):
    from experiments import store

    writes = []
    real = store._write_atomic

    def full_after_two(path, *args, **kwargs):
        writes.append(path)
        if len(writes) > 4:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(store, "_write_atomic", full_after_two)
    out = tmp_path / "run"
    result = CliRunner().invoke(
        cli, ["run", str(complete_run / "exp.toml"), "--out", str(out), "--jobs", "1"]
    )
    monkeypatch.undo()
    message = result.output.strip().splitlines()[-1]
    assert result.exit_code == 1, (result.output, result.exception)
    assert "Traceback" not in result.output
    assert message == (
        f"menhir: error: {out}: No space left on device; the run stopped and keeps the games it "
        "wrote: make room, then run the command again (with --resume if the run folder exists)"
    )
    experiments.run(complete_run / "exp.toml", out, jobs=1, resume=True, progress=False)
    for table in ("games", "players"):
        mine = pl.read_parquet(out / table / "**" / "*.parquet", hive_partitioning=True)
        ref = pl.read_parquet(
            complete_run / "run" / table / "**" / "*.parquet", hive_partitioning=True
        )
        assert mine.sort(mine.columns).equals(ref.sort(ref.columns))
