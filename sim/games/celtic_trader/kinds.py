"""The names of the kinds of decision of Celtic Trader and Celtic Quest (the ``act_<kind>``
columns), in a module of their own that imports nothing: the bot declarations
(strategies/celtic_trader/decl.py) name kinds and are imported while decisions.py is."""

DECISION_KINDS = (
    "role",  # 0..8: the phase's own decision, in the order of state.PH_*
    "relocate",
    "order",
    "place_token",
    "raise_demand",
    "place_roman",
    "orders",
    "romanise",
    "start",
    "move",  # 9: move to an adjacent section
    "pick_up",
    "discard",
    "end_move",
    "upgrade_movement",
    "upgrade_trading",
    "upgrade_carrying",
    "claim_vp",
    "deliver",
    "pass",  # no more upgrades, claims or deliveries
)
# Celtic Quest's kinds follow (its DECISION_KINDS extend this tuple): the decision of each of
# its phases (layout.PH_* order), then its own movement and delivery actions.
QUEST_KINDS = (
    "keep_destiny",
    "return_token",
    "enchant",
    "place_crystal",
    "drop_drawn_item",
    "relocate_passed_roman",
    "complete_quest",
    "discard_quest",
    "draw_quest",
    "deliver_crystals",
    "raven",
    "pass_roman_gold",
    "pass_roman_shield",
    "pick_up_elixir",
    "pick_up_crystal",
    "bread",
    "drop_item",
    "deliver_ring",
)
