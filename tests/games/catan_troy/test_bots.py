"""Troy bots: greedy beats random, greedy reads no hidden card (re-dealing what its seat cannot
see: the other hands, the support row's contents and the other seats' decision cards, never
changes its action), ``determinize`` keeps every public value, and a search with a tiny budget
plays the greedy game."""

import numpy as np
import polars as pl
import pytest

from sim.core.batch import play_batch
from sim.core.registry import make_setup
from sim.core.rng import derive_game_seeds, seed_streams
from sim.games.catan import state as S
from sim.games.catan_troy import state as T
from sim.games.catan_troy.params import K_N_SEA, T_SEA_VERTICES
from sim.games.catan_troy.rules import current_player, determinize, init_state, is_over, key, step
from strategies.catan_troy import GREEDY_CODE, choose_action
from strategies.catan_troy.greedy import GREEDY_PARAMS, P_COAST, greedy_action
from tests.games.catan_troy.helpers import check, data_for, rng

DEFAULTS = np.array([p.default for p in GREEDY_PARAMS], np.float64)


def hidden_mask(players, seat):
    """The state entries ``seat`` cannot see: other hands, the row, other decision cards."""
    hidden = np.zeros(T.STATE_LEN, bool)
    for o in range(players):
        if o != seat:
            hidden[S.HAND + o * S.N_RES : S.HAND + (o + 1) * S.N_RES] = True
            hidden[T.SIDE + o] = True
    hidden[T.ROW : T.ROW + S.N_RES] = True
    return hidden


