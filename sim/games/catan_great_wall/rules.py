"""The Great Wall rules kernels: the base Catan kernels (sim/games/catan/rules.py) plus the
scenario's own, over the longer state of state.py. Rule references are to
rules/catan-great-wall.md (§ sections, A-numbered resolutions, G-numbered scenarios).

``step`` handles the scenario's phases and actions itself and hands every other decision to the
base ``step``, then applies the scenario's consequences of it:

    FORTRESS (each seat, clockwise from the high roller) -> base setup snake, started by the
      last fortress placer (A12)
    PRE_ROLL roll: dice; not 7: riders migrate, breaches, the defeat check; then the base
      production (hexes holding riders produce nothing: the base G_HEX_BLOCK hook) or the 7
    7: base discards -> ROBBER (here: the pirate to another sea hex) -> STEAL (any other player
      holding a card, A10)
    MAIN / SBP: base builds and trades (a settlement or city draws riders, §4.2), or A_WALL
    Knight: base bookkeeping (Mightiest Knight = the base Largest Army, 1 VP) -> KNIGHT (up to
      ``knight_actions`` distinct actions: move a rider, remove a rider, pirate and steal)

Which rider moves when several numerals share a place (a territory after a Knight moved one
there, a battlefield, a hex) is not a choice the rules give: the lowest numeral moves first.
"""

from sim.core.kernel import copy_state, leaf
from sim.core.rng import randint, shuffle
from sim.core.scratch import stack_int64
from sim.games.catan import rules as base
from sim.games.catan.params import D_SLOT_VERTICES, G_N_HEX, G_N_SLOTS
from sim.games.catan.rules_longest import _place_settlement
from sim.games.catan.rules_roll import resolve_roll, roll_dice
from sim.games.catan.rules_shared import current_player, is_over, victory_points  # noqa: F401
from sim.games.catan.rules_turn import _check_win, _start_turn
from sim.games.catan.state import (
    A_KNIGHT,
    A_ROAD,
    A_ROLL,
    A_STEAL,
    BANK,
    CUR,
    DESERT,
    DICE,
    HAND,
    HAND_N,
    HEX_NUMBER,
    HEX_TERRAIN,
    MAX_HEX,
    N_RES,
    NP,
    OVER,
    PH_MAIN,
    PH_OVER,
    PH_PRE_ROLL,
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
    ROUND,
    SEAT,
    SETUP_STEP,
    SLOT_TYPE,
    START,
    TURNS,
    TURNS_TAKEN,
    V_OWNER,
    WINNER,
)
from sim.games.catan_great_wall.params import (
    D_ARROWS,
    D_FIX_NUMBER,
    D_FIX_TERRAIN,
    D_HEX_THIRD,
    D_PATH,
    D_PATH_LEN,
    D_SEA_VERTICES,
    D_SLOT_SEA,
    D_SLOT_TYPE,
    D_W,
    D_WALL_COSTS,
    D_WALL_VERTEX,
    FILL_NUMBER,
    FILL_PATH,
    W_BOARD_MODE,
    W_BREACH_LIMIT,
    W_CAPACITY,
    W_DROP,
    W_FILL,
    W_FIRST_TURN,
    W_KNIGHT_ACTIONS,
    W_MAX_LEVEL,
    W_N_SEA,
    W_N_WALLS,
    W_NUMERALS,
    W_PENALTY,
    W_PER_BUILD,
    W_PIRATE_START,
    W_RIDERS_PER,
    W_SETUP_RES,
    W_STEAL_ANY,
)
from sim.games.catan_great_wall.state import (
    A_FORTRESS,
    A_K_DONE,
    A_K_MOVE,
    A_K_REMOVE,
    A_NO_STEAL,
    A_PIRATE,
    A_WALL,
    BAG,
    BREACHES,
    EXTRA_VP,
    FIELD,
    FORT_START,
    FORT_STEP,
    HEX_EVER,
    HEX_R,
    HEX_RIDERS,
    KN_MOVE,
    KN_PIRATE,
    KN_REMOVE,
    KN_RET,
    KN_USED,
    LEVEL,
    MAX_NUMERALS,
    MAX_PATH,
    PENALTY,
    PH_FORTRESS,
    PH_KNIGHT,
    PIRATE,
    R_WALL_BREACHED,
    TERR,
    WALL_OWNER,
)

K = MAX_NUMERALS

# ---------------------------------------------------------------------------------------------
# Readers
# ---------------------------------------------------------------------------------------------


