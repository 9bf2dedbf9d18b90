"""Celtic Quest's tiles (rules/celtic-quest.md §4.3, §4.7): the section a position is once its tile
is enchanted, which tiles may be enchanted or take a crystal, the Roman spots of an enchanted
tile, and the Roman town side a conquered tile turns to (``on_conquest``, called by Celtic
Trader's conquest, sim/games/celtic_trader/conquest.py). They import nothing of the engine.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.layout import (
    ENCH,
    T_CRYSTAL,
    TCRYST,
    X_CRYSTAL_SPOTS,
    X_NTILES,
    X_SEC_MERGE,
    X_SEC_ROMAN_E,
    X_TILE_BAST,
    X_TILE_ENCHANTABLE,
)
from sim.games.celtic_quest.queries import xr
from sim.games.celtic_trader.params import O_BAST_HUB, O_SEC_TILE
from sim.games.celtic_trader.state import CONQ, DISC


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
def has_roman_spot_enchanted(data, sec):
    return data[X_SEC_ROMAN_E + sec] != 0


@leaf
def on_conquest(s, data, b):
    """A conquered tile turns to its Roman town (§4.7): a crystal on it is discarded (B23)."""
    t = data[O_SEC_TILE + data[O_BAST_HUB + b]]
    if s[TCRYST + t] > 0:
        s[DISC + T_CRYSTAL] += s[TCRYST + t]
        s[TCRYST + t] = 0
