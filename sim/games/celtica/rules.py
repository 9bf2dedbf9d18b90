"""Celtica rules kernels: pure ``@njit(cache=True)`` functions over the flat state (state.py).

``step(state, action, data, rng, out)`` copies ``state`` into ``out`` and applies one decision
there; it never writes ``state``. Chance (deals, draws, refills, reshuffles) comes only from the
``rng`` argument. Rule references: rules/celtica.md (§, A-numbers) and the French rulebook.

Turn shape (a small phase machine, one decision per action):
PLAY (colour, Druid cards, XP cards) -> DIG (take one fragment, repeated) or RUIN (return one
fragment, repeated) or SACRED (draw or decline) -> end of turn: immediate end checks, next
player holding a Druid card, or end of round (deal, or the end of the game) -> after the end,
EXCHANGE (final XP exchanges in seat order from the left of the last mover).
"""

import numpy as np
from numba import njit

from sim.core.kernel import copy_state, counted, leaf
from sim.core.rng import draw_from_histogram, randint
from sim.games.celtica.params import (
    G_CARDS,
    G_COPIES,
    G_DISPLAY,
    G_DRUIDS,
    G_END_IMMEDIATE,
    G_FINISH,
    G_FRAG_RULE_ALT,
    G_HAND,
    G_OVERSHOOT_FORBID,
    G_ROTATE_STARTER,
    G_ROUND_CAP,
    G_RUIN_XP,
    G_SACRED_DRAW,
    G_START_FRAGS,
    G_START_RANDOM,
    G_SWAP_PRICE,
    G_SWAP_TO_RETURNED,
    G_TAKE_PRICE,
    G_TYPES,
    G_XP_CARDS,
    G_XP_NEEDS_DRUID,
)
from sim.games.celtica.state import (
    A_DECLINE,
    A_DRAW,
    A_PASS,
    A_RETURN,
    A_TAKE,
    A_XDONE,
    A_XSWAP,
    A_XTAKE,
    DISCARD,
    DISCARD_N,
    DISPLAY,
    DISPLAY_N,
    DRUID_SHUFFLES,
    EXCH_DONE,
    FRAG,
    FRAG_SHUFFLES,
    HAND,
    HELD_N,
    HOME,
    K_DIG,
    K_RUIN,
    K_SACRED,
    LAND,
    LAST_MOVER,
    MAX_LAYERS,
    MAX_TYPES,
    N_COLOURS,
    NP,
    OVER,
    PASSED,
    PENDING,
    PH_DIG,
    PH_EXCHANGE,
    PH_OVER,
    PH_PLAY,
    PH_RUIN,
    PH_SACRED,
    PHASE,
    PILE,
    PILE_N,
    POS,
    R_ALL_HOME,
    R_FIRST_HOME,
    R_NO_FRAGMENTS,
    R_ROUND_END,
    R_TURN_CAP,
    REASON,
    RESERVE,
    RESERVE_N,
    RETURNED,
    RETURNED_N,
    ROUND,
    SEAT,
    STARTER,
    TURNS,
    XP,
    XP_DISCARD,
    XP_DISCARD_N,
    XP_PILE,
    XP_PILE_N,
    XP_SHUFFLES,
)

# ---------------------------------------------------------------------------------------------
# Small readers
# ---------------------------------------------------------------------------------------------


@leaf
def _draw_at(rng, arr, offset, width, total):
    """Index in ``arr[offset:offset + width]`` (a histogram holding ``total``) of one uniform
    draw; nothing is removed. Same stream use as ``sim.core.rng.draw_from_histogram``."""
    r = randint(rng, total)
    for i in range(width):
        r -= arr[offset + i]
        if r < 0:
            return i
    return width - 1


@leaf
def current_player(state):
    """The seat that decides next; -1 once the game is over."""
    return -1 if state[OVER] else state[SEAT]


@leaf
def is_over(state):
    return state[OVER] != 0


@leaf
def hand_count(state, seat):
    """Druid cards in ``seat``'s hand."""
    n = 0
    for c in range(N_COLOURS):
        n += state[HAND + seat * N_COLOURS + c]
    return n


@leaf
def xp_count(state, seat):
    """Experience cards in ``seat``'s hand."""
    n = 0
    for c in range(N_COLOURS):
        n += state[XP + seat * N_COLOURS + c]
    return n


