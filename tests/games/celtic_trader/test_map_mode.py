"""Celtic Trader on generated maps (parameter ``map_mode``, rules/celtic-quest.md §3.1-§3.3)."""

import numpy as np
import pytest

from sim.core.batch import trace_game
from sim.core.check import check_games
from sim.core.registry import make_setup
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.mapmode import game_map, generated_raw
from sim.games.celtic_trader.params import (
    O_ADJ,
    O_DIST,
    O_ROLE_START,
    O_RULES,
    O_START_COL,
    PARAMS,
    R_NSEC,
    load_raw,
    section_names,
)
from sim.games.celtic_trader.play import game_data, play, setup_data

SEEDS = np.arange(40, dtype=np.uint64)


def test_map_mode_is_declared_with_the_fixed_map_by_default():
    assert PARAMS.defaults(4)["map_mode"] == "fixed"
    fixed = make_setup("celtic_trader", 3, {"map_mode": "fixed"}, "greedy")
    default = make_setup("celtic_trader", 3, {}, "greedy")
    a, b = play(fixed, SEEDS), play(default, SEEDS)
    assert np.array_equal(a.score, b.score) and np.array_equal(a.actions, b.actions)
    assert np.array_equal(game_data(default, 7), setup_data(default))


@pytest.mark.parametrize("bots", ["greedy", "random"])
def test_a_generated_map_game_runs_to_the_end_and_differs_from_the_fixed_map(bots):
    gen = make_setup("celtic_trader", 4, {"map_mode": "generated"}, bots)
    fixed = make_setup("celtic_trader", 4, {}, bots)
    a, b = play(gen, SEEDS), play(fixed, SEEDS)
    assert (a.rounds > 0).all() and (a.turns > 0).all()
    assert (a.end_reason < 2).all()  # all_conquered or supply_exhausted, never the safety cap
    assert not np.array_equal(a.score, b.score)
    # each game has its own map, none of them the fixed one
    fixed_data = setup_data(fixed)
    maps = {game_data(gen, int(s))[O_ADJ:O_DIST].tobytes() for s in SEEDS[:10]}
    assert len(maps) == 10 and fixed_data[O_ADJ:O_DIST].tobytes() not in maps
    # the same seeds replay the same games
    again = play(gen, SEEDS)
    assert np.array_equal(a.score, again.score) and np.array_equal(a.actions, again.actions)


def test_a_game_plays_on_the_map_and_charts_of_its_seed():
    setup = make_setup("celtic_trader", 2, {"map_mode": "generated"}, "greedy")
    for seed in (3, 11):
        _, graph = game_map(2, seed)
        data = game_data(setup, seed)
        charts = data[O_START_COL : O_START_COL + 36].reshape(6, 6)
        assert [[(1, 2, 4, 6, 8)[c] for c in row] for row in charts] == [
            list(c) for c in graph.start_demand
        ]
        names = section_names()
        starts = data[O_ROLE_START : O_ROLE_START + 18]
        assert all(names[s] in graph.connected for s in starts)  # RULING B21


def test_role_starts_off_the_stone_circle_roads_become_the_stone_circle():
    # a one-network tile always joins the circle's roads; only a bridge tile's other network
    # can stay off them, so of the role starts only the Versatile's T04b can
    seed = next(s for s in range(500) if "T04b" not in game_map(4, s)[1].connected)
    _, graph = game_map(4, seed)
    raw = generated_raw(load_raw(), graph)
    assert raw["roles"][5]["id"] == "versatile" and raw["roles"][5]["start"] == ["T13", "SC", "SC"]
    assert raw["roles"][:5] == load_raw()["roles"][:5]


def test_the_trace_shows_the_map_and_replays_the_bulk_game():
    setup = make_setup("celtic_trader", 3, {"map_mode": "generated"}, "greedy")
    seed = 5
    lines, players = trace_game(setup, seed)
    assert lines[1].startswith("map: generated in ") and lines[2].startswith("face-down tokens:")
    res = play(setup, np.array([seed], np.uint64))
    assert players["score"].to_list() == res.score[0].tolist()


@pytest.mark.parametrize("bots", ["greedy", "random"])
def test_generated_maps_keep_every_invariant(bots):
    setup = make_setup("celtic_trader", 3, {"map_mode": "generated"}, bots)
    report = check_games(setup, 150, seed=100)
    assert report.violations == 0, report.first()


