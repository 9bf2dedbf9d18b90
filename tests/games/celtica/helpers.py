"""Building Celtica states by hand for the scenario tests, and checking their bookkeeping.

``make_state`` puts every card and fragment somewhere (what a scenario does not place goes to
the draw piles and the reserve), so a hand-built state satisfies the same conservation laws as a
dealt one, and ``check_books`` verifies them.
"""

import numpy as np

from sim.core.rng import new_streams, seed_streams
from sim.games.celtica import params as P
from sim.games.celtica import rules
from sim.games.celtica import state as S

WHITE, RED, GREY, BROWN, BLACK = range(5)


def data_for(players=4, **overrides):
    return P.compile_data(P.PARAMS.resolve(players, overrides))


def rng(seed=1):
    streams = new_streams(1)
    seed_streams(streams, np.uint64(seed))
    return streams[0].copy()


def make_state(
    data,
    players,
    seat=0,
    hands=None,
    xp=None,
    frags=None,
    pos=None,
    display=None,
    returned=None,
    reserve=None,
    discard=None,
    xp_pile=None,
    phase=S.PH_PLAY,
    last_mover=-1,
):
    """A consistent state. ``hands``/``xp``: {seat: {colour: n}}; ``frags``: {seat: {type: n}};
    ``pos``: {colour: location}; ``display``/``returned``/``reserve``: {type: n} (display default:
    one of each type, reserve default: every fragment not placed elsewhere); ``discard``: Druid
    discard {colour: n}; ``xp_pile``: XP pile {colour: n} (default: every XP card not placed)."""
    r = data.rules
    s = np.zeros(S.STATE_LEN, np.int32)
    s[S.NP] = players
    s[S.SEAT] = seat
    s[S.PHASE] = phase
    s[S.ROUND] = 1
    s[S.LAST_MOVER] = last_mover
    s[S.LAND] = -1
    types, copies = r[P.G_TYPES], r[P.G_COPIES]
    for c, p in (pos or {}).items():
        s[S.POS + c] = p
    for p, row in (hands or {}).items():
        for c, n in row.items():
            s[S.HAND + p * S.N_COLOURS + c] = n
    for p, row in (xp or {}).items():
        for c, n in row.items():
            s[S.XP + p * S.N_COLOURS + c] = n
    for p, row in (frags or {}).items():
        for t, n in row.items():
            s[S.FRAG + p * S.MAX_TYPES + t] = n
    disp = {t: 1 for t in range(types)} if display is None else display
    for t, n in disp.items():
        s[S.DISPLAY + t] = n
    for t, n in (returned or {}).items():
        s[S.RETURNED + t] = n
    for c, n in (discard or {}).items():
        s[S.DISCARD + c] = n
    for t in range(types):
        held = sum(s[S.FRAG + p * S.MAX_TYPES + t] for p in range(players))
        placed = held + s[S.DISPLAY + t] + s[S.RETURNED + t]
        s[S.RESERVE + t] = (copies - placed) if reserve is None else reserve.get(t, 0)
        assert reserve is not None or s[S.RESERVE + t] >= 0, "more fragments than exist"
    for c in range(r[P.G_DRUIDS]):
        held = sum(s[S.HAND + p * S.N_COLOURS + c] for p in range(players))
        s[S.PILE + c] = r[P.G_CARDS] - held - s[S.DISCARD + c]
        xheld = sum(s[S.XP + p * S.N_COLOURS + c] for p in range(players))
        if xp_pile is None:
            s[S.XP_PILE + c] = r[P.G_XP_CARDS] - xheld
        else:
            s[S.XP_PILE + c] = xp_pile.get(c, 0)
            s[S.XP_DISCARD + c] = r[P.G_XP_CARDS] - xheld - s[S.XP_PILE + c]
    recount(s)
    return s


def recount(s):
    """Set the counters kept beside the histograms from the histograms."""
    s[S.DISPLAY_N] = s[S.DISPLAY : S.DISPLAY + S.MAX_TYPES].sum()
    s[S.RESERVE_N] = s[S.RESERVE : S.RESERVE + S.MAX_TYPES].sum()
    s[S.RETURNED_N] = s[S.RETURNED : S.RETURNED + S.MAX_TYPES].sum()
    s[S.PILE_N] = s[S.PILE : S.PILE + S.N_COLOURS].sum()
    s[S.DISCARD_N] = s[S.DISCARD : S.DISCARD + S.N_COLOURS].sum()
    s[S.XP_PILE_N] = s[S.XP_PILE : S.XP_PILE + S.N_COLOURS].sum()
    s[S.XP_DISCARD_N] = s[S.XP_DISCARD : S.XP_DISCARD + S.N_COLOURS].sum()
    s[S.HELD_N] = s[S.HAND : S.HAND + S.MAX_PLAYERS * S.N_COLOURS].sum()


def check_books(s, data):
    """Every fragment, Druid card and XP card is somewhere, once; counters match."""
    r = data.rules
    players = s[S.NP]
    copy = s.copy()
    recount(copy)
    assert (copy == s).all(), "a counter kept beside a histogram is wrong"
    for t in range(r[P.G_TYPES]):
        held = sum(s[S.FRAG + p * S.MAX_TYPES + t] for p in range(players))
        total = held + s[S.DISPLAY + t] + s[S.RESERVE + t] + s[S.RETURNED + t]
        assert total == r[P.G_COPIES], f"fragment type {t}: {total} in play"
    for c in range(r[P.G_DRUIDS]):
        held = sum(s[S.HAND + p * S.N_COLOURS + c] for p in range(players))
        assert held + s[S.PILE + c] + s[S.DISCARD + c] == r[P.G_CARDS]
        xheld = sum(s[S.XP + p * S.N_COLOURS + c] for p in range(players))
        assert xheld + s[S.XP_PILE + c] + s[S.XP_DISCARD + c] == r[P.G_XP_CARDS]
    assert (s >= -1).all()


def legal(s, data):
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    n = rules.legal_actions(s, data, buf)
    return sorted(int(a) for a in buf[:n])


def apply(s, action, data, seed=1):
    """``step`` into a fresh buffer; asserts the input is untouched and the books balance."""
    before = s.copy()
    out = np.zeros_like(s)
    rules.step(s, np.int32(action), data, rng(seed), out)
    assert (s == before).all(), "step wrote into its input"
    check_books(out, data)
    return out


def hand(s, seat):
    return s[S.HAND + seat * S.N_COLOURS : S.HAND + (seat + 1) * S.N_COLOURS]


def xp_hand(s, seat):
    return s[S.XP + seat * S.N_COLOURS : S.XP + (seat + 1) * S.N_COLOURS]


def frag(s, seat):
    return s[S.FRAG + seat * S.MAX_TYPES : S.FRAG + (seat + 1) * S.MAX_TYPES]


def play(colour, druid_cards, xp_cards=0):
    return S.play_action(colour, druid_cards, xp_cards)
