"""Option types shared by the commands, and the one-line form of click's own usage errors.

Every input error is one line, ``menhir: error: --games: 0 is not allowed: an integer >= 1``,
naming the option and what is allowed (issue 19, defect 13); click's default is three lines of
usage. The types below fail with such messages, and :func:`usage_line` turns any other
``click.UsageError`` (a missing argument, an unknown option) into one line.
"""

from __future__ import annotations

import math
import os

import click

from sim.core.params import MAX_SEED


class IntIn(click.ParamType):
    """An integer in ``[low, high]`` (``high`` None: no upper bound)."""

    name = "integer"

    def __init__(self, low: int, high: int | None = None):
        self.low = low
        self.high = high

    @property
    def allowed(self) -> str:
        if self.high is None:
            return f"an integer >= {self.low}"
        return f"an integer in [{self.low}, {self.high}]"

    def convert(self, value, param, ctx):
        if isinstance(value, bool):
            self.fail(f"{value!r} is not allowed: {self.allowed}", param, ctx)
        if isinstance(value, int):
            number = value
        else:
            try:
                number = int(str(value).strip(), 10)
            except ValueError:
                self.fail(f"{value!r} is not allowed: {self.allowed}", param, ctx)
        if number < self.low or (self.high is not None and number > self.high):
            self.fail(f"{value!r} is not allowed: {self.allowed}", param, ctx)
        return number


class NumberIn(click.ParamType):
    """A finite number in ``[low, high]``: ``nan`` and ``inf`` are refused (a NaN compares
    false with every bound, so a plain range check would let it through)."""

    name = "number"

    def __init__(self, low: float, high: float):
        self.low = low
        self.high = high

    def convert(self, value, param, ctx):
        allowed = f"a number in [{self.low:g}, {self.high:g}]"
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not allowed: {allowed}", param, ctx)
        if not math.isfinite(number) or not self.low <= number <= self.high:
            self.fail(f"{value!r} is not allowed: {allowed}", param, ctx)
        return number


SEED = IntIn(0, MAX_SEED)
POSITIVE = IntIn(1)
# Games of one command (check, ladder): beyond this the seeds alone would not fit in memory.
MAX_COMMAND_GAMES = 100_000_000
GAMES = IntIn(1, MAX_COMMAND_GAMES)


class Folder(click.ParamType):
    """A folder path that may not exist yet; an existing file is refused."""

    name = "directory"

    def convert(self, value, param, ctx):
        path = os.fspath(value)
        if os.path.lexists(path) and not os.path.isdir(path):
            self.fail(f"{path!r} is a file, not allowed: a folder", param, ctx)
        return path


def option_name(param: click.Parameter) -> str:
    """``--games`` for an option (its longest spelling), ``CONFIG`` for an argument."""
    if isinstance(param, click.Option) and param.opts:
        return max(param.opts, key=len)
    return (param.name or "argument").upper()


def usage_line(exc: click.UsageError) -> str:
    """One line for a click usage error: the option or argument at fault, then what is wrong."""
    bad = isinstance(exc, click.BadParameter) and not isinstance(exc, click.MissingParameter)
    if bad and exc.param is not None:
        return f"{option_name(exc.param)}: {exc.message}"
    text = " ".join(exc.format_message().split()).rstrip(".")
    command = exc.ctx.command_path if exc.ctx is not None else "menhir"
    return f"{text} (see '{command} --help')"
