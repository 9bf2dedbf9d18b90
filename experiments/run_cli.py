"""`menhir run CONFIG.toml`: a thin click skin over :func:`experiments.runner.run_experiment`."""

from __future__ import annotations

from pathlib import Path

import click

from experiments.config import UserError
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
    type=click.Path(file_okay=False),
    default=None,
    help="Run directory (default: runs/<name>).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: every core).",
)
@click.option(
    "--games",
    "-n",
    type=click.IntRange(min=1),
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
@click.option("--resume", is_flag=True, help="Complete a killed or interrupted run in --out.")
@click.option(
    "--progress/--no-progress",
    default=True,
    show_default=True,
    help="A bar on a terminal, one line per variant otherwise.",
)
def run_cmd(config, out, jobs, games, backend, scheduler, resume, progress):
    """Run the experiment CONFIG.toml: every variant's games, into a run directory."""
    import time

    from experiments.runner import run_experiment

    start = time.perf_counter()
    try:
        report = run_experiment(
            config,
            out,
            jobs=jobs,
            games=games,
            backend=backend,
            scheduler=scheduler,
            resume=resume,
            progress=None if progress else False,
        )
    except (UserError, ParamError) as exc:
        raise RunUsageError(str(exc)) from None
    except KeyboardInterrupt:
        click.echo(
            "menhir: interrupted; the chunks already written are kept: complete the run with "
            "the same command and --resume",
            err=True,
        )
        raise SystemExit(130) from None
    rate = report.games_played / report.seconds if report.seconds > 0 else 0.0
    total = time.perf_counter() - start
    click.echo(
        f"{report.path}: complete; {report.games_played} games played in "
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
