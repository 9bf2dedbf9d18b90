"""`menhir report`: placeholder until the reports package lands (issue: reports)."""

import click


@click.command("report")
@click.argument("run_dirs", nargs=-1, type=click.Path())
def report_cmd(run_dirs):
    """Write a report for run directories (NOT IMPLEMENTED YET)."""
    raise click.ClickException("menhir report is not implemented yet")
