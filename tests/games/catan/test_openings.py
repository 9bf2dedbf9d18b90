"""Greedy's ``temperature`` on the Catan-family openings (issue 35).

On the fixed boards (the Great Wall, Troy) greedy at ``temperature=0`` plays one opening in
every game (one per seat order: the first player is a fixed lever); at the default, openings
vary from game to game. The draws come from the seats' streams: the chance stream after the
setup, and so the board and every later die, is the same at any temperature. The same seed
gives the same openings; on the base game's shuffled board the openings vary at any
temperature, and at 0 the seats' streams are not drawn from at all. The search bot searches
the setup placements on the fixed boards (``opening``).
"""

import numpy as np
import pytest

from sim.core.registry import get_game, make_setup
from sim.core.rng import seed_streams
from sim.games.catan.openings import opening_counts, openings, setup_player
from strategies.catan.greedy import GREEDY_PARAMS
from strategies.search import kinds_mask

FIXED = ["catan_great_wall", "catan_troy"]
GAMES = 40
DEFAULT_T = GREEDY_PARAMS.get("temperature").default


def test_default_temperature_is_positive():
    assert DEFAULT_T > 0


@pytest.mark.parametrize("game", FIXED)
@pytest.mark.parametrize("players", [4, 6])
def test_temperature_zero_plays_one_opening(game, players):
    found = openings(make_setup(game, players, {}, "greedy:temperature=0"), range(GAMES), 3)
    assert opening_counts(found)["distinct"] == 1


@pytest.mark.parametrize("game", FIXED)
@pytest.mark.parametrize("players", [4, 6])
def test_default_temperature_varies_openings(game, players):
    found = openings(make_setup(game, players, {}, "greedy"), range(GAMES), 3)
    counts = opening_counts(found)
    # the setup has 4 (Troy) or 5 (Great Wall) placements per seat, each drawn among the
    # places within a pip or two of the best: nearly every game's opening is its own
    assert counts["distinct"] >= GAMES // 2
    assert min(counts["per_seat"].values()) >= 4  # every seat varies, not only the first


@pytest.mark.parametrize("game", ["catan", *FIXED])
def test_same_seed_same_openings(game):
    setup = make_setup(game, 4, {}, "greedy")
    assert openings(setup, range(6), 11) == openings(setup, range(6), 11)


@pytest.mark.parametrize("game", ["catan", *FIXED])
def test_temperature_draws_from_the_seat_stream_only(game):
    """Chance after the setup is the same at any temperature; only the seats' streams moved,
    and at 0 not even they (greedy at 0 draws nothing)."""
    play_zero = setup_player(make_setup(game, 4, {}, "greedy:temperature=0"))
    play_hot = setup_player(make_setup(game, 4, {}, "greedy:temperature=2"))
    moved = 0
    for seed in np.arange(1, 9, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15):
        s0, s1 = play_zero(seed)[1], play_hot(seed)[1]
        assert (s0[0] == s1[0]).all()
        moved += int((s0[1:] != s1[1:]).any())
        fresh = np.zeros_like(s0)
        seed_streams(fresh, seed)
        assert (s0[1:] == fresh[1:]).all()
    assert moved == 8


@pytest.mark.parametrize("game", FIXED)
def test_search_searches_the_opening(game):
    """On a fixed board the search overrules greedy's setup placements in some games (issue 35:
    they were left to greedy). Its seat stream moves only with greedy's own draw, so with every
    setup kind skipped it plays greedy's openings game for game."""
    kinds = get_game(game).decision_kinds
    setup_kinds = [k for k in ("place_fortress", "setup_settlement", "setup_road") if k in kinds]
    greedy = openings(make_setup(game, 4, {}, "greedy"), range(8), 3)
    searched = openings(make_setup(game, 4, {}, "search"), range(8), 3)
    assert sum(g != s for g, s in zip(greedy, searched, strict=True)) >= 1
    skipped = f"search:skip={kinds_mask(kinds, setup_kinds)}"
    assert openings(make_setup(game, 4, {}, skipped), range(8), 3) == greedy
