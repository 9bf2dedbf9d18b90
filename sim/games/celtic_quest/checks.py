"""Celtic Quest's invariants as compiled checks (rules/celtic-quest.md §2, §3, §4), on one state
and over one step.

``state_check`` is the state's own validator: every token kind is conserved, the RP/VP supply
holds what is not in play, carried tokens fit, positions and the enchanted tiles agree with the
map. ``transition_check`` holds what never goes back (the spell track, enchantments, quests
completed, crystals delivered, capability levels). ``score_check`` holds the score to its
components. Celtic Trader's checked loop (sim/games/celtic_trader/invariants.py) calls these
three where the data says Celtic Quest; this module imports no checked loop, so that import goes
one way. ``menhir check`` reaches them through sim/games/celtic_quest/invariants.py.
"""

import numpy as np
from numba import njit

from sim.core.check import GENERIC
from sim.games.celtic_quest import layout as Q
from sim.games.celtic_quest.queries import qp
from sim.games.celtic_quest.scoring import components, score
from sim.games.celtic_quest.tiles import rep, tile_celtic
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.board import has_roman_spot, scores
from sim.games.celtic_trader.params import (
    MAX_SEC,
    N_RES,
    O_CARRY_X,
    O_RULES,
    O_SEC_SPOTS,
    O_SEC_TILE,
    O_SPOT_RES,
    O_SPOT_SEC,
    R_BAG_RES,
    R_CYCLE,
    R_NSEC,
    R_NSPOT,
    R_ORDERS,
    R_ROMANISATION,
    R_ROMANS_TOTAL,
    R_SUPPLY,
    R_TEN_VALUE,
    R_TENS,
)

INVARIANTS = (
    "bag tokens conserved (resources, Romans, cycle, orders, Romanisation, druid)",
    "crystals conserved",
    "items conserved, pouches within their limit",
    "quest cards conserved",
    "RP + VP never exceed the supply",
    "carried tokens and crystals consistent",
    "positions, spots, Romans and crystals agree with the map",
    "spell track, enchantments, quests and crystals delivered never go back",
)
TOKENS, CRYSTALS, ITEMS, QUESTS, SUPPLY, CARRY, MAP, PROGRESS = range(1, len(INVARIANTS) + 1)
OK = 0
N_ROWS = 1 + len(GENERIC) + len(INVARIANTS)


@njit(cache=True)
def _in_hand(s, k):
    """Tokens of kind ``k`` drawn and not resolved yet (pending, or held while a choice is
    made)."""
    n = 0
    for i in range(s[S.N_PENDING]):
        if s[S.PENDING + i] == k:
            n += 1
    if s[S.HELD] == k:
        n += 1
    return n


@njit(cache=True)
def _bag_tokens(s, data):
    n_players = s[S.NP]
    n_spots = data[O_RULES + R_NSPOT]
    for k in range(S.T_DRUID + 1):
        if s[S.BAG + k] < 0 or s[S.DISC + k] < 0:
            return False
        count = s[S.BAG + k] + s[S.DISC + k] + _in_hand(s, k)
        if k < N_RES:
            total = data[O_RULES + R_BAG_RES]
            for sp in range(n_spots):
                if data[O_SPOT_RES + sp] != k:
                    continue
                total += 1  # one playing token per spot of the map (§3.2)
                out = s[Q.SPOT_OUT + sp]
                if out == 0:
                    count += s[S.SPOT + sp]
                elif out == 1 or out == 2:  # noqa: PLR1714  face down, or gone with its tile
                    count += 1
            for p in range(n_players):
                count += s[S.PLAYERS + p * S.PW + S.P_CARRIED + k]
        elif k == S.T_ROMAN:
            for sec in range(MAX_SEC):
                count += s[S.ROMAN + sec]
            count += s[S.ROMANS_OUT] + s[S.ROMANS_BOX]
            total = data[O_RULES + R_ROMANS_TOTAL]
        elif k == S.T_CYCLE:
            total = data[O_RULES + R_CYCLE]
        elif k == S.T_ORDERS:
            total = data[O_RULES + R_ORDERS]
        elif k == S.T_ROMANISE:
            total = data[O_RULES + R_ROMANISATION]
        else:
            total = data[Q.X_RULES + Q.X_DRUIDS]
        if count != total:
            return False
    return True


