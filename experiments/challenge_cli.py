"""`menhir challenge CONFIG`: a thin skin over experiments.challenge.challenge."""

import click


@click.command("challenge")
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--target", default=None, help="A role/leader/destiny, seat.N or a side.")
@click.option("--all", "all_", is_flag=True, help="Every role in play (seats without roles).")
@click.option("--out", type=click.Path(file_okay=False), default=None, help="Challenge folder.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Worker processes.")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local")
@click.option("--scheduler", default=None, help="Dask scheduler address (with --backend dask).")
@click.option("--resume", is_flag=True, help="Complete a killed challenge to the same trials.")
@click.option("--progress/--no-progress", default=True, help="A bar on a terminal.")
def challenge_cmd(config, target, all_, out, jobs, backend, scheduler, resume, progress):
    """Would a better player change a finding? Tune the target's bot (or, for a strong target,
    its opponents' bots) against the config's bots and confirm on fresh seeds.

    Writes challenge.json (a verdict per target), trials.parquet and confirm/ (runs) into --out
    (default: runs/ and the config's name, -challenge).
    """
    import json

    from experiments.challenge_search import challenge
    from experiments.config import UserError
    from sim.core.cli import MenhirError
    from sim.core.params import ParamError

    try:
        path = challenge(
            config, out, target=target, all_targets=all_, jobs=jobs, backend=backend,
            scheduler=scheduler, resume=resume, progress=None if progress else False,
        )  # fmt: skip
    except (UserError, ParamError) as exc:
        raise MenhirError(str(exc)) from None
    record = json.loads((path / "challenge.json").read_text())
    for name, result in record["targets"].items():
        click.echo(f"{name}: {result['verdict']}")
    click.echo(
        f"{record['games_search']:,} games searched, {record['games_confirm']:,} confirmed; "
        f"{record['seconds']} s; {path / 'challenge.json'}"
    )
