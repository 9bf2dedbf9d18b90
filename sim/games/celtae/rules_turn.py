"""Celtae rules, rounds and turns (rules/celtae.md §4.1, §4.2) and the end of the game (§5).

The kernel entry points ``step``, ``current_player`` and ``is_over``, and ``settle``: the loop
that runs the automatic phases and resolves choices with zero or one option, so a seat is only
asked when it has a real decision. Then who plays next: the leader pick and starting discard of
setup step 20 (from the last player counter-clockwise), the turn order of a round, the end
trigger, the final double turns, Solitairix's turns in the solo game, and the safety cap.

Each decision of a turn is listed by rules_options (which options) and performed by
rules_actions (what it does).
"""

from sim.core.kernel import copy_state, leaf
from sim.games.celtae.params import G_DISCARD_START, G_ROUND_CAP
from sim.games.celtae.rules_actions import _begin_discard, _start_action, apply
from sim.games.celtae.rules_options import legal_actions
from sim.games.celtae.rules_shared import pb
from sim.games.celtae.rules_solo import _solo_rest, _solo_start
from sim.games.celtae.scratch import stack_int32
from sim.games.celtae.state import (
    A_CULT,
    A_NO,
    A_STOP,
    AU_ACTION,
    AU_AFTER_EVENT,
    AU_END_TURN,
    AU_SETUP_NEXT,
    AU_SOLO_REST,
    AU_SOLO_START,
    CAP_CHECK,
    COMBAT_ICON,
    DM_ANY,
    DOUBLE,
    DSEAT,
    EXTRA,
    FIGHT_PILE_EMPTIED,
    FINAL,
    FIRST,
    KIND,
    MAX_ACTIONS,
    NO_MOVE,
    NP,
    OVER,
    P_LEADER,
    P_TOKENS_NEW,
    PH_BRECRUIT,
    PH_BUILD,
    PH_CHOOSE,
    PH_CULT,
    PH_DISCARD,
    PH_DRAFT,
    PH_MOVE,
    PH_OVER,
    PH_OVERFLOW,
    PH_PAWN,
    PH_RECRUIT,
    PH_REFILL,
    PH_TAKE2,
    PHASE,
    R_MAX,
    R_TRACK_EMPTY,
    R_TURN_CAP,
    REASON,
    RECRUITED,
    REFRESHES,
    ROUND,
    RS_SETUP,
    SEAT,
    SETUP_LEFT,
    SOLO,
    SOLO_ACTING,
    SWAP_FORCED,
    TOKENS_USED,
    TRIGGERED,
    TURNS,
)


@leaf
def is_over(s):
    return s[OVER] != 0


@leaf
def current_player(s):
    if s[OVER]:
        return -1
    return s[DSEAT]


@leaf
def step(state, action, data, rng, out):
    """Pure transition: ``out`` = ``state`` after ``action`` and every automatic consequence."""
    step_listed(state, action, data, rng, out, stack_int32(MAX_ACTIONS))


@leaf
def step_listed(state, action, data, rng, out, options):
    """:func:`step` that also hands back the options of the decision it stops at: ``options[:n]``
    as ``legal_actions(out, ...)`` lists them, n returned (0 once the game is over). settle
    lists them anyway to know that the seat has a real choice; the chunk loop passes them to
    the bot instead of listing them a second time."""
    copy_state(state, out)
    return advance(out, action, data, rng, options)


@leaf
def advance(s, action, data, rng, options):
    """:func:`step_listed` in place: ``s`` becomes the state after ``action`` (step's ``out``
    without the copy: step reads its input only to copy it). For the chunk loop, which keeps
    no earlier state; ``step`` itself stays pure."""
    apply(s, action, data, rng)
    return settle_listed(s, data, rng, options)


@leaf
def decline_action(phase):
    if phase == PH_CULT:
        return A_CULT
    if phase in (PH_DISCARD, PH_PAWN, PH_BUILD, PH_TAKE2):
        return A_STOP
    if phase in (PH_BRECRUIT, PH_RECRUIT, PH_REFILL):
        return A_STOP
    if phase == PH_OVERFLOW:
        return A_STOP
    return A_NO


@leaf(inline="always")
def settle(s, data, rng):
    """Run the automatic phases and resolve choices with zero or one option, until a seat has a
    real decision or the game is over."""
    settle_listed(s, data, rng, stack_int32(MAX_ACTIONS))


