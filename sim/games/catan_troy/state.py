"""Catan: Troy state layout: the base game's flat int32 array (sim/games/catan/state.py, read and
written by the base kernels unchanged) followed by the scenario's fields, and the scenario's
phases and actions after the base ones.

Index diagram (P = MAX_PLAYERS, R = N_RES, W = MAX_SEA; T0 = the base STATE_LEN)::

    0 .. T0                     the base state (board, hands, bank, pieces, phases ...)
    T0 | SEA_PEOPLE | DONATIONS | DONATING | TAKES_USED | SWAPS_USED | ROW_N | BATTLES |
    TRACK[2] | ROW[R] | REMOVED[R] | TRADE_CARDS[R] | SIDE[P] | TOKENS[P] | SHIPS_BUILT[P] |
    DONATED[P] | GIFTS[P] | SEA_OWNER[W] | SEA_KIND[W] | SEA_CARD[W]                       STATE_LEN

- SEA_PEOPLE: the sea hex (index into the data's sea list) of the Sea People. The base ROBBER
  stays -1: there is no robber, and nothing blocks production (§4.1).
- DONATIONS: donations the active player opened this turn; DONATING: cards in the donation he
  is making now (0 when none is open: any other action closes it, A1).
- TAKES_USED / SWAPS_USED: take and swap advantages used this turn (A12).
- ROW / ROW_N: the support row, a histogram (its contents are hidden: bots read ROW_N only);
  BATTLES: battles fought; TRACK[c]: battles won by city c (0 Troy, 1 Mycenae), the index of
  its marker on the event track.
- REMOVED: battle cards that left the game (lever ``battle_cards_to = removed``).
- TRADE_CARDS: 2:1 trade cards still available, per resource.
- SIDE: each seat's decision card (0 Troy, 1 Mycenae), hidden from the other seats.
- TOKENS: commerce tokens held (not cards: never traded, stolen or discarded).
- SHIPS_BUILT: ships built, so the next token is the stack's entry at that index.
- DONATED / GIFTS: cards each seat has donated, and its donations (public counts: a donation
  is seen, its cards are not).
- SEA_OWNER / SEA_KIND / SEA_CARD: the ship on each sea hex (-1 none), its kind (``KIND_*``)
  and, for a 2:1 ship, the resource of the trade card taken with it.

Actions after the base ranges::

    A_DONATE + r    put one r card into the support row (opening or adding to a donation)
    A_SHIP + w      build a ship on sea hex w
    A_SEA + w       move the Sea People to sea hex w
    A_TAKE, A_SWAP  use a take / swap ship advantage (a random card from the row)
    A_PUT + r       the swap: put one r card back into the row
    A_CARD + r      the 2:1 ship: take the 2:1 trade card of resource r
    A_NO_STEAL      the Sea People's mover steals from nobody (A10)
"""

from sim.games.catan import state as base
from sim.games.catan.state import MAX_PLAYERS, N_RES

MAX_SEA = 32
MAX_STACK = 12
MAX_TRACK = 12
N_KINDS = 5
# Ship kinds, in the order of the data file's ``ship_kinds``.
KIND_THREE, KIND_FLAG, KIND_SWAP, KIND_TWO, KIND_TAKE = range(N_KINDS)
TROY, MYCENAE = 0, 1

T0 = base.STATE_LEN
(
    SEA_PEOPLE,
    DONATIONS,
    DONATING,
    TAKES_USED,
    SWAPS_USED,
    ROW_N,
    BATTLES,
) = range(T0, T0 + 7)
TRACK = T0 + 7
ROW = TRACK + 2
REMOVED = ROW + N_RES
TRADE_CARDS = REMOVED + N_RES
SIDE = TRADE_CARDS + N_RES
TOKENS = SIDE + MAX_PLAYERS
SHIPS_BUILT = TOKENS + MAX_PLAYERS
DONATED = SHIPS_BUILT + MAX_PLAYERS
GIFTS = DONATED + MAX_PLAYERS
SEA_OWNER = GIFTS + MAX_PLAYERS
SEA_KIND = SEA_OWNER + MAX_SEA
SEA_CARD = SEA_KIND + MAX_SEA
STATE_LEN = SEA_CARD + MAX_SEA

# Phases after the base ones (base PH_ROBBER / PH_STEAL are the Sea People's move and steal).
PH_TWO_TO_ONE = base.PH_TRADE + 1  # choose the 2:1 trade card of the ship just built
PH_SWAP_BACK = PH_TWO_TO_ONE + 1  # put one card back after a swap
PHASE_NAMES = (*base.PHASE_NAMES, "choose a 2:1 card", "swap back")

# End reasons: the base ones, then the event track's end (§5.2).
END_REASONS = (*base.END_REASONS, "event_track")
R_VP_TARGET, R_TURN_CAP, R_EVENT_TRACK = range(3)

A_DONATE = base.MAX_ACTIONS
A_SHIP = A_DONATE + N_RES
A_SEA = A_SHIP + MAX_SEA
A_TAKE = A_SEA + MAX_SEA
A_SWAP = A_TAKE + 1
A_PUT = A_SWAP + 1
A_CARD = A_PUT + N_RES
A_NO_STEAL = A_CARD + N_RES
MAX_ACTIONS = A_NO_STEAL + 1
