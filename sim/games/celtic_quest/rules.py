"""Celtic Quest's own rules, as kernels the shared Celtic Trader turn flow calls.

Celtic Quest is Celtic Trader plus destinies, quests, items, crystals, the druid and
enchantment (rules/celtic-quest.md). Movement, the bag, delivery, conquest, the Stone Circle and
the RP/VP supply are Celtic Trader's kernels (sim/games/celtic_trader/rules.py, imported here as
``trader``); that turn flow calls the functions below where the data says ``R_QUEST`` (the
hooks are marked "Celtic Quest" there). Everything here works in place on the output buffer of
``trader.step``, like the private helpers of that module. Rule references (§) point into
rules/celtic-quest.md.
"""

import sim.games.celtic_trader.rules as trader
from sim.core.kernel import leaf
from sim.core.rng import randint, shuffle
from sim.games.celtic_quest.layout import (
    A_BREAD,
    A_CRYSTAL,
    A_CRYSTAL_ELIXIR,
    A_CRYSTALS,
    A_DESTINY,
    A_DROP_CRYSTAL,
    A_DROP_ITEM,
    A_ELIXIR,
    A_GOLD,
    A_ITEM,
    A_QUEST,
    A_RING,
    A_ROMAN,
    A_SHIELD,
    A_TILE,
    A_YES,
    AB_ANVIL,
    AB_CARRY_PLUS,
    AB_CRYST_VP,
    AB_DELIV_RP,
    AB_DRAW_EXTRA,
    AB_EXTRA_MP,
    AB_FREE_ENTRY,
    AB_PICK_PLUS,
    AB_RAVEN,
    AB_SHIELD,
    CRYSTAL_SUPPLY,
    DESTINY_OUT,
    ENCH,
    END_SPELL,
    GOLD_ROMAN,
    I_BREAD,
    I_ELIXIR,
    I_GOLD,
    I_RING,
    ITEM_DRAWN,
    ITEMS_OUT,
    MAX_CARRIED_CRYSTALS,
    MAX_DESTINIES,
    MAX_HELD,
    MAX_TSEC,
    N_ITEMS,
    NEXT,
    NX_TOKENS,
    NX_UPGRADE,
    PH_CRYSTAL_SPOT,
    PH_CRYSTALS,
    PH_DESTINY,
    PH_ENCHANT,
    PH_GOLD_RELOC,
    PH_ITEM_DROP,
    PH_QUEST_DISCARD,
    PH_QUEST_DONE,
    PH_QUEST_DRAW,
    PH_RAVEN,
    PH_RETURN,
    QP_ALT0,
    QP_ANVIL,
    QP_BREADS_USED,
    QP_CARRY_PLUS,
    QP_CRYST,
    QP_CRYST_DONE,
    QP_CRYST_VP_PLUS,
    QP_DELIV_RP,
    QP_DESTINY,
    QP_DONE_MASK,
    QP_DRAW_EXTRA,
    QP_EXTRA_MP,
    QP_FREE_HILLS,
    QP_FREE_PICKS,
    QP_FREE_WOODS,
    QP_HARP_PAID,
    QP_HELD,
    QP_ITEMS,
    QP_NDONE,
    QP_PENDING_MASK,
    QP_PICK_PLUS,
    QP_QUEST_VP,
    QP_RAVEN,
    QP_RAVEN_USED,
    QP_RING_USED,
    QP_SHIELD,
    QP_SHIELD_USED,
    QP_TRIBES,
    QPILE,
    QPILE_N,
    QPILE_TOP,
    QPLAYERS,
    QPW,
    QUEST_OUT,
    RETURN_LEFT,
    S_ANY_BASTION,
    S_ANYWHERE,
    S_ENCHANTABLE,
    S_HILLS,
    S_RESOURCE,
    S_STONE_CIRCLE,
    S_WOODS,
    SPELL,
    SPOT_OUT,
    T_CRYSTAL,
    T_DRUID,
    T_GOLD,
    TCRYST,
    TERRAIN_HILLS,
    TERRAIN_WOODS,
    X_ADVANCED_DRAW,
    X_BREAD_MP,
    X_BREADS_PER_TURN,
    X_CRYSTAL_ALL,
    X_CRYSTAL_SPOTS,
    X_CRYSTAL_STEPS,
    X_CRYSTALS,
    X_DESTINY_BASIC,
    X_DESTINY_BEST_BASIC,
    X_DESTINY_CRYSTAL_VP,
    X_DESTINY_DECK,
    X_DESTINY_PROXY,
    X_DESTINY_QUESTS_VP,
    X_DESTINY_RP_VP,
    X_DESTINY_START,
    X_DESTINY_TOWN_VP,
    X_DESTINY_TRIBE_VP,
    X_DESTINY_UPG,
    X_DRUID_STEPS,
    X_DRUIDS,
    X_ELIXIR_CRYSTALS,
    X_ELIXIR_PICKS,
    X_HARP_PER_VISIT,
    X_ITEM_BAG,
    X_ITEM_START,
    X_ITEMS_REMOVED,
    X_N_DESTINY_DECK,
    X_N_QUESTS,
    X_NTILES,
    X_POUCH,
    X_QUEST_ABILITY,
    X_QUEST_AMOUNT,
    X_QUEST_NEED,
    X_QUEST_TERRAIN,
    X_QUEST_VP,
    X_QUEST_VP_SUPPLY,
    X_QUESTS_DEALT,
    X_QUESTS_HELD,
    X_RING_PER_VISIT,
    X_RING_RP,
    X_RULES,
    X_SAME_VISIT,
    X_SEC_CONNECTED,
    X_SEC_MERGE,
    X_SEC_ROMAN_E,
    X_SPELL_END,
    X_SPELL_VP,
    X_TILE_BAST,
    X_TILE_ENCHANTABLE,
    X_TILE_NSEC,
    X_TILE_SECS,
    X_TILE_TERRAIN,
)
from sim.games.celtic_trader.params import (
    K_HUB,
    MAX_DEG,
    N_BAST,
    N_RES,
    O_ADJ,
    O_ADJ_COST,
    O_BAST_HUB,
    O_CARRY_X,
    O_CARRY_Y,
    O_DEG,
    O_MOVE_VAL,
    O_RULES,
    O_SEC_BAST,
    O_SEC_KIND,
    O_SEC_SPOTS,
    O_SEC_TILE,
    O_SPOT_RES,
    O_SPOT_SEC,
    O_UPG_COST,
    R_DRAWS,
    R_NSEC,
    R_NSPOT,
    R_SC,
)
from sim.games.celtic_trader.state import (
    A_DELIVER,
    A_DISCARD,
    A_ORDER,
    A_PASS,
    A_SEC,
    A_SPOT,
    BAG,
    CONQ,
    CUR,
    DELIVERED,
    DISC,
    DRAWS_LEFT,
    HELD,
    MAX_DELIVER,
    MOVE_ENDED,
    MP,
    N_CONQ,
    N_PENDING,
    NP,
    P_CARRIED,
    P_CARRY,
    P_FIRST_DONE,
    P_MOVE,
    P_NCARRY,
    P_POS,
    P_ROLE,
    P_RP,
    P_VP,
    PENDING,
    PH_DELIVER,
    PHASE,
    PICKS,
    PLAYERS,
    PW,
    ROMAN,
    SPOT,
    T_CYCLE,
    VISIT_PAID,
)

