"""`menhir run CONFIG.toml`: a thin click skin over :func:`experiments.runner.run_experiment`."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from experiments.config import MAX_VARIANTS, UserError
from experiments.interrupts import sigterm_raises
from experiments.write_errors import WriteFailed, write_error
from sim.core.cli_options import POSITIVE, Folder
from sim.core.params import ParamError


class RunUsageError(click.ClickException):
    """A user error: ``menhir: error: ...`` on stderr, exit code 2, nothing half-written."""

    exit_code = 2

    def show(self, file=None):
        click.echo(f"menhir: error: {self.format_message()}", err=True)


@click.command("run")
@click.argument("config", type=click.Path(dir_okay=False))
@click.option(
    "--out",
    "-o",
    type=Folder(),
    default=None,
    help="Run directory (default: runs/<name>).",
)
@click.option(
    "--jobs",
    "-j",
    type=POSITIVE,
    default=None,
    help="Worker processes (default: every core).",
)
@click.option(
    "--games",
    "-n",
    type=POSITIVE,
    default=None,
    help="Games per variant (overrides the config's `games`).",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="local: joblib processes; dask: a Dask cluster.",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Dask scheduler address (tcp://host:8786); without it, a local cluster.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Complete a killed or interrupted run in --out (with a larger --games: grow it).",
)
@click.option(
    "--max-variants",
    type=POSITIVE,
    default=MAX_VARIANTS,
    show_default=True,
    help="Refuse a sweep of more variants than this.",
)
@click.option(
    "--progress/--no-progress",
    default=True,
    show_default=True,
    help="A bar on a terminal, one line per variant otherwise.",
)
def run_cmd(config, out, jobs, games, backend, scheduler, resume, progress, max_variants):
    """Run the experiment CONFIG.toml: every variant's games, into a run directory."""
    import time

    from experiments.runner import RunInterrupted, Terminated, run_experiment

    start = time.perf_counter()
    try:
        with sigterm_raises(Terminated):
            report = run_experiment(
                config,
                out,
                jobs=jobs,
                games=games,
                backend=backend,
                scheduler=scheduler,
                resume=resume,
                progress=None if progress else False,
                max_variants=max_variants,
            )
    except (UserError, ParamError) as exc:
        raise RunUsageError(str(exc)) from None
    except Exception as exc:  # a full or read-only disk: one line (issue 36, defect 14)
        refused = write_error(exc)
        if refused is None:
            raise
        named = refused[1] or out
        where = f"{named}: " if named else ""
        raise WriteFailed(
            f"{where}{refused[0]}; the run stopped and keeps the games it wrote: make room, "
            "then run the command again (with --resume if the run folder exists)"
        ) from None
    except KeyboardInterrupt as exc:
        info = exc if isinstance(exc, RunInterrupted) else RunInterrupted("interrupted", None)
        how = "terminated" if isinstance(exc, Terminated) else info.how
        if info.path is None:
            click.echo(f"menhir: {how} before the run started; nothing was written", err=True)
        else:
            again = ["menhir", "run", config, "--out", str(info.path), "--resume"]
            if games is not None:
                again += ["--games", str(games)]
            click.echo(
                f"menhir: {how}; {info.done} of {info.total} games are kept in {info.path}; "
                f"complete the run with: {shlex.join(again)}",
                err=True,
            )
        raise SystemExit(143 if how == "terminated" else 130) from None
    rate = report.games_played / report.seconds if report.seconds > 0 else 0.0
    total = time.perf_counter() - start
    grown = (
        f"grown from {report.grown[0]} to {report.grown[1]} games per variant; "
        if report.grown
        else ""
    )
    click.echo(
        f"{report.path}: complete; {grown}{report.games_played} games played in "
        f"{report.seconds:.1f} s ({rate:.0f} games/s); {total:.1f} s in all, "
        "checks and kernel compilation included"
    )
    _more_games_line(report.path)


def _more_games_line(run_dir) -> None:
    """The largest games_needed worth playing (issue 24); a summary, so it never fails a run."""
    try:
        import json

        from reports.pairwise import run_headline
        from sim.core.registry import get_game

        game = json.loads((Path(run_dir) / "manifest.json").read_text()).get("game")
        line = run_headline(run_dir, get_game(game).role_label)
    except Exception:
        return
    if line:
        click.echo(f"more games: {line} (menhir report for every pair)")
