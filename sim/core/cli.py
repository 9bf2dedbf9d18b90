"""The ``menhir`` click group and the user error every command raises.

They sit below the commands so that no command module imports another: ``experiments.cli``
(the console script) imports each command module to register it, and each command module
imports only this one.
"""

from __future__ import annotations

import click

from sim.core.cli_options import usage_line
from sim.core.params import ParamError


class MenhirError(click.ClickException):
    """A user error: one line on stderr, exit code 2, nothing half-written."""

    exit_code = 2

    def show(self, file=None):
        click.echo(f"menhir: error: {self.format_message()}", err=True)


def fail_on_user_error(func):
    """Turn ParamError/SetupError/FileNotFoundError raised by the library into MenhirError."""
    import functools

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except ParamError as exc:
            raise MenhirError(str(exc)) from None

    return wrapper


class MenhirGroup(click.Group):
    """The ``menhir`` group: click's usage errors and Ctrl-C become one line (issue 19, 9, 13)."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as exc:
            raise MenhirError(usage_line(exc)) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as exc:
            raise MenhirError(usage_line(exc)) from None
        except (KeyboardInterrupt, click.Abort):
            raise Interrupted("interrupted; nothing was written") from None


class Interrupted(MenhirError):
    """Ctrl-C: one line, exit code 130 (128 + SIGINT)."""

    exit_code = 130

    def show(self, file=None):
        click.echo(f"menhir: {self.format_message()}", err=True)


@click.group(cls=MenhirGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="menhir")
def cli():
    """menhir: Monte Carlo balance analysis for tabletop games."""