@leaf
def fragment_count(state, seat):
    n = 0
    for t in range(MAX_TYPES):
        n += state[FRAG + seat * MAX_TYPES + t]
    return n


@leaf
def _eligible(state, data, seat):
    """May ``seat`` take a turn in the current round (§4.1: holds a Druid card)?"""
    if hand_count(state, seat) > 0:
        return True
    return (
        data.rules[G_XP_NEEDS_DRUID] == 0
        and state[PASSED + seat] == 0
        and xp_count(state, seat) > 0
    )


@leaf
def _first_eligible(state, data, first):
    """First seat from ``first`` on (clockwise, ``first`` included) that may play; -1 if none."""
    n = state[NP]
    for i in range(n):
        s = (first + i) % n
        if _eligible(state, data, s):
            return s
    return -1


# ---------------------------------------------------------------------------------------------
# Amulets and scores (§6)
# ---------------------------------------------------------------------------------------------


@leaf
def amulet_sizes(state, data, seat, sizes):
    """Fill ``sizes[j]`` with the size of ``seat``'s (j+1)-th amulet; return how many amulets.

    Canonical layering: size of amulet j = number of types held at least j times. It is the best
    arrangement (§6), so complete amulets come first, then the incomplete ones, largest first.
    """
    types = data.rules[G_TYPES]
    top = 0
    for t in range(types):
        top = max(top, state[FRAG + seat * MAX_TYPES + t])
    for j in range(top):
        s = 0
        for t in range(types):
            if state[FRAG + seat * MAX_TYPES + t] > j:
                s += 1
        sizes[j] = s
    for j in range(top, sizes.shape[0]):
        sizes[j] = 0
    return top


@leaf
def complete_amulets(state, data, seat):
    types = data.rules[G_TYPES]
    low = 1 << 30
    for t in range(types):
        low = min(low, state[FRAG + seat * MAX_TYPES + t])
    return low


# KEY_OF_COUNT[c]: what c fragments of one type add to a ranking key (below): one to each of
# the first c amulet sizes, the digits 10 ** (MAX_LAYERS - 1), 10 ** (MAX_LAYERS - 2), ...
KEY_OF_COUNT = np.array(
    [sum(10 ** (MAX_LAYERS - 1 - j) for j in range(c)) for c in range(MAX_LAYERS + 1)], np.int64
)


@counted
def scores(state, data, out):
    """Each seat's ranking key as one integer (if the game ended now); returns the seat count.

    The key is the amulet sizes, largest first, read as the digits of a base-10 number: comparing
    keys is the rulebook's ranking (complete amulets, then the largest incomplete, then the next),
    so ties and tie-breaks in a search rollout match the final ranking exactly. Amulet j's size
    counts the types held more than j times, so the key is a sum over types of KEY_OF_COUNT (the
    search reads it at every rollout's end: no allocation, no loop over the amulets).
    """
    types = data.rules[G_TYPES]
    for s in range(state[NP]):
        key = 0
        for t in range(types):
            key += KEY_OF_COUNT[state[FRAG + s * MAX_TYPES + t]]
        out[s] = key
    return state[NP]


# ---------------------------------------------------------------------------------------------
# Chance: draws, refills and reshuffles (write into ``out`` only)
# ---------------------------------------------------------------------------------------------


@leaf
def _draw_fragment(out, rng):
    """Draw one fragment type from the reserve, first reshuffling the returned pile into it if
    the reserve is empty (A5); -1 if both are empty."""
    if out[RESERVE_N] == 0:
        if out[RETURNED_N] == 0:
            return -1
        for t in range(MAX_TYPES):
            out[RESERVE + t] += out[RETURNED + t]
            out[RETURNED + t] = 0
        out[RESERVE_N] = out[RETURNED_N]
        out[RETURNED_N] = 0
        out[FRAG_SHUFFLES] += 1
    t = _draw_at(rng, out, RESERVE, MAX_TYPES, out[RESERVE_N])
    out[RESERVE + t] -= 1
    out[RESERVE_N] -= 1
    return t