MAX_PENDING = 4  # drawn tokens held at once (Celtic Trader's state.PENDING slots)

# ---------------------------------------------------------------------------------------------
# small queries
# ---------------------------------------------------------------------------------------------


@leaf
def qp(seat):
    """Index of a seat's quest block."""
    return QPLAYERS + seat * QPW


@leaf
def xr(data, i):
    return data[X_RULES + i]


@leaf
def tile_of(data, sec):
    return data[O_SEC_TILE + sec]


@leaf
def rep(state, data, sec):
    """The section a position on ``sec`` is: its tile's single network once enchanted."""
    if state[ENCH + data[O_SEC_TILE + sec]]:
        return data[X_SEC_MERGE + sec]
    return sec


@leaf
def held_count(state, seat):
    q = qp(seat)
    n = 0
    for i in range(MAX_HELD):
        if state[q + QP_HELD + i] >= 0:
            n += 1
    return n


@leaf
def pouch_count(state, seat):
    q = qp(seat)
    n = 0
    for i in range(N_ITEMS):
        n += state[q + QP_ITEMS + i]
    return n


@leaf
def tile_celtic(state, data, t):
    """False once the tile is a Roman town (its bastion conquered)."""
    b = data[X_TILE_BAST + t]
    return b < 0 or state[CONQ + b] == 0


@leaf
def can_enchant(state, data, t):
    return (
        data[X_TILE_ENCHANTABLE + t] != 0 and state[ENCH + t] == 0 and tile_celtic(state, data, t)
    )


@leaf
def any_enchantable(state, data):
    for t in range(xr(data, X_NTILES)):  # noqa: SIM110  (numba: plain loop)
        if can_enchant(state, data, t):
            return True
    return False


@leaf
def crystal_spot_free(state, data, t):
    return (
        state[ENCH + t] != 0
        and tile_celtic(state, data, t)
        and state[TCRYST + t] < xr(data, X_CRYSTAL_SPOTS)
    )


@leaf
def quest_possible(state, data, seat, quest):
    """§4.5 step 4 (B15): False when a needed resource the seat does not carry has no face-up
    spot left (spots on enchanted tiles are gone, face-down ones are out of play)."""
    pb = PLAYERS + seat * PW
    for j in range(2):
        r = data[X_QUEST_NEED + quest * 2 + j]
        if state[pb + P_CARRIED + r] > 0:
            continue
        found = False
        for sp in range(data[O_RULES + R_NSPOT]):
            if data[O_SPOT_RES + sp] == r and state[SPOT_OUT + sp] == 0:
                found = True
                break
        if not found:
            return False
    return True


