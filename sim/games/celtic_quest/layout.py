"""Celtic Quest's extension of the Celtic Trader state, data and action layouts.

Celtic Quest is played by the Celtic Trader engine (sim/games/celtic_trader/rules.py): its
state is a Celtic Trader state (same offsets, ``state.STATE_LEN`` fields) followed by the quest
block below, and its compiled data is a Celtic Trader data array (``params.DATA_LEN`` fields,
rule ``R_QUEST`` = 1) followed by the quest tables below. Celtic Trader never reads past its own
layouts (every quest branch tests ``R_QUEST``), so its games are unchanged.

Quest block of the state (offsets from ``QBASE``)::

    header   SPELL CRYSTAL_SUPPLY QPILE_N QPILE_TOP QUEST_OUT NEXT RETURN_LEFT ITEM_DRAWN
             GOLD_ROMAN (section of the Roman passed with a gold, -1)
    ENCH     (MAX_TILES)  1 once the tile is enchanted
    TCRYST   (MAX_TILES)  crystals lying on the tile
    SPOT_OUT (MAX_SPOTS)  0 in play; 1 face-down token (out of play, §3.2); spot gone with its
                          tile enchanted: 2 its token left the game, 3 it was empty (SPOT is 0
                          for all of these: trader._resolve never refills them)
    QPILE    (MAX_QUESTS) quest ids, the draw pile from QPILE_TOP
    ITEMS_OUT (N_ITEMS)   items out of the game (used, under items_after_use = removed)
    players  MAX_PLAYERS blocks of QPW fields (QP_* below)
"""

from sim.games.celtic_trader.params import DATA_LEN, MAX_PLAYERS, MAX_SEC, MAX_SPOTS, N_RES
from sim.games.celtic_trader.state import MAX_ACTIONS, MAX_DELIVER, N_KINDS, STATE_LEN
from sim.games.celtic_trader.state import T_BREAD as T_BREAD
from sim.games.celtic_trader.state import T_CRYSTAL as T_CRYSTAL
from sim.games.celtic_trader.state import T_DRUID as T_DRUID
from sim.games.celtic_trader.state import T_ELIXIR as T_ELIXIR
from sim.games.celtic_trader.state import T_GOLD as T_GOLD
from sim.games.celtic_trader.state import T_RING as T_RING

MAX_TILES = 24
MAX_TSEC = 4  # sections of one tile (a bastion: hub + 3 arms)
MAX_QUESTS = 24
MAX_DESTINIES = 12
MAX_HELD = 3  # uncompleted quests a player may hold
N_ITEMS = 4  # gold, bread, ring, elixir (bag kinds T_GOLD + i)
I_GOLD, I_BREAD, I_RING, I_ELIXIR = range(N_ITEMS)
MAX_SPELL = 24
MAX_CARRIED_CRYSTALS = 8

# ---- state: quest block ----------------------------------------------------------------------
QBASE = STATE_LEN
SPELL = QBASE + 0
CRYSTAL_SUPPLY = QBASE + 1  # crystals not yet on the map, in a bag, carried or delivered
QPILE_N = QBASE + 2  # quest cards in the pile (from QPILE_TOP)
QPILE_TOP = QBASE + 3
QUEST_OUT = QBASE + 4  # quest cards discarded (out of the game)
NEXT = QBASE + 5  # where the flow resumes after an enchantment choice (NX_*)
RETURN_LEFT = QBASE + 6  # tokens still to put back in the bag (Talisman-type quests)
ITEM_DRAWN = QBASE + 7  # item kind drawn into a full pouch, -1 if none
GOLD_ROMAN = QBASE + 8  # section whose Roman was passed with a gold (its relocation), -1
DESTINY_OUT = QBASE + 9  # destiny cards discarded under the advanced deal
QHDR = 16
ENCH = QBASE + QHDR
TCRYST = ENCH + MAX_TILES
SPOT_OUT = TCRYST + MAX_TILES
QPILE = SPOT_OUT + MAX_SPOTS
ITEMS_OUT = QPILE + MAX_QUESTS
QPLAYERS = ITEMS_OUT + N_ITEMS