@leaf
def _refill_display(out, data, rng):
    """Refill the display to its size as far as the reserve (and returned pile) allow."""
    while out[DISPLAY_N] < data.rules[G_DISPLAY]:
        t = _draw_fragment(out, rng)
        if t < 0:
            return
        out[DISPLAY + t] += 1
        out[DISPLAY_N] += 1


@leaf
def _draw_druid_card(out, rng):
    """Top Druid card's colour, reshuffling the discard when the pile is empty; -1 if none."""
    if out[PILE_N] == 0:
        if out[DISCARD_N] == 0:
            return -1
        for c in range(N_COLOURS):
            out[PILE + c] += out[DISCARD + c]
            out[DISCARD + c] = 0
        out[PILE_N] = out[DISCARD_N]
        out[DISCARD_N] = 0
        out[DRUID_SHUFFLES] += 1
    c = _draw_at(rng, out, PILE, N_COLOURS, out[PILE_N])
    out[PILE + c] -= 1
    out[PILE_N] -= 1
    return c


@leaf
def _draw_xp_card(out, rng):
    """Top XP card's colour, reshuffling the XP discard when the pile is empty; -1 if none (A12)."""
    if out[XP_PILE_N] == 0:
        if out[XP_DISCARD_N] == 0:
            return -1
        for c in range(N_COLOURS):
            out[XP_PILE + c] += out[XP_DISCARD + c]
            out[XP_DISCARD + c] = 0
        out[XP_PILE_N] = out[XP_DISCARD_N]
        out[XP_DISCARD_N] = 0
        out[XP_SHUFFLES] += 1
    c = _draw_at(rng, out, XP_PILE, N_COLOURS, out[XP_PILE_N])
    out[XP_PILE + c] -= 1
    out[XP_PILE_N] -= 1
    return c


@leaf
def _give_druid_cards(out, seat, k, rng):
    """Draw up to ``k`` Druid cards into ``seat``'s hand; return how many were drawn."""
    got = 0
    for _ in range(k):
        c = _draw_druid_card(out, rng)
        if c < 0:
            break
        out[HAND + seat * N_COLOURS + c] += 1
        out[HELD_N] += 1
        got += 1
    return got


@leaf
def _deal_round(out, data, rng):
    """Deal each seat its hand for a new round, seat 0 first (reshuffling mid-deal if needed)."""
    for s in range(out[NP]):
        _give_druid_cards(out, s, data.rules[G_HAND], rng)


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------


@leaf
def init_state(data, n_players, rng, out):
    """Setup (§3) into ``out``: decks, reserve, display, starting fragments, first deal."""
    r = data.rules
    for i in range(out.shape[0]):
        out[i] = 0
    out[NP] = n_players
    for c in range(r[G_DRUIDS]):
        out[PILE + c] = r[G_CARDS]
        out[XP_PILE + c] = r[G_XP_CARDS]
    out[PILE_N] = r[G_DRUIDS] * r[G_CARDS]
    out[XP_PILE_N] = r[G_DRUIDS] * r[G_XP_CARDS]
    for t in range(r[G_TYPES]):
        out[RESERVE + t] = r[G_COPIES]
    out[RESERVE_N] = r[G_TYPES] * r[G_COPIES]
    _refill_display(out, data, rng)
    for s in range(n_players):
        for _ in range(r[G_START_FRAGS]):
            t = _draw_fragment(out, rng)
            if t < 0:
                break
            out[FRAG + s * MAX_TYPES + t] += 1
    start = randint(rng, n_players) if r[G_START_RANDOM] else 0
    out[ROUND] = 1
    out[STARTER] = start
    out[LAST_MOVER] = -1
    out[LAND] = -1
    _deal_round(out, data, rng)
    out[SEAT] = _first_eligible(out, data, start)
    out[PHASE] = PH_PLAY


# ---------------------------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------------------------


@leaf
def _can_exchange(state, data, seat):
    """Can ``seat`` still make a final take or a swap (A6, A15)?"""
    xp = xp_count(state, seat)
    r = data.rules
    if xp >= r[G_TAKE_PRICE] and state[DISPLAY_N] > 0:
        return True
    if xp < r[G_SWAP_PRICE] or state[DISPLAY_N] == 0:
        return False
    for a in range(r[G_TYPES]):
        if state[FRAG + seat * MAX_TYPES + a] > 0:
            for b in range(r[G_TYPES]):
                if b != a and state[DISPLAY + b] > 0:
                    return True
    return False