@leaf
def wall_of(state, data, p):
    """The wall section whose fortress ``p`` owns, or -1 (before fortress placement)."""
    for w in range(data[D_W + W_N_WALLS]):
        if state[WALL_OWNER + w] == p:
            return w
    return -1


@leaf
def territory_riders(state, t):
    n = 0
    for k in range(K):
        n += state[TERR + t * K + k]
    return n


@leaf
def field_riders(state, w):
    n = 0
    for k in range(K):
        n += state[FIELD + w * K + k]
    return n


@leaf
def bag_riders(state):
    n = 0
    for k in range(K):
        n += state[BAG + k]
    return n


@leaf
def wall_cost(data, level, r):
    """Resource ``r`` of the section that raises a wall from ``level`` to ``level + 1``."""
    return data[D_WALL_COSTS + N_RES * level + r]


@leaf
def can_raise_wall(state, data, p):
    w = wall_of(state, data, p)
    if w < 0:
        return False
    level = state[LEVEL + w]
    if level >= data[D_W + W_MAX_LEVEL]:
        return False
    for r in range(N_RES):  # noqa: SIM110  (numba: plain loop)
        if state[HAND + p * N_RES + r] < wall_cost(data, level, r):
            return False
    return True


@leaf
def knight_actions_used(state):
    u = state[KN_USED]
    return (u & 1) + ((u >> 1) & 1) + ((u >> 2) & 1)


@leaf
def is_victim(state, data, s):
    """May the active player take a card from ``s`` with the pirate (A10): another player
    holding a card; with ``pirate_steal_any_player`` off, one with a building on the pirate's
    sea hex."""
    if s == state[CUR] or state[HAND_N + s] == 0:
        return False
    if data[D_W + W_STEAL_ANY]:
        return True
    sea = state[PIRATE]
    for k in range(6):
        v = data[D_SEA_VERTICES + 6 * sea + k]
        if v >= 0 and state[V_OWNER + v] == s:
            return True
    return False


@leaf
def any_victim(state, data):
    for s in range(state[NP]):  # noqa: SIM110  (numba: plain loop)
        if is_victim(state, data, s):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------


@leaf
def refresh_ports(out, data):
    """Harbour access from the buildings, less the harbour whose sea hex holds the pirate
    (§4.2: no harbour trade there; A11)."""
    n = out[NP]
    for p in range(n):
        for t in range(N_RES + 1):
            out[PORTS + p * (N_RES + 1) + t] = 0
    for s in range(data[G_N_SLOTS]):
        if data[D_SLOT_SEA + s] == out[PIRATE]:
            continue
        for v in range(2):
            vert = data[D_SLOT_VERTICES + 2 * s + v]
            owner = out[V_OWNER + vert]
            if owner >= 0:
                out[PORTS + owner * (N_RES + 1) + out[SLOT_TYPE + s]] = 1


@leaf
def _shuffle_thirds(data, rng, out):
    """Lever ``board_mode = shuffle_thirds``: terrain, then numbers, shuffled within each
    third of the board (columns 0-1, 2-3, 4-5)."""
    n_hex = data[G_N_HEX]
    ids = stack_int64(MAX_HEX)
    vals = stack_int64(MAX_HEX)
    for h in range(MAX_HEX):
        ids[h] = 0
        vals[h] = 0
    for third in range(3):
        m = 0
        for h in range(n_hex):
            if data[D_HEX_THIRD + h] == third:
                ids[m] = h
                vals[m] = out[HEX_TERRAIN + h]
                m += 1
        shuffle(rng, vals, m)
        for i in range(m):
            out[HEX_TERRAIN + ids[i]] = vals[i]
        t = 0
        for i in range(m):
            if out[HEX_NUMBER + ids[i]] > 0:
                vals[t] = out[HEX_NUMBER + ids[i]]
                t += 1
        shuffle(rng, vals, t)
        j = 0
        for i in range(m):
            out[HEX_NUMBER + ids[i]] = 0
        for i in range(m):
            if out[HEX_TERRAIN + ids[i]] != DESERT:
                out[HEX_NUMBER + ids[i]] = vals[j]
                j += 1


