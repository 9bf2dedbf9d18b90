"""The Celtic Quest greedy bot: Celtic Trader's greedy bot for the shared rules, plus quests,
crystals, items and destinies.

Movement, deliveries, token placements and upgrades are Celtic Trader's greedy choices
(strategies/celtic_trader/greedy.py), which read the shared state; a choice that Celtic Quest
does not allow (a spot gone with its enchanted tile) falls back to ending the movement or to
the first legal action. On top of it the bot picks up crystals where it stands, carries a
completed quest's pair or its crystals to the Stone Circle (turning aside for a near second
crystal when its estimate says so), always completes quests and discards the impossible ones,
draws one when it can plausibly complete it, delivers every crystal, uses its rings, passes
Romans with a gold or a Shield-type quest, eats a bread when a goal is just beyond its MP,
picks up with an elixir when a pick-up would end its movement, moves a Roman with a
Raven-type quest when that opens its route or hems in the leader, and keeps the destiny card
its data values most. It reads only its own destiny and quest cards and what every player sees
(the state's other hidden cards are never looked at).

The bot lives in one module per decision family; this one holds the policy (which decision is
asked, and the choice for each: the movement's order of goals, the start, the delivery, the
tiles and the token returned):

- greedy_routes: legal-action lookups, road distances, the search and a path's first step;
- greedy_items: bread, elixir, gold and Shield-type passes, rings, the item dropped;
- greedy_quests: tokens kept for quests, the trips for them and home, completing, discarding
  and drawing quests;
- greedy_crystals: a crystal's value, room made for one, the moves toward one and a second;
- greedy_raven: the Roman a Raven-type quest moves and where a moved or passed Roman goes;
- greedy_destiny: the destiny card kept.
"""

import numpy as np

from sim.core.kernel import leaf
from sim.games.celtic_quest.delivery import ring_action
from sim.games.celtic_quest.layout import (
    A_CRYSTAL,
    A_TILE,
    MAX_TSEC,
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
    QP_DESTINY,
    X_DESTINY_RP_VP,
    X_TILE_SECS,
)
from sim.games.celtic_quest.queries import qp
from sim.games.celtic_trader.params import MAX_SEC, N_RES, O_RULES, R_SC
from sim.games.celtic_trader.rules import legal_actions
from sim.games.celtic_trader.state import (
    A_DELIVER,
    A_ORDER,
    A_PASS,
    A_SEC,
    ACTS,
    DELIVERED,
    MAX_DELIVER,
    N_PENDING,
    P_CARRIED,
    P_POS,
    PENDING,
    PH_CLAIM,
    PH_DELIVER,
    PH_MOVE,
    PH_START,
    PH_TURN_END,
    PHASE,
    PLAYERS,
    PW,
    T_CYCLE,
    T_ORDERS,
    T_ROMAN,
    T_ROMANISE,
)
from strategies.celtic_quest.greedy_crystals import (
    _crystal_goal,
    _make_room_for_crystal,
    _second_crystal,
)
from strategies.celtic_quest.greedy_destiny import _destiny_choice
from strategies.celtic_quest.greedy_items import (
    _bread_for_plan,
    _item_drop_choice,
    _pass_roman,
    _rings_to_use,
    _with_elixir,
)
from strategies.celtic_quest.greedy_quests import (
    _draw_quest_choice,
    _fetch_for_quest,
    _go_home,
    _heading_home,
    _quest_card_choice,
    _reserved,
)
from strategies.celtic_quest.greedy_raven import _raven_choice, _roman_relocation
from strategies.celtic_quest.greedy_routes import _dist, _listed
from strategies.celtic_trader import greedy as trader_greedy

MAX_TURN_ACTIONS = 60  # movement decisions in one turn beyond which the bot ends its movement


@leaf(inline="always")
def _legal_or_first(state, data, buf, action):
    """``action`` if legal, else the first legal action (A_PASS where the phase has it)."""
    n = legal_actions(state, data, buf)
    for i in range(n):
        if buf[i] == action:
            return action
    return buf[0]


@leaf
def planned_move(state, data, seat, params, rng, buf):
    """The movement action the bot plans, before any legality check (tests check that it is
    always legal: the plans are made on the map as it is now)."""
    return _plan(state, data, seat, params, rng, buf)[0]


@leaf(inline="always")
def _plan(state, data, seat, params, rng, buf):
    """(:func:`planned_move`, n): the legal actions it was planned from are in ``buf[:n]``
    when it returns (n = 0: the safety net passed before listing them). Nothing it calls
    writes there but ``legal_actions`` on this same state (the searches keep to the scratch
    beyond ``MAX_ACTIONS``)."""
    if state[ACTS] > MAX_TURN_ACTIONS:
        return A_PASS, 0  # a safety net: free (0 MP) moves never loop
    n = legal_actions(state, data, buf)
    return _planned(state, data, seat, params, rng, buf, n), n


@leaf(inline="always")
def _planned(state, data, seat, params, rng, buf, n):
    """The plan given the legal actions listed in ``buf[:n]``."""
    if _listed(buf, n, A_CRYSTAL):
        return _with_elixir(state, data, seat, buf, A_CRYSTAL)
    a = _make_room_for_crystal(state, data, seat, buf, n)
    if a >= 0:
        return a
    if _heading_home(state, data, seat):
        a = _second_crystal(state, data, seat, buf, n)
        if a >= 0:
            return a
        a = _go_home(state, data, seat, buf, n)
        if a >= 0:
            return a
    else:
        a = _fetch_for_quest(state, data, seat, buf, n)
        if a >= 0:
            return _with_elixir(state, data, seat, buf, a)
        a = _crystal_goal(state, data, seat, params, buf, n)
        if a >= 0:
            return a
    a = _bread_for_plan(state, data, seat, params, buf, n)
    if a >= 0:
        return a
    a = trader_greedy.greedy_action(state, data, seat, params, rng, buf)
    return _with_elixir(state, data, seat, buf, _pass_roman(state, data, buf, a))


