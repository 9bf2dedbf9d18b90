"""`menhir screen CONFIG`: a thin skin over experiments.screening.screen."""

import click


@click.command("screen")
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--out", type=click.Path(file_okay=False), default=None, help="Screen directory.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Worker processes.")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local")
@click.option("--scheduler", default=None, help="Dask scheduler address (with --backend dask).")
@click.option("--resume", is_flag=True, help="Complete a killed screen to the same result.")
@click.option("--progress/--no-progress", default=True, help="A bar on a terminal.")
def screen_cmd(config, out, jobs, backend, scheduler, resume, progress):
    """Which of the config's [screen] levers move its outputs: Morris, then Sobol on the top.

    Writes screen.parquet (every point played), morris.csv, sobol.csv, screen.json and a
    report (report/screen.md, report/screen.html) into --out (default: runs/ and the
    config's name).
    """
    import json

    from experiments.config import UserError
    from experiments.screening import STATE
    from sim.core.cli import MenhirError
    from sim.core.params import ParamError

    if scheduler is not None and backend != "dask":
        raise MenhirError("--scheduler: only with --backend dask")
    try:
        from experiments.screening import screen

        path = screen(
            config, out, jobs=jobs, backend=backend, scheduler=scheduler, resume=resume,
            progress=None if progress else False,
        )  # fmt: skip
    except (UserError, ParamError) as exc:
        raise MenhirError(str(exc)) from None
    summary = json.loads((path / STATE).read_text())["summary"]
    pts = summary["points"]
    click.echo(
        f"{summary['levers']} levers, {pts['morris']} Morris + {pts['sobol']} Sobol points x "
        f"{summary['games_per_point']:,} games ({summary['bots']} bots): "
        f"{summary['games']:,} games in {summary['seconds']} s"
    )
    click.echo(f"top: {', '.join(summary['top']) or 'none beyond noise'}")
    click.echo(f"inert for every output: {len(summary['inert'])} of {summary['levers']}")
    click.echo(f"report: {path / 'report' / 'screen.html'}")