@leaf
def init_state(data, n_players, rng, out):
    """Setup (§3): the base setup's bank, deck and pieces on the fixed board (no robber), the
    pirate on the junk, the riders in the bag; the high roller places the first fortress."""
    base.init_state(data, n_players, rng, out)
    for h in range(data[G_N_HEX]):
        out[HEX_TERRAIN + h] = data[D_FIX_TERRAIN + h]
        out[HEX_NUMBER + h] = data[D_FIX_NUMBER + h]
    if data[D_W + W_BOARD_MODE]:
        _shuffle_thirds(data, rng, out)
    for s in range(data[G_N_SLOTS]):
        out[SLOT_TYPE + s] = data[D_SLOT_TYPE + s]
    out[ROBBER] = -1
    out[PIRATE] = data[D_W + W_PIRATE_START]
    for w in range(data[D_W + W_N_WALLS]):
        out[WALL_OWNER + w] = -1
    for k in range(data[D_W + W_NUMERALS]):
        out[BAG + k] = data[D_W + W_RIDERS_PER]
    out[FORT_START] = out[START]
    out[PHASE] = PH_FORTRESS


# ---------------------------------------------------------------------------------------------
# Riders
# ---------------------------------------------------------------------------------------------


@leaf
def _take_lowest(out, at):
    """Remove the lowest-numeral rider of the numeral histogram at ``out[at:at + K]``."""
    for k in range(K):
        if out[at + k] > 0:
            out[at + k] -= 1
            return k
    return -1


@leaf
def draw_riders(out, data, rng):
    """Migration step 1 (§4.2): ``riders_per_build`` random riders from the bag, each onto the
    territory of its numeral; nothing when the bag is empty (A16)."""
    for _ in range(data[D_W + W_PER_BUILD]):
        total = bag_riders(out)
        if total == 0:
            return
        r = randint(rng, total)
        for k in range(K):
            r -= out[BAG + k]
            if r < 0:
                out[BAG + k] -= 1
                out[TERR + k * K + k] += 1
                break


@leaf
def _pips(number):
    if number < 2 or number > 12 or number == 7:
        return 0
    return 6 - abs(7 - number)


@leaf
def _rider_hex(out, data, w, successive):
    """The path hex of wall ``w`` the next crossing rider goes to (§4.3.2, A4-A7)."""
    n = data[D_PATH_LEN + w]
    path = D_PATH + MAX_PATH * w
    if successive:
        for i in range(n):  # (a) gaps, in path order
            h = data[path + i]
            if out[HEX_RIDERS + h] == 0 and out[HEX_EVER + h]:
                return h
        best = -1
        best_key = -1
        fill = data[D_W + W_FILL]
        for i in range(n):  # (b) free hexes by the fill order
            h = data[path + i]
            if out[HEX_RIDERS + h] != 0 or out[HEX_EVER + h]:
                continue
            key = 0
            if fill == FILL_NUMBER:
                key = out[HEX_NUMBER + h]
            elif fill != FILL_PATH:
                key = _pips(out[HEX_NUMBER + h])
            if key > best_key:
                best_key = key
                best = h
        if best >= 0:
            return best
    else:
        for i in range(n):  # path order
            h = data[path + i]
            if out[HEX_RIDERS + h] == 0:
                return h
    low = 1 << 30  # (c) the next layer, from the wall inward
    best = -1
    for i in range(n):
        h = data[path + i]
        if out[HEX_RIDERS + h] < low:
            low = out[HEX_RIDERS + h]
            best = h
    return best


@leaf
def breach(out, data, w):
    """Wall ``w`` is breached (§4.3): every rider on its battlefield crosses (lowest numeral
    first) onto its attack path, the wall drops, its owner takes a penalty token, and the
    breach counter runs the defeat check (§5)."""
    n = data[D_PATH_LEN + w]
    successive = False
    for i in range(n):
        if out[HEX_RIDERS + data[D_PATH + MAX_PATH * w + i]] > 0:
            successive = True
    while True:
        k = _take_lowest(out, FIELD + w * K)
        if k < 0:
            break
        h = _rider_hex(out, data, w, successive)
        out[HEX_RIDERS + h] += 1
        out[HEX_R + h * K + k] += 1
        out[HEX_EVER + h] = 1
    out[LEVEL + w] = max(0, out[LEVEL + w] - data[D_W + W_DROP])
    owner = out[WALL_OWNER + w]
    out[PENALTY + owner] += 1
    out[EXTRA_VP + owner] -= data[D_W + W_PENALTY]
    out[BREACHES] += 1
    if out[BREACHES] >= data[D_W + W_BREACH_LIMIT]:
        out[OVER] = 1
        out[REASON] = R_WALL_BREACHED
        out[WINNER] = -1
        out[PHASE] = PH_OVER
        out[SEAT] = -1