@leaf
def quest_ready(state, data, seat, quest):
    """The seat carries both resources of the quest (two of one kind if it needs the pair)."""
    pb = PLAYERS + seat * PW
    r1 = data[X_QUEST_NEED + quest * 2]
    r2 = data[X_QUEST_NEED + quest * 2 + 1]
    if r1 == r2:
        return state[pb + P_CARRIED + r1] >= 2
    return state[pb + P_CARRIED + r1] > 0 and state[pb + P_CARRIED + r2] > 0


@leaf
def capacity_bonus(state, seat):
    """(carrying X bonus, Y bonus) of the quests and the crystals carried (§4.4): crystals take
    room among the X tokens carried."""
    q = qp(seat)
    return state[q + QP_CARRY_PLUS] - state[q + QP_CRYST], state[q + QP_PICK_PLUS] + state[
        q + QP_FREE_PICKS
    ]


@leaf
def upgrade_cost(state, data, seat, lvl):
    """RP to reach ``lvl``, less the Anvil-type discounts (never below 0)."""
    c = data[O_UPG_COST + lvl] - state[qp(seat) + QP_ANVIL]
    return c if c > 0 else 0


@leaf
def move_points(state, data, seat):
    pb = PLAYERS + seat * PW
    return data[O_MOVE_VAL + state[pb + P_MOVE]] + state[qp(seat) + QP_EXTRA_MP]


@leaf
def has_roman_spot_enchanted(data, sec):
    return data[X_SEC_ROMAN_E + sec] != 0


# ---------------------------------------------------------------------------------------------
# setup (§3)
# ---------------------------------------------------------------------------------------------


@leaf
def setup(data, n_players, fixed_destinies, rng, out):
    """The Celtic Quest part of the set-up, after ``trader.setup_state``: bag tokens, items,
    face-down tokens, crystals, quests and destinies (``fixed_destinies[seat] >= 0``: that
    card; else dealt from the shuffled deck, §3 item 6 and §4.11)."""
    out[BAG + T_DRUID] = xr(data, X_DRUIDS)
    for i in range(N_ITEMS):  # §3 item 4: at 5 players, the items no seat starts with
        out[BAG + T_GOLD + i] += data[X_ITEM_BAG + i]
    out[CRYSTAL_SUPPLY] = xr(data, X_CRYSTALS)
    out[ITEM_DRAWN] = -1
    out[GOLD_ROMAN] = -1
    for sp in range(data[O_RULES + R_NSPOT]):
        if data[X_SEC_CONNECTED + data[O_SPOT_SEC + sp]] == 0:
            out[SPOT_OUT + sp] = 1  # §3.2: face down, out of play for good
            out[SPOT + sp] = 0
    nq = xr(data, X_N_QUESTS)
    for i in range(nq):
        out[QPILE + i] = i
    shuffle(rng, out[QPILE : QPILE + nq], nq)
    top = 0
    for seat in range(n_players):
        q = qp(seat)
        for i in range(MAX_HELD):
            out[q + QP_HELD + i] = -1
        for i in range(xr(data, X_QUESTS_DEALT)):
            if top < nq:
                out[q + QP_HELD + i] = out[QPILE + top]
                top += 1
        for i in range(N_ITEMS):
            out[q + QP_ITEMS + i] = data[X_ITEM_START + seat * N_ITEMS + i]
    out[QPILE_TOP] = top
    out[QPILE_N] = nq - top
    nd = xr(data, X_N_DESTINY_DECK)
    draw = xr(data, X_ADVANCED_DRAW)
    dealt = 0
    picks = 0
    for seat in range(n_players):
        q = qp(seat)
        out[q + QP_ALT0] = -1
        out[q + QP_ALT0 + 1] = -1
        out[q + QP_DESTINY] = fixed_destinies[seat]
        if fixed_destinies[seat] >= 0:
            set_proxy(out, data, seat)  # a card given by seat is kept like a dealt one
            continue
        for j in range(draw):  # uniform among the cards left: dealing from a shuffled deck
            card = _nth_undealt(data, randint(rng, nd - dealt), picks)
            picks |= 1 << card
            dealt += 1
            if draw == 1:
                out[q + QP_DESTINY] = card
            else:
                out[q + QP_ALT0 + j] = card
        set_proxy(out, data, seat)


@leaf
def set_proxy(s, data, seat):
    """P_ROLE holds the Celtic Trader role whose bonus the destiny shares (-1 if none), for the
    shared code that reads role bonuses (the greedy bot's upgrade values)."""
    d = s[qp(seat) + QP_DESTINY]
    s[PLAYERS + seat * PW + P_ROLE] = data[X_DESTINY_PROXY + d] if d >= 0 else -1


@leaf
def _nth_undealt(data, k, picks):
    """The ``k``-th card of the destiny deck not dealt yet (bit set in ``picks``)."""
    for i in range(xr(data, X_N_DESTINY_DECK)):
        card = data[X_DESTINY_DECK + i]
        if (picks >> card) & 1:
            continue
        if k == 0:
            return card
        k -= 1
    return data[X_DESTINY_DECK]


# ---------------------------------------------------------------------------------------------
# start of a turn, token draw (§4.1, §4.2)
# ---------------------------------------------------------------------------------------------