@leaf
def legal_actions(state, data, out):
    """Fill ``out[:n]`` with the legal action ids of the deciding seat; return ``n`` (>= 1)."""
    seat = state[SEAT]
    phase = state[PHASE]
    r = data.rules
    n = 0
    if phase == PH_PLAY:
        held = hand_count(state, seat)
        xp_ok = held > 0 or r[G_XP_NEEDS_DRUID] == 0
        finish = r[G_FINISH]
        for c in range(r[G_DRUIDS]):
            hd = state[HAND + seat * N_COLOURS + c]
            hx = state[XP + seat * N_COLOURS + c] if xp_ok else 0
            pos = state[POS + c]
            for kd in range(hd + 1):
                for kx in range(hx + 1):
                    k = kd + kx
                    if k == 0:
                        continue
                    if r[G_OVERSHOOT_FORBID] and pos != finish and pos + k > finish:
                        continue
                    out[n] = c * 1024 + kd * 32 + kx
                    n += 1
        if held == 0:
            out[n] = A_PASS
            n += 1
    elif phase == PH_DIG:
        for t in range(r[G_TYPES]):
            if state[DISPLAY + t] > 0:
                out[n] = A_TAKE + t
                n += 1
    elif phase == PH_RUIN:
        for t in range(r[G_TYPES]):
            if state[FRAG + seat * MAX_TYPES + t] > 0:
                out[n] = A_RETURN + t
                n += 1
    elif phase == PH_SACRED:
        out[0] = A_DRAW
        out[1] = A_DECLINE
        n = 2
    elif phase == PH_EXCHANGE:
        out[0] = A_XDONE
        n = 1
        xp = xp_count(state, seat)
        if xp >= r[G_TAKE_PRICE]:
            for t in range(r[G_TYPES]):
                if state[DISPLAY + t] > 0:
                    out[n] = A_XTAKE + t
                    n += 1
        if xp >= r[G_SWAP_PRICE]:
            for a in range(r[G_TYPES]):
                if state[FRAG + seat * MAX_TYPES + a] > 0:
                    for b in range(r[G_TYPES]):
                        if b != a and state[DISPLAY + b] > 0:
                            out[n] = A_XSWAP + a * 16 + b
                            n += 1
    return n


# ---------------------------------------------------------------------------------------------
# Turn flow
# ---------------------------------------------------------------------------------------------


@leaf
def _immediate_end_reason(out, data):
    """The reason the game ends at once after a turn (§5), or -1."""
    r = data.rules
    home = 0
    for c in range(r[G_DRUIDS]):
        if out[POS + c] == r[G_FINISH]:
            home += 1
    if home == r[G_DRUIDS]:
        return R_ALL_HOME
    if r[G_FRAG_RULE_ALT]:
        if out[DISPLAY_N] == 0 or out[RESERVE_N] == 0:
            return R_NO_FRAGMENTS
    elif out[DISPLAY_N] + out[RESERVE_N] + out[RETURNED_N] == 0:
        return R_NO_FRAGMENTS
    if r[G_END_IMMEDIATE] and out[HOME]:
        return R_FIRST_HOME
    return -1


@leaf
def _pay_xp(out, seat, k):
    """Spend ``k`` XP cards of ``seat`` (lowest colour first; colours are irrelevant at the end)."""
    for c in range(N_COLOURS):
        i = XP + seat * N_COLOURS + c
        while k > 0 and out[i] > 0:
            out[i] -= 1
            out[XP_DISCARD + c] += 1
            out[XP_DISCARD_N] += 1
            k -= 1


@leaf
def _next_exchanger(out, data, rng):
    """Move the final exchange on from ``SEAT`` (already done) to the next seat able to exchange.

    The display is refilled after every seat's exchange (§5); seats that cannot exchange are
    passed over. When every seat has had its chance the game is over.
    """
    n = out[NP]
    while True:
        _refill_display(out, data, rng)
        out[EXCH_DONE] += 1
        if out[EXCH_DONE] >= n:
            out[OVER] = 1
            out[PHASE] = PH_OVER
            out[SEAT] = -1
            return
        out[SEAT] = (out[SEAT] + 1) % n
        if _can_exchange(out, data, out[SEAT]):
            return


