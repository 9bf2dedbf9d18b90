"""Reports: plots, tables and plain-words findings from menhir run directories."""

from reports.report import ReportError, make_report

__all__ = ["ReportError", "make_report"]