@leaf
def begin_turn(s, data):
    """Per-turn counters; the abilities of last turn's quests (ability_same_visit off); True
    while a seat must still keep one of its two destiny cards (advanced deal: set-up, before
    the first turn, see ``destiny_pending``)."""
    seat = s[CUR]
    q = qp(seat)
    s[q + QP_SHIELD_USED] = 0
    s[q + QP_RAVEN_USED] = 0
    s[q + QP_BREADS_USED] = 0
    s[q + QP_FREE_PICKS] = 0
    pending = s[q + QP_PENDING_MASK]
    if pending:
        for quest in range(xr(data, X_N_QUESTS)):
            if (pending >> quest) & 1:
                gain_ability(s, data, seat, quest)
        s[q + QP_PENDING_MASK] = 0
    return destiny_pending(s)


@leaf
def destiny_pending(s):
    """§4.11: "*chaque joueur pioche deux cartes de destinée, choisit l'une d'elles et défausse
    l'autre pendant la préparation de la partie*": True (phase and seat set) while a seat still
    holds two cards. Every seat keeps its card in seat order before the first player's first
    turn, so nobody chooses after seeing a turn played."""
    for seat in range(s[NP]):
        if s[qp(seat) + QP_DESTINY] < 0:
            s[CUR] = seat
            s[PHASE] = PH_DESTINY
            return True
    return False


@leaf
def keep_destiny(s, data, j):
    seat = s[CUR]
    q = qp(seat)
    s[q + QP_DESTINY] = s[q + QP_ALT0 + j]
    s[q + QP_ALT0] = -1
    s[q + QP_ALT0 + 1] = -1
    s[DESTINY_OUT] += 1
    set_proxy(s, data, seat)


@leaf
def draws_this_turn(s, data):
    """Tokens to draw (§4.2): the rule's count plus one per Talisman-type quest, which are put
    back unresolved (RETURN_LEFT)."""
    draws = data[O_RULES + R_DRAWS] + s[qp(s[CUR]) + QP_DRAW_EXTRA]
    if draws > MAX_PENDING:
        draws = MAX_PENDING  # the hand holds 4 tokens at most (state.PENDING)
    s[RETURN_LEFT] = draws - data[O_RULES + R_DRAWS]
    return draws


@leaf
def must_return(s, data):
    """True (phase set) while the seat still owes a token back to the bag (B20: chosen after
    seeing all of them, among the tokens not resolved yet); never more than it drew beyond the
    rule's count. When the bag ran short (DRAWS_LEFT draws still owed), the cycle token is among
    the drawn ones (CT §4.4: "after resolving it draw the missing token(s) from the refilled
    bag"): the return waits for those draws, so the seat still chooses among every token it
    drew. Draws that cannot be made (the refilled bag is short too) are the extra ones lost
    first: the seat then returns only what it drew beyond the rule's count."""
    if s[RETURN_LEFT] <= 0:
        return False
    if s[DRAWS_LEFT] > 0:
        for i in range(s[N_PENDING]):
            if s[PENDING + i] == T_CYCLE:
                return False  # the missing draws come once the cycle token is resolved
        drop = s[RETURN_LEFT] if s[RETURN_LEFT] < s[DRAWS_LEFT] else s[DRAWS_LEFT]
        s[DRAWS_LEFT] -= drop
        s[RETURN_LEFT] -= drop
        if s[RETURN_LEFT] <= 0:
            return False
    if s[N_PENDING] == 0:
        s[RETURN_LEFT] = 0
        return False
    s[PHASE] = PH_RETURN
    return True


@leaf
def return_token(s, i):
    k = trader._pop_pending(s, i)
    s[BAG + k] += 1
    s[RETURN_LEFT] -= 1


@leaf
def resolve(s, data, k):
    """Resolve a Celtic Quest bag token (druid, crystal, item); False when the drawer must
    choose (phase set)."""
    if k == T_DRUID:
        s[DISC + T_DRUID] += 1
        if advance_spell(s, data, xr(data, X_DRUID_STEPS)):
            return True
        if any_enchantable(s, data):  # B: none left, the enchantment is skipped
            s[NEXT] = NX_TOKENS
            s[PHASE] = PH_ENCHANT
            return False
        return True
    if k == T_CRYSTAL:
        n_free = 0
        only = -1
        for t in range(xr(data, X_NTILES)):
            if crystal_spot_free(s, data, t):
                n_free += 1
                only = t
        if n_free == 0:
            s[DISC + T_CRYSTAL] += 1
        elif n_free == 1:
            s[TCRYST + only] += 1
        else:
            s[HELD] = T_CRYSTAL
            s[PHASE] = PH_CRYSTAL_SPOT
            return False
        return True
    # an item (B4): into the drawer's pouch, a 4th one makes him give one up
    seat = s[CUR]
    i = k - T_GOLD
    if pouch_count(s, seat) < xr(data, X_POUCH):
        s[qp(seat) + QP_ITEMS + i] += 1
        return True
    s[HELD] = k
    s[ITEM_DRAWN] = i
    s[PHASE] = PH_ITEM_DROP
    return False


