"""Catan bots: greedy beats random, every invariant holds in greedy games (the compiled
checker of test_properties.py), and greedy reads no hidden card: re-dealing what its seat
cannot see (the other hands' contents, the other players' development cards against the deck)
never changes its action."""

import numpy as np
import polars as pl
import pytest

from sim.core import registry
from sim.core.batch import play_batch
from sim.core.registry import make_setup
from sim.core.rng import derive_game_seeds, seed_streams
from sim.games.catan import state as S
from sim.games.catan.rules import current_player, init_state, is_over, step
from strategies.catan import GREEDY_CODE, choose_action
from strategies.catan.greedy import GREEDY_PARAMS, greedy_action
from tests.games.catan.helpers import data_for
from tests.games.catan.test_properties import ERRORS, play_checked

DEFAULTS = np.array([p.default for p in GREEDY_PARAMS], np.float64)


@pytest.fixture
def catan_registered(monkeypatch):
    monkeypatch.setitem(registry.GAME_MODULES, "catan", "sim.games.catan")


@pytest.mark.slow
@pytest.mark.parametrize("players,seat", [(3, 2), (4, 0), (4, 3), (6, 4)])
def test_greedy_beats_random(catan_registered, players, seat):
    bots = ["random"] * players
    bots[seat] = "greedy"
    setup = make_setup("catan", players, {}, ",".join(bots))
    games, table = play_batch(setup, range(100), root_seed=21)
    assert (games["end_reason"] == "vp_target").all()
    rate = table.filter(pl.col("seat") == seat)["win"].mean()
    assert rate > 0.8, f"greedy won {rate:.2f} against random"


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_invariants_after_every_step_greedy_games(players):
    data = data_for(players)
    codes = np.full(players, GREEDY_CODE, np.int64)
    codes[0] = 0  # one random seat keeps the games varied
    params = np.tile(DEFAULTS, (players, 1))
    n = 100
    seeds = derive_game_seeds(17, players, np.arange(n))
    errors, steps, reasons, rounds = (np.zeros(n, np.int64) for _ in range(4))
    play_checked(data, players, codes, params, seeds, errors, steps, reasons, rounds)
    bad = np.flatnonzero(errors)
    assert not bad.size, f"game {bad[0]}: {ERRORS[errors[bad[0]]]}"
    assert (reasons == S.R_VP_TARGET).all()


def _redeal(s, seat, pick):
    """Same public information, other hidden cards: swap one card between two opponents'
    hands, and one opponent development card (held or new) with a card of the deck."""
    t = s.copy()
    n = int(t[S.NP])
    others = [p for p in range(n) if p != seat]
    for _ in range(4):
        a, b = pick.choice(others, 2, replace=False)
        ra = [r for r in range(S.N_RES) if t[S.HAND + a * S.N_RES + r] > 0]
        rb = [r for r in range(S.N_RES) if t[S.HAND + b * S.N_RES + r] > 0]
        if ra and rb:
            x, y = pick.choice(ra), pick.choice(rb)
            t[S.HAND + a * S.N_RES + x] -= 1
            t[S.HAND + a * S.N_RES + y] += 1
            t[S.HAND + b * S.N_RES + y] -= 1
            t[S.HAND + b * S.N_RES + x] += 1
    for base in (S.DEV, S.DEV_NEW):
        for p in others:
            held = [d for d in range(S.N_DEV) if t[base + p * S.N_DEV + d] > 0]
            deck = [d for d in range(S.N_DEV) if t[S.DECK + d] > 0]
            if held and deck:
                x, y = pick.choice(held), pick.choice(deck)
                t[base + p * S.N_DEV + x] -= 1
                t[base + p * S.N_DEV + y] += 1
                t[S.DECK + y] -= 1
                t[S.DECK + x] += 1
    return t


@pytest.mark.slow
def test_greedy_reads_no_hidden_card():
    players = 4
    data = data_for(players)
    pick = np.random.default_rng(5)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    checked = changed = 0
    for seed in derive_game_seeds(8, players, np.arange(6)):
        streams = np.zeros((1 + players, 4), np.uint64)
        seed_streams(streams, seed)
        a = np.zeros(S.STATE_LEN, np.int32)
        out = np.zeros(S.STATE_LEN, np.int32)
        init_state(data, players, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            rng = streams[1 + seat].copy()
            act = int(greedy_action(a, data, seat, DEFAULTS, rng.copy(), buf))
            if a[S.TURNS] % 3 == 0:
                other = _redeal(a, seat, pick)
                changed += int((other != a).any())
                assert int(greedy_action(other, data, seat, DEFAULTS, rng.copy(), buf)) == act
                checked += 1
            chosen = choose_action(a, data, seat, GREEDY_CODE, DEFAULTS, streams[1 + seat], buf)
            assert int(chosen) == act
            step(a, chosen, data, streams[0], out)
            a, out = out, a
    assert checked > 200 and changed > 100
