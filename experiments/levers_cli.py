"""`menhir levers GAME`: a thin skin over experiments.levers.lever_response."""

import click


@click.command("levers")
@click.argument("game")
@click.option("--path", "paths", multiple=True, metavar="DATA.PATH",
              help="A data value to try (default: the game's levers.toml).")  # fmt: skip
@click.option("--players", "-p", type=int, default=None, help="Player count (default: minimum).")
@click.option("--games", "-n", type=click.IntRange(min=10, max=1_000_000), default=400,
              show_default=True, help="Paired games per setting.")  # fmt: skip
@click.option("--bots", default="greedy", show_default=True, help="One bot, or one per seat.")
@click.option("--roles", default="random", show_default=True, help="random | draft | a,b,c.")
@click.option("--seed", type=click.IntRange(min=0, max=2**63 - 1), default=1, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Also write a CSV.")
def levers_cmd(game, paths, players, games, bots, roles, seed, jobs, out):
    """Which data values change the bots' play: each value lowered and raised, paired games.

    Per value: the share of games in which some seat's decisions (act_* counts) changed, the
    share where the value's rule comes into play (its role is dealt), and the largest win-rate
    change with its 95% interval. A value that moves win rates but no decision only re-scores
    the same games: the bots ignore it.
    """
    from experiments.config import UserError
    from experiments.levers import lever_response, read_levers
    from sim.core.cli import MenhirError
    from sim.core.params import ParamError

    def show(row):
        if row.get("error"):
            click.echo(f"{row['path']} = {row['value']}: not allowed ({row['error']})")
            return
        where = ""
        if row["applies"] != row["games"]:
            where = f" ({row['changed_where_applies']:.0%} of the {row['applies']} it applies to)"
        click.echo(
            f"{row['path']} {row['printed']} -> {row['value']}: decisions changed in "
            f"{row['changed']:.0%} of {row['games']} games{where}; {row['top_group']} win "
            f"{row['win_delta']:+.1%} [{row['win_delta'] - row['win_delta_half']:+.1%}, "
            f"{row['win_delta'] + row['win_delta_half']:+.1%}]"
        )

    try:
        table = lever_response(
            game, list(paths) or None, players=players, games=games, bots=bots, roles=roles,
            seed=seed, jobs=jobs, progress=show,
        )  # fmt: skip
        _, left_out = read_levers(game)
    except (UserError, ParamError) as exc:
        raise MenhirError(str(exc)) from None
    if not paths and left_out:
        click.echo(f"left out by the bots (docs/games/{game}.md):")
        for lever in left_out:
            click.echo(f"  {lever.path}: {lever.why}")
    if out:
        table.write_csv(out)
