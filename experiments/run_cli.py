"""`menhir run`: placeholder until the experiments runner lands (issue: experiments)."""

import click


@click.command("run")
@click.argument("config", type=click.Path())
def run_cmd(config):
    """Run an experiment config (NOT IMPLEMENTED YET)."""
    raise click.ClickException("menhir run is not implemented yet")
