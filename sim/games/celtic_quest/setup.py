"""Celtic Quest's part of the set-up (rules/celtic-quest.md §3, §4.11): bag tokens, items,
face-down tokens, crystals, quests and destinies, after Celtic Trader's set-up table
(sim/games/celtic_trader/setup.py); and keeping one of two destiny cards (advanced deal).
"""

from sim.core.kernel import leaf
from sim.core.rng import randint, shuffle
from sim.games.celtic_quest.layout import (
    CRYSTAL_SUPPLY,
    DESTINY_OUT,
    GOLD_ROMAN,
    ITEM_DRAWN,
    MAX_HELD,
    N_ITEMS,
    PH_DESTINY,
    QP_ALT0,
    QP_DESTINY,
    QP_HELD,
    QP_ITEMS,
    QPILE,
    QPILE_N,
    QPILE_TOP,
    SPOT_OUT,
    T_DRUID,
    T_GOLD,
    X_ADVANCED_DRAW,
    X_CRYSTALS,
    X_DESTINY_DECK,
    X_DESTINY_PROXY,
    X_DRUIDS,
    X_ITEM_BAG,
    X_ITEM_START,
    X_N_DESTINY_DECK,
    X_N_QUESTS,
    X_QUESTS_DEALT,
    X_SEC_CONNECTED,
)
from sim.games.celtic_quest.queries import qp, xr
from sim.games.celtic_trader.params import O_RULES, O_SPOT_SEC, R_NSPOT
from sim.games.celtic_trader.state import BAG, CUR, NP, P_ROLE, PHASE, PLAYERS, PW, SPOT


@leaf
def setup(data, n_players, fixed_destinies, rng, out):
    """The Celtic Quest part of the set-up, after Celtic Trader's ``setup_state``: bag tokens,
    items, face-down tokens, crystals, quests and destinies (``fixed_destinies[seat] >= 0``:
    that card; else dealt from the shuffled deck, §3 item 6 and §4.11)."""
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