@leaf
def _finish_game(out, data, rng, reason):
    """The game has ended (§5): discard the hands, then the final exchanges start with the left
    neighbour of the last mover (A14)."""
    out[REASON] = reason
    for s in range(out[NP]):
        for c in range(N_COLOURS):
            i = HAND + s * N_COLOURS + c
            out[DISCARD + c] += out[i]
            out[DISCARD_N] += out[i]
            out[i] = 0
    out[HELD_N] = 0
    out[PHASE] = PH_EXCHANGE
    out[PENDING] = 0
    out[EXCH_DONE] = 0
    first = (out[LAST_MOVER] + 1) % out[NP]
    out[SEAT] = first
    if not _can_exchange(out, data, first):
        _next_exchanger(out, data, rng)


@leaf
def _end_turn(out, data, rng):
    """After a turn: immediate end, next player, or end of round (new deal or end of game)."""
    out[PHASE] = PH_PLAY
    out[PENDING] = 0
    reason = _immediate_end_reason(out, data)
    if reason >= 0:
        _finish_game(out, data, rng, reason)
        return
    n = out[NP]
    if out[HELD_N] > 0:
        out[SEAT] = _first_eligible(out, data, (out[SEAT] + 1) % n)
        return
    if out[HOME]:
        _finish_game(out, data, rng, R_ROUND_END)
        return
    if out[ROUND] >= data.rules[G_ROUND_CAP]:
        out[REASON] = R_TURN_CAP
        out[OVER] = 1
        out[PHASE] = PH_OVER
        out[SEAT] = -1
        return
    out[ROUND] += 1
    if data.rules[G_ROTATE_STARTER]:
        out[STARTER] = (out[STARTER] + 1) % n
    else:
        out[STARTER] = (out[LAST_MOVER] + 1) % n  # A13: left of the last mover
    for s in range(n):
        out[PASSED + s] = 0
    _deal_round(out, data, rng)
    out[SEAT] = _first_eligible(out, data, out[STARTER])


@leaf
def _ruin_reward(out, data, seat, rng):
    for _ in range(data.rules[G_RUIN_XP]):
        c = _draw_xp_card(out, rng)
        if c < 0:
            return
        out[XP + seat * N_COLOURS + c] += 1


@leaf
def _play_cards(out, data, seat, action, rng):
    """PLAY: discard the cards, move the druid, start resolving where it lands (§4.2)."""
    r = data.rules
    c = action >> 10
    kd = (action >> 5) & 31
    kx = action & 31
    out[HAND + seat * N_COLOURS + c] -= kd
    out[HELD_N] -= kd
    out[DISCARD + c] += kd
    out[DISCARD_N] += kd
    out[XP + seat * N_COLOURS + c] -= kx
    out[XP_DISCARD + c] += kx
    out[XP_DISCARD_N] += kx
    out[TURNS] += 1
    out[LAST_MOVER] = seat
    finish = r[G_FINISH]
    pos = out[POS + c]
    if pos == finish:  # A10: an arrived druid does not move; the cards are simply spent
        out[LAND] = -1
        _end_turn(out, data, rng)
        return
    new = min(pos + kd + kx, finish)  # A2 (overshoot = forbid never offers a longer move)
    out[POS + c] = new
    out[LAND] = new
    if new == finish:
        out[HOME] = 1
    kind = data.loc_kind[new]
    value = data.loc_value[new]
    if kind == K_DIG:
        take = min(value, out[DISPLAY_N])  # A8
        if take > 0:
            out[PHASE] = PH_DIG
            out[PENDING] = take
            return
        _refill_display(out, data, rng)
    elif kind == K_RUIN:
        give = min(value, fragment_count(out, seat))  # A9
        if give > 0:
            out[PHASE] = PH_RUIN
            out[PENDING] = give
            return
        _ruin_reward(out, data, seat, rng)
    elif kind == K_SACRED and r[G_SACRED_DRAW] > 0 and out[PILE_N] + out[DISCARD_N] > 0:
        out[PHASE] = PH_SACRED  # A11: no decision when there is nothing to draw
        return
    _end_turn(out, data, rng)


