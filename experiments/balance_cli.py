"""`menhir balance CONFIG`: a thin skin over experiments.balance_search.balance."""

import shlex
from pathlib import Path

import click


@click.command("balance")
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--out", type=click.Path(file_okay=False), default=None, help="Balance directory.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Worker processes.")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local")
@click.option("--scheduler", default=None, help="Dask scheduler address (with --backend dask).")
@click.option("--resume", is_flag=True, help="Continue a killed search to the same result.")
@click.option("--progress/--no-progress", default=True, help="A bar on a terminal.")
def balance_cmd(config, out, jobs, backend, scheduler, resume, progress):
    """Search the config's [balance.levers] for values that meet its fairness target.

    Writes recommendation.json, the trials table, the confirmation run on fresh seeds and a
    report (report/balance.md, report/balance.html) into --out (default: runs/ and the
    config's name).
    """
    from experiments.balance_search import balance
    from experiments.config import UserError
    from experiments.interrupts import exit_code, how, sigterm_raises
    from sim.core.cli import MenhirError
    from sim.core.params import ParamError

    try:
        with sigterm_raises():
            path = balance(
                config, out, jobs=jobs, backend=backend, scheduler=scheduler, resume=resume,
                progress=None if progress else False,
            )  # fmt: skip
    except (UserError, ParamError) as exc:
        raise MenhirError(str(exc)) from None
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: the workers are stopped by now
        kept = getattr(exc, "balance_out", None)
        if kept is not None and Path(kept).exists():
            again = shlex.join(["menhir", "balance", config, "--out", str(kept), "--resume"])
            said = f"{how(exc)}; the search so far is kept in {kept}; continue it with: {again}"
        else:
            said = f"{how(exc)} before the search started; nothing was written"
        click.echo(f"menhir: {said}", err=True)
        raise SystemExit(exit_code(exc)) from None
    import json

    rec = json.loads((path / "recommendation.json").read_text())
    click.echo(f"{rec['verdict']}")
    for name, value in rec["levers"].items():
        click.echo(f"  {name} = {json.dumps(value)}  (printed: {json.dumps(rec['printed'][name])})")
    click.echo(
        f"{rec['games']:,} games in {rec['trials']} trials, confirmed on "
        f"{rec['confirmation_games']:,} fresh games per variant; {rec['seconds']} s"
    )
    click.echo(f"report: {path / 'report' / 'balance.html'}")
