"""Celtic Quest greedy bot: the routes: whether an action is among the legal ones, road
distances, Celtic Trader's greedy search on the map as it is now and the first step of a
Roman-free path.
"""

from sim.core.kernel import leaf
from sim.games.celtic_trader.params import MAX_SEC, O_DIST
from sim.games.celtic_trader.rules import legal_actions
from sim.games.celtic_trader.state import A_SEC, ROMAN
from strategies.celtic_trader import greedy as trader_greedy


@leaf
def _listed(buf, n, action):
    """Is ``action`` among the legal actions listed in ``buf[:n]``?"""
    for i in range(n):  # noqa: SIM110  (numba: plain loop)
        if buf[i] == action:
            return True
    return False


@leaf
def _is_legal(state, data, buf, action):
    return _listed(buf, legal_actions(state, data, buf), action)


@leaf
def _dist(data, a, b):
    return data[O_DIST + a * MAX_SEC + b]


@leaf
def _search(state, data, seat, buf, pos):
    """Celtic Trader's greedy search from ``pos`` on the map as it is now (enchanted tiles
    merged; Roman sections reached, never crossed): its distance and parent arrays, in the
    buffer's scratch."""
    trader_greedy.search_from(state, data, seat, pos, buf)
    dist = buf[trader_greedy.SC_DIST : trader_greedy.SC_DIST + MAX_SEC]
    par = buf[trader_greedy.SC_PAR : trader_greedy.SC_PAR + MAX_SEC]
    return dist, par


@leaf
def _first_step(state, data, buf, n, pos, target, par):
    """The legal first move toward ``target`` along the search's parents, if the path crosses
    no Roman and the target holds none; -1 otherwise (``buf[:n]``: the legal actions)."""
    if target == pos or state[ROMAN + target]:
        return -1
    node = target
    while par[node] != pos:
        node = par[node]
        if node < 0:
            return -1
    if not _listed(buf, n, A_SEC + node):
        return -1
    return A_SEC + node