@njit(cache=True)
def _crystals(s, data):
    k = S.T_CRYSTAL
    if s[Q.CRYSTAL_SUPPLY] < 0 or s[S.BAG + k] < 0 or s[S.DISC + k] < 0:
        return False
    count = s[Q.CRYSTAL_SUPPLY] + s[S.BAG + k] + s[S.DISC + k] + _in_hand(s, k)
    for t in range(Q.MAX_TILES):
        if s[Q.TCRYST + t] < 0:
            return False
        count += s[Q.TCRYST + t]
    for p in range(s[S.NP]):
        q = qp(p)
        if s[q + Q.QP_CRYST] < 0 or s[q + Q.QP_CRYST_DONE] < 0:
            return False
        count += s[q + Q.QP_CRYST] + s[q + Q.QP_CRYST_DONE]
    return count == data[Q.X_RULES + Q.X_CRYSTALS]


@njit(cache=True)
def _items(s, data):
    n_players = s[S.NP]
    for p in range(n_players):
        n = 0
        for i in range(Q.N_ITEMS):
            if s[qp(p) + Q.QP_ITEMS + i] < 0:
                return False
            n += s[qp(p) + Q.QP_ITEMS + i]
        if n > data[Q.X_RULES + Q.X_POUCH]:
            return False
    for i in range(Q.N_ITEMS):
        k = Q.T_GOLD + i
        if s[S.BAG + k] < 0 or s[S.DISC + k] < 0 or s[Q.ITEMS_OUT + i] < 0:
            return False
        count = s[S.BAG + k] + s[S.DISC + k] + _in_hand(s, k) + s[Q.ITEMS_OUT + i]
        total = 0
        for p in range(n_players):
            count += s[qp(p) + Q.QP_ITEMS + i]
            total += data[Q.X_ITEM_START + p * Q.N_ITEMS + i]
        total += data[Q.X_ITEM_BAG + i]
        if count != total:
            return False
    return True


@njit(cache=True)
def _quests(s, data):
    """Pile + held + completed + discarded = the quest cards; every card in one place only."""
    nq = data[Q.X_RULES + Q.X_N_QUESTS]
    top = s[Q.QPILE_TOP]
    left = s[Q.QPILE_N]
    if top < 0 or left < 0 or top + left != nq or s[Q.QUEST_OUT] < 0:
        return False
    seen = 0
    count = left + s[Q.QUEST_OUT]
    for i in range(left):
        quest = s[Q.QPILE + top + i]
        if quest < 0 or quest >= nq or (seen >> quest) & 1:
            return False
        seen |= 1 << quest
    for p in range(s[S.NP]):
        q = qp(p)
        held = 0
        for j in range(Q.MAX_HELD):
            quest = s[q + Q.QP_HELD + j]
            if quest < 0:
                continue
            held += 1
            if quest >= nq or (seen >> quest) & 1:
                return False
            seen |= 1 << quest
        if held > data[Q.X_RULES + Q.X_QUESTS_HELD]:
            return False
        done = s[q + Q.QP_DONE_MASK]
        n_done = 0
        for quest in range(nq):
            if (done >> quest) & 1:
                n_done += 1
                if (seen >> quest) & 1:
                    return False
                seen |= 1 << quest
        if n_done != s[q + Q.QP_NDONE] or done >> nq != 0:
            return False
        count += held + n_done
    return count == nq


@njit(cache=True)
def _supply(s, data):
    points = 0
    for p in range(s[S.NP]):
        pb = S.PLAYERS + p * S.PW
        if s[pb + S.P_RP] < 0 or s[pb + S.P_VP] < 0:
            return False
        points += s[pb + S.P_RP] + s[pb + S.P_VP]
    if s[S.TENS_LEFT] < 0 or s[S.TENS_LEFT] > data[O_RULES + R_TENS]:
        return False
    used_tens = data[O_RULES + R_TENS] - s[S.TENS_LEFT]
    supply = data[O_RULES + R_SUPPLY] + data[O_RULES + R_TEN_VALUE] * used_tens
    return s[S.SUPPLY] >= 0 and points + s[S.SUPPLY] == supply


@njit(cache=True)
def _carry(s, data):
    """Carried resources agree with their counter; resources and crystals fit in Carrying X
    plus the quests' bonus (§4.4: crystals take room among the X tokens)."""
    for p in range(s[S.NP]):
        pb = S.PLAYERS + p * S.PW
        q = qp(p)
        n = 0
        for r in range(N_RES):
            if s[pb + S.P_CARRIED + r] < 0:
                return False
            n += s[pb + S.P_CARRIED + r]
        if n != s[pb + S.P_NCARRY]:
            return False
        room = data[O_CARRY_X + s[pb + S.P_CARRY]] + s[q + Q.QP_CARRY_PLUS]
        if n + s[q + Q.QP_CRYST] > room:
            return False
    return True


