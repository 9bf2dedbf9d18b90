"""Celtae state layout: one flat int32 array, the index constants and the action encoding.

Everything that changes during play lives in this array. The deck, the discard pile and the bag
are histograms (their order is hidden and drawn at random by ``step``); hands are histograms of
the 12 card kinds (card = colour * 3 + icon). In the solo game Solitairix's holdings (discs,
cubes, tiles, druids, its one worker) live in player block 1, which never takes a decision.

Index diagram (P = MAX_PLAYERS = 4)::

    0                                                                            HEADER_LEN
    | OVER | REASON | NP | SEAT | PHASE | DSEAT | RESUME | ROUND | TURNS | FIRST | TEUTATES |
    | PAWN | TRACK | TRIGGERED | FINAL | DOUBLE | ... turn scratch (KIND .. SOLO_SECTION) ... |
    BAG[4] | CENTRE[3] | SPACES[4][3] | DECK[12] | DISCARD[12] | MARKET[2][6] |
    CIT_CAP[8] | CIT_FILLED[8] | CIT_DISCS[8][P] | CIT_BONUS[8] | CIT_DONE[8] |
    GARRISON[2][5] | PILES[4][5] | PILE_POS[4] | PILE_END[4] | PILE_PAWN[4] | RESERVE[2] |
    PCARD[8] | PCARD_CAP[8] | PCARD_PAWNS[8] | OFFER[8] | FLIP_PENDING[P] | PLAYER[P][PW]

- SPACES: worker type per slot of the action spaces CB_NORTH, CB_SOUTH, RECRUIT, COMBAT
  (-1 = empty); CENTRE likewise. BAG counts farmers, builders, soldiers, nobles (never druids).
- CITADEL c = region * 4 + colour: CAP usable slots (neutral ones included), FILLED discs on it
  (neutral included), DISCS per seat, BONUS the effect of its tile, DONE the completer or -1.
- GARRISON: -2 a neutral cube (slot not in play), -1 empty, else the seat whose cube it is.
- PILES: army North, army South, druid North, druid South; tile ids top first, POS = the next
  tile, END = one past the last; PILE_PAWN = 1 while the progress pawn beside it is there.
- PCARD: the progress cards laid out (index into the 26), their capacity and pawns on them.
- OFFER: leaders still available in the draft (1 = laid out, not taken).
"""

MAX_PLAYERS = 4
N_COLOURS = 4
N_ICONS = 3
N_CARDS = N_COLOURS * N_ICONS
N_WTYPES = 5  # farmer, builder, soldier, noble, druid
N_BAGTYPES = 4  # druids never go into the bag
FARMER, BUILDER, SOLDIER, NOBLE, DRUID = range(5)
NORTH, SOUTH = 0, 1
N_POSITIONS = 4
SP_CB_NORTH, SP_CB_SOUTH, SP_RECRUIT, SP_COMBAT = range(4)
N_SPACES = 4
SLOTS = 3
MARKET_SIZE = 6
N_CITADELS = 8
GARRISON_SLOTS = 5
N_PILES = 4
PILE_ARMY_N, PILE_ARMY_S, PILE_DRUID_N, PILE_DRUID_S = range(4)
MAX_PILE = 5
MAX_PCARDS = 8
N_LEADERS = 8
ACTIVE = 3
MAX_TRIBE = 16  # the tribe may exceed its cap of 8 during an action
K_CULTIVATE, K_BUILD, K_COMBAT, K_RECRUIT = range(4)
B_TOKEN, B_RECRUIT, B_CARDS, B_FORCE = range(4)  # citadel bonus effects
SIDE_A, SIDE_B = 0, 1

(
    OVER,
    REASON,
    NP,
    SEAT,
    PHASE,
    DSEAT,
    RESUME,
    ROUND,
    TURNS,
    FIRST,
    TEUTATES,
    PAWN,
    TRACK,
    TRIGGERED,
    FINAL,
    DOUBLE,
    SETUP_LEFT,  # setup seats still to pick a leader / discard
    KIND,  # the chosen action (K_*), -1 before the choice
    REGION,
    SPACE,
    NO_MOVE,  # 1 when the pawn was not moved (token "any space" variant)
    REFRESHES,
    SWAP_FORCED,
    TOKENS_USED,
    EXTRA,  # virtual workers from tokens for this action
    R_MAX,
    RECRUITED,
    DISC_MODE,
    DISC_ARG,
    DISC_LEFT,
    DISC_STOP,
    COMBAT_ICON,
    FIGHT_PILE_EMPTIED,
    BUILD_CIT,
    CAP_CHECK,  # 1 if the tribe cap applies at the end of this action
    FLIP_LEFT,
    FLIP_SEAT,
    SOLO,  # 1 in the solo game
    SOLO_ACTING,  # 1 during Solitairix's turn
    SOLO_CARD,
    SOLO_FACE,
    SOLO_SECTION,
    TOKEN_RESERVE,
    DTOP,  # top card of the discard pile, -1 if empty
    DECK_N,
    DISCARD_N,
    RESHUFFLES,
    BOXED_WORKERS,  # non-druid workers sent to the box during play (overflow variant)
    BOXED_DRUIDS,  # druids sent to the box during play
    PAWNS_DISCARDED,  # progress pawns discarded (solo pile pawns, no free card slot)
    HEADER_LEN,
) = range(51)

