"""The manual is proven, not promised (issue 21).

- ``mkdocs build --strict`` passes, offline (a broken link, a missing page or a docstring that
  mkdocstrings cannot read fails it);
- every ``menhir ...`` command and every TOML config in a fenced block of ``docs/`` and
  ``README.md`` runs, page by page in the order shown, with tiny game counts: ``run`` gets
  ``--games 20``, configs get ``games = 20`` and a tiny ``[balance]`` and ``[challenge]``
  budget or ``[screen]`` design (20 games a point, 2 trajectories, a Sobol base of 4),
  ``ladder`` plays 2 games per pair, ``bench`` measures 0.05 s per line and skips its
  cold-compile timing (a fresh process with an empty numba cache, a minute per game); outputs
  go to a temporary folder;
- the README links only to files inside the project.

A ```` ```toml ```` block with ``title="NAME.toml"`` is written as that file in the page's
folder; a config (it has a ``game`` key) is run with ``menhir run`` (``balance`` when it has a
``[balance]`` table, ``screen`` with a ``[screen]`` table) unless a later command of the page
names it. A TOML block without a ``game`` key (a variant data file) is parsed and written, for
the commands that name it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
SHELL_LANGS = {"", "sh", "bash", "shell", "console"}
GAMES = 20  # games per variant for every example

pytestmark = pytest.mark.slow

_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+|~~~+)\s*(?P<info>.*)$")


def fences(path: Path) -> list[tuple[str, dict, str, int]]:
    """(language, attributes, body, line number) of every fenced block of a Markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m["indent"], m["fence"], m["info"].strip()
        lang = info.split()[0].lstrip(".").lower() if info else ""
        if lang.startswith("{"):
            lang = ""
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', info))
        body, j = [], i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            text = lines[j]
            body.append(text[len(indent) :] if text.startswith(indent) else text.lstrip())
            j += 1
        out.append((lang, attrs, "\n".join(body), i + 1))
        i = j + 1
    return out


def commands(body: str) -> list[str]:
    """The ``menhir ...`` lines of a shell block (``$`` prompts and ``\\`` continuations)."""
    joined, out = body.replace("\\\n", " "), []
    for line in joined.splitlines():
        line = line.strip().removeprefix("$ ")
        words = shlex.split(line, comments=True)
        while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
            words = words[1:]
        if words and words[0] == "menhir":
            out.append(line)
    return out


def examples(path: Path) -> list[tuple[str, object, int]]:
    """("cmd", line) and ("toml", (attrs, text)) steps of one page, in page order."""
    steps = []
    for lang, attrs, body, lineno in fences(path):
        if lang in SHELL_LANGS:
            steps += [("cmd", c, lineno) for c in commands(body)]
        elif lang == "toml":
            steps.append(("toml", (attrs, body), lineno))
    return steps


# -- making examples tiny ------------------------------------------------------------------------


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as TOML")


def dump_toml(data: dict, prefix: tuple[str, ...] = ()) -> str:
    """A minimal TOML writer for configs (scalars, lists and nested tables)."""
    scalars = {k: v for k, v in data.items() if not isinstance(v, dict)}
    lines = [f"{json.dumps(k)} = {_toml_value(v)}" for k, v in scalars.items()]
    for k, v in data.items():
        if isinstance(v, dict):
            header = ".".join(json.dumps(x) for x in (*prefix, k))
            lines += ["", f"[{header}]", dump_toml(v, (*prefix, k))]
    return "\n".join(lines)


def tiny_config(raw: dict) -> dict:
    raw = dict(raw)
    raw["games"] = min(int(raw.get("games", GAMES)), GAMES)
    raw.pop("chunk_games", None)
    if "screen" in raw:  # 2 trajectories, a Sobol base of 4, 20 games a point
        raw["screen"] = dict(raw["screen"]) | {"games": 20, "trajectories": 2, "sobol_n": 4}
        raw["screen"]["sobol_top"] = min(int(raw["screen"].get("sobol_top", 2)), 2)
    if "balance" in raw:
        bal = dict(raw["balance"])
        # a few hundred games per trial: with fewer, a role with no win at all gets a Wilson
        # low bound of 1e-17 > 0 and reports/balance_report.py's before/after plot refuses the
        # negative error bar (a defect of the report, reported with issue 21)
        bal.update(budget_games=2400, min_games=400, max_games=800, max_trials=2, confirm_games=400)
        raw["balance"] = bal
    if "challenge" in raw:  # a few trials of a few dozen games, a tiny confirmation run
        ch = dict(raw["challenge"])
        ch.update(min_games=40, max_games=80, max_trials=2, budget_games=400, confirm_games=40)
        raw["challenge"] = ch
    return raw


