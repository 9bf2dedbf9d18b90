"""Troy's readable trace (sim/games/catan_troy/trace.py) over the Special Building Phase."""

import pytest

from sim.core.batch import trace_game
from sim.core.registry import make_setup
from sim.games.catan import state as S
from sim.games.catan_troy import params as P
from sim.games.catan_troy import state as T
from sim.games.catan_troy.trace import _event, _TroyNames
from tests.games.catan_troy.helpers import (
    LUMBER,
    ORE,
    WOOL,
    apply,
    data_for,
    make_state,
    sea,
    vertex,
)

ANNOUNCE = "  special building phase"


@pytest.mark.parametrize("after", ["steal", "no_steal", "nobody_to_rob"])
def test_the_special_building_phase_is_announced_once_not_after_the_sea_people(after):
    """Base §4.2 (5-6 players) and Troy §4.2 «2.c»: the phase starts once, at the end of the
    active player's turn; a ship built in it moves the Sea People (who may steal), and the
    phase goes on. The trace announces the phase at its start only."""
    players = 6
    data = data_for(players)
    names = _TroyNames(P.PARAMS.resolve(players, {}), players)
    builder_home = vertex(players, 0, 0, "N")  # a corner of sea (0,-1)
    victim_home = vertex(players, 2, 0, "N")  # a corner of sea (2,-1)
    s = make_state(
        data, players, phase=S.PH_MAIN, cur=0,
        settlements={1: [builder_home], 2: [victim_home]},
        hands={1: {WOOL: 1, LUMBER: 1}, 2: {ORE: 1}}, tokens={1: 2},
    )  # fmt: skip
    steps = [S.A_END, T.A_SHIP + sea(players, 0, -1)]
    if after == "nobody_to_rob":
        steps.append(T.A_SEA + sea(players, -1, 0))  # nobody on its corners
    else:
        steps.append(T.A_SEA + sea(players, 2, -1))
        steps.append(S.A_STEAL + 2 if after == "steal" else T.A_NO_STEAL)
    lines = []
    for action in steps:
        out = apply(s, action, data)
        lines.append(_event(s, out, int(action), names, data))
        s = out
    assert s[S.PHASE] == S.PH_SBP and s[S.SEAT] == 1, "the phase goes on with the builder"
    assert lines[0] == ["seat 0 ends the turn", ANNOUNCE]
    assert lines[2][0].startswith("seat 1 moves the Sea People")
    if after == "steal":
        assert lines[3] == ["seat 1 steals 1 ore from seat 2"]
    assert [x for event in lines[1:] for x in event if x == ANNOUNCE] == []


def test_the_six_player_trace_announces_each_special_building_phase_at_a_turn_end():
    """The game of issue 41 (6 players, seed 1, greedy as it was then: temperature=0): every
    announcement follows the line of the turn's end (or its battle), and every turn's end but a
    game-ending one has one."""
    lines, _ = trace_game(make_setup("catan_troy", 6, {}, "greedy:temperature=0"), 1)
    ends = [i for i, x in enumerate(lines) if x.endswith(" ends the turn")]
    announced = [i for i, x in enumerate(lines) if x == ANNOUNCE]
    ships_in_phase = 0
    for i in announced:
        above = [x for x in lines[:i] if not x.startswith("  ")][-1]
        assert above.endswith(" ends the turn"), (i, above)
    for i in ends[:-1]:
        assert ANNOUNCE in lines[i + 1 : i + 3], i
    # the game has Sea People moves inside the phase, the case the announcement repeated after
    phase = False
    for x in lines:
        if x == ANNOUNCE:
            phase = True
        elif x.startswith("round "):
            phase = False
        elif phase and "moves the Sea People" in x:
            ships_in_phase += 1
    assert ships_in_phase > 0
