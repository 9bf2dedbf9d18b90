"""Catan: Troy rules kernels: the scenario's rules over the base game's kernels.

``step(state, action, data, rng, out)`` is pure, as in the base game: it writes only ``out``.
Base actions in base phases (setup, the roll and production, discards, roads, settlements,
cities, maritime trades, the steal's card, the end of the Special Building Phase) go to the base
``step`` unchanged; the scenario handles its own actions (donations, ships, the Sea People, take
and swap, the 2:1 card) and the end of a turn, where the battle for Troy is fought before the
base game passes the turn on (§4.5). Rule references are to rules/catan-troy.md.

VP (§6) are the base VP (buildings, Longest Road; no development cards here) plus flag ships and
the marker of the seat's own city. The base win check sees only the base VP, which never exceed
these, so it never declares a win Troy would not; the scenario's check, in the same phases,
catches the wins that the track and the flags make (§5.1).
"""

from sim.core.kernel import copy_state, leaf
from sim.core.rng import draw_from_histogram, shuffle
from sim.core.scratch import stack_int64
from sim.games.catan.params import D_VERTEX_SLOT, G_N_SLOTS, G_N_VERT, G_VP_TARGET
from sim.games.catan.rules import advance as base_advance
from sim.games.catan.rules import init_state as base_init_state
from sim.games.catan.rules import legal_actions as base_legal_actions
from sim.games.catan.rules import scores as base_scores
from sim.games.catan.rules_shared import current_player, is_over
from sim.games.catan.rules_shared import victory_points as base_victory_points
from sim.games.catan.rules_turn import _end_turn
from sim.games.catan.state import (
    A_END,
    A_STEAL,
    BANK,
    CUR,
    GENERIC,
    HAND,
    HAND_N,
    HEX_NUMBER,
    HEX_TERRAIN,
    MAX_HEX,
    MAX_PLAYERS,
    NP,
    OVER,
    PH_MAIN,
    PH_OVER,
    PH_ROBBER,
    PH_SBP,
    PH_SETUP_ROAD,
    PH_SETUP_SETTLE,
    PH_STEAL,
    PHASE,
    PORTS,
    REASON,
    RET_PHASE,
    ROBBER,
    SEAT,
    SLOT_TYPE,
    TURNS,
    V_OWNER,
    WINNER,
)
from sim.games.catan.state import N_RES as R
from sim.games.catan.trade import known_held
from sim.games.catan_troy.params import (
    K_ACTIVE_TURN_WIN,
    K_CANCELS_FLAG,
    K_CARDS_MYCENAE,
    K_CARDS_REMOVED,
    K_CARDS_TROY,
    K_COUNTED,
    K_DONATION_MAX,
    K_DONATIONS_PER_TURN,
    K_FLAG_VP,
    K_N_SEA,
    K_SEA_PEOPLE_AFTER_SHIP,
    K_SEA_PEOPLE_START,
    K_SHIP_TOKENS,
    K_SHIPS,
    K_SWAP_USES,
    K_TAKE_USES,
    K_THRESHOLD,
    K_TOKEN_TIEBREAK,
    K_TOKENS_PER_DONATION,
    K_TRACK_LEN,
    T_ALIGN,
    T_HEX_NUMBER,
    T_HEX_TERRAIN,
    T_ROW_INIT,
    T_RULES,
    T_SEA_NEIGHBOURS,
    T_SEA_VERTICES,
    T_SHIP_COST,
    T_SLOT_TYPE,
    T_STACK,
    T_TRACK,
    T_TRADE_CARDS,
)
from sim.games.catan_troy.state import (
    A_CARD,
    A_DONATE,
    A_NO_STEAL,
    A_PUT,
    A_SEA,
    A_SHIP,
    A_SWAP,
    A_TAKE,
    BATTLES,
    DONATED,
    DONATING,
    DONATIONS,
    GIFTS,
    KIND_FLAG,
    KIND_SWAP,
    KIND_TAKE,
    KIND_THREE,
    KIND_TWO,
    MAX_SEA,
    PH_SWAP_BACK,
    PH_TWO_TO_ONE,
    R_EVENT_TRACK,
    R_VP_TARGET,
    REMOVED,
    ROW,
    ROW_N,
    SEA_CARD,
    SEA_KIND,
    SEA_OWNER,
    SEA_PEOPLE,
    SHIPS_BUILT,
    SIDE,
    SWAPS_USED,
    TAKES_USED,
    TOKENS,
    TRACK,
    TRADE_CARDS,
)