def write_tiny(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(dump_toml(tiny_config(tomllib.loads(src.read_text(encoding="utf-8")))))


def _set_option(argv: list[str], name: str, value: str) -> list[str]:
    """``argv`` with ``name value`` (replacing ``name X`` or ``name=X`` if present)."""
    out, i, done = [], 0, False
    while i < len(argv):
        if argv[i] == name and i + 1 < len(argv):
            out += [name, value]
            i += 2
            done = True
            continue
        if argv[i].startswith(name + "="):
            out += [name, value]
            done = True
        else:
            out.append(argv[i])
        i += 1
    return out if done else [*out, name, value]


class Page:
    """Runs one page's examples in its own folder, in order."""

    def __init__(self, page: Path, work: Path, scheduler):
        self.page, self.work, self.scheduler = page, work, scheduler
        self.work.mkdir(parents=True, exist_ok=True)
        self.runner = CliRunner()

    def where(self, lineno: int) -> str:
        return f"{self.page.relative_to(ROOT)}:{lineno}"

    def local_config(self, arg: str) -> str:
        """A tiny copy of config ``arg`` (a page's file or one of the project's) in the folder."""
        mine = self.work / arg
        if mine.exists():  # written by a toml block of this page: make it tiny in place
            write_tiny(mine, mine)
            return arg
        src = ROOT / arg
        assert src.is_file(), f"config {arg} is neither written by the page nor in the project"
        write_tiny(src, mine)
        return arg

    def argv(self, line: str) -> tuple[list[str], dict]:
        words = shlex.split(line.strip().removeprefix("$ "), comments=True)
        env = {}
        while re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
            key, _, value = words.pop(0).partition("=")
            env[key] = value
        argv = words[1:]
        cmd = argv[0] if argv else ""
        if cmd in ("run", "balance", "screen", "challenge"):
            argv[1] = self.local_config(argv[1])
            argv = _set_option(argv, "--jobs", "1")
            if cmd == "run":
                argv = _set_option(argv, "--games", str(GAMES))
                argv = [a for a in argv if a != "--progress"] + ["--no-progress"]
            if "--scheduler" in argv:
                argv = _set_option(argv, "--scheduler", self.scheduler())
        elif cmd == "check" or cmd == "levers":
            argv = _set_option(argv, "--games", str(GAMES))
            argv = _set_option(argv, "--jobs", "1")
        elif cmd == "ladder":
            argv = _set_option(argv, "--games", "2")
            argv = _set_option(argv, "--jobs", "1")
        elif cmd == "bench":
            argv = _set_option(argv, "--seconds", "0.05")
            argv = _set_option(argv, "--jobs", "1")
            if "--out" in argv:
                argv = _set_option(argv, "--out", str(self.work / "bench.txt"))
        return argv, env

    def run_command(self, line: str, lineno: int) -> None:
        from experiments.cli import cli

        argv, env = self.argv(line)
        if env:  # e.g. NUMBA_DISABLE_JIT=1: numba reads it at import, so a fresh process
            proc = subprocess.run(
                [sys.executable, "-m", "experiments.cli", *argv],
                cwd=self.work,
                env={**os.environ, "PYTHONPATH": str(ROOT), **env},
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert proc.returncode == 0, f"{self.where(lineno)}: {line}\n{proc.stderr[-2000:]}"
            return
        old = Path.cwd()
        os.chdir(self.work)
        # bench's cold-compile timing empties the numba cache in a fresh process (a minute per
        # game): the examples skip that one measurement and run everything else of the command
        skip_cold = mock.patch("sim.core.bench.start_time", return_value=0.0)
        try:
            with skip_cold:
                result = self.runner.invoke(cli, argv, prog_name="menhir", catch_exceptions=True)
        finally:
            os.chdir(old)
        assert result.exit_code == 0, (
            f"{self.where(lineno)}: {line}\n(ran: menhir {shlex.join(argv)})\n"
            f"{result.output[-2000:]}\n{result.exception!r}"
        )

    def run_toml(self, attrs: dict, text: str, lineno: int, later: str) -> None:
        raw = tomllib.loads(text)  # every TOML block parses
        name = attrs.get("title")
        if name:
            (self.work / name).parent.mkdir(parents=True, exist_ok=True)
            (self.work / name).write_text(text, encoding="utf-8")
        if "game" not in raw:
            return  # a data-file excerpt or variant: parsed, used by the commands that name it
        if name and name in later:
            return  # a later command of the page runs it
        path = self.work / (name or f"example_{lineno}.toml")
        path.write_text(dump_toml(tiny_config(raw)), encoding="utf-8")
        cmd = "balance" if "balance" in raw else "screen" if "screen" in raw else "run"
        out = f"runs/example_{lineno}"
        self.run_command(f"menhir {cmd} {path.name} --out {out}", lineno)


@pytest.fixture(scope="module")
def scheduler():
    """A local Dask cluster over loopback, started the first time a page needs one."""
    state = {}

    def address() -> str:
        if "cluster" not in state:
            from distributed import LocalCluster

            os.environ["PYTHONPATH"] = os.pathsep.join(
                [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
            )
            state["cluster"] = LocalCluster(
                n_workers=1,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            )
        return state["cluster"].scheduler_address

    yield address
    if "cluster" in state:
        state["cluster"].close()


PAGES_WITH_EXAMPLES = [p for p in PAGES if examples(p)]


@pytest.mark.parametrize(
    "page", PAGES_WITH_EXAMPLES, ids=[str(p.relative_to(ROOT)) for p in PAGES_WITH_EXAMPLES]
)
def test_every_example_of_the_page_runs(page, tmp_path, scheduler):
    steps = examples(page)
    runner = Page(page, tmp_path / "work", scheduler)
    for i, (kind, item, lineno) in enumerate(steps):
        later = " ".join(str(s[1]) for s in steps[i + 1 :] if s[0] == "cmd")
        if kind == "cmd":
            runner.run_command(item, lineno)
        else:
            attrs, text = item
            runner.run_toml(attrs, text, lineno, later)


def test_examples_cover_every_command():
    """The manual shows every subcommand at least once, so each is run above."""
    from experiments.cli import cli

    shown = {
        shlex.split(c, comments=True)[1]
        for p in PAGES
        for kind, c, _ in examples(p)
        if kind == "cmd" and len(shlex.split(c, comments=True)) > 1
    }
    assert set(cli.commands) <= shown, f"never shown: {sorted(set(cli.commands) - shown)}"


def _game_ids() -> list[str]:
    from sim.core.registry import GAME_MODULES

    return list(GAME_MODULES)


@pytest.mark.parametrize("game_id", _game_ids())
def test_game_page_names_every_ruling_switch_and_provisional_parameter(game_id):
    """Every registered game has its page, and the page cannot silently miss a reading: every
    parameter that selects a reading (choices, true/false) and every provisional parameter is
    named on it."""
    from sim.core.registry import get_game

    page = DOCS / "games" / f"{game_id}.md"
    assert page.is_file(), f"{game_id} has no manual page: write docs/games/{game_id}.md"
    text = page.read_text(encoding="utf-8")
    for p in get_game(game_id).params:
        if p.choices or p.kind == "bool" or p.provisional:
            assert f"`{p.name}" in text, f"docs/games/{game_id}.md does not name `{p.name}`"


def test_readme_links_stay_inside_the_project():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r"`((?:\.\./|/)[^`\s]+)`", text)
    for target in targets:
        assert "://" not in target or target.startswith("https://"), target
        if "://" in target or target.startswith("#"):
            continue
        path = (ROOT / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"README links outside the project: {target}"
        assert path.exists(), f"README links to a missing file: {target}"
    assert "../shared" not in text


def test_mkdocs_build_strict(tmp_path):
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "NO_MKDOCS_2_WARNING": "1",
        "DISABLE_MKDOCS_2_WARNING": "true",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert (tmp_path / "site" / "index.html").is_file()
    for page in ("reference/cli", "reference/columns", "reference/games/celtae"):
        assert (tmp_path / "site" / page / "index.html").is_file()
