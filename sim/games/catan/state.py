"""Catan state layout: one flat int32 array, the index constants and the action encoding.

Everything that changes during play lives in this array. The development deck and the bank are
histograms (the deck's order is hidden, so a purchase draws from the histogram with the chance
stream); hand sizes, longest-road lengths and harbour access are counters kept beside the
histograms and the board so that no step recomputes them from scratch.

Index diagram (P = MAX_PLAYERS = 6, R = N_RES = 5, D = N_DEV = 5, H = MAX_HEX, V = MAX_V,
E = MAX_E, S = MAX_SLOTS)::

    0                                                                            HEADER_LEN
    | OVER | REASON | NP | SEAT | CUR | PHASE | ROUND | TURNS | SETUP_STEP | DICE | ROBBER |
    | DEV_PLAYED | RET_PHASE | FREE_ROADS | YOP_LEFT | LAST_VERTEX | LR_HOLDER | LA_HOLDER |
    | SBP_LEFT | WINNER | DECK_N | START | OFFER | ACCEPTS | OFFERS_MADE | LAPSED |
    BANK[R] | DECK[D] | HEX_TERRAIN[H] | HEX_NUMBER[H] | SLOT_TYPE[S] | V_OWNER[V] | V_CITY[V] |
    E_OWNER[E] | HAND[P][R] | HAND_N[P] | DEV[P][D] | DEV_NEW[P][D] | KNIGHTS[P] |
    ROADS_LEFT[P] | SETTLE_LEFT[P] | CITIES_LEFT[P] | ROAD_LEN[P] | PORTS[P][R + 1] |
    DISCARD_OWED[P] | TURNS_TAKEN[P] | PLAYED[D]                                STATE_LEN

- SEAT decides next; CUR is the player whose turn it is (they differ while others discard on a
  7 and in the Special Building Phase). START is the first player (lever ``start_seat``).
- HEX_TERRAIN: terrain id per land hex (t < 5 produces resource t, 5 = desert); HEX_NUMBER: its
  number token, 0 for the desert. SLOT_TYPE: harbour type per slot, r < 5 = 2:1 for resource r,
  5 = generic 3:1.
- V_OWNER / E_OWNER: seat owning the settlement or city on a vertex / the road on an edge, -1 if
  empty; V_CITY: 1 if the building is a city.
- HAND: resource cards; HAND_N: their total. DEV: development cards held that may be played
  (VP cards included, never played); DEV_NEW: bought this turn (merged into DEV when the owner's
  next turn starts). KNIGHTS: Knights played. *_LEFT: pieces in supply.
- ROAD_LEN: each seat's longest trail (§4.3), recomputed after every road and settlement.
- PORTS[p][r] = 1 if p has a building on a 2:1 harbour of resource r; PORTS[p][5]: generic.
- DISCARD_OWED: cards a seat still has to discard on the current 7.
- RET_PHASE: the phase to return to after a robber move, Road Building or Year of Plenty.
- FREE_ROADS / YOP_LEFT: free roads / Year of Plenty picks left of the card being played.
- LAST_VERTEX: the settlement just placed in setup (its road must touch it).
- LR_HOLDER / LA_HOLDER: Longest Road / Largest Army holder, -1 if the card is set aside.
- SBP_LEFT: players still to act in the current Special Building Phase.
- OFFER: the pending domestic offer (its ``A_OFFER + ...`` action id, 0 when none; public);
  ACCEPTS: bit s set when seat s accepted it; OFFERS_MADE: offers made this turn (lever
  ``trade_offers_per_turn``). While an offer is pending PHASE is PH_TRADE and SEAT the seat
  answering it, then the proposer picking (trade.py). LAPSED: the last offer of this turn that
  ended without a trade (0 if none; public, so a bot need not repeat it).
- TURNS_TAKEN: turns each seat has started; PLAYED: development cards played, by kind (they
  leave the game; Knights also stay counted in KNIGHTS for Largest Army).

Actions are ints (one atomic decision each), laid out in disjoint ranges::

    A_SETTLE + v    build (or in setup place) a settlement on vertex v
    A_CITY + v      upgrade own settlement on v to a city
    A_ROAD + e      build (setup, paid or free) a road on edge e
    A_ROLL, A_END, A_BUY (buy a development card)
    A_KNIGHT, A_ROAD_BUILDING, A_YOP, A_MONO + r      play a development card
    A_PICK + r      Year of Plenty: take one r from the bank
    A_DISCARD + r   discard one r on a 7
    A_TRADE + give * 5 + get   maritime trade at the best ratio the player has for ``give``
    A_ROBBER + h    move the robber to land hex h
    A_STEAL + s     steal a random card from seat s
    A_OFFER + (shape * 5 + give) * 5 + get   domestic offer (trade.py: SHAPE_GIVE/SHAPE_GET
                    cards of ``give`` for cards of ``get``)
    A_ACCEPT, A_DECLINE                      a seat answers the pending offer
    A_TRADE_WITH + s, A_CANCEL               the proposer trades with accepting seat s, or not
"""