__all__ = ["current_player", "is_over"]

DECK_LEN = 2 * MAX_PLAYERS  # the decision cards: at most MAX_PLAYERS of each city (params)

# ---------------------------------------------------------------------------------------------
# Readers
# ---------------------------------------------------------------------------------------------


@leaf
def key(data, k):
    """A scalar rule of the scenario (``K_*``)."""
    return data[T_RULES + k]


@leaf
def track_vp(state, data, p):
    """VP of ``p``'s city marker on the event track (§4.5: every supporter gets them)."""
    i = state[TRACK + state[SIDE + p]]
    last = key(data, K_TRACK_LEN) - 1
    return data[T_TRACK + (i if i < last else last)]


@leaf
def ship_vp(state, data, p):
    """VP of ``p``'s flag ships (A11: the Sea People cancels them only under the lever)."""
    if state[SHIPS_BUILT + p] == 0:  # no ship ever built, none on the sea
        return 0
    n = 0
    for w in range(key(data, K_N_SEA)):
        cancelled = key(data, K_CANCELS_FLAG) != 0 and w == state[SEA_PEOPLE]
        if state[SEA_OWNER + w] == p and state[SEA_KIND + w] == KIND_FLAG and not cancelled:
            n += 1
    return n * key(data, K_FLAG_VP)


@leaf
def victory_points(state, data, p):
    """VP of seat ``p`` (§6): buildings, Longest Road, flag ships and his city's marker."""
    return base_victory_points(state, data, p) + ship_vp(state, data, p) + track_vp(state, data, p)


@leaf
def active_ships(state, data, p, kind):
    """Ships of ``kind`` that ``p`` owns outside the Sea People's hex (their advantage works)."""
    n = 0
    for w in range(key(data, K_N_SEA)):
        if state[SEA_OWNER + w] == p and state[SEA_KIND + w] == kind and w != state[SEA_PEOPLE]:
            n += 1
    return n


@leaf
def ships_of(state, data, p):
    n = 0
    for w in range(key(data, K_N_SEA)):
        if state[SEA_OWNER + w] == p:
            n += 1
    return n


@leaf
def ship_hex_ok(state, data, p, w):
    """May ``p`` put a ship on sea hex ``w`` (§4.2 «2.c»): no ship there, and ``p``'s building
    on one of its corners or ``p``'s ship on an adjacent sea hex (the Sea People's hex is
    allowed)."""
    if state[SEA_OWNER + w] != -1:
        return False
    for k in range(6):
        v = data[T_SEA_VERTICES + 6 * w + k]
        if v >= 0 and state[V_OWNER + v] == p:
            return True
    for k in range(6):
        m = data[T_SEA_NEIGHBOURS + 6 * w + k]
        if m >= 0 and state[SEA_OWNER + m] == p:
            return True
    return False


@leaf
def can_build_ship(state, data, p):
    """Has ``p`` a ship token left and what a ship costs (not the hex)?"""
    if state[SHIPS_BUILT + p] >= key(data, K_SHIPS):
        return False
    if state[TOKENS + p] < key(data, K_SHIP_TOKENS):
        return False
    for r in range(R):  # noqa: SIM110  (numba: plain loop)
        if state[HAND + p * R + r] < data[T_SHIP_COST + r]:
            return False
    return True


@leaf
def is_victim(state, data, s):
    """May the Sea People's mover (the deciding seat) take a card from ``s`` (§4.4): another
    player with a resource card and a ship on its hex or a building on one of its corners."""
    if s == state[SEAT] or state[HAND_N + s] == 0:
        return False
    w = state[SEA_PEOPLE]
    if state[SEA_OWNER + w] == s:
        return True
    for k in range(6):
        v = data[T_SEA_VERTICES + 6 * w + k]
        if v >= 0 and state[V_OWNER + v] == s:
            return True
    return False


