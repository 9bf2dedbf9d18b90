"""Issue 42: the greedy bot's reach limits come from the data's ``reach`` table, not a walk of
every druid's moves; both must agree on any track (a lever) and any hand."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.games.celtica import params as P
from sim.games.celtica import state as S
from strategies.celtica import MAX_PICKS, reach_limits
from tests.games.celtica.helpers import data_for

SITES = st.one_of(
    st.just("sacred"),
    st.tuples(
        st.sampled_from(["ruin", "village", "monastery", "castle", "dig"]),
        st.integers(0, P.MAX_SITE_VALUE),
    ).map(lambda sv: f"{sv[0]}:{sv[1]}"),
)


def walked_limits(state, data, hand, xp):
    """The walk ``reach_limits`` did before the table: every druid, every distance."""
    finish = data.rules[P.G_FINISH]
    max_dig = max_ruin = 0
    for c in range(data.rules[P.G_DRUIDS]):
        pos = state[S.POS + c]
        if pos == finish:
            continue
        for k in range(1, hand[c] + xp[c] + 1):
            loc = min(pos + k, finish)
            value = min(data.loc_value[loc], MAX_PICKS)
            if data.loc_kind[loc] == S.K_DIG:
                max_dig = max(max_dig, value)
            elif data.loc_kind[loc] == S.K_RUIN:
                max_ruin = max(max_ruin, value)
    return max_dig, max_ruin


@settings(max_examples=150, deadline=None)
@given(
    sites=st.lists(SITES, min_size=0, max_size=S.MAX_LOCATIONS - 1),
    finish=st.integers(0, P.MAX_SITE_VALUE),
    ruin_offset=st.integers(-P.MAX_SITE_VALUE, P.MAX_SITE_VALUE),
    where=st.lists(st.floats(0.0, 1.0), min_size=5, max_size=5),
    hand=st.lists(st.integers(0, 12), min_size=5, max_size=5),
    xp=st.lists(st.integers(0, 50), min_size=5, max_size=5),
)
def test_reach_table_limits_are_the_walk_of_every_move(sites, finish, ruin_offset, where, hand, xp):
    track = ",".join([*sites, f"finish:{finish}"])
    data = data_for(4, track=track, ruin_offset=ruin_offset)
    end = data.rules[P.G_FINISH]
    state = np.zeros(S.STATE_LEN, np.int32)
    for c, w in enumerate(where):
        state[S.POS + c] = round(w * end)
    hand, xp = np.array(hand, np.int32), np.array(xp, np.int32)
    assert reach_limits(state, data, hand, xp) == walked_limits(state, data, hand, xp)