@leaf
def migrate(out, data, dice):
    """Migration step 2 (§4.1.3-5): for each territory in order and each of its arrows showing
    ``dice``, one rider to that battlefield if it holds fewer than the capacity; a battlefield
    holding more riders than its wall's level is breached at once."""
    for t in range(data[D_W + W_NUMERALS]):
        for j in range(2):
            if data[D_ARROWS + 4 * t + 2 * j] != dice or territory_riders(out, t) == 0:
                continue
            w = data[D_ARROWS + 4 * t + 2 * j + 1]
            if field_riders(out, w) >= data[D_W + W_CAPACITY]:
                continue
            k = _take_lowest(out, TERR + t * K)
            out[FIELD + w * K + k] += 1
            if field_riders(out, w) > out[LEVEL + w]:
                breach(out, data, w)
                if out[OVER]:
                    return


# ---------------------------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------------------------


@leaf
def _pirate_moves(state, data, out, n):
    for sea in range(data[D_W + W_N_SEA]):
        if sea != state[PIRATE]:
            out[n] = A_PIRATE + sea
            n += 1
    return n


@leaf
def legal_actions(state, data, out):
    """Fill ``out[:n]`` with the deciding seat's legal actions; return n >= 1."""
    phase = state[PHASE]
    p = state[SEAT]
    n = 0
    if phase == PH_FORTRESS:
        for w in range(data[D_W + W_N_WALLS]):
            if state[WALL_OWNER + w] < 0:
                out[n] = A_FORTRESS + w
                n += 1
        return n
    if phase == PH_ROBBER:
        return _pirate_moves(state, data, out, n)
    if phase == PH_STEAL:
        for s in range(state[NP]):
            if is_victim(state, data, s):
                out[n] = A_STEAL + s
                n += 1
        out[n] = A_NO_STEAL  # "peut piocher": the pirate's steal is optional (A10)
        return n + 1
    if phase == PH_KNIGHT:
        used = state[KN_USED]
        if not used & KN_MOVE:
            for t in range(data[D_W + W_NUMERALS]):
                if territory_riders(state, t) > 0:
                    for u in range(data[D_W + W_NUMERALS]):
                        if u != t:
                            out[n] = A_K_MOVE + t * K + u
                            n += 1
        if not used & KN_REMOVE:
            for h in range(data[G_N_HEX]):
                if state[HEX_RIDERS + h] > 0:
                    out[n] = A_K_REMOVE + h
                    n += 1
        if not used & KN_PIRATE:
            n = _pirate_moves(state, data, out, n)
        out[n] = A_K_DONE
        return n + 1
    n = base.legal_actions(state, data, out)
    if (phase == PH_MAIN or phase == PH_SBP) and can_raise_wall(state, data, p):  # noqa: SIM109
        out[n] = A_WALL
        n += 1
    return n


# ---------------------------------------------------------------------------------------------
# Step
# ---------------------------------------------------------------------------------------------


@leaf
def _end_knight(out):
    out[PHASE] = out[KN_RET]
    out[SEAT] = out[CUR]
    out[RET_PHASE] = PH_MAIN
    out[KN_USED] = 0


@leaf
def _knight_progress(out, data):
    """Back to the phase the Knight was played in once its actions are used up."""
    if out[PHASE] == PH_KNIGHT and knight_actions_used(out) >= data[D_W + W_KNIGHT_ACTIONS]:
        _end_knight(out)


@leaf
def _move_pirate(out, data, sea, ret):
    out[PIRATE] = sea
    refresh_ports(out, data)
    out[RET_PHASE] = ret
    out[PHASE] = PH_STEAL if any_victim(out, data) else ret


@leaf
def _roll(out, data, rng):
    dice = roll_dice(rng)
    out[DICE] = dice
    if dice != 7:
        migrate(out, data, dice)
        if out[OVER]:
            return
    resolve_roll(out, data, dice)


@leaf
def _fortress(out, data, p, w):
    """Fortress placement (§3.7, A12): a settlement on the section's fortress site, no road,
    no resources; after the last, the base snake starts with the last fortress placer."""
    _place_settlement(out, data, p, data[D_WALL_VERTEX + w])
    out[WALL_OWNER + w] = p
    refresh_ports(out, data)
    n = out[NP]
    out[FORT_STEP] += 1
    if out[FORT_STEP] >= n:
        first = (out[FORT_START] + n - 1) % n
        out[START] = first
        out[SEAT] = first
        out[CUR] = first
        out[SETUP_STEP] = 0
        out[PHASE] = PH_SETUP_SETTLE
    else:
        out[SEAT] = (out[FORT_START] + out[FORT_STEP]) % n
        out[CUR] = out[SEAT]


