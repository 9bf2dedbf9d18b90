"""Where the search bot spends its time, kind by kind, and where it overrules greedy.

    .venv/bin/python benchmarks/search_kinds.py celtic_trader --games 40 [--players 4]
        [--search search:skip=0]

plays games with every seat searching, one decision at a time from Python (the compiled search
kernel is called per decision, after a warm-up game), and prints per decision kind (the kind of
greedy's pick, as the ``act_<kind>`` columns count it): decisions per game, the share of the
search's time, how often the search played something other than greedy's pick, and the legal
actions on average. A kind that takes time and where the search (almost) never overrules
greedy is a candidate for the search's ``skip`` parameter (issue 20); its strength is then
measured with ``strategies.search_measure``. The games are the search's own (its picks are
played), so the figures describe the bot as configured.
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections import defaultdict

import numpy as np

from sim.core.registry import get_game, make_setup
from sim.core.rng import derive_game_seeds, seed_streams
from strategies.search import N_SEARCH_PARAMS


def _trader_data(setup):
    from sim.games.celtic_trader.play import setup_data

    return setup_data(setup)


def _quest_data(setup):
    from sim.games.celtic_quest.play import chunk_data

    return next(chunk_data(setup, np.zeros(1, np.uint64)))[2]


def _celtae_data(setup):
    from sim.games.celtae.params import setup_data

    return setup_data(setup)


def _roles(module):
    """The (role_mode, fixed_roles) arguments of ``init_state``, as the game's ``play`` gives
    them (Celtic Quest: its destinies)."""

    def roles(setup):
        play = importlib.import_module(module)
        if hasattr(play, "fixed_destinies"):
            return 0, play.fixed_destinies(setup)
        return play.role_mode_of(setup)

    return roles


def _params_data(module, with_players=True):
    def data(setup):
        compile_data = importlib.import_module(module).compile_data
        if with_players:
            return compile_data(dict(setup.params), setup.players)
        return compile_data(dict(setup.params))

    return data


# game: (rules module, strategies module, state length, action buffer length (module:NAME under
#        sim.games), data, role arguments of init_state or None)
GAMES = {
    "celtic_trader": (
        "celtic_trader.rules",
        "celtic_trader",
        "celtic_trader.state:STATE_LEN",
        "celtic_trader.state:BUF_LEN",
        _trader_data,
        _roles("sim.games.celtic_trader.play"),
    ),
    "celtic_quest": (
        "celtic_trader.rules",
        "celtic_trader",
        "celtic_quest.layout:QSTATE_LEN",
        "celtic_trader.state:BUF_LEN",
        _quest_data,
        _roles("sim.games.celtic_quest.play"),
    ),
    "celtae": (
        "celtae.rules",
        "celtae",
        "celtae.state:STATE_LEN",
        "celtae.state:MAX_ACTIONS",
        _celtae_data,
        _roles("sim.games.celtae.play"),
    ),
    "celtica": (
        "celtica.rules",
        "celtica",
        "celtica.state:STATE_LEN",
        "celtica.state:MAX_ACTIONS",
        _params_data("sim.games.celtica.params", with_players=False),
        None,
    ),
    "catan_great_wall": (
        "catan_great_wall.rules",
        "catan_great_wall",
        "catan_great_wall.state:GW_STATE_LEN",
        "catan_great_wall.state:GW_MAX_ACTIONS",
        _params_data("sim.games.catan_great_wall.params"),
        None,
    ),
    **{
        game: (
            f"{game}.rules",
            game,
            f"{game}.state:STATE_LEN",
            f"{game}.state:MAX_ACTIONS",
            _params_data(f"sim.games.{game}.params"),
            None,
        )
        for game in ("catan", "catan_troy")
    },
}


def _size(where: str) -> int:
    module, name = where.split(":")
    return getattr(importlib.import_module(f"sim.games.{module}"), name)


def profile(game: str, games: int, players: int, spec: str, seed: int = 7):
    """{kind: [decisions, seconds, overruled, legal actions]} over ``games`` searched games."""
    rules_mod, strat_mod, len_at, buf_at, data_of, roles = GAMES[game]
    rules = importlib.import_module(f"sim.games.{rules_mod}")
    strat = importlib.import_module(f"strategies.{strat_mod}")
    decisions = importlib.import_module(f"sim.games.{game}.decisions")
    kinds = get_game(game).decision_kinds
    setup = make_setup(game, players, {}, spec)
    _, values = setup.bot_arrays()
    data = data_of(setup)
    policy = getattr(strat, "policy", None) or strat.greedy_action
    state_len, buf_len = _size(len_at), _size(buf_at)
    stats = defaultdict(lambda: [0, 0.0, 0, 0])
    seeds = derive_game_seeds(seed, 0, np.arange(games))
    work = np.zeros(buf_len, np.int32)
    for g in range(-1, games):  # game -1 compiles the kernels outside the figures
        streams = np.zeros((1 + players, 4), np.uint64)
        state = np.zeros(state_len, np.int32)
        after = np.zeros(state_len, np.int32)
        buf = np.zeros(buf_len, np.int32)
        seed_streams(streams, seeds[max(g, 0)])
        if roles:
            rules.init_state(data, players, *roles(setup), streams[0], state)
        else:
            rules.init_state(data, players, streams[0], state)
        while not rules.is_over(state):
            seat = rules.current_player(state)
            n = rules.legal_actions(state, data, work)
            params = values[seat]
            pick = policy(
                state.copy(), data, seat, params[N_SEARCH_PARAMS:], streams[1 + seat].copy(),
                buf.copy(),
            )  # fmt: skip
            start = time.perf_counter()
            action = strat.search_action(state, data, seat, params, streams[1 + seat], buf)
            spent = time.perf_counter() - start
            kind = strat.kind_of(state, data, pick) if hasattr(strat, "kind_of") else (
                decisions.decision_kind(state, data, pick)
            )  # fmt: skip
            if g >= 0:
                row = stats[kinds[kind]]
                row[0] += 1
                row[1] += spent
                row[2] += int(action != pick)
                row[3] += n
            rules.step(state, action, data, streams[0], after)
            state, after = after, state
    return stats


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--search", default="search:skip=0", help="the search bot spec")
    args = parser.parse_args(argv)
    stats = profile(args.game, args.games, args.players, args.search)
    total = sum(row[1] for row in stats.values())
    print(f"{args.game}, {args.players} players, {args.search} in every seat, {args.games} games:")
    print(f"{'kind':24s} {'per game':>9s} {'time':>7s} {'overruled':>10s} {'legal':>6s}")
    for kind, (n, spent, overruled, legal) in sorted(stats.items(), key=lambda kv: -kv[1][1]):
        print(
            f"{kind:24s} {n / args.games:9.1f} {100 * spent / total:6.1f}% "
            f"{100 * overruled / max(n, 1):9.1f}% {legal / max(n, 1):6.1f}"
        )


if __name__ == "__main__":
    main()