# per-player quest block
(
    QP_DESTINY,  # destiny card kept (-1 while the advanced choice is pending)
    QP_ALT0,  # the two cards drawn under the advanced deal (-1 when none)
    QP_ALT1,
    QP_NDONE,  # quests completed
    QP_DONE_MASK,  # bit q: quest q completed
    QP_QUEST_VP,  # printed VP of the completed quests
    QP_CRYST,  # crystals carried
    QP_CRYST_DONE,  # crystals delivered (in the VP box)
    QP_TRIBES,  # bit b: delivered at least one resource to bastion b
    QP_EXTRA_MP,  # abilities of the completed quests, summed by type
    QP_DRAW_EXTRA,
    QP_FREE_WOODS,
    QP_FREE_HILLS,
    QP_CARRY_PLUS,
    QP_PICK_PLUS,
    QP_DELIV_RP,
    QP_SHIELD,
    QP_ANVIL,
    QP_RAVEN,
    QP_CRYST_VP_PLUS,
    QP_SHIELD_USED,  # this turn
    QP_RAVEN_USED,  # this turn
    QP_BREADS_USED,  # this turn
    QP_FREE_PICKS,  # elixir pick-ups this turn (not counted toward Y)
    QP_RING_USED,  # rings used in this delivery visit (ring_bonus = per_delivery)
    QP_HARP_PAID,  # the per-delivery Harp bonus paid in this visit
    QP_PENDING_MASK,  # quests completed whose ability starts next turn (ability_same_visit off)
) = range(27)
QP_HELD = 27  # MAX_HELD slots: uncompleted quest ids, -1 for none
QP_ITEMS = QP_HELD + MAX_HELD  # N_ITEMS counts in the pouch
QPW = QP_ITEMS + N_ITEMS
QSTATE_LEN = QPLAYERS + MAX_PLAYERS * QPW

# ---- phases beyond Celtic Trader's (state.PH_*) ---------------------------------------------
(
    PH_DESTINY,  # keep one of the two destiny cards drawn (advanced)
    PH_RETURN,  # put a drawn token back in the bag unresolved (Talisman)
    PH_ENCHANT,  # choose the tile to enchant (druid, quest)
    PH_CRYSTAL_SPOT,  # choose an empty crystal spot for a drawn crystal
    PH_ITEM_DROP,  # a drawn item would be the 4th: discard one
    PH_GOLD_RELOC,  # after passing a Roman with a gold: move it or leave it
    PH_QUEST_DONE,  # at the Stone Circle: complete a quest or not
    PH_QUEST_DISCARD,  # discard an impossible quest or not
    PH_QUEST_DRAW,  # draw a quest or not
    PH_CRYSTALS,  # deliver crystals (how many)
    PH_RAVEN,  # move any Roman before moving (Raven-type quests)
) = range(15, 26)

# where the flow resumes after an enchantment (druid: the drawn tokens; quest: the upgrades)
# or after a passed Roman's relocation (movement goes on; movement starts)
NX_TOKENS, NX_UPGRADE, NX_MOVE, NX_ENTER = 0, 1, 2, 3

# end reasons: Celtic Trader's four, then the spell track
END_SPELL = 4
END_REASONS = ("all_conquered", "supply_exhausted", "turn_limit", "turn_cap", "spell_complete")