MAX_PLAYERS = 6
N_RES = 5
N_DEV = 5
N_TERRAINS = 6
DESERT = 5
GENERIC = 5  # harbour type of a generic 3:1 harbour
MAX_HEX = 32
MAX_V = 96
MAX_E = 132
MAX_SLOTS = 12
MAX_ROADS = 30  # piece limit bound (longest-road search stack)

# Development card kinds, in the order of the data file's ``dev_cards``.
KNIGHT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY, VICTORY_POINT = range(5)

(
    OVER,
    REASON,
    NP,
    SEAT,
    CUR,
    PHASE,
    ROUND,
    TURNS,
    SETUP_STEP,
    DICE,
    ROBBER,
    DEV_PLAYED,
    RET_PHASE,
    FREE_ROADS,
    YOP_LEFT,
    LAST_VERTEX,
    LR_HOLDER,
    LA_HOLDER,
    SBP_LEFT,
    WINNER,
    DECK_N,
    START,
    OFFER,
    ACCEPTS,
    OFFERS_MADE,
    LAPSED,
    HEADER_LEN,
) = range(27)

BANK = HEADER_LEN
DECK = BANK + N_RES
HEX_TERRAIN = DECK + N_DEV
HEX_NUMBER = HEX_TERRAIN + MAX_HEX
SLOT_TYPE = HEX_NUMBER + MAX_HEX
V_OWNER = SLOT_TYPE + MAX_SLOTS
V_CITY = V_OWNER + MAX_V
E_OWNER = V_CITY + MAX_V
HAND = E_OWNER + MAX_E
HAND_N = HAND + MAX_PLAYERS * N_RES
DEV = HAND_N + MAX_PLAYERS
DEV_NEW = DEV + MAX_PLAYERS * N_DEV
KNIGHTS = DEV_NEW + MAX_PLAYERS * N_DEV
ROADS_LEFT = KNIGHTS + MAX_PLAYERS
SETTLE_LEFT = ROADS_LEFT + MAX_PLAYERS
CITIES_LEFT = SETTLE_LEFT + MAX_PLAYERS
ROAD_LEN = CITIES_LEFT + MAX_PLAYERS
PORTS = ROAD_LEN + MAX_PLAYERS
DISCARD_OWED = PORTS + MAX_PLAYERS * (N_RES + 1)
TURNS_TAKEN = DISCARD_OWED + MAX_PLAYERS
PLAYED = TURNS_TAKEN + MAX_PLAYERS
STATE_LEN = PLAYED + N_DEV

# Phases: who decides what next.
(
    PH_SETUP_SETTLE,
    PH_SETUP_ROAD,
    PH_PRE_ROLL,
    PH_MAIN,
    PH_DISCARD,
    PH_ROBBER,
    PH_STEAL,
    PH_ROAD_BUILDING,
    PH_YOP,
    PH_SBP,
    PH_OVER,
    PH_TRADE,
) = range(12)
PHASE_NAMES = (
    "setup settlement",
    "setup road",
    "before roll",
    "trade and build",
    "discard",
    "robber",
    "steal",
    "road building",
    "year of plenty",
    "special building",
    "over",
    "domestic trade",
)

# End reasons, in the order of GAME.end_reasons.
END_REASONS = ("vp_target", "turn_cap")
R_VP_TARGET, R_TURN_CAP = range(2)

# Action ranges (see the module docstring).
A_SETTLE = 0
A_CITY = A_SETTLE + MAX_V
A_ROAD = A_CITY + MAX_V
A_ROLL = A_ROAD + MAX_E
A_END = A_ROLL + 1
A_BUY = A_END + 1
A_KNIGHT = A_BUY + 1
A_ROAD_BUILDING = A_KNIGHT + 1
A_YOP = A_ROAD_BUILDING + 1
A_MONO = A_YOP + 1
A_PICK = A_MONO + N_RES
A_DISCARD = A_PICK + N_RES
A_TRADE = A_DISCARD + N_RES
A_ROBBER = A_TRADE + N_RES * N_RES
A_STEAL = A_ROBBER + MAX_HEX
N_SHAPES = 3  # offer shapes (trade.py): 1 for 1, 2 for 1, 1 for 2
A_OFFER = A_STEAL + MAX_PLAYERS
A_ACCEPT = A_OFFER + N_SHAPES * N_RES * N_RES
A_DECLINE = A_ACCEPT + 1
A_TRADE_WITH = A_DECLINE + 1
A_CANCEL = A_TRADE_WITH + MAX_PLAYERS
MAX_ACTIONS = A_CANCEL + 1


def trade_action(give: int, get: int) -> int:
    """The action id of a maritime trade of ``give`` cards for one ``get``."""
    return A_TRADE + give * N_RES + get
