"""The Great Wall state layout: the base Catan state (sim/games/catan/state.py) followed by the
scenario's own fields, and the scenario's phases, end reason and actions.

The base kernels read and write only the first ``catan.state.STATE_LEN`` cells and copy whole
arrays, so the scenario's fields travel with every step. Riders keep their numeral everywhere
(a rider a Knight sends back goes into the bag as what it is)::

    catan state | PIRATE | BREACHES | KN_USED | KN_RET | FORT_STEP | FORT_START |
    EXTRA_VP[P] | PENALTY[P] | LEVEL[W] | WALL_OWNER[W] | BAG[K] | TERR[T][K] |
    FIELD[W][K] | HEX_RIDERS[H] | HEX_R[H][K] | HEX_EVER[H]                     GW_STATE_LEN

(P = 6 seats, W = 6 wall sections, T = K = 5 territories and numerals, H = MAX_HEX.)

- PIRATE: index of the pirate's sea hex (params: the sea list of the player count).
- BREACHES: breaches so far (§4.3.6). KN_USED: bits of the Knight actions taken (1 move a
  rider, 2 remove a rider, 4 pirate); KN_RET: the phase the Knight was played in.
- FORT_STEP: fortresses placed; FORT_START: the seat who placed the first (the high roller).
- EXTRA_VP: each seat's VP from penalty tokens (``-penalty_per_breach`` each), read by the base
  VP count through its ``G_EXTRA_VP`` hook; PENALTY: the tokens.
- LEVEL / WALL_OWNER: each section's watchtowers and its fortress's seat (-1 before placement).
- BAG: riders in the bag by numeral; TERR: riders on each rallying territory by numeral (a
  Knight may move a rider of one numeral onto another's territory); FIELD: on each battlefield.
- HEX_RIDERS: riders on each land hex (the base production's ``G_HEX_BLOCK`` hook), HEX_R the
  same by numeral; HEX_EVER: 1 once a rider stood there (an empty such hex is a gap).
"""

from sim.games.catan.state import MAX_ACTIONS, MAX_HEX, MAX_PLAYERS, PH_TRADE, STATE_LEN

MAX_WALLS = 6
MAX_NUMERALS = 5
MAX_PATH = 5
MAX_SEA = 24
KN_MOVE, KN_REMOVE, KN_PIRATE = 1, 2, 4

PIRATE = STATE_LEN
BREACHES = PIRATE + 1
KN_USED = BREACHES + 1
KN_RET = KN_USED + 1
FORT_STEP = KN_RET + 1
FORT_START = FORT_STEP + 1
EXTRA_VP = FORT_START + 1
PENALTY = EXTRA_VP + MAX_PLAYERS
LEVEL = PENALTY + MAX_PLAYERS
WALL_OWNER = LEVEL + MAX_WALLS
BAG = WALL_OWNER + MAX_WALLS
TERR = BAG + MAX_NUMERALS
FIELD = TERR + MAX_NUMERALS * MAX_NUMERALS
HEX_RIDERS = FIELD + MAX_WALLS * MAX_NUMERALS
HEX_R = HEX_RIDERS + MAX_HEX
HEX_EVER = HEX_R + MAX_HEX * MAX_NUMERALS
GW_STATE_LEN = HEX_EVER + MAX_HEX

# Phases after the base ones (catan.state: PH_TRADE is the last). In this scenario the base
# PH_ROBBER is the pirate's move on a 7, and PH_STEAL takes from any other player holding a card.
PH_FORTRESS = PH_TRADE + 1
PH_KNIGHT = PH_FORTRESS + 1

END_REASONS = ("vp_target", "turn_cap", "wall_breached")
R_WALL_BREACHED = 2

# Scenario actions, after the base ranges (catan.state).
A_FORTRESS = MAX_ACTIONS  # + wall section: place one's fortress
A_WALL = A_FORTRESS + MAX_WALLS  # raise one's own wall one level
A_PIRATE = A_WALL + 1  # + sea hex: move the pirate (a 7 or a Knight)
A_K_MOVE = A_PIRATE + MAX_SEA  # + from * 5 + to: Knight moves a rider between territories
A_K_REMOVE = A_K_MOVE + MAX_NUMERALS * MAX_NUMERALS  # + hex: Knight sends a rider to the bag
A_K_DONE = A_K_REMOVE + MAX_HEX  # the Knight takes no further action
A_NO_STEAL = A_K_DONE + 1  # the pirate takes no card (§4.2 / A10: "peut", the steal is optional)
GW_MAX_ACTIONS = A_NO_STEAL + 1