# ---- actions beyond Celtic Trader's (ids from state.MAX_ACTIONS) -----------------------------
A_Q = MAX_ACTIONS
A_GOLD = A_Q  # + section: enter it (or start there) passing its Roman with a gold
A_SHIELD = A_GOLD + MAX_SEC  # + section: enter it passing its Roman with a Shield-type quest
A_ELIXIR = A_SHIELD + MAX_SEC  # + spot: pick it up with an elixir (not counted toward Y)
A_CRYSTAL = A_ELIXIR + MAX_SPOTS  # pick up a crystal of this tile
A_CRYSTAL_ELIXIR = A_CRYSTAL + 1  # the same with an elixir
A_BREAD = A_CRYSTAL + 2  # eat a bread: + bread_extra_tiles MP this turn
A_DROP_ITEM = A_BREAD + 1  # + item: discard it from the pouch
A_DROP_CRYSTAL = A_DROP_ITEM + N_ITEMS  # discard a carried crystal
A_TILE = A_DROP_CRYSTAL + 1  # + tile: enchant it / put the drawn crystal on it
A_ITEM = A_TILE + MAX_TILES  # + item: the item to give up (full pouch)
A_QUEST = A_ITEM + N_ITEMS  # + held slot: complete / discard that quest
A_YES = A_QUEST + MAX_HELD  # draw a quest
A_CRYSTALS = A_YES + 1  # + k: deliver k crystals (k >= 1)
A_DESTINY = A_CRYSTALS + MAX_CARRIED_CRYSTALS + 1  # + 0/1: keep that destiny card
# + (r * MAX_DELIVER + k - 1) * MAX_DELIVER + (j - 1): deliver k tokens of r using j rings
# (1 <= j <= k: one ring per token at most, B7)
A_RING = A_DESTINY + 2
A_ROMAN = A_RING + N_RES * MAX_DELIVER * MAX_DELIVER  # + section: move the Roman to it (gold
# relocation, Raven)
Q_MAX_ACTIONS = A_ROMAN + MAX_SEC

# ---- data: quest tables after the Celtic Trader data ----------------------------------------
(
    X_NTILES,
    X_SPELL_END,
    X_CRYSTALS,
    X_POUCH,
    X_ITEMS_REMOVED,
    X_RING_PER_VISIT,
    X_HARP_PER_VISIT,
    X_CRYSTAL_ALL,
    X_QUEST_VP_SUPPLY,
    X_ADVANCED_DRAW,  # destiny cards drawn per player (1 basic, 2 advanced)
    X_N_DESTINY_DECK,
    X_N_QUESTS,
    X_QUESTS_DEALT,
    X_QUESTS_HELD,
    X_RING_RP,
    X_BREAD_MP,
    X_ELIXIR_PICKS,
    X_ELIXIR_CRYSTALS,
    X_BREADS_PER_TURN,
    X_SAME_VISIT,
    X_TIE_MOST_QUESTS,
    X_DRUID_STEPS,
    X_CRYSTAL_STEPS,
    X_CRYSTAL_SPOTS,  # crystal spots of an enchanted tile
    X_DRUIDS,  # druid tokens in the bag at setup
    N_XRULES,
) = range(26)
N_START_RULES = 7
(
    S_STONE_CIRCLE,
    S_ANY_BASTION,
    S_WOODS,
    S_HILLS,
    S_ENCHANTABLE,
    S_RESOURCE,
    S_ANYWHERE,
) = range(N_START_RULES)
# quest ability types (celtic_quest.toml quests.ability)
QUEST_ABILITY_IDS = (
    "none",
    "extra_mp",
    "draw_extra",
    "free_entry",
    "carry_plus",
    "free_pickup_plus",
    "delivery_rp_plus",
    "ignore_roman_once",
    "upgrade_discount",
    "move_roman_once",
    "crystal_vp_plus",
)
(
    AB_NONE,
    AB_EXTRA_MP,
    AB_DRAW_EXTRA,
    AB_FREE_ENTRY,
    AB_CARRY_PLUS,
    AB_PICK_PLUS,
    AB_DELIV_RP,
    AB_SHIELD,
    AB_ANVIL,
    AB_RAVEN,
    AB_CRYST_VP,
) = range(11)
TERRAIN_WOODS, TERRAIN_HILLS = 1, 2  # bits of tile terrain