@leaf
def own_turn_phase(state):
    """Is the game in the active player's own turn (the phases where a win is checked, §5)?
    The Sea People and the 2:1 card after a ship built in the Special Building Phase are not."""
    phase = state[PHASE]
    if phase == PH_SETUP_SETTLE or phase == PH_SETUP_ROAD or phase == PH_SBP:  # noqa: SIM109
        return False
    if phase == PH_ROBBER or phase == PH_STEAL or phase == PH_TWO_TO_ONE:  # noqa: SIM109
        return state[RET_PHASE] != PH_SBP
    return True


@leaf
def scores(state, data, out):
    """The base game's scores (VP, the winner ranked first) plus flags and track (search bot)."""
    n = base_scores(state, data, out)
    for s in range(n):
        out[s] += ship_vp(state, data, s) + track_vp(state, data, s)
    return n


# ---------------------------------------------------------------------------------------------
# Setup (§3)
# ---------------------------------------------------------------------------------------------


@leaf
def init_state(data, n_players, rng, out):
    """The base setup on the fixed Troy board, then the scenario's (§3): no robber, the support
    row from the bank, the Sea People on its start, the decision cards dealt."""
    base_init_state(data, n_players, rng, out)
    for h in range(MAX_HEX):
        out[HEX_TERRAIN + h] = data[T_HEX_TERRAIN + h] if data[T_HEX_TERRAIN + h] >= 0 else 5
        out[HEX_NUMBER + h] = data[T_HEX_NUMBER + h] if data[T_HEX_NUMBER + h] >= 0 else 0
    out[ROBBER] = -1
    for s in range(data[G_N_SLOTS]):
        out[SLOT_TYPE + s] = data[T_SLOT_TYPE + s]
    for r in range(R):
        k = data[T_ROW_INIT + r]
        out[ROW + r] = k
        out[ROW_N] += k
        out[BANK + r] -= k
        out[TRADE_CARDS + r] = data[T_TRADE_CARDS + r]
    out[SEA_PEOPLE] = key(data, K_SEA_PEOPLE_START)
    for w in range(MAX_SEA):
        out[SEA_OWNER + w] = -1
        out[SEA_KIND + w] = -1
        out[SEA_CARD + w] = -1
    n_troy = key(data, K_CARDS_TROY)
    n_cards = n_troy + key(data, K_CARDS_MYCENAE)
    deck = stack_int64(DECK_LEN)
    for i in range(n_cards):
        deck[i] = 0 if i < n_troy else 1
    shuffle(rng, deck, n_cards)
    for s in range(n_players):
        out[SIDE + s] = deck[s]


# ---------------------------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------------------------


@leaf
def _ships(state, data, p, out, n):
    if can_build_ship(state, data, p):
        for w in range(key(data, K_N_SEA)):
            if ship_hex_ok(state, data, p, w):
                out[n] = A_SHIP + w
                n += 1
    return n


@leaf
def donation_open(state, data, p):
    """May ``p`` put one more card into the support row now (A1)?"""
    if state[DONATING] > 0:
        return state[DONATING] < key(data, K_DONATION_MAX)
    return state[DONATIONS] < key(data, K_DONATIONS_PER_TURN)