@leaf
def step(state, action, data, rng, out):
    """Apply one legal ``action`` of the deciding seat to ``state``, writing only into ``out``."""
    copy_state(state, out)
    advance(out, action, data, rng)


@leaf
def advance(out, action, data, rng):
    """:func:`step` in place: ``out`` becomes the state after ``action``. For the search bot's
    rollouts and the chunk loop, which keep no earlier position (saves step's copy); ``step``
    itself stays pure."""
    seat = out[SEAT]
    phase = out[PHASE]
    r = data.rules
    if phase == PH_PLAY:
        if action == A_PASS:  # XP-only player stops for this round (lever)
            out[PASSED + seat] = 1
            _end_turn(out, data, rng)
        else:
            _play_cards(out, data, seat, action, rng)
    elif phase == PH_DIG:
        t = action - A_TAKE
        out[DISPLAY + t] -= 1
        out[DISPLAY_N] -= 1
        out[FRAG + seat * MAX_TYPES + t] += 1
        out[PENDING] -= 1
        if out[PENDING] == 0:
            _refill_display(out, data, rng)
            _end_turn(out, data, rng)
    elif phase == PH_RUIN:
        t = action - A_RETURN
        out[FRAG + seat * MAX_TYPES + t] -= 1
        out[RETURNED + t] += 1
        out[RETURNED_N] += 1
        out[PENDING] -= 1
        if out[PENDING] == 0:
            _ruin_reward(out, data, seat, rng)
            _end_turn(out, data, rng)
    elif phase == PH_SACRED:
        if action == A_DRAW:
            _give_druid_cards(out, seat, r[G_SACRED_DRAW], rng)
        _end_turn(out, data, rng)
    elif phase == PH_EXCHANGE:
        if action == A_XDONE:
            _next_exchanger(out, data, rng)
            return
        if action >= A_XSWAP:
            a = (action - A_XSWAP) >> 4
            b = (action - A_XSWAP) & 15
            _pay_xp(out, seat, r[G_SWAP_PRICE])
            out[FRAG + seat * MAX_TYPES + a] -= 1
            if r[G_SWAP_TO_RETURNED]:
                out[RETURNED + a] += 1
                out[RETURNED_N] += 1
            else:
                out[DISPLAY + a] += 1  # A6: into the slot just freed
                out[DISPLAY_N] += 1
        else:
            b = action - A_XTAKE
            _pay_xp(out, seat, r[G_TAKE_PRICE])
        out[DISPLAY + b] -= 1
        out[DISPLAY_N] -= 1
        out[FRAG + seat * MAX_TYPES + b] += 1
        if not _can_exchange(out, data, seat):
            _next_exchanger(out, data, rng)


# ---------------------------------------------------------------------------------------------
# Hidden information (for search bots)
# ---------------------------------------------------------------------------------------------


@counted
def _redeal(out, pile, pile_n, hands, seat, rng):
    """Pool the pile with every other seat's hand at ``hands`` and deal them back at random,
    keeping each hand's size; ``seat``'s own hand is left alone."""
    n = out[NP]
    pool = np.zeros(N_COLOURS, np.int64)
    for c in range(N_COLOURS):
        pool[c] = out[pile + c]
    total = out[pile_n]
    sizes = np.zeros(n, np.int64)
    for s in range(n):
        if s == seat:
            continue
        for c in range(N_COLOURS):
            i = hands + s * N_COLOURS + c
            pool[c] += out[i]
            sizes[s] += out[i]
            total += out[i]
            out[i] = 0
    for s in range(n):
        for _ in range(sizes[s]):
            c = draw_from_histogram(rng, pool, total)
            pool[c] -= 1
            total -= 1
            out[hands + s * N_COLOURS + c] += 1
    for c in range(N_COLOURS):
        out[pile + c] = pool[c]


@njit(cache=True)
def determinize(state, data, seat, rng, out):
    """A copy of ``state`` whose hidden cards (other hands, both draw piles) are re-dealt at
    random, consistent with what ``seat`` sees: its own hands, discards and every count."""
    copy_state(state, out)
    _redeal(out, PILE, PILE_N, HAND, seat, rng)
    _redeal(out, XP_PILE, XP_PILE_N, XP, seat, rng)