@leaf
def place_crystal(s, t):
    s[HELD] = -1
    s[TCRYST + t] += 1


@leaf
def drop_item_choice(s, data, i):
    """PH_ITEM_DROP: keep the drawn item unless ``i`` is it; ``i`` goes to the discard pile."""
    seat = s[CUR]
    drawn = s[ITEM_DRAWN]
    s[qp(seat) + QP_ITEMS + drawn] += 1
    s[qp(seat) + QP_ITEMS + i] -= 1
    discard_item(s, data, i)
    s[HELD] = -1
    s[ITEM_DRAWN] = -1


@leaf
def discard_item(s, data, i):
    """A used or given-up item: to the discard pile (B3), or out of the game (lever)."""
    if xr(data, X_ITEMS_REMOVED):
        s[ITEMS_OUT + i] += 1
    else:
        s[DISC + T_GOLD + i] += 1


@leaf
def advance_spell(s, data, steps):
    """Move the spell marker (§4.9); True if it reached the end box (the game is over)."""
    end = xr(data, X_SPELL_END)
    v = s[SPELL] + steps
    if v >= end:
        s[SPELL] = end
        trader._end_game(s, END_SPELL)
        return True
    s[SPELL] = v
    return False


# ---------------------------------------------------------------------------------------------
# enchantment (§4.3)
# ---------------------------------------------------------------------------------------------


@leaf
def enchant(s, data, t):
    """Flip tile ``t``: its resource tokens leave the game, its networks become one, Romans stay
    where the enchanted side has room (the rest are discarded), crystals go on its spots,
    players on it stay (on its single network), and its bastion's conquest is checked."""
    s[ENCH + t] = 1
    nsec = data[X_TILE_NSEC + t]
    romans = 0
    for j in range(nsec):
        sec = data[X_TILE_SECS + t * MAX_TSEC + j]
        for k in range(2):
            sp = data[O_SEC_SPOTS + sec * 2 + k]
            if sp >= 0 and s[SPOT_OUT + sp] != 2:
                if s[SPOT_OUT + sp] == 0 and s[SPOT + sp]:
                    s[SPOT_OUT + sp] = 2  # the token leaves the game with its spot
                elif s[SPOT_OUT + sp] == 0:
                    s[SPOT_OUT + sp] = 3  # an empty spot is gone (no token lost)
                else:
                    s[SPOT_OUT + sp] = 2  # a face-down token leaves the game too
                s[SPOT + sp] = 0  # never refilled (trader._resolve skips spots out of play)
        if s[ROMAN + sec] and data[X_SEC_ROMAN_E + sec] == 0:
            s[ROMAN + sec] = 0
            romans += 1
    for j in range(nsec):  # Romans of spots the enchanted side lacks: to a free spot, or out
        sec = data[X_TILE_SECS + t * MAX_TSEC + j]
        if romans > 0 and data[X_SEC_ROMAN_E + sec] and s[ROMAN + sec] == 0:
            s[ROMAN + sec] = 1
            romans -= 1
    s[DISC + 6] += romans  # T_ROMAN
    n = s[NP]
    for seat in range(n):
        pos = s[PLAYERS + seat * PW + P_POS]
        if pos >= 0 and data[O_SEC_TILE + pos] == t:
            s[PLAYERS + seat * PW + P_POS] = data[X_SEC_MERGE + pos]
    put = xr(data, X_CRYSTAL_SPOTS)
    if put > s[CRYSTAL_SUPPLY]:
        put = s[CRYSTAL_SUPPLY]
    s[TCRYST + t] += put
    s[CRYSTAL_SUPPLY] -= put
    b = data[X_TILE_BAST + t]
    if b >= 0:
        for j in range(nsec):
            sec = data[X_TILE_SECS + t * MAX_TSEC + j]
            if s[ROMAN + sec]:
                trader._check_conquest(s, data, sec)
                break


@leaf
def on_conquest(s, data, b):
    """A conquered tile turns to its Roman town (§4.7): a crystal on it is discarded (B23)."""
    t = data[O_SEC_TILE + data[O_BAST_HUB + b]]
    if s[TCRYST + t] > 0:
        s[DISC + T_CRYSTAL] += s[TCRYST + t]
        s[TCRYST + t] = 0


# ---------------------------------------------------------------------------------------------
# movement (§4.4)
# ---------------------------------------------------------------------------------------------


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
def item_drops(s, out, n):
    """Append a discard of each kind of item the seat holds (§4.10: items are "*défaussé une
    fois utilisé ou sur demande*", on demand: offered beside the after-movement actions, at
    the Stone Circle and at a bastion, as well as in movement); returns n."""
    q = qp(s[CUR])
    for i in range(N_ITEMS):
        if s[q + QP_ITEMS + i] > 0:
            out[n] = A_DROP_ITEM + i
            n += 1
    return n


@leaf
def is_item_drop(action):
    return A_DROP_ITEM <= action < A_DROP_ITEM + N_ITEMS


@leaf
def drop_item(s, data, i):
    """Discard one item ``i`` from the seat's pouch (the phase goes on)."""
    s[qp(s[CUR]) + QP_ITEMS + i] -= 1
    discard_item(s, data, i)


