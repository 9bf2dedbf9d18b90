"""A tiny numpy-only game for the runner's tests: fast to play, nothing to compile.

Each seat rolls ``dice`` six-sided dice from the chance stream; a greedy bot adds its ``edge``;
the red role scores ``bonus`` extra; the blue role loses ``blue_penalty`` points unless a greedy
bot plays it (a role only a weak bot plays badly); ``twist`` adds round(twist x (dice - 3)) to
red's bonus (0 at its default: an interaction of two levers) and ``decoy`` is declared and never
read (an inert lever), for `menhir screen`'s tests; ``delay_ms`` slows each game down so a test
can kill a run mid-way. Roles are dealt at random from the chance stream, drafted in seat order
(greedy takes red first, random picks from its own stream), or fixed.
"""

import time

import numpy as np

from sim.core.params import Param, ParamSet
from sim.core.registry import BotDecl, GameDecl
from sim.core.results import ChunkResult

ROLES = ("red", "green", "blue", "yellow")


def _streams(seed: int, players: int) -> list[np.random.Generator]:
    """Row 0 chance, row 1 + seat that seat's bot (the layout of sim.core.rng)."""
    return [np.random.default_rng([int(seed), k]) for k in range(1 + players)]


def _deal_roles(setup, rngs, codes) -> list[int]:
    if not isinstance(setup.roles, str):
        return [ROLES.index(r) for r in setup.roles]
    if setup.roles == "random":
        return [int(r) for r in rngs[0].permutation(len(ROLES))[: setup.players]]
    left = list(range(len(ROLES)))
    chosen = []
    for seat in range(setup.players):
        pick = 0 if codes[seat] == 1 else int(rngs[1 + seat].integers(len(left)))
        chosen.append(left.pop(pick))
    return chosen


def _play(setup, seeds):
    n, p = len(seeds), setup.players
    codes, bot_params = setup.bot_arrays()
    params = setup.params
    if params["style"] == "loaded" and params["dice"] > 8:  # a rule between two parameters
        raise ValueError("style 'loaded' allows at most 8 dice")
    result = ChunkResult.empty(n, p, 2, 1)
    for g, seed in enumerate(seeds):
        rngs = _streams(seed, p)
        roles = _deal_roles(setup, rngs, codes)
        rolls = rngs[0].integers(1, 7, size=(p, params["dice"]))
        for seat in range(p):
            edge = bot_params[seat, 0] * rngs[1 + seat].random() if codes[seat] == 1 else 0.0
            result.components[g, seat, 0] = rolls[seat].sum() + int(round(edge))
            result.components[g, seat, 1] = int(params["bonus"]) if roles[seat] == 0 else 0
            if roles[seat] == 0 and params["twist"]:
                result.components[g, seat, 1] += int(round(params["twist"] * (params["dice"] - 3)))
            if roles[seat] == 2 and codes[seat] != 1:
                result.components[g, seat, 1] -= params["blue_penalty"]
            result.role[g, seat] = roles[seat]
            result.extras[g, seat, 0] = rolls[seat].max()
        result.rounds[g] = 1
        result.turns[g] = p
        result.end_reason[g] = 0 if params["style"] == "plain" else 1
    result.score[:] = result.components.sum(axis=2)
    if params["delay_ms"]:
        time.sleep(params["delay_ms"] * n / 1000)
    return result


def _trace(setup, seed):
    result = _play(setup, np.array([seed], np.uint64))
    return [f"seat {s} scores {result.score[0, s]}" for s in range(setup.players)], result


GAME = GameDecl(
    id="fake_runner",
    title="Fake runner game",
    version="1",
    min_players=2,
    max_players=4,
    params=ParamSet(
        (
            Param("dice", "int", {2: 3, 3: 3, 4: 2}, "dice per seat", low=1, high=10),
            Param("bonus", "float", 0.0, "extra points of the red role", low=0, high=5),
            Param("style", "str", "plain", "end reason label", choices=("plain", "loaded")),
            Param("delay_ms", "float", 0.0, "sleep per game (kill tests)", low=0, high=1000),
            Param(
                "blue_penalty", "int", 0, "points blue loses with a non-greedy bot", low=0, high=9
            ),
            Param("twist", "float", 0.0, "red's extra per die above 3", low=-5, high=5),
            Param("decoy", "float", 0.0, "declared, never read (an inert lever)", low=0, high=10),
        )
    ),
    bots=(
        BotDecl("random", 0, "rolls"),
        BotDecl(
            "greedy",
            1,
            "rolls with an edge",
            ParamSet((Param("edge", "float", 1.0, "extra points", low=0, high=3),)),
        ),
    ),
    end_reasons=("plain", "loaded"),
    score_components=("dice", "bonus"),
    play=_play,
    trace=_trace,
    roles=ROLES,
    role_label="colour",
    role_modes=("random", "draft"),
    player_extras=("best_die",),
    tiebreak=("best_die",),
)
