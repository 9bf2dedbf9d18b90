"""A disk that refuses a write (full, read-only, no permission): one line, not a traceback
(issue 36, defect 14). Shared by ``menhir run`` and ``menhir report``.

Python raises ``OSError``; polars, writing a CSV or parquet file itself, raises an error whose
text ends ``(os error N)``. Both are recognised; any other error is left to propagate.
"""

from __future__ import annotations

import errno
import os
import re

import click

# What writing where the user pointed may meet: the input was fine, the disk was not.
WRITE_ERRORS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EFBIG, errno.EIO}
)
_OS_ERROR = re.compile(r"\(os error (\d+)\)")


class WriteFailed(click.ClickException):
    """A run or report that could not be written: ``menhir: error: ...``, exit code 1."""

    exit_code = 1

    def show(self, file=None):
        click.echo(f"menhir: error: {self.format_message()}", err=True)


def write_error(exc: BaseException) -> tuple[str, str | None] | None:
    """(the system's words, the file named) when ``exc`` is a refused write, else None."""
    if isinstance(exc, OSError):
        if exc.errno in WRITE_ERRORS:
            return exc.strerror or os.strerror(exc.errno), exc.filename
        return None
    found = _OS_ERROR.search(str(exc))
    if found and int(found.group(1)) in WRITE_ERRORS:
        return os.strerror(int(found.group(1))), None
    return None