@leaf
def settle_listed(s, data, rng, buf):
    """:func:`settle`, leaving the options of the decision it stops at in ``buf[:n]``; returns n
    (0 once the game is over)."""
    while True:
        ph = s[PHASE]
        if ph == PH_OVER:
            return 0
        if ph == AU_SETUP_NEXT:
            _setup_next(s, data)
        elif ph == AU_ACTION:
            _start_action(s, data, rng)
        elif ph == AU_END_TURN:
            _end_turn(s, data)
        elif ph == AU_SOLO_START:
            _solo_start(s, data, rng)
        elif ph == AU_SOLO_REST:
            _solo_rest(s, data, rng)
        elif ph == AU_AFTER_EVENT:
            s[PHASE] = AU_SOLO_REST if s[SOLO_ACTING] else PH_CHOOSE
            s[DSEAT] = s[SEAT]
        else:
            n = legal_actions(s, data, buf)
            if n >= 2:
                return n
            apply(s, buf[0] if n == 1 else decline_action(ph), data, rng)


@leaf
def _setup_next(s, data):
    """Next seat of the leader pick and starting discard: from the last player counter-
    clockwise (step 20); then the first player's turn."""
    n = s[NP]
    if s[SETUP_LEFT] == 0:
        s[SEAT] = s[FIRST]
        s[DSEAT] = s[FIRST]
        s[PHASE] = PH_MOVE
        return
    k = n - s[SETUP_LEFT]  # 0 = the last player
    seat = (s[FIRST] + n - 1 - k) % n
    s[SETUP_LEFT] -= 1
    s[DSEAT] = seat
    if s[pb(seat) + P_LEADER] < 0:
        s[PHASE] = PH_DRAFT
    else:
        _begin_discard(s, DM_ANY, 0, data.rules[G_DISCARD_START], 0, RS_SETUP)


@leaf
def _reset_turn(s):
    s[KIND] = -1
    s[NO_MOVE] = 0
    s[REFRESHES] = 0
    s[SWAP_FORCED] = 0
    s[TOKENS_USED] = 0
    s[EXTRA] = 0
    s[R_MAX] = 0
    s[RECRUITED] = 0
    s[COMBAT_ICON] = -1
    s[FIGHT_PILE_EMPTIED] = 0
    s[CAP_CHECK] = 0


@leaf
def _end_turn(s, data):
    """Close the turn (Cultivate's slide and refill are already done) and pass play on (§4.1,
    §5): the round, the end trigger, the final double turns, Solitairix's turn."""
    seat = s[SEAT]
    if not s[SOLO_ACTING]:
        s[pb(seat) + P_TOKENS_NEW] = 0
    _reset_turn(s)
    s[TURNS] += 1
    n = s[NP]
    if s[SOLO]:
        # the human then Solitairix; the final round is 2 human turns then 2 of Solitairix
        if s[FINAL]:
            if s[DOUBLE] == 0:
                s[DOUBLE] = 1
                _begin_turn(s, s[SOLO_ACTING] == 1)
                return
            if s[SOLO_ACTING]:
                _game_over(s, R_TRACK_EMPTY)
                return
            s[DOUBLE] = 0
            _begin_turn(s, True)
            return
        if not s[SOLO_ACTING]:
            _begin_turn(s, True)
            return
        _round_over(s, data)
        return
    last = (s[FIRST] + n - 1) % n
    if s[FINAL]:
        if s[DOUBLE] == 0:
            s[DOUBLE] = 1
            _begin_turn(s, False)
            return
        s[DOUBLE] = 0
        if seat == last:
            _game_over(s, R_TRACK_EMPTY)
            return
        s[SEAT] = (seat + 1) % n
        _begin_turn(s, False)
        return
    if seat == last:
        _round_over(s, data)
        return
    s[SEAT] = (seat + 1) % n
    _begin_turn(s, False)


@leaf
def _round_over(s, data):
    s[ROUND] += 1
    if s[TRIGGERED]:
        s[FINAL] = 1
        s[DOUBLE] = 0
    elif s[ROUND] > data.rules[G_ROUND_CAP]:
        _game_over(s, R_TURN_CAP)
        return
    s[SEAT] = s[FIRST]
    _begin_turn(s, False)


@leaf
def _begin_turn(s, solitairix):
    if solitairix:
        s[SOLO_ACTING] = 1
        s[SEAT] = 0
        s[DSEAT] = 0
        s[PHASE] = AU_SOLO_START
    else:
        s[SOLO_ACTING] = 0
        s[DSEAT] = s[SEAT]
        s[PHASE] = PH_MOVE


@leaf
def _game_over(s, reason):
    s[OVER] = 1
    s[REASON] = reason
    s[PHASE] = PH_OVER
    s[DSEAT] = -1