@leaf
def legal_actions(state, data, out):
    """Fill ``out[:n]`` with the deciding seat's legal actions; return n >= 1."""
    phase = state[PHASE]
    p = state[SEAT]
    if phase == PH_ROBBER:  # the Sea People moves to another sea hex (A9)
        n = 0
        for w in range(key(data, K_N_SEA)):
            if w != state[SEA_PEOPLE]:
                out[n] = A_SEA + w
                n += 1
        return n
    if phase == PH_STEAL:
        n = 0
        for s in range(state[NP]):
            if is_victim(state, data, s):
                out[n] = A_STEAL + s
                n += 1
        out[n] = A_NO_STEAL
        return n + 1
    if phase == PH_TWO_TO_ONE:
        n = 0
        for r in range(R):
            if state[TRADE_CARDS + r] > 0:
                out[n] = A_CARD + r
                n += 1
        return n
    if phase == PH_SWAP_BACK:
        n = 0
        for r in range(R):
            if state[HAND + p * R + r] > 0:
                out[n] = A_PUT + r
                n += 1
        return n
    n = base_legal_actions(state, data, out)
    if phase == PH_SBP:
        n = _ships(state, data, p, out, n)
    elif phase == PH_MAIN:
        n = _ships(state, data, p, out, n)
        if donation_open(state, data, p):
            for r in range(R):
                if state[HAND + p * R + r] > 0:
                    out[n] = A_DONATE + r
                    n += 1
        if state[ROW_N] > 0:
            if state[TAKES_USED] < key(data, K_TAKE_USES) * active_ships(state, data, p, KIND_TAKE):
                out[n] = A_TAKE
                n += 1
            if state[SWAPS_USED] < key(data, K_SWAP_USES) * active_ships(state, data, p, KIND_SWAP):
                out[n] = A_SWAP
                n += 1
    return n


# ---------------------------------------------------------------------------------------------
# Effects (write into ``out`` only)
# ---------------------------------------------------------------------------------------------


@leaf
def refresh_ports(out, data):
    """Each seat's trading ratios (the base PORTS flags that the base trade rule reads): the
    lever's harbours at its buildings, and its 3:1 and 2:1 ships outside the Sea People's hex
    (§4.3)."""
    n = out[NP]
    for p in range(n):
        for t in range(R + 1):
            out[PORTS + p * (R + 1) + t] = 0
    for v in range(data[G_N_VERT]):
        s = data[D_VERTEX_SLOT + v]
        if s >= 0 and out[V_OWNER + v] >= 0:
            out[PORTS + out[V_OWNER + v] * (R + 1) + out[SLOT_TYPE + s]] = 1
    for w in range(key(data, K_N_SEA)):
        p = out[SEA_OWNER + w]
        if p < 0 or w == out[SEA_PEOPLE]:
            continue
        if out[SEA_KIND + w] == KIND_THREE:
            out[PORTS + p * (R + 1) + GENERIC] = 1
        elif out[SEA_KIND + w] == KIND_TWO and out[SEA_CARD + w] >= 0:
            out[PORTS + p * (R + 1) + out[SEA_CARD + w]] = 1


@leaf
def _draw_row(out, rng):
    """One random card out of the support row; returns its resource."""
    r = draw_from_histogram(rng, out[ROW : ROW + R], out[ROW_N])
    out[ROW + r] -= 1
    out[ROW_N] -= 1
    return r


@leaf
def _hand_to_row(out, p, r):
    out[HAND + p * R + r] -= 1
    out[HAND_N + p] -= 1
    out[ROW + r] += 1
    out[ROW_N] += 1


@leaf
def _to_hand(out, p, r):
    out[HAND + p * R + r] += 1
    out[HAND_N + p] += 1


@leaf
def battle(out, data, rng):
    """One battle for Troy (§4.5): ``counted`` random cards of the row are revealed (the rest
    stay as the new row), ore and wool score for Troy, lumber and grain for Mycenae; the city
    with more points advances its marker, a tie moves neither; the revealed cards go back to
    the bank (or leave the game, lever). Returns the city that won, or -1."""
    points = 0
    for _ in range(key(data, K_COUNTED)):
        r = _draw_row(out, rng)
        points += data[T_ALIGN + r]
        if key(data, K_CARDS_REMOVED):
            out[REMOVED + r] += 1
        else:
            out[BANK + r] += 1
    out[BATTLES] += 1
    if points == 0:
        return -1
    city = 0 if points > 0 else 1
    if out[TRACK + city] < key(data, K_TRACK_LEN) - 1:
        out[TRACK + city] += 1
    return city


@leaf
def track_over(out, data):
    """Has a city marker reached the last space of the event track (§5.2)?"""
    last = key(data, K_TRACK_LEN) - 1
    return out[TRACK] >= last or out[TRACK + 1] >= last


