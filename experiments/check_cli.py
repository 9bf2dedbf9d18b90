"""``menhir check``: play games with every invariant checked after every step (sim/core/check.py).

Prints, per invariant, the number of checks and of violations; on a violation, the seed and step
of the first one and the ``menhir play ... --trace`` command that replays that game, and exits 1.
Games that ended at the safety cap are counted on their own line (not violations; see
sim/core/check.py); more of them than ``--max-capped`` percent also exits 1.
"""

from __future__ import annotations

import os
from functools import partial

import click

from sim.core.cli_options import GAMES, SEED, NumberIn
from sim.core.params import MAX_SEED, ParamError, parse_assignments
from sim.core.registry import GAME_MODULES, get_game, make_setup, split_overrides

VIOLATION_EXIT = 1


def _check_chunk(parent: int, game_entry: tuple[str, str], setup, seeds, max_steps, corrupt):
    """One chunk of ``check_games`` in a worker process, which dies with ``parent`` (the
    ``menhir check`` process, as ``menhir run``'s workers do: experiments.backends)."""
    from experiments.backends import guard_worker
    from sim.core.check import _run

    guard_worker(parent)
    GAME_MODULES[game_entry[0]] = game_entry[1]  # the parent's registration wins
    return _run(setup, seeds, max_steps, corrupt)


class CheckUsageError(click.ClickException):
    """A user error: one line on stderr, exit code 2 (as every menhir command)."""

    exit_code = 2

    def show(self, file=None):
        click.echo(f"menhir: error: {self.format_message()}", err=True)


@click.command("check")
@click.argument("game")
@click.option("--games", "-n", type=GAMES, default=1000, show_default=True)
@click.option("--players", "-p", type=int, default=None, help="Player count (default: minimum).")
@click.option(
    "--bot", "-b", default="random", show_default=True, help="Bot for every seat, or one per seat."
)
@click.option("--roles", default="random", show_default=True, help="random | draft | a,b,c.")
@click.option(
    "--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter or data path."
)
@click.option("--seed", "-s", type=SEED, default=0, show_default=True,
              help="First game's seed; game i plays seed + i (= menhir play --seed).")  # fmt: skip
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="Steps after which a game counts as not ending (default 200000).")  # fmt: skip
@click.option("--max-capped", type=NumberIn(0, 100), default=None,
              metavar="PERCENT",
              help="Games that may end at the safety cap, in percent of the games, before the "
              "check fails (default 0.1). A capped game is not a violation.")  # fmt: skip
@click.option("--progress/--no-progress", default=True, help="Progress bar on a terminal.")
def check_cmd(game, games, players, bot, roles, sets, seed, jobs, max_steps, max_capped, progress):
    """Play GAME with every invariant asserted after every step.

    \b
    Exit 0: no violation, and at most --max-capped percent of the games ended
            at the safety cap;
    exit 1: a violation (its seed, step and replay command are printed), or
            more capped games than that;
    exit 2: a usage error.

    A game that ends at its safety cap (turn_cap in the results) broke no
    rule: the rules score it. It is counted on its own line, with the first
    such seed and its replay command. A game still running after --max-steps
    steps is a violation.
    """
    from experiments.backends import make_backend
    from experiments.interrupts import exit_code, how, sigterm_raises
    from experiments.progress import Progress
    from sim.core.check import MAX_CAPPED_PERCENT, MAX_STEPS, check_games, invariants_module

    if game not in GAME_MODULES:
        raise CheckUsageError(f"unknown game '{game}'; known: {', '.join(GAME_MODULES)}")
    if seed + games - 1 > MAX_SEED:  # game i plays seed + i, and play takes seeds up to MAX_SEED
        raise CheckUsageError(
            f"--seed: {seed} + --games {games} - 1 is past the last seed {MAX_SEED}; "
            f"use a --seed of at most {MAX_SEED - games + 1}"
        )
    role_arg = roles if roles in ("random", "draft") else roles.split(",")
    try:
        decl = get_game(game)  # once: passed down
        params, data = split_overrides(decl, parse_assignments(sets))
        setup = make_setup(decl, players, params, bot, role_arg, data)
        invariants_module(game)
    except ParamError as exc:
        raise CheckUsageError(str(exc)) from None
    bar = Progress(games, enabled=progress)
    worker = partial(_check_chunk, os.getpid(), (game, GAME_MODULES[game]))
    try:
        with sigterm_raises(), make_backend("local", jobs, None) as backend:
            report = check_games(
                setup,
                games,
                seed,
                jobs=jobs,
                max_steps=max_steps or MAX_STEPS,
                progress=bar.advance,
                backend=backend if jobs > 1 else None,
                worker=worker,
            )
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: the workers are stopped by now
        bar.close()
        click.echo(f"menhir: check {how(exc)}; no verdict (nothing is written)", err=True)
        raise SystemExit(exit_code(exc)) from None
    bar.close()
    allowed = MAX_CAPPED_PERCENT if max_capped is None else max_capped
    for line in report.lines(allowed):
        click.echo(line)
    if report.violations or report.too_many_capped(allowed):
        raise SystemExit(VIOLATION_EXIT)
