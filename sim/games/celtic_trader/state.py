"""Celtic Trader state layout: one 1-D int32 array, the index constants and the action ids.

Index diagram (MAX_SEC = 48 sections, MAX_SPOTS = 24 resource spots, 5 seats)::

    0        HDR (40)   scalar fields: NP CUR PHASE OVER REASON ROUND TURNS SUPPLY TENS_LEFT
                        TRIGGER MP PICKS MOVE_ENDED PENDING[4] N_PENDING TOKEN HELD ROLE_MODE
                        RELOC_NEXT DELIVERED VISIT_PAID ACTS DRAWS_LEFT ROMANS_OUT ROMANS_BOX
                        N_CONQ N_DRAWN_LOG DRAWS_TOTAL (31 free) DRAWN_LOG[8]
    40       BAG (16)   bag histogram by token kind (6 resources, Roman, cycle, orders, Romanis.,
                        then Celtic Quest's druid, crystal and 4 items)
    56       DISC (16)  discard pile histogram, same kinds
    72       SPOT (24)  1 if the resource spot holds its token
    96       ROMAN (48) 1 if the section's Roman spot holds a Roman token
    144      DEMAND (36) demand column index 0..4 (values 1/2/4/6/8), bastion-major
    180      CONQ (6)   1 once the bastion is Romanised
    186      TAKEN (6)  1 once the role card is taken
    192      PLAYERS    5 blocks of PW = 16: POS MOVE TRADE CARRY RP VP TENS ROLE NCARRY
                        CARRIED[6] FIRST_DONE
    272      end (STATE_LEN; Celtic Quest's block follows, celtic_quest/layout.py)

Token conservation: for every kind, BAG + DISC + (SPOT or ROMAN on the map) + CARRIED +
PENDING + HELD + out of play (ROMANS_OUT, ROMANS_BOX) equals the number in the box.
"""

from sim.games.celtic_trader.params import MAX_PLAYERS, MAX_SEC, MAX_SPOTS, N_BAST, N_RES, N_ROLES

# token kinds
T_ROMAN, T_CYCLE, T_ORDERS, T_ROMANISE = 6, 7, 8, 9
# Celtic Quest's bag tokens (the same engine plays it, sim/games/celtic_quest/layout.py): the
# druid, crystals and the four items; never in a Celtic Trader bag.
T_DRUID, T_CRYSTAL, T_GOLD, T_BREAD, T_RING, T_ELIXIR = 10, 11, 12, 13, 14, 15
N_KINDS = 16

# header
NP, CUR, PHASE, OVER, REASON, ROUND, TURNS, SUPPLY, TENS_LEFT, TRIGGER = range(10)
MP, PICKS, MOVE_ENDED = 10, 11, 12
PENDING = 13  # 4 slots
N_PENDING = 17
TOKEN = 18  # kind whose choice is pending (spot, raise), -1 if none
HELD = 19  # token kind held by the drawer while its choice is pending, -1 if none
ROLE_MODE = 20
RELOC_NEXT = 21  # after a relocation: 0 = draw tokens, 1 = move (relocate_first placement)
DELIVERED = 22  # bit mask of resource types delivered in this visit
VISIT_PAID = 23  # per-visit trading bonus already paid
ACTS = 24  # actions taken in this turn
DRAWS_LEFT = 25
ROMANS_OUT = 26  # Romans removed from the game by conquests
ROMANS_BOX = 27  # Romans left in the box at setup (player count)
N_CONQ = 28
N_DRAWN_LOG = 29  # tokens drawn this turn (for the trace), and their kinds:
DRAWS_TOTAL = 30  # tokens drawn in the whole game
DRAWN_LOG = 32  # 8 slots
HDR = 40

BAG = HDR
DISC = BAG + N_KINDS
SPOT = DISC + N_KINDS
ROMAN = SPOT + MAX_SPOTS
DEMAND = ROMAN + MAX_SEC
CONQ = DEMAND + N_BAST * N_RES
TAKEN = CONQ + N_BAST
PLAYERS = TAKEN + N_ROLES

# per-player block
P_POS, P_MOVE, P_TRADE, P_CARRY, P_RP, P_VP, P_TENS, P_ROLE, P_NCARRY = range(9)
P_CARRIED = 9  # 6 slots
P_FIRST_DONE = 15
PW = 16
STATE_LEN = PLAYERS + MAX_PLAYERS * PW

# role modes
ROLES_RANDOM, ROLES_DRAFT, ROLES_FIXED = 0, 1, 2

# phases (the decision the current seat faces)
(
    PH_ROLE,
    PH_RELOCATE,
    PH_ORDER,
    PH_SPOT,
    PH_RAISE,
    PH_ROMAN,
    PH_ORDERS,
    PH_ROMANISE,
    PH_START,
    PH_MOVE,
    PH_UPGRADE,
    PH_CLAIM,
    PH_DELIVER,
    PH_OVER,
    PH_TURN_END,  # internal only: the turn is over, the next one starts when step settles
) = range(15)
PHASE_NAMES = (
    "role",
    "relocate",
    "order",
    "spot",
    "raise",
    "roman",
    "orders",
    "romanise",
    "start",
    "move",
    "upgrade",
    "claim",
    "deliver",
    "over",
    "turn_end",
)

# end reasons (GAME.end_reasons order)
END_ALL_CONQUERED, END_SUPPLY, END_TURN_LIMIT, END_TURN_CAP = range(4)

# action ids
A_PASS = 0  # leave the Roman / end movement / no more upgrades, claims or deliveries
A_ORDER = 1  # + pending slot: resolve that drawn token next
A_SEC = 5  # + section: place/relocate/remove a Roman, start section, move there
A_SPOT = A_SEC + MAX_SEC  # + spot: place a drawn resource there / pick it up
A_BAST = A_SPOT + MAX_SPOTS  # + bastion: raise its demand / Romanise it
A_ROLE = A_BAST + N_BAST  # + role: take it (open draft)
A_DISCARD = A_ROLE + N_ROLES  # + resource: discard one carried token
A_UPGRADE = A_DISCARD + N_RES  # + capability
# tokens of one type delivered in one action, at most (Celtic Quest's Pack carries more than 3)
MAX_DELIVER = 5
A_DELIVER = A_UPGRADE + 3  # + r * MAX_DELIVER + (k - 1): deliver k tokens of resource r
A_CLAIM = A_DELIVER + N_RES * MAX_DELIVER  # + k (k >= 1): convert k RP to VP
MAX_CLAIM = 400
MAX_ACTIONS = A_CLAIM + MAX_CLAIM + 1

# The bots' int32 action buffer: legal actions first, then the greedy bot's plan memory and its
# search scratch (strategies/celtic_trader/greedy.py).
PLAN_LEN = 64
KEPT_SEARCHES = 32  # greedy's earlier path searches kept in its scratch (greedy.py)
SCRATCH_LEN = 12 * MAX_SEC + KEPT_SEARCHES * (8 + 2 * MAX_SEC)  # one search, then the kept
BUF_LEN = MAX_ACTIONS + PLAN_LEN + SCRATCH_LEN


def pbase(seat: int) -> int:
    """Index of a seat's player block (also usable inside kernels as PLAYERS + seat * PW)."""
    return PLAYERS + seat * PW
