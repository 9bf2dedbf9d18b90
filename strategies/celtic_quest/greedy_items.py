"""Celtic Quest greedy bot: its items: a bread eaten when a goal is just beyond its MP, a
pick-up taken with an elixir, a Roman passed with a Shield-type quest or a gold, the rings
spent on a delivery and the item dropped over the limit.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.delivery import ring_action
from sim.games.celtic_quest.layout import (
    A_BREAD,
    A_CRYSTAL,
    A_CRYSTAL_ELIXIR,
    A_ELIXIR,
    A_GOLD,
    A_ITEM,
    A_SHIELD,
    I_BREAD,
    I_RING,
    ITEM_DRAWN,
    N_ITEMS,
    QP_BREADS_USED,
    QP_ITEMS,
    SPELL,
    X_BREAD_MP,
    X_BREADS_PER_TURN,
    X_ELIXIR_PICKS,
    X_RING_RP,
    X_RULES,
    X_SPELL_END,
)
from sim.games.celtic_quest.queries import qp
from sim.games.celtic_trader.params import FAR, MAX_SEC, MAX_SPOTS
from sim.games.celtic_trader.rules import legal_actions
from sim.games.celtic_trader.state import (
    A_DELIVER,
    A_SEC,
    A_SPOT,
    MAX_ACTIONS,
    MOVE_ENDED,
    MP,
    P_NCARRY,
    P_POS,
    PLAN_LEN,
    PLAYERS,
    PW,
    ROMAN,
)
from strategies.celtic_quest.greedy_routes import _is_legal, _listed
from strategies.celtic_trader import greedy as trader_greedy


@leaf
def _bread_reach(state, data, seat, buf, n):
    """MP the seat can still add this turn by eating its breads: ``bread_extra_tiles`` (the
    data's) per bread held, within ``breads_per_turn`` (0: no limit); 0 if A_BREAD is not
    legal (``buf[:n]``: the legal actions)."""
    extra = data[X_RULES + X_BREAD_MP]
    if extra <= 0 or not _listed(buf, n, A_BREAD):
        return 0
    q = qp(seat)
    k = state[q + QP_ITEMS + I_BREAD]
    limit = data[X_RULES + X_BREADS_PER_TURN]
    if limit > 0 and limit - state[q + QP_BREADS_USED] < k:
        k = limit - state[q + QP_BREADS_USED]
    return extra * k


@leaf
def _bread_for(state, data, seat, buf, n, d):
    """A_BREAD when a goal ``d`` MP away is beyond the MP left but within what the seat's
    breads add (:func:`_bread_reach`): one bread is eaten per decision, the next decision
    eats another if still short; -1 otherwise."""
    if d <= state[MP] or d >= FAR:
        return -1
    if d <= state[MP] + _bread_reach(state, data, seat, buf, n):
        return A_BREAD
    return -1


@leaf(inline="always")
def _bread_for_plan(state, data, seat, params, buf, n):
    """A_BREAD when a bread raises the value of Celtic Trader's best goal this turn (a goal
    its MP miss by at most a bread's ``bread_extra_tiles`` becomes reachable now): asked when
    the turn's plan is (re)made, never along a valid plan; -1 otherwise."""
    extra = data[X_RULES + X_BREAD_MP]
    if extra <= 0 or state[MOVE_ENDED] or not _listed(buf, n, A_BREAD):
        return -1
    if trader_greedy._plan_valid(state, seat, buf[MAX_ACTIONS : MAX_ACTIONS + PLAN_LEN]):
        return -1
    pb = PLAYERS + seat * PW
    pos = state[pb + P_POS]
    mp = state[MP]
    ncarry = state[pb + P_NCARRY]
    _, _, now = trader_greedy._best_goal(state, data, seat, pos, mp, 0, ncarry, params, buf, True)
    _, _, fed = trader_greedy._best_goal(
        state, data, seat, pos, mp + extra, 0, ncarry, params, buf, False
    )
    return A_BREAD if fed > now else -1


@leaf
def _with_elixir(state, data, seat, buf, a):
    """A pick-up ``a`` (a resource spot or a crystal) that would end the movement (the rules
    offer the elixir only then) is taken with an elixir when that frees a pick-up
    (``elixir_free_pickups`` > 0 in the data) and MP are left to move on; the turn's plan is
    then made again from there. Any other action is returned as it is."""
    if data[X_RULES + X_ELIXIR_PICKS] <= 0 or state[MP] <= 0:
        return a
    if A_SPOT <= a < A_SPOT + MAX_SPOTS:
        e = A_ELIXIR + a - A_SPOT
    elif a == A_CRYSTAL:
        e = A_CRYSTAL_ELIXIR
    else:
        return a
    if not _is_legal(state, data, buf, e):
        return a
    buf[MAX_ACTIONS + trader_greedy.PL_MAGIC] = 0  # plan again after the free pick-up
    return e


@leaf(inline="always")
def _pass_roman(state, data, buf, a):
    """A planned step onto a Roman would end the whole turn there (no pick-up, no delivery):
    take it passing the Roman with a Shield-type quest (free) or else a gold, when legal."""
    if a < A_SEC or a >= A_SEC + MAX_SEC or state[ROMAN + a - A_SEC] == 0:
        return a
    v = a - A_SEC
    n = legal_actions(state, data, buf)
    if _listed(buf, n, A_SHIELD + v):
        return A_SHIELD + v
    if _listed(buf, n, A_GOLD + v):
        return A_GOLD + v
    return a


@leaf(inline="always")
def _rings_to_use(state, data, seat, buf, a):
    """How many rings to spend on delivery ``a`` (0: none), by the bot's estimate of a ring:
    ``ring_rp`` (the data's bonus) on this delivery now, against ``ring_rp`` times the share of
    the spell track still ahead if kept for a later delivery (the game may end first). Every
    legal count j (1..min(k, rings held), the rules' limit) is weighed:
    ``j * now + (held - j) * later``."""
    held = state[qp(seat) + QP_ITEMS + I_RING]
    if held == 0:
        return 0
    n = legal_actions(state, data, buf)
    now = float(data[X_RULES + X_RING_RP])
    end = data[X_RULES + X_SPELL_END]
    later = now * (end - state[SPELL]) / (end + 1.0)
    best = 0
    best_v = held * later
    for j in range(1, held + 1):
        if not _listed(buf, n, ring_action(a - A_DELIVER, j)):
            break
        v = j * now + (held - j) * later
        if v > best_v:
            best_v = v
            best = j
    return best


@leaf
def _item_drop_choice(state, seat):
    """Over the item limit: drop an item of the type held most, the one just drawn counted
    (the drawn one on a tie)."""
    q = qp(seat)
    drawn = state[ITEM_DRAWN]
    best = drawn
    most = state[q + QP_ITEMS + drawn] + 1
    for i in range(N_ITEMS):
        if state[q + QP_ITEMS + i] > most:
            most = state[q + QP_ITEMS + i]
            best = i
    return A_ITEM + best
