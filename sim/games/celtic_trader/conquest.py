"""Romans on the map, the conquest of a bastion and the end of the game (§4.9 of
rules/celtic-trader.md), in place on a state buffer. A conquest in Celtic Quest also turns the
tile to its Roman town (sim/games/celtic_quest/tiles.py, ``on_conquest``).
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.tiles import on_conquest
from sim.games.celtic_trader.params import (
    K_ARM,
    N_BAST,
    O_BAST_ARMS,
    O_BAST_HUB,
    O_BAST_NARMS,
    O_RULES,
    O_SEC_BAST,
    O_SEC_KIND,
    QUEST_HOOKS,
    R_QUEST,
)
from sim.games.celtic_trader.state import (
    CONQ,
    DISC,
    END_ALL_CONQUERED,
    N_CONQ,
    OVER,
    PH_OVER,
    PHASE,
    REASON,
    ROMAN,
    ROMANS_OUT,
    T_ROMAN,
)


@leaf
def _end_game(s, reason):
    s[OVER] = 1
    s[REASON] = reason
    s[PHASE] = PH_OVER


@leaf
def _place_roman(s, data, sec):
    s[ROMAN + sec] = 1
    _check_conquest(s, data, sec)


@leaf
def _check_conquest(s, data, sec):
    """A Celtic bastion whose every road (arm) holds a Roman is conquered at once (§4.9)."""
    b = data[O_SEC_BAST + sec]
    if b < 0 or s[CONQ + b] or data[O_SEC_KIND + sec] != K_ARM:
        return
    for j in range(data[O_BAST_NARMS + b]):
        if s[ROMAN + data[O_BAST_ARMS + b * 3 + j]] == 0:
            return
    _conquer(s, data, b)


@leaf
def _conquer(s, data, b):
    """Conquest procedure (§4.9): one Roman on the tile leaves the game, the others are
    discarded, the chart leaves the game; the last Celtic bastion ends the game at once."""
    count = 0
    hub = data[O_BAST_HUB + b]
    if s[ROMAN + hub]:
        count += 1
        s[ROMAN + hub] = 0
    for j in range(data[O_BAST_NARMS + b]):
        a = data[O_BAST_ARMS + b * 3 + j]
        if s[ROMAN + a]:
            count += 1
            s[ROMAN + a] = 0
    if count > 0:
        s[ROMANS_OUT] += 1
        s[DISC + T_ROMAN] += count - 1
    s[CONQ + b] = 1
    s[N_CONQ] += 1
    # Celtic Quest: the Roman town side has no crystal spot
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        on_conquest(s, data, b)
    if s[N_CONQ] == N_BAST:
        _end_game(s, END_ALL_CONQUERED)