@leaf
def step(state, action, data, rng, out):
    """Apply one legal ``action`` of the deciding seat to ``state``, writing only into ``out``."""
    copy_state(state, out)
    advance(out, action, data, rng)


@leaf
def advance(out, action, data, rng):
    """:func:`step` in place: ``out`` becomes the state after ``action`` (for the chunk loop and
    the search bot's rollouts, which keep no earlier state; ``step`` itself stays pure)."""
    phase = out[PHASE]
    p = out[SEAT]
    if phase == PH_FORTRESS:
        _fortress(out, data, p, action - A_FORTRESS)
        return
    if phase == PH_ROBBER:  # the pirate on a 7
        _move_pirate(out, data, action - A_PIRATE, out[RET_PHASE])
        return
    if phase == PH_KNIGHT:
        if action == A_K_DONE:
            _end_knight(out)
        elif action >= A_K_REMOVE:
            h = action - A_K_REMOVE
            k = _take_lowest(out, HEX_R + h * K)
            out[HEX_RIDERS + h] -= 1
            out[BAG + k] += 1
            out[KN_USED] |= KN_REMOVE
        elif action >= A_K_MOVE:
            t = (action - A_K_MOVE) // K
            u = (action - A_K_MOVE) % K
            k = _take_lowest(out, TERR + t * K)
            out[TERR + u * K + k] += 1
            out[KN_USED] |= KN_MOVE
        else:
            out[KN_USED] |= KN_PIRATE
            _move_pirate(out, data, action - A_PIRATE, PH_KNIGHT)
        _knight_progress(out, data)
        _check_win(out, data)
        return
    if phase == PH_PRE_ROLL and action == A_ROLL:
        _roll(out, data, rng)
        _check_win(out, data)
        return
    if action == A_WALL:
        w = wall_of(out, data, p)
        level = out[LEVEL + w]
        for r in range(N_RES):
            c = wall_cost(data, level, r)
            out[HAND + p * N_RES + r] -= c
            out[BANK + r] += c
            out[HAND_N + p] -= c
        out[LEVEL + w] = level + 1
        _check_win(out, data)
        return
    if phase == PH_STEAL and action == A_NO_STEAL:
        out[PHASE] = out[RET_PHASE]
        _knight_progress(out, data)
        return
    returns_setup_cards = phase == PH_SETUP_SETTLE and data[D_W + W_SETUP_RES] != 0
    hand_before = stack_int64(N_RES)  # what the lever below gives back is what the step dealt
    if returns_setup_cards:
        for r in range(N_RES):
            hand_before[r] = out[HAND + p * N_RES + r]
    base.advance(out, action, data, rng)
    if phase == PH_STEAL:
        _knight_progress(out, data)
        return
    if action < A_ROAD:  # a settlement or a city
        refresh_ports(out, data)
        if phase == PH_MAIN or phase == PH_SBP:  # noqa: SIM109
            draw_riders(out, data, rng)
        elif returns_setup_cards:
            for r in range(N_RES):
                k = out[HAND + p * N_RES + r] - hand_before[r]
                out[HAND + p * N_RES + r] -= k
                out[BANK + r] += k
                out[HAND_N + p] -= k
        return
    if action == A_KNIGHT and out[OVER] == 0:
        out[KN_RET] = phase
        out[KN_USED] = 0
        out[RET_PHASE] = PH_KNIGHT
        out[PHASE] = PH_KNIGHT
        _knight_progress(out, data)
        return
    if (
        phase == PH_SETUP_ROAD
        and out[PHASE] == PH_PRE_ROLL
        and data[D_W + W_FIRST_TURN]
        and out[START] != out[FORT_START]
    ):
        out[TURNS] -= 1
        out[TURNS_TAKEN + out[START]] -= 1
        out[START] = out[FORT_START]
        out[ROUND] = 0
        _start_turn(out, data, out[FORT_START])


# ---------------------------------------------------------------------------------------------
# Search hooks
# ---------------------------------------------------------------------------------------------


@leaf
def scores(state, data, out):
    """Each seat's VP, the winner ranked first (only the active player can win); after the
    collective defeat every seat scores the same (nobody won)."""
    n = state[NP]
    for s in range(n):
        out[s] = victory_points(state, data, s)
        if s == state[WINNER]:
            out[s] += 1000
        if state[OVER] and state[REASON] == R_WALL_BREACHED:
            out[s] = 0
    return n


determinize = base.determinize
