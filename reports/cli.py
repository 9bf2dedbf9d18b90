"""`menhir report RUN_DIR [RUN_DIR...] [--out DIR]`: a thin skin over reports.make_report."""

import click


@click.command("report")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path())
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Report directory (default: RUN_DIR/report).",
)
def report_cmd(run_dirs, out):
    """Write report.html, summary.md, PNG plots and CSV tables for run directories."""
    from experiments.cli import MenhirError
    from reports.report import ReportError, make_report

    try:
        path = make_report(run_dirs, out)
    except ReportError as exc:
        raise MenhirError(str(exc)) from None
    click.echo(f"report: {path / 'report.html'} and {path / 'summary.md'}")