def greedy_games(players, n_games, root):
    """Yield (state, seat, stream) at every decision of ``n_games`` greedy games."""
    data = data_for(players)
    buf = np.zeros(T.MAX_ACTIONS, np.int32)
    for seed in derive_game_seeds(root, players, np.arange(n_games)):
        streams = np.zeros((1 + players, 4), np.uint64)
        seed_streams(streams, seed)
        a = np.zeros(T.STATE_LEN, np.int32)
        out = np.zeros(T.STATE_LEN, np.int32)
        init_state(data, players, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            yield a, seat, streams[1 + seat]
            act = choose_action(a, data, seat, GREEDY_CODE, DEFAULTS, streams[1 + seat], buf)
            step(a, act, data, streams[0], out)
            a, out = out, a


@pytest.mark.parametrize("players,seat", [(4, 0), (4, 3), (6, 2)])
def test_greedy_beats_random(players, seat):
    bots = ["random"] * players
    bots[seat] = "greedy"
    setup = make_setup("catan_troy", players, {}, ",".join(bots))
    _, table = play_batch(setup, range(100), root_seed=21)
    rate = table.filter(pl.col("seat") == seat)["win"].mean()
    assert rate > 0.7, f"greedy won {rate:.2f} against random"


@pytest.mark.parametrize("players", [4, 6])
def test_greedy_reads_no_hidden_card(players):
    data = data_for(players)
    buf = np.zeros(T.MAX_ACTIONS, np.int32)
    checked = changed = 0
    for k, (a, seat, stream) in enumerate(greedy_games(players, 4, 8)):
        if k % 5:
            continue
        act = int(greedy_action(a, data, seat, DEFAULTS, stream.copy(), buf))
        other = np.zeros_like(a)
        determinize(a, data, seat, rng(k), other)
        changed += int((other != a).any())
        assert int(greedy_action(other, data, seat, DEFAULTS, stream.copy(), buf)) == act
        checked += 1
    assert checked > 100 and changed > checked // 2


def test_determinize_keeps_what_the_seat_sees():
    players = 4
    data = data_for(players)
    differ = sides_differ = 0
    for k, (a, seat, _) in enumerate(greedy_games(players, 3, 3)):
        if k % 7:
            continue
        d = np.zeros_like(a)
        before = a.copy()
        determinize(a, data, seat, rng(k), d)
        assert (a == before).all()
        check(d, data)  # cards, decision cards and every other invariant still hold
        hidden = hidden_mask(players, seat)
        assert (d[~hidden] == a[~hidden]).all(), "a public value changed"
        assert d[T.SIDE + seat] == a[T.SIDE + seat]
        differ += int((d != a).any())
        sides_differ += int((d[T.SIDE : T.SIDE + players] != a[T.SIDE : T.SIDE + players]).any())
    assert differ > 20 and sides_differ > 5


def test_search_with_a_tiny_budget_plays_greedy():
    greedy = make_setup("catan_troy", 4, {}, "greedy")
    # the setup settlements have a budget of their own (issue 35): tiny too
    search = make_setup("catan_troy", 4, {}, "search:rollouts=4:opening_rollouts=4")
    g1, t1 = play_batch(greedy, range(5), root_seed=4)
    g2, t2 = play_batch(search, range(5), root_seed=4)
    assert t1["score"].to_list() == t2["score"].to_list()
    assert g1["turns"].to_list() == g2["turns"].to_list()


def test_every_decision_kind_is_taken():
    setup = make_setup("catan_troy", 6, {}, "random,greedy,random,greedy,random,greedy")
    _, players = play_batch(setup, range(60), 3)
    from sim.games.catan_troy.decisions import DECISION_KINDS

    for kind in DECISION_KINDS:
        assert players[f"act_{kind}"].sum() > 0, kind
    assert (players["act_setup_settlement"] == 2).all()
    # the donations counted are the cards given
    assert (players["act_donate"] == players["donated"]).all()
    assert (players["act_ship"] == players["ships_built"]).all()


def _inland_ships(players, n_games, params):
    """Per game and seat: (no coastal building at the first roll, ships built by the end), all
    seats greedy with ``params``."""
    data = data_for(players)
    corners = data[T_SEA_VERTICES : T_SEA_VERTICES + 6 * key(data, K_N_SEA)]
    coast = np.array(sorted({int(v) for v in corners if v >= 0}))
    buf = np.zeros(T.MAX_ACTIONS, np.int32)
    inland = np.zeros((n_games, players), bool)
    ships = np.zeros((n_games, players), np.int64)
    for g, seed in enumerate(derive_game_seeds(35, players, np.arange(n_games))):
        streams = np.zeros((1 + players, 4), np.uint64)
        seed_streams(streams, seed)
        a = np.zeros(T.STATE_LEN, np.int32)
        out = np.zeros(T.STATE_LEN, np.int32)
        init_state(data, players, streams[0], a)
        started = False
        while not is_over(a):
            seat = current_player(a)
            act = choose_action(a, data, seat, GREEDY_CODE, params, streams[1 + seat], buf)
            if act == S.A_ROLL and not started:
                started = True
                for s in range(players):
                    inland[g, s] = not (a[S.V_OWNER + coast] == s).any()
            step(a, act, data, streams[0], out)
            a, out = out, a
        ships[g] = a[T.SHIPS_BUILT : T.SHIPS_BUILT + players]
    return inland, ships


def test_seats_with_no_coastal_start_head_for_the_coast_and_build_ships():
    """Issue 35: a seat whose setup left it off the coast (most seats: greedy places for
    production) builds towards a coastal place once it holds a ship's commerce tokens; paired
    against the same bot with ``coast=0`` (the greedy of before) on the same deals."""
    inland, ships = _inland_ships(4, 120, DEFAULTS)
    off = DEFAULTS.copy()
    off[P_COAST] = 0.0
    inland0, ships0 = _inland_ships(4, 120, off)
    assert (inland == inland0).all()  # the setup is the same: the coast value starts in play
    assert inland.mean() > 0.5
    built = (ships[inland] > 0).mean()
    built0 = (ships0[inland] > 0).mean()
    assert built > built0 + 0.05, f"inland seats with a ship: {built:.2f}, {built0:.2f} before"
    games_with = ((ships > 0) & inland).any(axis=1).mean()
    assert games_with >= 0.5, f"games where an inland seat built a ship: {games_with:.2f}"
