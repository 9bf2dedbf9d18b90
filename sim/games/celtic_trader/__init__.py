"""Celtic Trader (the introductory game of Celtic Quest): rules kernels, data and declaration.

Rules: rules/celtic-trader.md (French rulebook: seeds/000_1825a4835f661be7.txt). Kernel API:
``rules.init_state``, ``current_player``, ``is_over``, ``legal_actions``, ``step``, ``scores``;
the greedy policy is ``strategies.celtic_trader.greedy_action``.
"""

from sim.core.registry import GameDecl
from sim.games.celtic_trader.decisions import DECISION_KINDS
from sim.games.celtic_trader.params import GAME_DATA, PARAMS, ROLE_IDS, load_raw


def _play(setup, seeds):
    from sim.games.celtic_trader.play import play

    return play(setup, seeds)


def _trace(setup, seed):
    from sim.games.celtic_trader.trace import trace

    return trace(setup, seed)


def warmup() -> None:
    """Compile (or load from the numba cache) every kernel by playing one game of each bot."""
    import numpy as np

    from sim.core.registry import make_setup

    for bots in ("random", "greedy"):
        _play(make_setup("celtic_trader", 4, {}, bots), np.array([1], np.uint64))


def _bots():
    from strategies.celtic_trader.decl import GREEDY_DECL, RANDOM_DECL, SEARCH_DECL

    return (RANDOM_DECL, GREEDY_DECL, SEARCH_DECL)  # SEARCH_DECL: search hook (bot levels)


_raw = load_raw()

GAME = GameDecl(
    id="celtic_trader",
    title="Celtic Trader",
    version=str(_raw["game"]["version"]),
    min_players=_raw["game"]["players_min"],
    max_players=_raw["game"]["players_max"],
    params=PARAMS,
    bots=_bots(),
    end_reasons=("all_conquered", "supply_exhausted", "turn_limit", "turn_cap"),
    score_components=("vp", "role"),
    play=_play,
    trace=_trace,
    roles=ROLE_IDS,
    role_modes=("random", "draft"),
    default_bot="greedy",
    warmup=warmup,
    data=GAME_DATA,
    decision_kinds=DECISION_KINDS,
)
