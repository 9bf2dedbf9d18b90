"""Celtae rules, the progress track and its pawns: the river crossing's progress event
(rules/celtae.md §4.4), the leader flip at 3 pawns left (§4.10), and the last tile of an army
or druid pile, whose pawn the taker places (§4.7.3 step 4, §4.7.4 step 4d, §4.11).

Shared by the players' turns (rules_actions) and Solitairix's (rules_solo). The end trigger
set here is played out by rules_turn (§5).
"""

from sim.core.kernel import leaf
from sim.games.celtae.params import G_FLIP_AT, T_ARMY_POINTS, T_DRUID_POINTS
from sim.games.celtae.rules_shared import pb, pile_left, pile_top
from sim.games.celtae.state import (
    AU_AFTER_EVENT,
    AU_END_TURN,
    DSEAT,
    FLIP_LEFT,
    FLIP_PENDING,
    FLIP_SEAT,
    NP,
    P_ARMY1,
    P_ARMY2,
    P_DRUID1,
    P_DRUID2,
    P_SIDE,
    PH_DRUID,
    PH_FLIP,
    PH_PAWN,
    PHASE,
    PILE_PAWN,
    PILE_POS,
    RESUME,
    RS_PILE_COMBAT,
    RS_PILE_ORDER,
    RS_TRACK,
    SEAT,
    SIDE_B,
    SOLO,
    SOLO_ACTING,
    TEUTATES,
    TRACK,
    TRIGGERED,
)


@leaf
def _progress_event(s):
    """A river crossing (§4.4): the Teutates holder (solo: the player) places the top pawn."""
    if s[TRACK] == 0:
        return
    s[TRACK] -= 1
    s[RESUME] = RS_TRACK
    s[DSEAT] = 0 if s[SOLO] else s[TEUTATES]
    s[PHASE] = PH_PAWN


@leaf
def _pawn_done(s, data):
    r = s[RESUME]
    if r == RS_TRACK:
        if not s[SOLO]:
            s[TEUTATES] = (s[TEUTATES] + 1) % s[NP]
        if s[TRACK] == 0:
            s[TRIGGERED] = 1
        if s[TRACK] == data.rules[G_FLIP_AT] and data.rules[G_FLIP_AT] > 0:
            s[FLIP_LEFT] = s[NP]
            s[FLIP_SEAT] = s[SEAT] if not s[SOLO_ACTING] else 0
            s[DSEAT] = s[FLIP_SEAT]
            s[PHASE] = PH_FLIP
        else:
            s[PHASE] = AU_AFTER_EVENT
    elif r == RS_PILE_COMBAT:
        s[DSEAT] = s[SEAT]
        s[PHASE] = AU_END_TURN
    elif r == RS_PILE_ORDER:
        s[DSEAT] = s[SEAT]
        s[PHASE] = PH_DRUID


@leaf
def _next_flip(s):
    s[FLIP_LEFT] -= 1
    if s[FLIP_LEFT] > 0:
        s[FLIP_SEAT] = (s[FLIP_SEAT] + 1) % s[NP]
        s[DSEAT] = s[FLIP_SEAT]
        return
    for seat in range(s[NP]):  # simultaneous decisions are revealed together
        if s[FLIP_PENDING + seat] == SIDE_B:
            s[pb(seat) + P_SIDE] = SIDE_B
        s[FLIP_PENDING + seat] = 0
    s[PHASE] = AU_AFTER_EVENT


@leaf
def take_tile(s, data, owner, pile):
    """Move the top tile of ``pile`` (army piles 0-1, druid piles 2-3) to ``owner``; True if it
    was the pile's last tile and the pile's progress pawn is still beside it."""
    t = pile_top(s, pile)
    b = pb(owner)
    if pile < 2:
        s[b + (P_ARMY1 if data.tab[T_ARMY_POINTS + t] == 1 else P_ARMY2)] += 1
    else:
        s[b + (P_DRUID1 if data.tab[T_DRUID_POINTS + t] == 1 else P_DRUID2)] += 1
    s[PILE_POS + pile] += 1
    return pile_left(s, pile) == 0 and s[PILE_PAWN + pile] == 1


@leaf
def _begin_pile_pawn(s, pile, resume):
    """The last tile of a pile: its progress pawn goes onto a card of the taker's choice."""
    s[PILE_PAWN + pile] = 0
    s[RESUME] = resume
    s[PHASE] = PH_PAWN
