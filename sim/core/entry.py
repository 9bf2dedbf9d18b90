"""The ``menhir`` console script: imports the command line, then runs it.

Importing the commands takes a noticeable moment (numpy, polars, click, the game registry). A
Ctrl-C in that moment arrives before the command line's own handler exists, so this small
module, which imports nothing heavy, answers it the same way: one line, exit code 130
(issue 19, defect 9).
"""

from __future__ import annotations

import sys

INTERRUPTED = "menhir: interrupted; nothing was written"


def main() -> None:
    try:
        from experiments.cli import main as run_cli
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        raise SystemExit(130) from None
    run_cli()