@leaf
def roman_targets(s, data, out, n, exclude):
    """Append A_ROMAN + every empty Roman spot but ``exclude``; returns n."""
    for sec in range(data[O_RULES + R_NSEC]):
        if sec != exclude and s[ROMAN + sec] == 0 and trader.has_roman_spot(s, data, sec):
            out[n] = A_ROMAN + sec
            n += 1
    return n


@leaf
def move_roman(s, data, to):
    """The passed (gold) or chosen (Raven) Roman goes to ``to`` (conquest checked there)."""
    s[ROMAN + s[GOLD_ROMAN]] = 0
    s[GOLD_ROMAN] = -1
    trader._place_roman(s, data, to)


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


# ---------------------------------------------------------------------------------------------
# first placement (§4.1, B21, B25)
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# after the movement: the Stone Circle (§4.5) and a bastion (§4.6)
# ---------------------------------------------------------------------------------------------


@leaf
def completable(s, data, seat):
    q = qp(seat)
    for i in range(MAX_HELD):
        quest = s[q + QP_HELD + i]
        if quest >= 0 and quest_ready(s, data, seat, quest):
            return True
    return False


@leaf
def gain_ability(s, data, seat, quest):
    q = qp(seat)
    a = data[X_QUEST_ABILITY + quest]
    amount = data[X_QUEST_AMOUNT + quest]
    if a == AB_EXTRA_MP:
        s[q + QP_EXTRA_MP] += amount
    elif a == AB_DRAW_EXTRA:
        s[q + QP_DRAW_EXTRA] += 1 if amount == 0 else amount
    elif a == AB_FREE_ENTRY:
        if data[X_QUEST_TERRAIN + quest] & TERRAIN_WOODS:
            s[q + QP_FREE_WOODS] = 1
        if data[X_QUEST_TERRAIN + quest] & TERRAIN_HILLS:
            s[q + QP_FREE_HILLS] = 1
    elif a == AB_CARRY_PLUS:
        s[q + QP_CARRY_PLUS] += amount
    elif a == AB_PICK_PLUS:
        s[q + QP_PICK_PLUS] += amount
    elif a == AB_DELIV_RP:
        s[q + QP_DELIV_RP] += amount
    elif a == AB_SHIELD:
        s[q + QP_SHIELD] += 1 if amount == 0 else amount
    elif a == AB_ANVIL:
        s[q + QP_ANVIL] += amount
    elif a == AB_RAVEN:
        s[q + QP_RAVEN] += 1 if amount == 0 else amount
    elif a == AB_CRYST_VP:
        s[q + QP_CRYST_VP_PLUS] += amount


@leaf
def complete_quest(s, data, slot):
    """§4.5 step 1: show the quest, discard its two resources, place it face up (its ability
    works from now on, B16), its VP counted at the end (B5) or taken now (lever); then the
    seat enchants a tile (True: phase set) if any can be."""
    seat = s[CUR]
    pb = PLAYERS + seat * PW
    q = qp(seat)
    quest = s[q + QP_HELD + slot]
    s[q + QP_HELD + slot] = -1
    for j in range(2):
        r = data[X_QUEST_NEED + quest * 2 + j]
        s[pb + P_CARRIED + r] -= 1
        s[pb + P_NCARRY] -= 1
        s[DISC + r] += 1
    s[q + QP_NDONE] += 1
    s[q + QP_DONE_MASK] |= 1 << quest
    vp = data[X_QUEST_VP + quest]
    if xr(data, X_QUEST_VP_SUPPLY):
        before = s[pb + P_RP]
        trader._pay(s, data, seat, vp)
        got = s[pb + P_RP] - before
        s[pb + P_RP] -= got
        s[pb + P_VP] += got
    else:
        s[q + QP_QUEST_VP] += vp
    if xr(data, X_SAME_VISIT):
        gain_ability(s, data, seat, quest)
    else:
        s[q + QP_PENDING_MASK] |= 1 << quest
    if any_enchantable(s, data):
        s[NEXT] = NX_UPGRADE
        s[PHASE] = PH_ENCHANT
        return True
    return False


@leaf
def discardable(s, data, seat):
    q = qp(seat)
    for i in range(MAX_HELD):
        quest = s[q + QP_HELD + i]
        if quest >= 0 and not quest_possible(s, data, seat, quest):
            return True
    return False


@leaf
def discard_quest(s, slot):
    s[qp(s[CUR]) + QP_HELD + slot] = -1
    s[QUEST_OUT] += 1


@leaf
def may_draw_quest(s, data, seat):
    return s[QPILE_N] > 0 and held_count(s, seat) < xr(data, X_QUESTS_HELD)


@leaf
def draw_quest(s):
    seat = s[CUR]
    q = qp(seat)
    for i in range(MAX_HELD):
        if s[q + QP_HELD + i] < 0:
            s[q + QP_HELD + i] = s[QPILE + s[QPILE_TOP]]
            s[QPILE_TOP] += 1
            s[QPILE_N] -= 1
            return


