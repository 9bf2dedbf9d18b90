"""The spell track (rules/celtic-quest.md §4.9) and enchantment (§4.3): moving the spell marker
(the end box ends the game) and flipping a tile, in place on the engine's state buffer.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.layout import (
    CRYSTAL_SUPPLY,
    ENCH,
    END_SPELL,
    MAX_TSEC,
    SPELL,
    SPOT_OUT,
    TCRYST,
    X_CRYSTAL_SPOTS,
    X_SEC_MERGE,
    X_SEC_ROMAN_E,
    X_SPELL_END,
    X_TILE_BAST,
    X_TILE_NSEC,
    X_TILE_SECS,
)
from sim.games.celtic_quest.queries import xr
from sim.games.celtic_trader.conquest import _check_conquest, _end_game
from sim.games.celtic_trader.params import O_SEC_SPOTS, O_SEC_TILE
from sim.games.celtic_trader.state import DISC, NP, P_POS, PLAYERS, PW, ROMAN, SPOT


@leaf
def advance_spell(s, data, steps):
    """Move the spell marker (§4.9); True if it reached the end box (the game is over)."""
    end = xr(data, X_SPELL_END)
    v = s[SPELL] + steps
    if v >= end:
        s[SPELL] = end
        _end_game(s, END_SPELL)
        return True
    s[SPELL] = v
    return False


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
                s[SPOT + sp] = 0  # never refilled (the engine's turn._resolve skips them)
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
                _check_conquest(s, data, sec)
                break
