"""`menhir ladder`: placeholder until the search bot and ladder land (issue: bot levels)."""

import click


@click.command("ladder")
@click.argument("game")
def ladder_cmd(game):
    """Bot levels against each other (NOT IMPLEMENTED YET)."""
    raise click.ClickException("menhir ladder is not implemented yet")
