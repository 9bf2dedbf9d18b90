"""`menhir ladder`: a thin click skin over :func:`strategies.ladder.run_ladder`."""

from __future__ import annotations

import time

import click

from sim.core.cli_options import GAMES, POSITIVE, SEED


@click.command("ladder")
@click.argument("game")
@click.option("--players", "-p", type=POSITIVE, default=None, help="Player count (default: 2).")
@click.option(
    "--games",
    "-n",
    type=GAMES,
    default=None,
    help="Games per pair of levels (default: the game's, 200 for most games, 600 for Catan).",
)
@click.option(
    "--bots",
    "-b",
    default=None,
    help="Levels, weakest first, comma-separated (default: the game's levels), "
    "e.g. random,greedy,search:rollouts=64.",
)
@click.option("--seed", "-s", type=SEED, default=0, show_default=True, help="Root seed.")
@click.option(
    "--jobs", "-j", type=POSITIVE, default=1, show_default=True, help="Parallel processes."
)
def ladder_cmd(game, players, games, bots, seed, jobs):
    """Bot levels against each other: win shares (95% Wilson) and Elo ratings (bootstrap 95%).

    Every pair of levels plays GAMES games, seats rotated over every arrangement of the pair,
    on the same deals. "levels ordered: yes" only when every adjacent pair's share is above 0.5
    with its Holm-adjusted interval excluding 0.5; otherwise the pairs not separated, with
    about how many games per pair would separate them. A win shared by k players counts 1/k.
    """
    from sim.core.cli import MenhirError
    from sim.core.params import ParamError
    from strategies.ladder import format_ladder, run_ladder, skill_lines, verdict_lines

    levels = None if bots is None else bots.split(",")
    start = time.perf_counter()
    try:
        table = run_ladder(game, players, games, levels, seed=seed, jobs=jobs, progress=True)
    except ParamError as exc:
        raise MenhirError(str(exc)) from None
    elapsed = time.perf_counter() - start
    first = table.row(0, named=True)
    low, high = table["games"].min(), table["games"].max()
    count = (
        f"{first['games']} games per pair"
        if low == high
        else f"{low}-{high} decided games per pair (games nobody won left out)"
    )
    click.echo(
        f"{game} {first['players']}p ladder: {count}, seats rotated, seed {seed} ({elapsed:.1f} s)"
    )
    for line in format_ladder(table):
        click.echo(line)
    for line in verdict_lines(table):
        click.echo(line)
    for line in skill_lines(table):
        click.echo(line)