@leaf
def _end_on_track(out, data):
    """§5.2: the game ends at once; the most VP wins, then (lever) the most commerce tokens;
    still tied: a shared win (WINNER stays -1, the results share it)."""
    best = -1
    best_tokens = -1
    winner = -1
    for s in range(out[NP]):
        vp = victory_points(out, data, s)
        tokens = out[TOKENS + s] if key(data, K_TOKEN_TIEBREAK) else 0
        if vp > best or (vp == best and tokens > best_tokens):
            best, best_tokens, winner = vp, tokens, s
        elif vp == best and tokens == best_tokens:
            winner = -1
    _game_over(out, R_EVENT_TRACK, winner)


@leaf
def _game_over(out, reason, winner):
    out[OVER] = 1
    out[REASON] = reason
    out[WINNER] = winner
    out[PHASE] = PH_OVER
    out[SEAT] = -1


@leaf
def check_win(out, data):
    """§5.1: the active player wins as soon as he has the target VP (track VP included) in his
    own turn, including the moment his turn starts."""
    if out[OVER] != 0 or not own_turn_phase(out):
        return
    p = out[CUR]
    if victory_points(out, data, p) >= data[G_VP_TARGET]:
        _game_over(out, R_VP_TARGET, p)


@leaf
def _end_of_turn(out, data, rng):
    """The active player has finished his turn (§4.5, A8, A15): the battles while the row is at
    the threshold, the event track's end, then the base game passes the turn on (the Special
    Building Phase at 6 players comes after the battle)."""
    while out[ROW_N] >= key(data, K_THRESHOLD) and not track_over(out, data):
        battle(out, data, rng)
    if track_over(out, data):
        _end_on_track(out, data)
        return
    p = out[CUR]
    if key(data, K_ACTIVE_TURN_WIN) and victory_points(out, data, p) >= data[G_VP_TARGET]:
        _game_over(out, R_VP_TARGET, p)
        return
    _end_turn(out, data)


@leaf
def _after_ship(out, data, ret):
    """After a ship or its 2:1 card: the builder moves the Sea People (§4.2), then ``ret``."""
    out[RET_PHASE] = ret
    out[PHASE] = PH_ROBBER if key(data, K_SEA_PEOPLE_AFTER_SHIP) else ret


@leaf
def _build_ship(out, data, p, w, phase):
    """Pay, turn over the top token of the stack and put the ship on ``w`` (§4.2 «2.c»)."""
    for r in range(R):
        c = data[T_SHIP_COST + r]
        out[HAND + p * R + r] -= c
        out[HAND_N + p] -= c
        out[BANK + r] += c
    out[TOKENS + p] -= key(data, K_SHIP_TOKENS)
    kind = data[T_STACK + out[SHIPS_BUILT + p]]
    out[SHIPS_BUILT + p] += 1
    out[SEA_OWNER + w] = p
    out[SEA_KIND + w] = kind
    out[RET_PHASE] = phase
    any_card = False
    for r in range(R):
        if out[TRADE_CARDS + r] > 0:
            any_card = True
    if kind == KIND_TWO and any_card:
        out[PHASE] = PH_TWO_TO_ONE
    else:
        refresh_ports(out, data)
        _after_ship(out, data, phase)