def test_a_broken_rule_is_reported_at_its_game_on_generated_maps():
    setup = make_setup("celtic_trader", 2, {"map_mode": "generated"}, "random")
    report = check_games(setup, 8, seed=40, chunk=5, corrupt=(6, 7, S.SUPPLY, 1))
    assert report.violations == 1 and report.first()[:2] == (46, 7)


@pytest.mark.parametrize("game", ["celtic_trader", "celtic_quest"])
def test_games_on_generated_maps_play_alike_in_one_chunk_and_one_by_one(game):
    """On generated maps each game has its own map, while the action buffer (greedy's plan and
    its kept shortest-path search, issue 20) lives through a chunk: games played in one chunk
    equal games played one at a time. (These seeds never reuse a stale key; the test below
    checks the forgetting itself.)"""
    setup = make_setup(game, 4, {"map_mode": "generated"}, "greedy")
    play_game = setup.decl.play
    seeds = SEEDS[:12]
    together = play_game(setup, seeds)
    for g, seed in enumerate(seeds):
        alone = play_game(setup, seeds[g : g + 1])
        assert alone.score[0].tolist() == together.score[g].tolist(), f"seed {seed}"
        assert alone.turns[0] == together.turns[g]
        assert alone.actions[0].tolist() == together.actions[g].tolist()


def test_the_kept_search_is_forgotten_for_another_map():
    """Greedy's kept search (``search_from``) is keyed by section and Romans, not by map: the
    same key on another map would read the first map's distances, which is why each game's
    start forgets it. Checked on the fixed map and a generated one, from every section."""
    from strategies.celtic_trader import greedy as G

    fixed = setup_data(make_setup("celtic_trader", 4, {}, "greedy"))
    other = game_data(make_setup("celtic_trader", 4, {"map_mode": "generated"}, "greedy"), 3)
    state = np.zeros(S.STATE_LEN, np.int32)  # no Roman anywhere
    n = 24  # sections present on both maps

    def fresh(data, src):
        buf = np.zeros(S.BUF_LEN, np.int32)
        G.search_from(state, data, 0, src, buf)
        return buf[G.SC_DIST : G.SC_DIST + n].copy()

    stale_seen = False
    for src in range(n):
        buf = np.zeros(S.BUF_LEN, np.int32)
        G.search_from(state, fixed, 0, src, buf)
        G.search_from(state, other, 0, src, buf)  # same key: the fixed map's search is kept
        kept = buf[G.SC_DIST : G.SC_DIST + n].copy()
        assert kept.tolist() == fresh(fixed, src).tolist()
        stale_seen |= kept.tolist() != fresh(other, src).tolist()
        G.forget_search(buf)
        G.search_from(state, other, 0, src, buf)
        assert buf[G.SC_DIST : G.SC_DIST + n].tolist() == fresh(other, src).tolist()
    assert stale_seen, "the two maps should differ somewhere, or the check says nothing"


def test_kept_searches_give_what_a_fresh_search_gives():
    """Greedy keeps its last searches in slots (issue 42: the search bot's rollouts plan from the
    same positions again and again): after any sequence of searches, from sections and Roman
    placements that repeat, more of them than there are slots, the scratch holds exactly what
    a fresh search from that section gives (distances and parents)."""
    from strategies.celtic_trader import greedy as G

    data = setup_data(make_setup("celtic_trader", 4, {}, "greedy"))
    n = int(data[O_RULES + R_NSEC])
    rng = np.random.default_rng(5)
    placements = [rng.random(n) < share for share in (0.0, 0.1, 0.2)]
    buf = np.zeros(S.BUF_LEN, np.int32)
    G.forget_search(buf)
    hits = 0
    for _ in range(400):
        state = np.zeros(S.STATE_LEN, np.int32)
        state[S.ROMAN : S.ROMAN + n] = placements[rng.integers(len(placements))]
        src = int(rng.integers(12))  # 36 keys, 32 slots: slots are revisited and replaced
        before = buf[G.SC_SLOTS :].copy()
        G.search_from(state, data, 0, src, buf)
        hits += buf[G.SC_SLOTS :].tolist() == before.tolist()
        dist = np.zeros(G.MAX_SEC, np.int32)
        par = np.zeros(G.MAX_SEC, np.int32)
        G._bfs(state, data, src, dist, par, np.zeros(G.Q_LEN, np.int32))
        assert buf[G.SC_DIST : G.SC_DIST + n].tolist() == dist[:n].tolist()
        assert buf[G.SC_PAR : G.SC_PAR + n].tolist() == par[:n].tolist()
    assert 50 < hits < 390, f"both kept searches and new ones should be seen ({hits} kept)"
