"""`menhir report RUN_DIR [RUN_DIR...] [--out DIR]`: a thin skin over reports.make_report."""

from pathlib import Path

import click

from sim.core.cli_options import Folder


@click.command("report")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path())
@click.option(
    "--out",
    type=Folder(),
    default=None,
    help="Report directory (default: RUN_DIR/report).",
)
@click.option(
    "--partial",
    is_flag=True,
    help="Report a run that was killed or is still running (default: refuse it).",
)
@click.option(
    "--challenge",
    "challenges",
    multiple=True,
    type=click.Path(),
    help="A `menhir challenge` folder whose verdicts the report adds (repeatable).",
)
def report_cmd(run_dirs, out, partial, challenges):
    """Write report.html, summary.md, PNG plots and CSV tables for run directories."""
    from experiments.interrupts import exit_code, how, sigterm_raises
    from experiments.write_errors import WriteFailed, write_error
    from reports.load import check_distinct, incomplete
    from reports.outdir import check_out_dir
    from reports.report import ReportError, make_report
    from sim.core.cli import MenhirError

    try:
        check_out_dir(Path(out) if out else Path(run_dirs[0]) / "report", run_dirs)
        check_distinct(run_dirs)
        for run in run_dirs:
            missing = incomplete(run)
            if missing is None:
                continue
            done, planned = missing
            what = f"{run}: incomplete run, {done:,} of {planned:,} games played"
            if not partial:
                raise MenhirError(
                    f"{what}; complete it with menhir run CONFIG --out {run} --resume, "
                    "or report the games it has with --partial"
                )
            click.echo(f"menhir: warning: {what}; the report covers these games only", err=True)
        with sigterm_raises():
            path = make_report(run_dirs, out, partial, challenges)
    except ReportError as exc:
        raise MenhirError(str(exc)) from None
    except Exception as exc:  # a read-only or full disk, a folder without write permission
        refused = write_error(exc)
        if refused is None:
            raise
        where = Path(out) if out else Path(run_dirs[0]) / "report"
        said = f"{where}: {refused[0]}; the report was not written (any earlier one is kept)"
        raise WriteFailed(said) from None
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: the temporary folder is removed
        where = Path(out) if out else Path(run_dirs[0]) / "report"
        said = f"report {how(exc)}; nothing was written ({where} is as it was)"
        click.echo(f"menhir: {said}", err=True)
        raise SystemExit(exit_code(exc)) from None
    click.echo(f"report: {path / 'report.html'} and {path / 'summary.md'}")