XDATA_LAYOUT = (  # (name, size)
    ("xrules", N_XRULES),
    ("tile_enchantable", MAX_TILES),  # 1 if it may be enchanted (within the lever's count)
    ("tile_terrain", MAX_TILES),  # TERRAIN_* bits
    ("tile_bast", MAX_TILES),  # bastion index of a bastion tile, else -1
    ("tile_nsec", MAX_TILES),
    ("tile_secs", MAX_TILES * MAX_TSEC),  # its sections, -1 padded
    ("sec_roman_e", MAX_SEC),  # 1 if the section keeps a Roman spot on the enchanted side
    ("sec_merge", MAX_SEC),  # the section it becomes once its tile is enchanted
    ("sec_connected", MAX_SEC),  # 1 if connected to the Stone Circle at setup
    ("spell_vp", MAX_SPELL + 1),  # crystal VP by final spell box
    ("destiny_deck", MAX_DESTINIES),  # destiny ids shuffled at setup (X_N_DESTINY_DECK)
    ("destiny_start", MAX_DESTINIES),  # S_* start rule
    ("destiny_upg", MAX_DESTINIES * 3 * 5),  # VP by upgrades bought, per capability
    ("destiny_rp_vp", MAX_DESTINIES),
    ("destiny_quests_vp", MAX_DESTINIES * 5),
    ("destiny_crystal_vp", MAX_DESTINIES),
    ("destiny_town_vp", MAX_DESTINIES),
    ("destiny_tribe_vp", MAX_DESTINIES),
    ("destiny_best_basic", MAX_DESTINIES),
    ("destiny_basic", MAX_DESTINIES),  # 1 for the basic cards (the Luckiest's choice)
    ("destiny_proxy", MAX_DESTINIES),  # Celtic Trader role of the same bonus, else -1
    ("quest_need", MAX_QUESTS * 2),
    ("quest_vp", MAX_QUESTS),
    ("quest_ability", MAX_QUESTS),  # AB_*
    ("quest_amount", MAX_QUESTS),
    ("quest_terrain", MAX_QUESTS),  # TERRAIN_* bit of a free_entry quest
    ("item_start", MAX_PLAYERS * N_ITEMS),  # items in each seat's pouch at setup
    ("item_bag", N_ITEMS),  # items put into the bag at setup (5 players, five_player_items)
)
_offsets = {}
_at = DATA_LEN
for _name, _size in XDATA_LAYOUT:
    _offsets[_name] = _at
    _at += _size
QDATA_LEN = _at
X_RULES = _offsets["xrules"]
X_TILE_ENCHANTABLE = _offsets["tile_enchantable"]
X_TILE_TERRAIN = _offsets["tile_terrain"]
X_TILE_BAST = _offsets["tile_bast"]
X_TILE_NSEC = _offsets["tile_nsec"]
X_TILE_SECS = _offsets["tile_secs"]
X_SEC_ROMAN_E = _offsets["sec_roman_e"]
X_SEC_MERGE = _offsets["sec_merge"]
X_SEC_CONNECTED = _offsets["sec_connected"]
X_SPELL_VP = _offsets["spell_vp"]
X_DESTINY_DECK = _offsets["destiny_deck"]
X_DESTINY_START = _offsets["destiny_start"]
X_DESTINY_UPG = _offsets["destiny_upg"]
X_DESTINY_RP_VP = _offsets["destiny_rp_vp"]
X_DESTINY_QUESTS_VP = _offsets["destiny_quests_vp"]
X_DESTINY_CRYSTAL_VP = _offsets["destiny_crystal_vp"]
X_DESTINY_TOWN_VP = _offsets["destiny_town_vp"]
X_DESTINY_TRIBE_VP = _offsets["destiny_tribe_vp"]
X_DESTINY_BEST_BASIC = _offsets["destiny_best_basic"]
X_DESTINY_BASIC = _offsets["destiny_basic"]
X_DESTINY_PROXY = _offsets["destiny_proxy"]
X_QUEST_NEED = _offsets["quest_need"]
X_QUEST_VP = _offsets["quest_vp"]
X_QUEST_ABILITY = _offsets["quest_ability"]
X_QUEST_AMOUNT = _offsets["quest_amount"]
X_QUEST_TERRAIN = _offsets["quest_terrain"]
X_ITEM_START = _offsets["item_start"]
X_ITEM_BAG = _offsets["item_bag"]

assert N_KINDS == T_GOLD + N_ITEMS
