"""The openings of the Catan-family games (issue 35): every seat's setup placements, per game.

An opening is the ordered list of ``(seat, action)`` decisions taken before the first roll:
the setup settlements and roads and, in the Great Wall, the fortress sites. Games are played
from the seeds the batch runner gives them (``derive_game_seeds``), with the same kernels and
streams as the compiled chunk loop, so game *i*'s opening here is game *i*'s opening in a run
of the same setup, seed and variant key. The loop is Python over the compiled kernels and
stops at the first roll: a few milliseconds per game.
"""

from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass

import numpy as np

from sim.core.kernel import work_arrays
from sim.core.registry import Setup
from sim.core.rng import derive_game_seeds, seed_streams
from sim.games.catan.state import PH_SETUP_ROAD, PH_SETUP_SETTLE, PHASE
from sim.games.catan_great_wall.state import PH_FORTRESS


@dataclass(frozen=True)
class _Game:
    rules: str
    state: str
    params: str
    bots: str
    setup_phases: tuple[int, ...]


_GAMES = {
    "catan": _Game(
        "sim.games.catan.rules",
        "sim.games.catan.state",
        "sim.games.catan.params",
        "strategies.catan",
        (PH_SETUP_SETTLE, PH_SETUP_ROAD),
    ),
    "catan_great_wall": _Game(
        "sim.games.catan_great_wall.rules",
        "sim.games.catan_great_wall.state",
        "sim.games.catan_great_wall.params",
        "strategies.catan_great_wall",
        (PH_SETUP_SETTLE, PH_SETUP_ROAD, PH_FORTRESS),
    ),
    "catan_troy": _Game(
        "sim.games.catan_troy.rules",
        "sim.games.catan_troy.state",
        "sim.games.catan_troy.params",
        "strategies.catan_troy",
        (PH_SETUP_SETTLE, PH_SETUP_ROAD),
    ),
}


def setup_player(setup: Setup):
    """``play(seed) -> (moves, streams)``: one game of ``setup`` played to its first roll, its
    ``(seat, action)`` decisions and the streams then (chance first, then each seat's)."""
    if setup.game not in _GAMES:
        raise ValueError(f"openings: {setup.game} is not a Catan-family game ({sorted(_GAMES)})")
    g = _GAMES[setup.game]
    rules = importlib.import_module(g.rules)
    state_mod = importlib.import_module(g.state)
    choose_action = importlib.import_module(g.bots).choose_action
    data = importlib.import_module(g.params).compile_data(dict(setup.params), setup.players)
    state_len = getattr(state_mod, "GW_STATE_LEN", state_mod.STATE_LEN)
    max_actions = getattr(state_mod, "GW_MAX_ACTIONS", state_mod.MAX_ACTIONS)
    codes, params = setup.bot_arrays()
    streams, a, buf = work_arrays(setup.players, state_len, max_actions)

    def play(seed):
        seed_streams(streams, seed)
        rules.init_state(data, setup.players, streams[0], a)
        moves = []
        while a[PHASE] in g.setup_phases:
            seat = int(rules.current_player(a))
            act = choose_action(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            moves.append((seat, int(act)))
            rules.advance(a, act, data, streams[0])
        return tuple(moves), streams.copy()

    return play


def openings(
    setup: Setup, game_indices, root_seed: int = 0, variant_key: int = 0
) -> list[tuple[tuple[int, int], ...]]:
    """The opening of each game: its ``(seat, action)`` decisions up to the first roll."""
    play = setup_player(setup)
    seeds = derive_game_seeds(root_seed, variant_key, np.asarray(game_indices, dtype=np.int64))
    return [play(seed)[0] for seed in seeds]


def opening_counts(found: list[tuple[tuple[int, int], ...]]) -> dict:
    """Distinct openings overall and per seat (a seat's own decisions), and the most common
    opening's share."""
    seats = sorted({s for moves in found for s, _ in moves})
    per_seat = {s: len({tuple(a for t, a in moves if t == s) for moves in found}) for s in seats}
    top = Counter(found).most_common(1)[0][1] if found else 0
    return {
        "games": len(found),
        "distinct": len(set(found)),
        "per_seat": per_seat,
        "top_share": top / max(1, len(found)),
    }