@leaf
def deliver_crystals(s, data, k):
    """§4.5 step 6 (B14): the batch goes to the VP box, then the marker moves; True if the
    spell track ended the game."""
    q = qp(s[CUR])
    s[q + QP_CRYST] -= k
    s[q + QP_CRYST_DONE] += k
    return advance_spell(s, data, k * xr(data, X_CRYSTAL_STEPS))


@leaf
def sc_step(s, data, start):
    """The Stone Circle's steps after the claim (§4.5 steps 4-6) from ``start`` (4, 5 or 6):
    True with the phase set at the first one the seat may take, False when none is left."""
    seat = s[CUR]
    if start <= 4 and discardable(s, data, seat):
        s[PHASE] = PH_QUEST_DISCARD
        return True
    if start <= 5 and may_draw_quest(s, data, seat):
        s[PHASE] = PH_QUEST_DRAW
        return True
    if s[qp(seat) + QP_CRYST] > 0:
        s[PHASE] = PH_CRYSTALS
        return True
    return False


@leaf
def at_bastion(s, data):
    """§4.6 at a Celtic bastion: True with the phase set when the seat may deliver (DELIVER)
    or draw a quest (QUEST_DRAW), False when there is nothing to do."""
    seat = s[CUR]
    pb = PLAYERS + seat * PW
    if s[pb + P_NCARRY] > 0:
        s[DELIVERED] = 0
        s[VISIT_PAID] = 0
        s[qp(seat) + QP_RING_USED] = 0
        s[qp(seat) + QP_HARP_PAID] = 0
        s[PHASE] = PH_DELIVER
        return True
    if may_draw_quest(s, data, seat):
        s[PHASE] = PH_QUEST_DRAW
        return True
    return False


@leaf
def deliver_actions(s, data, out):
    """Deliveries as Celtic Trader lists them (1..MAX_DELIVER tokens of a type: quests add to
    Carrying X beyond Celtic Trader's 3), then each again with 1..j rings, j the rings the seat
    may spend on it (B7: one per token, at most those in its pouch; lever ``per_delivery``: one
    per visit). A delivery of k tokens with R rings held lists min(k, R) ring choices."""
    n = trader.legal_actions_deliver(s, data, out)
    seat = s[CUR]
    q = qp(seat)
    rings = s[q + QP_ITEMS + I_RING]
    if rings > 0 and xr(data, X_RING_PER_VISIT) and s[q + QP_RING_USED] > 0:
        rings = 0
    if rings > 0 and xr(data, X_RING_PER_VISIT):
        rings = 1
    m = n
    if rings > 0:
        for i in range(1, m):
            a = out[i] - A_DELIVER
            k = a % MAX_DELIVER + 1
            top = k if k < rings else rings
            for j in range(top):
                out[n] = ring_action(a, j + 1)
                n += 1
    return item_drops(s, out, n)


@leaf
def ring_action(a, j):
    """The action delivering ``a`` (= r * MAX_DELIVER + k - 1) with ``j`` rings (j >= 1)."""
    return A_RING + a * MAX_DELIVER + j - 1


@leaf
def deliver(s, data, action):
    """A delivery (§4.6): Celtic Trader's pay, then the rings chosen and Harp-type quests."""
    seat = s[CUR]
    q = qp(seat)
    use = 0
    a = action - A_DELIVER
    if action >= A_RING:
        a = (action - A_RING) // MAX_DELIVER
        use = (action - A_RING) % MAX_DELIVER + 1
    k = a % MAX_DELIVER + 1
    b = data[O_SEC_BAST + s[PLAYERS + seat * PW + P_POS]]
    s[q + QP_TRIBES] |= 1 << b
    trader._deliver(s, data, seat, A_DELIVER + a)
    extra = 0
    if use > 0:
        for _ in range(use):
            s[q + QP_ITEMS + I_RING] -= 1
            discard_item(s, data, I_RING)
        s[q + QP_RING_USED] += use
        extra += use * xr(data, X_RING_RP)
    harp = s[q + QP_DELIV_RP]
    if harp > 0:
        if xr(data, X_HARP_PER_VISIT):
            if s[q + QP_HARP_PAID] == 0:
                extra += harp
                s[q + QP_HARP_PAID] = 1
        else:
            extra += k * harp
    if extra > 0:
        trader._pay(s, data, seat, extra)


# ---------------------------------------------------------------------------------------------
# scoring (§6)
# ---------------------------------------------------------------------------------------------


@leaf
def destiny_bonus_of(s, data, seat, d):
    """VP the destiny card ``d`` gives ``seat`` if the game ended now (§9 bonus types)."""
    pb = PLAYERS + seat * PW
    q = qp(seat)
    total = 0
    for c in range(3):
        total += data[X_DESTINY_UPG + d * 15 + c * 5 + s[pb + P_MOVE + c]]
    total += data[X_DESTINY_RP_VP + d] * s[pb + P_RP]
    nd = s[q + QP_NDONE]
    total += data[X_DESTINY_QUESTS_VP + d * 5 + (nd if nd < 4 else 4)]
    total += data[X_DESTINY_CRYSTAL_VP + d] * s[q + QP_CRYST_DONE]
    total += data[X_DESTINY_TOWN_VP + d] * s[N_CONQ]
    tribes = 0
    for b in range(N_BAST):
        tribes += (s[q + QP_TRIBES] >> b) & 1
    total += data[X_DESTINY_TRIBE_VP + d] * tribes
    return total