BAG = HEADER_LEN
CENTRE = BAG + N_BAGTYPES
SPACES = CENTRE + SLOTS
DECK = SPACES + N_SPACES * SLOTS
DISCARD = DECK + N_CARDS
MARKET = DISCARD + N_CARDS
CIT_CAP = MARKET + 2 * MARKET_SIZE
CIT_FILLED = CIT_CAP + N_CITADELS
CIT_DISCS = CIT_FILLED + N_CITADELS
CIT_BONUS = CIT_DISCS + N_CITADELS * MAX_PLAYERS
CIT_DONE = CIT_BONUS + N_CITADELS
GARRISON = CIT_DONE + N_CITADELS
PILES = GARRISON + 2 * GARRISON_SLOTS
PILE_POS = PILES + N_PILES * MAX_PILE
PILE_END = PILE_POS + N_PILES
PILE_PAWN = PILE_END + N_PILES
RESERVE = PILE_PAWN + N_PILES
PCARD = RESERVE + 2
PCARD_CAP = PCARD + MAX_PCARDS
PCARD_PAWNS = PCARD_CAP + MAX_PCARDS
OFFER = PCARD_PAWNS + MAX_PCARDS
FLIP_PENDING = OFFER + N_LEADERS
PLAYERS = FLIP_PENDING + MAX_PLAYERS

# Player block (offsets from PLAYERS + seat * PW).
(
    P_LEADER,
    P_SIDE,
    P_FORCE,
    P_TOKENS,
    P_TOKENS_NEW,  # tokens gained this turn (usable from the next turn)
    P_DISCS,  # discs still on the player board
    P_CUBES,  # garrison cubes still on the player board
    P_ARMY1,
    P_ARMY2,
    P_DRUID1,
    P_DRUID2,
    P_BONUS_TILES,
    P_HAND_N,
    P_SHORT,  # times the player ended a refill with fewer than 3 active workers
    P_TIEBREAK,  # random final tie-break (final_tiebreak = random), else 0
    P_ACTIVE,
) = range(16)
P_TRIBE = P_ACTIVE + ACTIVE
P_TRIBE_N = P_TRIBE + N_WTYPES
P_HAND = P_TRIBE_N + 1
PW = P_HAND + N_CARDS
STATE_LEN = PLAYERS + MAX_PLAYERS * PW

# Phases: who decides what next (decisions); the engine settles every other step itself.
(
    PH_DRAFT,
    PH_DISCARD,
    PH_MOVE,
    PH_PAWN,
    PH_FLIP,
    PH_CHOOSE,
    PH_REFRESH,
    PH_SWAP,
    PH_TOKEN,
    PH_CULT,
    PH_BUILD,
    PH_TAKE2,
    PH_BRECRUIT,
    PH_FIGHT,
    PH_GARRISON,
    PH_RECRUIT,
    PH_ORDER,
    PH_DRUID,
    PH_REFILL,
    PH_OVERFLOW,
    PH_OVER,
    # automatic phases (never a decision)
    AU_SETUP_NEXT,
    AU_ACTION,
    AU_END_TURN,
    AU_SOLO_START,
    AU_SOLO_REST,
    AU_AFTER_EVENT,
) = range(27)
N_DECISION_PHASES = PH_OVER

# Where PH_PAWN / PH_DISCARD / PH_FLIP return to (RESUME).
RS_TRACK, RS_PILE_COMBAT, RS_PILE_ORDER, RS_SETUP, RS_BUILD, RS_COMBAT, RS_DRUID = range(7)
# PH_DISCARD filters (DISC_MODE).
DM_ANY, DM_COLOUR, DM_ICON = range(3)

END_REASONS = ("track_empty", "turn_cap")
R_TRACK_EMPTY, R_TURN_CAP = range(2)

# Actions: one atomic decision each, in disjoint ranges.
A_MOVE = 0  # + distance 1..3 (0 = stay, token "any space" variant)
A_PAWN = 4  # + progress card slot 0..7
A_SIDE_A = 12
A_SIDE_B = 13
A_CHOOSE = 16  # + token * 8 + kind * 2 + region
A_YES = 32
A_NO = 33
A_SWAP = 40  # + active slot * 3 + space slot
A_CULT = 64  # + bitmask over market slots 2..6
A_BUILD = 96  # + colour
A_CARD = 100  # + card kind (colour * 3 + icon)
A_STOP = 112
A_TAKE2 = 120  # + first slot * 6 + second slot
A_GARR = 160  # + garrison slot * 4 + colour of the card paid
A_WORKER = 184  # + worker type
A_LEADER = 192  # + leader
N_ACTION_IDS = 200
MAX_ACTIONS = 64


def card_kind(colour: int, icon: int) -> int:
    return colour * N_ICONS + icon
