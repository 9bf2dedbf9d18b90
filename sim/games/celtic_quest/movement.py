"""Celtic Quest's movement (rules/celtic-quest.md §4.4) and first placement (§4.1, B21, B25): moves
over enchanted tiles, terrain freed by Spirit-type quests, passing a Roman with a gold or a
Shield-type quest, pick-ups with an elixir, breads, discards, and moving a Roman (gold, Raven).
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.items import discard_item
from sim.games.celtic_quest.layout import (
    A_BREAD,
    A_CRYSTAL,
    A_CRYSTAL_ELIXIR,
    A_DROP_CRYSTAL,
    A_DROP_ITEM,
    A_ELIXIR,
    A_GOLD,
    A_ROMAN,
    A_SHIELD,
    ENCH,
    GOLD_ROMAN,
    I_BREAD,
    I_ELIXIR,
    I_GOLD,
    MAX_TSEC,
    N_ITEMS,
    PH_RAVEN,
    QP_BREADS_USED,
    QP_CRYST,
    QP_DESTINY,
    QP_FREE_HILLS,
    QP_FREE_PICKS,
    QP_FREE_WOODS,
    QP_ITEMS,
    QP_RAVEN,
    QP_RAVEN_USED,
    QP_SHIELD,
    QP_SHIELD_USED,
    S_ANY_BASTION,
    S_ANYWHERE,
    S_ENCHANTABLE,
    S_HILLS,
    S_RESOURCE,
    S_STONE_CIRCLE,
    S_WOODS,
    SPOT_OUT,
    T_CRYSTAL,
    TCRYST,
    TERRAIN_HILLS,
    TERRAIN_WOODS,
    X_BREAD_MP,
    X_BREADS_PER_TURN,
    X_DESTINY_START,
    X_ELIXIR_CRYSTALS,
    X_ELIXIR_PICKS,
    X_SEC_CONNECTED,
    X_SEC_MERGE,
    X_TILE_NSEC,
    X_TILE_SECS,
    X_TILE_TERRAIN,
)
from sim.games.celtic_quest.queries import capacity_bonus, qp, xr
from sim.games.celtic_quest.tiles import can_enchant, rep
from sim.games.celtic_trader.board import has_roman_spot
from sim.games.celtic_trader.conquest import _place_roman
from sim.games.celtic_trader.params import (
    K_HUB,
    MAX_DEG,
    N_RES,
    O_ADJ,
    O_ADJ_COST,
    O_CARRY_X,
    O_CARRY_Y,
    O_DEG,
    O_RULES,
    O_SEC_BAST,
    O_SEC_KIND,
    O_SEC_SPOTS,
    O_SEC_TILE,
    O_SPOT_RES,
    R_NSEC,
    R_SC,
)
from sim.games.celtic_trader.state import (
    A_DISCARD,
    A_PASS,
    A_SEC,
    A_SPOT,
    CONQ,
    CUR,
    DISC,
    MOVE_ENDED,
    MP,
    P_CARRIED,
    P_CARRY,
    P_FIRST_DONE,
    P_NCARRY,
    P_POS,
    PHASE,
    PICKS,
    PLAYERS,
    PW,
    ROMAN,
    SPOT,
)


@leaf
def entry_cost(s, data, seat, target, base):
    """MP to enter ``target`` by an edge of cost ``base``: 0 onto a tile whose terrain a
    Spirit-type quest frees."""
    if base == 0:
        return 0
    q = qp(seat)
    terrain = data[X_TILE_TERRAIN + data[O_SEC_TILE + target]]
    if (terrain & TERRAIN_WOODS and s[q + QP_FREE_WOODS]) or (
        terrain & TERRAIN_HILLS and s[q + QP_FREE_HILLS]
    ):
        return 0
    return base


@leaf
def step_cost(s, data, seat, pos, target):
    """(edge cost, MP cost) of the cheapest move from ``pos`` to ``target`` (both as positions,
    enchanted tiles merged); (-1, -1) if not adjacent."""
    t = data[O_SEC_TILE + pos]
    merged = s[ENCH + t] != 0
    best_base = -1
    best = -1
    for j in range(data[X_TILE_NSEC + t] if merged else 1):
        src = data[X_TILE_SECS + t * MAX_TSEC + j] if merged else pos
        if merged and data[X_SEC_MERGE + src] != pos:
            continue
        for k in range(data[O_DEG + src]):
            v = rep(s, data, data[O_ADJ + src * MAX_DEG + k])
            if v != target:
                continue
            base = data[O_ADJ_COST + src * MAX_DEG + k]
            c = entry_cost(s, data, seat, v, base)
            if best < 0 or c < best:
                best = c
                best_base = base
    return best_base, best


@leaf
def move_actions(s, data, out):
    """The legal actions of the movement phase (§4.4): moves (with a gold or a Shield-type
    quest onto a Roman), pick-ups of resources and crystals (with an elixir when it saves the
    movement), a bread, and discards of resources, crystals and items."""
    seat = s[CUR]
    pb = PLAYERS + seat * PW
    q = qp(seat)
    out[0] = A_PASS
    n = 1
    pos = s[pb + P_POS]
    ended = s[MOVE_ENDED]
    mp = s[MP]
    t = data[O_SEC_TILE + pos]
    merged = s[ENCH + t] != 0
    first = n
    for j in range(data[X_TILE_NSEC + t] if merged else 1):
        src = data[X_TILE_SECS + t * MAX_TSEC + j] if merged else pos
        if merged and data[X_SEC_MERGE + src] != pos:
            continue
        for k in range(data[O_DEG + src]):
            v = rep(s, data, data[O_ADJ + src * MAX_DEG + k])
            if v == pos:
                continue
            base = data[O_ADJ_COST + src * MAX_DEG + k]
            c = entry_cost(s, data, seat, v, base)
            if not (base == 0 or (ended == 0 and c <= mp)):
                continue
            dup = False
            for i in range(first, n):
                if out[i] == A_SEC + v:
                    dup = True
                    break
            if dup:
                continue
            out[n] = A_SEC + v
            n += 1
    last = n
    for i in range(first, last):  # passing a Roman: with a gold, or a Shield-type quest
        v = out[i] - A_SEC
        if s[ROMAN + v]:
            if s[q + QP_ITEMS + I_GOLD] > 0:
                out[n] = A_GOLD + v
                n += 1
            if s[q + QP_SHIELD] > s[q + QP_SHIELD_USED]:
                out[n] = A_SHIELD + v
                n += 1
    x_bonus, y_bonus = capacity_bonus(s, seat)
    lvl = s[pb + P_CARRY]
    room = s[pb + P_NCARRY] < data[O_CARRY_X + lvl] + x_bonus
    picks_end = s[PICKS] >= data[O_CARRY_Y + lvl] + y_bonus  # the next pick-up ends movement
    elixir = s[q + QP_ITEMS + I_ELIXIR] > 0 and picks_end and ended == 0
    if room:
        for j in range(2):
            sp = data[O_SEC_SPOTS + pos * 2 + j]
            if sp >= 0 and s[SPOT + sp] and s[SPOT_OUT + sp] == 0:
                out[n] = A_SPOT + sp
                n += 1
                if elixir:
                    out[n] = A_ELIXIR + sp
                    n += 1
        if s[TCRYST + t] > 0 and merged:
            out[n] = A_CRYSTAL
            n += 1
            if elixir and xr(data, X_ELIXIR_CRYSTALS):
                out[n] = A_CRYSTAL_ELIXIR
                n += 1
    limit = xr(data, X_BREADS_PER_TURN)
    if (
        s[q + QP_ITEMS + I_BREAD] > 0
        and ended == 0
        and (limit == 0 or s[q + QP_BREADS_USED] < limit)
    ):
        out[n] = A_BREAD
        n += 1
    for r in range(N_RES):
        if s[pb + P_CARRIED + r] > 0:
            out[n] = A_DISCARD + r
            n += 1
    if s[q + QP_CRYST] > 0:
        out[n] = A_DROP_CRYSTAL
        n += 1
    for i in range(N_ITEMS):
        if s[q + QP_ITEMS + i] > 0:
            out[n] = A_DROP_ITEM + i
            n += 1
    return n


@leaf
def _picked(s, data, seat, free):
    """Count a pick-up toward Y (an elixir first raises Y for this turn); the one beyond Y
    ends the movement."""
    pb = PLAYERS + seat * PW
    if free:  # the elixir frees elixir_free_pickups pick-ups of this turn (1 by the rules)
        s[qp(seat) + QP_ITEMS + I_ELIXIR] -= 1
        s[qp(seat) + QP_FREE_PICKS] += xr(data, X_ELIXIR_PICKS)
        discard_item(s, data, I_ELIXIR)
    s[PICKS] += 1
    _, y_bonus = capacity_bonus(s, seat)
    if s[PICKS] > data[O_CARRY_Y + s[pb + P_CARRY]] + y_bonus:
        s[MOVE_ENDED] = 1


@leaf
def apply_move(s, data, action):
    """A movement action (not A_PASS). Returns 1 if the turn ended (a Roman stop), 2 if the
    seat now chooses where the passed Roman goes, else 0."""
    seat = s[CUR]
    pb = PLAYERS + seat * PW
    q = qp(seat)
    pos = s[pb + P_POS]
    if action < A_SPOT or A_GOLD <= action < A_ELIXIR:
        if action < A_SPOT:
            v = action - A_SEC
        elif action < A_SHIELD:
            v = action - A_GOLD
        else:
            v = action - A_SHIELD
        _, c = step_cost(s, data, seat, pos, v)
        s[MP] -= c
        s[pb + P_POS] = v
        if s[ROMAN + v]:
            if action < A_SPOT:
                return 1  # §4.5.2: stopped, the whole turn ends
            if action < A_SHIELD:
                s[q + QP_ITEMS + I_GOLD] -= 1
                discard_item(s, data, I_GOLD)
                s[GOLD_ROMAN] = v
                return 2
            s[q + QP_SHIELD_USED] += 1
        return 0
    if action < A_DISCARD or A_ELIXIR <= action < A_CRYSTAL:
        sp = action - A_SPOT if action < A_DISCARD else action - A_ELIXIR
        r = data[O_SPOT_RES + sp]
        s[SPOT + sp] = 0
        s[pb + P_CARRIED + r] += 1
        s[pb + P_NCARRY] += 1
        _picked(s, data, seat, action >= A_ELIXIR)
        return 0
    if action < A_DISCARD + N_RES:
        r = action - A_DISCARD
        s[pb + P_CARRIED + r] -= 1
        s[pb + P_NCARRY] -= 1
        s[DISC + r] += 1
        return 0
    if action == A_CRYSTAL or action == A_CRYSTAL_ELIXIR:  # noqa: SIM109
        t = data[O_SEC_TILE + pos]
        s[TCRYST + t] -= 1
        s[q + QP_CRYST] += 1
        _picked(s, data, seat, action == A_CRYSTAL_ELIXIR)
        return 0
    if action == A_BREAD:
        s[q + QP_ITEMS + I_BREAD] -= 1
        s[q + QP_BREADS_USED] += 1
        discard_item(s, data, I_BREAD)
        s[MP] += xr(data, X_BREAD_MP)
        return 0
    if action == A_DROP_CRYSTAL:
        s[q + QP_CRYST] -= 1
        s[DISC + T_CRYSTAL] += 1
        return 0
    i = action - A_DROP_ITEM
    s[q + QP_ITEMS + i] -= 1
    discard_item(s, data, i)
    return 0


@leaf
def roman_targets(s, data, out, n, exclude):
    """Append A_ROMAN + every empty Roman spot but ``exclude``; returns n."""
    for sec in range(data[O_RULES + R_NSEC]):
        if sec != exclude and s[ROMAN + sec] == 0 and has_roman_spot(s, data, sec):
            out[n] = A_ROMAN + sec
            n += 1
    return n


@leaf
def move_roman(s, data, to):
    """The passed (gold) or chosen (Raven) Roman goes to ``to`` (conquest checked there)."""
    s[ROMAN + s[GOLD_ROMAN]] = 0
    s[GOLD_ROMAN] = -1
    _place_roman(s, data, to)


@leaf
def raven_offered(s, data):
    """True (phase set) when a Raven-type quest may move a Roman before this movement."""
    q = qp(s[CUR])
    if s[q + QP_RAVEN] <= s[q + QP_RAVEN_USED]:
        return False
    for sec in range(data[O_RULES + R_NSEC]):
        if s[ROMAN + sec]:
            s[q + QP_RAVEN_USED] += 1
            s[PHASE] = PH_RAVEN
            return True
    return False


@leaf
def start_ok(s, data, rule, sec):
    """Whether the destiny start ``rule`` allows ``sec`` (a position, connected to the Stone
    Circle)."""
    if rep(s, data, sec) != sec or data[X_SEC_CONNECTED + sec] == 0:
        return False
    t = data[O_SEC_TILE + sec]
    if rule == S_STONE_CIRCLE:
        return sec == data[O_RULES + R_SC]
    if rule == S_ANY_BASTION:
        b = data[O_SEC_BAST + sec]
        return data[O_SEC_KIND + sec] == K_HUB and s[CONQ + b] == 0
    if rule == S_WOODS:
        return data[X_TILE_TERRAIN + t] & TERRAIN_WOODS != 0
    if rule == S_HILLS:
        return data[X_TILE_TERRAIN + t] & TERRAIN_HILLS != 0
    if rule == S_ENCHANTABLE:
        return can_enchant(s, data, t)
    if rule == S_RESOURCE:
        for j in range(2):
            sp = data[O_SEC_SPOTS + sec * 2 + j]
            if sp >= 0 and s[SPOT_OUT + sp] == 0:
                return True
        return False
    return rule == S_ANYWHERE


@leaf
def start_actions(s, data, out):
    """The start sections of the seat's destiny (the Stone Circle if its rule allows none), and
    with a gold the same sections holding a Roman, entered passing it."""
    seat = s[CUR]
    rule = data[X_DESTINY_START + s[qp(seat) + QP_DESTINY]]
    n = 0
    for sec in range(data[O_RULES + R_NSEC]):
        if start_ok(s, data, rule, sec):
            out[n] = A_SEC + sec
            n += 1
    if n == 0:
        out[0] = A_SEC + data[O_RULES + R_SC]
        n = 1
    if s[qp(seat) + QP_ITEMS + I_GOLD] > 0:
        m = n
        for i in range(m):
            v = out[i] - A_SEC
            if s[ROMAN + v]:
                out[n] = A_GOLD + v
                n += 1
    return n


@leaf
def place_with_gold(s, data, sec):
    """First placement on a Roman with a gold (B25): not stopped; the Roman may move."""
    seat = s[CUR]
    pb = PLAYERS + seat * PW
    s[pb + P_POS] = sec
    s[pb + P_FIRST_DONE] = 1
    s[qp(seat) + QP_ITEMS + I_GOLD] -= 1
    discard_item(s, data, I_GOLD)
    s[GOLD_ROMAN] = sec