@leaf(inline="always")
def _move(state, data, seat, params, rng, buf):
    """The planned move if it is legal, else a pass: checked against the listing the plan was
    made from, not listed again (a second listing took 7% of a greedy game, issue 42)."""
    a, n = _plan(state, data, seat, params, rng, buf)
    if _listed(buf, n, a):
        return a
    return A_PASS


@leaf
def _nearest_tile(state, data, seat, buf, n):
    """Among the A_TILE actions buf[:n], the tile nearest the seat (static road distance)."""
    pos = state[PLAYERS + seat * PW + P_POS]
    if pos < 0:
        pos = data[O_RULES + R_SC]
    best = buf[0]
    best_d = 1 << 30
    for i in range(n):
        sec = data[X_TILE_SECS + (buf[i] - A_TILE) * MAX_TSEC]
        d = _dist(data, pos, sec)
        if d < best_d:
            best_d = d
            best = buf[i]
    return best


@leaf
def _return_choice(state):
    """The drawn token least wanted: a Roman, Romanisation, orders, the cycle, then others."""
    best = 0
    best_p = -1
    for i in range(state[N_PENDING]):
        k = state[PENDING + i]
        p = 0
        if k == T_ROMAN:
            p = 5
        elif k == T_ROMANISE:
            p = 4
        elif k == T_ORDERS:
            p = 3
        elif k == T_CYCLE:
            p = 2
        if p > best_p:
            best_p = p
            best = i
    return best


@leaf(inline="always")
def _quest_phase(state, data, seat, params, buf):
    ph = state[PHASE]
    if ph == PH_DESTINY:
        return _destiny_choice(state, data, seat)
    if ph == PH_RETURN:
        return A_ORDER + _return_choice(state)
    if ph == PH_ENCHANT or ph == PH_CRYSTAL_SPOT:  # noqa: SIM109
        n = legal_actions(state, data, buf)
        return _nearest_tile(state, data, seat, buf, n)
    if ph == PH_ITEM_DROP:
        return _item_drop_choice(state, seat)
    if ph == PH_RAVEN:
        return _raven_choice(state, data, seat, params, buf)
    if ph == PH_GOLD_RELOC:
        return _roman_relocation(state, data, seat, params, buf)
    if ph == PH_QUEST_DONE or ph == PH_QUEST_DISCARD:  # noqa: SIM109
        return _quest_card_choice(state, data, seat, ph)
    if ph == PH_QUEST_DRAW:
        return _draw_quest_choice(state, data, seat)
    if ph == PH_CRYSTALS:
        n = legal_actions(state, data, buf)
        return buf[n - 1]  # every crystal carried
    return A_PASS


@leaf(inline="always")
def _start(state, data, seat, params, buf):
    """The start section with the best first goal (Celtic Trader's goal search)."""
    n = legal_actions(state, data, buf)
    best = buf[0]
    best_score = -1e18
    move = data[trader_greedy.O_MOVE_VAL + state[PLAYERS + seat * PW + trader_greedy.P_MOVE]]
    for i in range(n):
        a = buf[i]
        if a >= A_SEC + MAX_SEC:
            continue  # (a start passing a Roman with a gold: the plain sections suffice)
        sec = a - A_SEC
        if state[trader_greedy.ROMAN + sec]:
            score = -1e9
        else:
            _, _, score = trader_greedy._best_goal(
                state, data, seat, sec, move, 0, 0, params, buf, True
            )
        if score > best_score:
            best_score = score
            best = a
    return best


@leaf
def greedy_action(state, data, seat, params, rng, buf):
    """The Celtic Quest greedy bot's action (``buf``: int32, state.BUF_LEN)."""
    ph = state[PHASE]
    if ph > PH_TURN_END:
        return _quest_phase(state, data, seat, params, buf)
    if ph == PH_MOVE:
        return _move(state, data, seat, params, rng, buf)
    if ph == PH_START:
        return _start(state, data, seat, params, buf)
    q = qp(seat)
    if ph == PH_CLAIM:
        d = state[q + QP_DESTINY]
        if d >= 0 and data[X_DESTINY_RP_VP + d] > 0:
            return A_PASS
    if ph == PH_DELIVER:
        return _deliver(state, data, seat, buf)
    a = trader_greedy.greedy_action(state, data, seat, params, rng, buf)
    return _legal_or_first(state, data, buf, a)


@leaf(inline="always")
def _deliver(state, data, seat, buf):
    """Deliver every token of a type not kept for a quest, spending the rings worth most now
    (``_rings_to_use``)."""
    pb = PLAYERS + seat * PW
    for r in range(N_RES):
        k = min(state[pb + P_CARRIED + r] - _reserved(state, data, seat, r), MAX_DELIVER)
        if k > 0 and (state[DELIVERED] >> r) & 1 == 0:
            a = A_DELIVER + r * MAX_DELIVER + k - 1
            j = _rings_to_use(state, data, seat, buf, a)
            if j > 0:
                return ring_action(a - A_DELIVER, j)
            return a
    return A_PASS


def greedy_defaults() -> np.ndarray:
    return trader_greedy.greedy_defaults()
