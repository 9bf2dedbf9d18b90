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


# game: (rules module, advance module, strategies module, state module, state length name,
#        action buffer name, data, role arguments of init_state or None)
GAMES = {
    "celtic_trader": (
        "celtic_trader.rules",
        "celtic_trader.rules",
        "celtic_trader",
        "celtic_trader.state",
        "STATE_LEN",
        "BUF_LEN",
        _trader_data,
        _roles("sim.games.celtic_trader.play"),
    ),
    "celtic_quest": (
        "celtic_trader.rules",
        "celtic_trader.rules",
        "celtic_trader",
        "celtic_quest.layout",
        "QSTATE_LEN",
        "BUF_LEN",
        _quest_data,
        _roles("sim.games.celtic_quest.play"),
    ),
    "celtae": (
        "celtae.rules",
        "celtae.rules_turn",
        "celtae",
        "celtae.state",
        "STATE_LEN",
        "MAX_ACTIONS",
        _celtae_data,
        _roles("sim.games.celtae.play"),
    ),
    "celtica": (
        "celtica.rules",
        "celtica.rules",
        "celtica",
        "celtica.state",
        "STATE_LEN",
        "MAX_ACTIONS",
        _params_data("sim.games.celtica.params", with_players=False),
        None,
    ),
    **{
        game: (
            f"{game}.rules",
            f"{game}.rules",
            game,
            f"{game}.state",
            "STATE_LEN",
            "MAX_ACTIONS",
            _params_data(f"sim.games.{game}.params"),
            None,
        )
        for game in ("catan", "catan_troy", "catan_great_wall")
    },
}


def _size(module, name: str) -> int:
    prefixed = {"catan_great_wall.state": "GW_"}.get(module.__name__.removeprefix("sim.games."))
    return getattr(module, (prefixed or "") + name)


def profile(game: str, games: int, players: int, spec: str, seed: int = 7):
    """{kind: [decisions, seconds, overruled, legal actions]} over ``games`` searched games."""
    rules_mod, advance_mod, strat_mod, state_mod, len_name, buf_name, data_of, roles = GAMES[game]
    rules = importlib.import_module(f"sim.games.{rules_mod}")
    advance = importlib.import_module(f"sim.games.{advance_mod}").advance
    strat = importlib.import_module(f"strategies.{strat_mod}")
    layout = importlib.import_module(f"sim.games.{state_mod}")
    decisions = importlib.import_module(f"sim.games.{game}.decisions")
    kinds = get_game(game).decision_kinds
    setup = make_setup(game, players, {}, spec)
    _, values = setup.bot_arrays()
    data = data_of(setup)
    policy = getattr(strat, "policy", None) or strat.greedy_action
    state_len, buf_len = _size(layout, len_name), _size(layout, buf_name)
    stats = defaultdict(lambda: [0, 0.0, 0, 0])
    seeds = derive_game_seeds(seed, 0, np.arange(games))
    work = np.zeros(buf_len, np.int32)
    for g in range(-1, games):  # game -1 compiles the kernels outside the figures
        streams = np.zeros((1 + players, 4), np.uint64)
        state = np.zeros(state_len, np.int32)
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
            advance(state, action, data, streams[0])
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
