"""Celtica state layout: one flat int32 array, the index constants and the action encoding.

Everything that changes during play lives in this array; decks, the fragment reserve and the
returned pile are histograms (their order is hidden and drawn at random by ``step``), and the
totals that would otherwise be recomputed every step are kept beside them as counters.

Index diagram (P = MAX_PLAYERS = 5 seats, C = N_COLOURS = 5 druids, T = MAX_TYPES = 9)::

    0                                                                            HEADER_LEN
    | OVER | REASON | NP | SEAT | PHASE | PENDING | ROUND | TURNS | STARTER | LAST_MOVER |
    | HOME | EXCH_DONE | LAND | DISPLAY_N | RESERVE_N | RETURNED_N | PILE_N | DISCARD_N |
    | XP_PILE_N | XP_DISCARD_N | HELD_N | FRAG_SHUFFLES | DRUID_SHUFFLES | XP_SHUFFLES |
    POS[C] | DISPLAY[T] | RESERVE[T] | RETURNED[T] | PILE[C] | DISCARD[C] | XP_PILE[C] |
    XP_DISCARD[C] | FRAG[P][T] | HAND[P][C] | XP[P][C] | PASSED[P]                 STATE_LEN

- POS: druid positions, 0 = Start, ``finish`` (the number of locations) = the finish.
- DISPLAY, RESERVE, RETURNED, FRAG: fragments per position type (the face-up display, the
  face-down reserve, the face-down returned pile, each player's public fragments).
- PILE/DISCARD: Druid cards per colour; XP_PILE/XP_DISCARD: Experience cards per colour.
- HAND/XP: each player's hidden Druid and Experience cards per colour.
- PASSED: a player holding only XP cards passed for the rest of the round (only with the
  ``xp_requires_druid_in_hand = false`` lever).
- HOME: 1 once a druid has reached the finish (the normal end trigger).
- EXCH_DONE: seats that finished their final XP exchange; LAND: the last landing location.
- *_N: totals of the histograms beside them (HELD_N: Druid cards in all hands);
  *_SHUFFLES: how many times that pile was rebuilt from its discard (read by the trace).

Actions are ints (one atomic decision each), laid out in disjoint ranges::

    PLAY   colour * 1024 + druid_cards * 32 + xp_cards      0 .. 5119
    TAKE   A_TAKE + type        (dig site: take one display fragment)
    RETURN A_RETURN + type      (ruin: return one own fragment)
    A_DRAW, A_DECLINE           (sacred place)
    XTAKE  A_XTAKE + type       (final exchange: take, costs `take_price` XP)
    XSWAP  A_XSWAP + give * 16 + take   (final exchange: swap, costs `swap_price` XP)
    A_XDONE                     (final exchange: stop)
    A_PASS                      (XP-only player passes; `xp_requires_druid_in_hand = false`)
"""

MAX_PLAYERS = 5
N_COLOURS = 5
MAX_TYPES = 9
MAX_LAYERS = 10  # copies per fragment type at most, hence amulets (complete or not) per player
MAX_LOCATIONS = 40
MAX_PER_COLOUR = 31  # Druid or XP cards of one colour; fits the 5-bit fields of a PLAY action

(
    OVER,
    REASON,
    NP,
    SEAT,
    PHASE,
    PENDING,
    ROUND,
    TURNS,
    STARTER,
    LAST_MOVER,
    HOME,
    EXCH_DONE,
    LAND,
    DISPLAY_N,
    RESERVE_N,
    RETURNED_N,
    PILE_N,
    DISCARD_N,
    XP_PILE_N,
    XP_DISCARD_N,
    HELD_N,
    FRAG_SHUFFLES,
    DRUID_SHUFFLES,
    XP_SHUFFLES,
    HEADER_LEN,
) = range(25)

POS = HEADER_LEN
DISPLAY = POS + N_COLOURS
RESERVE = DISPLAY + MAX_TYPES
RETURNED = RESERVE + MAX_TYPES
PILE = RETURNED + MAX_TYPES
DISCARD = PILE + N_COLOURS
XP_PILE = DISCARD + N_COLOURS
XP_DISCARD = XP_PILE + N_COLOURS
FRAG = XP_DISCARD + N_COLOURS
HAND = FRAG + MAX_PLAYERS * MAX_TYPES
XP = HAND + MAX_PLAYERS * N_COLOURS
PASSED = XP + MAX_PLAYERS * N_COLOURS
STATE_LEN = PASSED + MAX_PLAYERS

# Phases: who decides what next.
PH_PLAY, PH_DIG, PH_RUIN, PH_SACRED, PH_EXCHANGE, PH_OVER = range(6)

# End reasons, in the order of GAME.end_reasons.
END_REASONS = (
    "druid_home_round_end",
    "all_druids_home",
    "no_fragments",
    "first_druid_home",
    "turn_cap",
)
R_ROUND_END, R_ALL_HOME, R_NO_FRAGMENTS, R_FIRST_HOME, R_TURN_CAP = range(5)

# Location kinds on the track (Data.loc_kind); 0 is the Start space.
K_START, K_DIG, K_RUIN, K_SACRED = range(4)

# Action ranges (see the module docstring).
PLAY_SPAN = N_COLOURS * 1024
A_TAKE = 5120
A_RETURN = 5136
A_DRAW = 5152
A_DECLINE = 5153
A_XTAKE = 5160
A_XSWAP = 5184
A_XDONE = 5400
A_PASS = 5401
MAX_ACTIONS = PLAY_SPAN + 1  # the largest legal set: every PLAY split, plus PASS


def play_action(colour: int, druid_cards: int, xp_cards: int) -> int:
    """The action id of playing ``druid_cards`` + ``xp_cards`` cards of ``colour``."""
    return colour * 1024 + druid_cards * 32 + xp_cards