@leaf
def destiny_bonus(s, data, seat):
    d = s[qp(seat) + QP_DESTINY]
    if d < 0:
        return 0
    if data[X_DESTINY_BEST_BASIC + d] == 0:
        return destiny_bonus_of(s, data, seat, d)
    best = 0
    for other in range(MAX_DESTINIES):
        if data[X_DESTINY_BASIC + other]:
            v = destiny_bonus_of(s, data, seat, other)
            if v > best:
                best = v
    return best


@leaf
def components(s, data, seat, out):
    """out[0:4] = VP box, crystals, quests, destiny (§6); returns their sum."""
    pb = PLAYERS + seat * PW
    q = qp(seat)
    out[0] = s[pb + P_VP]
    out[1] = s[q + QP_CRYST_DONE] * data[X_SPELL_VP + s[SPELL]]
    out[2] = s[q + QP_QUEST_VP] + s[q + QP_CRYST_VP_PLUS] * s[q + QP_CRYST_DONE]
    out[3] = destiny_bonus(s, data, seat)
    return out[0] + out[1] + out[2] + out[3]


@leaf
def score(s, data, seat):
    pb = PLAYERS + seat * PW
    q = qp(seat)
    return (
        s[pb + P_VP]
        + s[q + QP_CRYST_DONE] * data[X_SPELL_VP + s[SPELL]]
        + s[q + QP_QUEST_VP]
        + s[q + QP_CRYST_VP_PLUS] * s[q + QP_CRYST_DONE]
        + destiny_bonus(s, data, seat)
    )


# ---------------------------------------------------------------------------------------------
# the decisions of Celtic Quest's own phases
# ---------------------------------------------------------------------------------------------


@leaf
def legal(s, data, out):
    """Fill out[:n] with the legal actions of a Celtic Quest phase (layout.PH_*); return n."""
    ph = s[PHASE]
    seat = s[CUR]
    q = qp(seat)
    n = 0
    if ph == PH_DESTINY:
        out[0] = A_DESTINY
        out[1] = A_DESTINY + 1
        return 2
    if ph == PH_RETURN:
        for i in range(s[N_PENDING]):
            dup = False
            for j in range(i):
                if s[PENDING + j] == s[PENDING + i]:
                    dup = True
            if not dup:
                out[n] = A_ORDER + i
                n += 1
        return n
    if ph == PH_ENCHANT or ph == PH_CRYSTAL_SPOT:  # noqa: SIM109
        for t in range(xr(data, X_NTILES)):
            ok = can_enchant(s, data, t) if ph == PH_ENCHANT else crystal_spot_free(s, data, t)
            if ok:
                out[n] = A_TILE + t
                n += 1
        return n
    if ph == PH_ITEM_DROP:
        for i in range(N_ITEMS):
            if s[q + QP_ITEMS + i] > 0 or i == s[ITEM_DRAWN]:
                out[n] = A_ITEM + i
                n += 1
        return n
    out[0] = A_PASS
    n = 1
    if ph == PH_GOLD_RELOC:
        return roman_targets(s, data, out, n, s[GOLD_ROMAN])
    if ph == PH_RAVEN:
        for sec in range(data[O_RULES + R_NSEC]):
            if s[ROMAN + sec]:
                out[n] = A_SEC + sec
                n += 1
        return n
    if ph == PH_QUEST_DONE or ph == PH_QUEST_DISCARD:  # noqa: SIM109
        for i in range(MAX_HELD):
            quest = s[q + QP_HELD + i]
            if quest < 0:
                continue
            if ph == PH_QUEST_DONE:
                ok = quest_ready(s, data, seat, quest)
            else:
                ok = not quest_possible(s, data, seat, quest)
            if ok:
                out[n] = A_QUEST + i
                n += 1
        return n
    if ph == PH_QUEST_DRAW:
        out[1] = A_YES
        return 2
    if ph == PH_CRYSTALS:
        k = s[q + QP_CRYST]
        if k > MAX_CARRIED_CRYSTALS:
            k = MAX_CARRIED_CRYSTALS
        if xr(data, X_CRYSTAL_ALL):
            out[1] = A_CRYSTALS + k
            return 2
        for j in range(1, k + 1):
            out[n] = A_CRYSTALS + j
            n += 1
        return n
    return n


@leaf
def write_results(s, data, g, score, comps, role, extras):
    """Row ``g`` of Celtic Quest's result arrays: the score by component (VP box, crystals,
    quests, destiny), the destiny as the role, and the quests completed (the tie-break)."""
    for seat in range(score.shape[1]):
        score[g, seat] = components(s, data, seat, comps[g, seat])
        role[g, seat] = s[qp(seat) + QP_DESTINY]
        extras[g, seat, 0] = s[qp(seat) + QP_NDONE]
