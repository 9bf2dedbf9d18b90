"""The ``menhir`` command line: a thin click skin over library functions (STYLE.md 9).

Each command parses, calls one library function and prints. Errors a user can cause are raised
as ``click.UsageError``/``MenhirError`` with one line naming the file or key, exit code 2.

The group and ``MenhirError`` live below every command, in ``sim.core.cli``; each command
module (here games/play/bench, and run, report, ladder, balance, check in their packages)
imports only that, never a sibling, and this entry module imports them all to register them.
"""

from __future__ import annotations

import sys

import click

from sim.core.cli import Interrupted, MenhirError, MenhirGroup, cli, fail_on_user_error
from sim.core.cli_options import POSITIVE, SEED, NumberIn
from sim.core.params import parse_assignments
from sim.core.registry import (
    GAME_MODULES,
    describe_param,
    get_game,
    make_setup,
    split_overrides,
)


@cli.command("games")
@click.argument("game", required=False)
@click.option("--data", "list_data", is_flag=True, help="List every data path with its value.")
@click.option("--data-file", "print_file", is_flag=True, help="Print the shipped data file.")
@fail_on_user_error
def games_cmd(game, list_data, print_file):
    """List the games: player counts, bots, roles and parameters with defaults.

    With GAME and --data, every addressable data-file path (for --set and a config's [data]
    table) with its value, marked where the rulebook's lost pictures held it (PROVISIONAL);
    with --data-file, the shipped data file itself, to start a variant file from.
    """
    if game is not None and game not in GAME_MODULES:
        raise MenhirError(f"unknown game '{game}'; known: {', '.join(GAME_MODULES)}")
    if (list_data or print_file) and game is None:
        raise MenhirError("--data and --data-file need a GAME, e.g. menhir games celtae --data")
    if print_file:
        click.echo(get_game(game).data.file.read_text(), nl=False)
        return
    if list_data:
        from sim.core.gamedata import show_value

        for item in get_game(game).data.paths():
            mark = "  # PROVISIONAL" if item.provisional else ""
            click.echo(f"{item.path} = {show_value(item.value)}{mark}")
        return
    click.echo(
        "Win (players table, win rates in reports): 1 for the winner, 0 otherwise; "
        "a win shared by k players counts 1/k to each."
    )
    for game_id in [game] if game else GAME_MODULES:
        g = get_game(game_id)
        click.echo(f"{g.id}  ({g.title}, v{g.version})  players {g.min_players}-{g.max_players}")
        click.echo(f"  bots: {', '.join(f'{b.name} ({b.description})' for b in g.bots)}")
        for b in g.bots:
            for p in b.params:
                click.echo(f"    {b.name}:{describe_param(p)}")
        if g.roles:
            click.echo(f"  {g.role_label}s: {', '.join(g.roles)}")
            click.echo(f"  {g.role_label} assignment: {', '.join(g.role_modes)}, or a list by seat")
        click.echo(f"  end reasons: {', '.join(g.end_reasons)}")
        click.echo("  parameters:")
        for p in g.params:
            click.echo(f"    {describe_param(p)}")


@cli.command("play")
@click.argument("game")
@click.option(
    "--players", "-p", type=POSITIVE, default=None, help="Player count (default: minimum)."
)
@click.option("--seed", "-s", type=SEED, default=0, show_default=True, help="Game seed.")
@click.option("--bots", "-b", default=None, help="Bot per seat, comma-separated (or one for all).")
@click.option("--roles", default="random", show_default=True, help="random | draft | a,b,c.")
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="KEY=VALUE",
    help="Override a parameter or a data path (roles.trusted.rp_as_vp=2).",
)
@click.option("--trace/--no-trace", default=False, help="Print the readable game log.")
@fail_on_user_error
def play_cmd(game, players, seed, bots, roles, sets, trace):
    """Play one game and print its final scores (with --trace, the whole log first)."""
    from sim.core.batch import trace_game

    if game not in GAME_MODULES:
        raise MenhirError(f"unknown game '{game}'; known: {', '.join(GAME_MODULES)}")
    role_arg = roles if roles in ("random", "draft") else roles.split(",")
    decl = get_game(game)  # once: passed down
    params, data = split_overrides(decl, parse_assignments(sets))
    setup = make_setup(decl, players, params, bots, role_arg, data)
    lines, table = trace_game(setup, seed)
    if trace:
        for line in lines:
            click.echo(line)
    click.echo(f"{setup.game} {setup.players}p seed={seed}: {lines[-1] if lines else ''}")
    word = decl.role_label
    for row in table.iter_rows(named=True):
        extra = f" {word} {row['role']}" if row["role"] else ""
        if row["side"] and row["side"] != row["role"]:  # Troy: the side is the card itself
            extra += f" side {row['side']}"
        pts = " ".join(f"{k[4:]}={v}" for k, v in row.items() if k.startswith("pts_"))
        click.echo(
            f"seat {row['seat']} {row['strategy']}{extra}: score {row['score']} ({pts}) "
            f"rank {row['rank']} win {row['win']:.3g}"
        )
    if table["win"].sum() > 0 and (table["win"] % 1 != 0).any():
        click.echo("(a win shared by k players counts 1/k to each)")


@cli.command("bench")
@click.option("--game", "games", multiple=True, help="Game id (default: every game).")
@click.option(
    "--jobs", type=POSITIVE, default=None, help="Jobs for the parallel line (default: cores)."
)
@click.option("--seconds", type=NumberIn(0.01, 600), default=3.0, show_default=True,
              help="Time per measurement.")  # fmt: skip
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Also write here.")
@click.option("--bot", "bots", multiple=True, help="Bot level to measure (default: every one).")
@click.option(
    "--history",
    type=click.Path(dir_okay=False),
    default=None,
    help="CSV to append each figure to and compare it with (make bench: benchmarks/history.csv).",
)
@click.option(
    "--floors",
    type=click.Path(dir_okay=False),
    default=None,
    help="TOML of floors to check each figure against (make bench: benchmarks/floors.toml).",
)
@fail_on_user_error
def bench_cmd(games, jobs, seconds, out, bots, history, floors):
    """Throughput: games/s per game, bot level and job count; compile times; peak memory."""
    from sim.core.bench import run_bench

    games = list(games) or list(GAME_MODULES)
    known = {b.name for g in games for b in get_game(g).bots}
    for bot in bots:
        if bot not in known:
            raise MenhirError(f"--bot: unknown bot {bot!r} (known: {', '.join(sorted(known))})")
    run_bench(
        games,
        jobs=jobs,
        seconds=seconds,
        out=out,
        bots=list(bots) or None,
        history=history,
        floors=floors,
    )


def _register_optional_commands() -> None:
    """Commands owned by other packages (runner, reports, ladder, balance, screen, challenge)."""
    from experiments.balance_cli import balance_cmd
    from experiments.challenge_cli import challenge_cmd
    from experiments.levers_cli import levers_cmd
    from experiments.run_cli import run_cmd
    from experiments.screen_cli import screen_cmd
    from reports.cli import report_cmd
    from strategies.ladder_cli import ladder_cmd

    for cmd in (
        run_cmd,
        report_cmd,
        ladder_cmd,
        balance_cmd,
        levers_cmd,
        screen_cmd,
        challenge_cmd,
    ):
        cli.add_command(cmd)
    cli.add_command(__import__("experiments.check_cli", fromlist=["_"]).check_cmd)  # menhir check


_register_optional_commands()


def main() -> None:
    cli(prog_name="menhir")


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["Interrupted", "MenhirError", "MenhirGroup", "cli", "fail_on_user_error", "main"]