@njit(cache=True)
def _map(s, data):
    """Positions are sections of the map, never a section merged away by an enchantment;
    spots out of play are empty and agree with their tile; Romans stand on Roman spots;
    crystals lie only on Celtic enchanted tiles, within their spots."""
    n_sec = data[O_RULES + R_NSEC]
    n_tiles = data[Q.X_RULES + Q.X_NTILES]
    for p in range(s[S.NP]):
        pb = S.PLAYERS + p * S.PW
        pos = s[pb + S.P_POS]
        if pos == -1:
            if s[pb + S.P_FIRST_DONE]:
                return False
            continue
        if pos < 0 or pos >= n_sec or rep(s, data, pos) != pos:
            return False
    for sp in range(data[O_RULES + R_NSPOT]):
        out = s[Q.SPOT_OUT + sp]
        enchanted = s[Q.ENCH + data[O_SEC_TILE + data[O_SPOT_SEC + sp]]] != 0
        if out < 0 or out > 3 or (out != 0 and s[S.SPOT + sp] != 0):
            return False
        if enchanted != (out >= 2):
            return False
        if s[S.SPOT + sp] < 0 or s[S.SPOT + sp] > 1:
            return False
    for sec in range(n_sec):
        r = s[S.ROMAN + sec]
        if r < 0 or r > 1 or (r == 1 and not has_roman_spot(s, data, sec)):
            return False
        for j in range(2):  # a spot's section holds it (O_SEC_SPOTS is the inverse map)
            sp = data[O_SEC_SPOTS + sec * 2 + j]
            if sp >= 0 and data[O_SPOT_SEC + sp] != sec:
                return False
    for t in range(Q.MAX_TILES):
        c = s[Q.TCRYST + t]
        if t >= n_tiles and (c != 0 or s[Q.ENCH + t] != 0):
            return False
        if c > 0 and (s[Q.ENCH + t] == 0 or not tile_celtic(s, data, t)):
            return False
        if c > data[Q.X_RULES + Q.X_CRYSTAL_SPOTS]:
            return False
        if s[Q.ENCH + t] != 0 and data[Q.X_TILE_ENCHANTABLE + t] == 0:
            return False
    spell = s[Q.SPELL]
    end = data[Q.X_RULES + Q.X_SPELL_END]
    return 0 <= spell <= end and (spell < end or s[S.OVER] != 0)


@njit(cache=True)
def state_check(s, data):
    """0, or the number (1-based, ``INVARIANTS``) of the first invariant ``s`` breaks."""
    if not _bag_tokens(s, data):
        return TOKENS
    if not _crystals(s, data):
        return CRYSTALS
    if not _items(s, data):
        return ITEMS
    if not _quests(s, data):
        return QUESTS
    if not _supply(s, data):
        return SUPPLY
    if not _carry(s, data):
        return CARRY
    if not _map(s, data):
        return MAP
    return OK


@njit(cache=True)
def transition_check(before, after, data):
    """0, or PROGRESS if something that only moves forward went back in one step."""
    if after[Q.SPELL] < before[Q.SPELL]:
        return PROGRESS
    for t in range(Q.MAX_TILES):
        if after[Q.ENCH + t] < before[Q.ENCH + t]:
            return PROGRESS
    for p in range(before[S.NP]):
        q = qp(p)
        pb = S.PLAYERS + p * S.PW
        for f in (Q.QP_NDONE, Q.QP_CRYST_DONE, Q.QP_QUEST_VP):
            if after[q + f] < before[q + f]:
                return PROGRESS
        if before[q + Q.QP_DONE_MASK] & ~after[q + Q.QP_DONE_MASK]:
            return PROGRESS
        for c in range(3):
            if after[pb + S.P_MOVE + c] < before[pb + S.P_MOVE + c]:
                return PROGRESS
    return OK


@njit(cache=True)
def score_check(s, data):
    """True if every seat's score (the engine's ``scores``) equals the sum of its four
    components (VP box, crystals, quests, destiny) as the results table writes them."""
    n = s[S.NP]
    total = np.zeros(S.MAX_PLAYERS, np.int32)
    scores(s, data, total)
    comp = np.zeros(4, np.int32)
    for p in range(n):
        summed = components(s, data, p, comp)
        if summed != comp[0] + comp[1] + comp[2] + comp[3]:
            return False
        if total[p] != summed or score(s, data, p) != summed:
            return False
    return True
