"""Celtic Quest invariants, checked after every step by ``menhir check`` and the tests.

``state_check`` is the state's own validator (rules/celtic-quest.md §2, §3, §4): every token
kind is conserved, the RP/VP supply holds what is not in play, carried tokens fit, positions
and the enchanted tiles agree with the map. ``transition_check`` holds what never goes back
(the spell track, enchantments, quests completed, crystals delivered, capability levels).
``checked`` runs the compiled checked loop (sim/core/check.py). Celtic Quest is played by the
Celtic Trader kernels, so the loop is Celtic Trader's (sim/games/celtic_trader/invariants.py),
which calls the three checks on the longer Celtic Quest state. The checks themselves live in
sim/games/celtic_quest/checks.py, below both invariants modules (Celtic Trader's loop
imports them; this module imports that loop).
"""

import numpy as np

import sim.games.celtic_trader.invariants as trader_checks
from sim.core.split_compile import prepare
from sim.games.celtic_quest.checks import (
    CARRY,
    CRYSTALS,
    INVARIANTS,
    ITEMS,
    MAP,
    N_ROWS,
    OK,
    PROGRESS,
    QUESTS,
    SUPPLY,
    TOKENS,
    score_check,
    state_check,
    transition_check,
)
from sim.games.celtic_quest.play import chunk_data, fixed_destinies
from sim.games.celtic_trader import state as S
from strategies.celtic_trader import choose_plain
from strategies.search import checked_loop

__all__ = [  # the invariants interface (sim/games/README.md), and the codes the tests name
    "CARRY",
    "CRYSTALS",
    "INVARIANTS",
    "ITEMS",
    "MAP",
    "N_ROWS",
    "OK",
    "PROGRESS",
    "QUESTS",
    "SUPPLY",
    "TOKENS",
    "checked",
    "checked_kernel",
    "score_check",
    "state_check",
    "transition_check",
]


def checked_kernel(
    data, n_players, fixed, codes, params, seeds, max_steps, corrupt,
    first_code, first_step, counts,
):  # fmt: skip
    """Celtic Trader's checked loop (the same engine: it runs the checks of checks.py where the data
    says Celtic Quest), with each seat's destiny fixed or, where -1, dealt."""
    trader_checks.checked_kernel(
        data, n_players, S.ROLES_RANDOM, fixed, codes, params, seeds, max_steps, corrupt,
        first_code, first_step, counts,
    )  # fmt: skip


def compile_halves(args, search) -> tuple:
    """The halves of Celtic Trader's checked loop as Celtic Quest plays it (its kernels
    themselves, with the quest hooks) for sim/core/split_compile.py."""
    return trader_checks.loop_halves(args, lambda kernel: kernel)


def checked(setup, seeds, max_steps, corrupt):
    """(first violation per game, its step, counts) for one chunk of seeds (sim/core/check.py);
    on generated maps (the default) each game is checked on its own map."""
    codes, values = setup.bot_arrays()
    loop = checked_loop(codes, trader_checks.checked_kernel, choose_plain)  # the shared loop
    fixed = fixed_destinies(setup)
    seeds = np.ascontiguousarray(seeds, np.uint64)
    n = seeds.shape[0]
    first_code = np.zeros(n, np.int64)
    first_step = np.zeros(n, np.int64)
    counts = np.zeros((N_ROWS, 2), np.int64)
    for i, j, data in chunk_data(setup, seeds):
        bad = corrupt.copy()
        if bad[0] >= 0:
            bad[0] -= i  # the kernel counts games from the start of its run
        args = (
            data, setup.players, S.ROLES_RANDOM, fixed, codes, values, seeds[i:j], max_steps,
            bad, first_code[i:j], first_step[i:j], counts,
        )  # fmt: skip
        prepare(loop, args, compile_halves, False)
        loop(*args)
    return first_code, first_step, counts