@leaf
def _scenario_step(out, action, data, rng):
    """The scenario's own actions, in place on ``out``."""
    p = out[SEAT]
    phase = out[PHASE]
    if phase == PH_ROBBER:  # the Sea People moves (A9)
        out[SEA_PEOPLE] = action - A_SEA
        refresh_ports(out, data)
        victims = False
        for s in range(out[NP]):
            if is_victim(out, data, s):
                victims = True
        out[PHASE] = PH_STEAL if victims else out[RET_PHASE]
    elif action == A_NO_STEAL:
        out[PHASE] = out[RET_PHASE]
    elif phase == PH_TWO_TO_ONE:
        r = action - A_CARD
        out[TRADE_CARDS + r] -= 1
        for w in range(key(data, K_N_SEA)):
            if out[SEA_OWNER + w] == p and out[SEA_KIND + w] == KIND_TWO and out[SEA_CARD + w] < 0:
                out[SEA_CARD + w] = r
                break
        refresh_ports(out, data)
        _after_ship(out, data, out[RET_PHASE])
    elif phase == PH_SWAP_BACK:
        _hand_to_row(out, p, action - A_PUT)
        out[PHASE] = PH_MAIN
    elif action >= A_SHIP and action < A_SEA:
        _build_ship(out, data, p, action - A_SHIP, phase)
    elif action >= A_DONATE and action < A_SHIP:
        if out[DONATING] == 0:  # a new donation: one token, whatever its size (§4.2 «2.a»)
            out[DONATIONS] += 1
            out[GIFTS + p] += 1
            out[TOKENS + p] += key(data, K_TOKENS_PER_DONATION)
        out[DONATING] += 1
        out[DONATED + p] += 1
        _hand_to_row(out, p, action - A_DONATE)
    elif action == A_TAKE:
        out[TAKES_USED] += 1
        _to_hand(out, p, _draw_row(out, rng))
    elif action == A_SWAP:
        out[SWAPS_USED] += 1
        _to_hand(out, p, _draw_row(out, rng))
        out[PHASE] = PH_SWAP_BACK


@leaf
def step(state, action, data, rng, out):
    """Apply one legal ``action`` of the deciding seat to ``state``, writing only into ``out``."""
    copy_state(state, out)
    advance(out, action, data, rng)


@leaf
def advance(s, action, data, rng):
    """:func:`step` in place: ``s`` becomes the state after ``action`` (for the chunk loop and
    the search bot's rollouts, which keep no earlier state; ``step`` itself stays pure)."""
    phase = s[PHASE]
    turns = s[TURNS]
    if action >= A_DONATE or phase == PH_ROBBER:
        _scenario_step(s, action, data, rng)
    elif phase == PH_MAIN and action == A_END:
        _end_of_turn(s, data, rng)
    else:
        base_advance(s, action, data, rng)
    if s[DONATING] > 0 and (action < A_DONATE or action >= A_SHIP):
        s[DONATING] = 0  # any other action closes the donation (A1)
    if s[TURNS] != turns:  # a new turn: its once-per-turn counters
        s[DONATIONS] = 0
        s[TAKES_USED] = 0
        s[SWAPS_USED] = 0
    check_win(s, data)


# ---------------------------------------------------------------------------------------------
# Hidden information (search bots)
# ---------------------------------------------------------------------------------------------


@leaf
def determinize(state, data, seat, rng, out):
    """A copy of ``state`` whose hidden parts are re-dealt consistently with what ``seat`` sees
    (§7): the other hands and the support row (sizes kept) from the cards they hold together,
    and the other seats' decision cards from the cards ``seat`` has not seen (its own is
    known; at 4 players one card of each city is set aside unseen)."""
    copy_state(state, out)
    n = state[NP]
    pool = stack_int64(R)
    for r in range(R):
        pool[r] = 0
    total = 0
    for o in range(n + 1):  # o == n: the support row
        base = ROW if o == n else HAND + o * R
        if o == seat:
            continue
        for r in range(R):
            keep = known_held(state, o, r) if o < n else 0  # a pending offer shows these
            pool[r] += out[base + r] - keep
            total += out[base + r] - keep
            out[base + r] = keep
    for o in range(n + 1):
        if o == seat:
            continue
        base = ROW if o == n else HAND + o * R
        size = out[ROW_N] if o == n else out[HAND_N + o]
        for r in range(R):
            size -= out[base + r]
        for _ in range(size):
            r = draw_from_histogram(rng, pool, total)
            pool[r] -= 1
            total -= 1
            out[base + r] += 1
    sides = stack_int64(2)
    sides[0] = key(data, K_CARDS_TROY)
    sides[1] = key(data, K_CARDS_MYCENAE)
    sides[state[SIDE + seat]] -= 1
    unseen = sides[0] + sides[1]
    for o in range(n):
        if o != seat:
            c = draw_from_histogram(rng, sides, unseen)
            sides[c] -= 1
            unseen -= 1
            out[SIDE + o] = c
