"""Celtic Quest's hooks: the functions of its rules that the shared turn flow of Celtic Trader's
engine calls (sim/games/celtic_trader/turn.py and rules.py import this module as ``quest``).

Celtic Quest is Celtic Trader plus destinies, quests, items, crystals, the druid and
enchantment (rules/celtic-quest.md). Movement, the bag, delivery, conquest, the Stone Circle and
the RP/VP supply are Celtic Trader's engine; its turn flow calls the functions below where the
data says ``R_QUEST`` (the hooks are marked "Celtic Quest" there). The rules themselves live in
one module per part of the rulebook, each importing only Celtic Trader's primitives
(sim/games/celtic_trader/board, bag, conquest, supply, delivery), never its turn flow:

- queries: a seat's quest block and what quests change in Celtic Trader's numbers;
- tiles: enchanted tiles, Roman spots on them, the Roman town side (§4.3, §4.7);
- scoring: the score and the results row (§6, §9);
- items: discarding items, the pouch (§4.10);
- setup: Celtic Quest's set-up and the destinies (§3, §4.11);
- enchantment: the spell track and enchanting a tile (§4.3, §4.9);
- quests: abilities, completing, discarding and drawing quests, the Stone Circle (§4.5);
- tokens: the start of a turn and the bag tokens (§4.1, §4.2);
- movement: moves, pick-ups and first placement (§4.1, §4.4);
- delivery: deliveries with rings and Harp-type quests (§4.6);
- phases: the legal actions of Celtic Quest's own phases.

Everything works in place on the output buffer of Celtic Trader's ``step``. Rule references (§)
point into rules/celtic-quest.md.
"""

from sim.games.celtic_quest.delivery import at_bastion, deliver, deliver_actions
from sim.games.celtic_quest.enchantment import enchant
from sim.games.celtic_quest.items import drop_item, drop_item_choice, is_item_drop, item_drops
from sim.games.celtic_quest.movement import (
    apply_move,
    move_actions,
    move_roman,
    place_with_gold,
    raven_offered,
    start_actions,
)
from sim.games.celtic_quest.phases import legal
from sim.games.celtic_quest.queries import move_points
from sim.games.celtic_quest.quests import (
    completable,
    complete_quest,
    deliver_crystals,
    discard_quest,
    draw_quest,
    may_draw_quest,
    sc_step,
)
from sim.games.celtic_quest.setup import destiny_pending, keep_destiny, setup
from sim.games.celtic_quest.tokens import (
    begin_turn,
    draws_this_turn,
    must_return,
    place_crystal,
    resolve,
    return_token,
)

__all__ = [
    "apply_move",
    "at_bastion",
    "begin_turn",
    "completable",
    "complete_quest",
    "deliver",
    "deliver_actions",
    "deliver_crystals",
    "destiny_pending",
    "discard_quest",
    "draw_quest",
    "draws_this_turn",
    "drop_item",
    "drop_item_choice",
    "enchant",
    "is_item_drop",
    "item_drops",
    "keep_destiny",
    "legal",
    "may_draw_quest",
    "move_actions",
    "move_points",
    "move_roman",
    "must_return",
    "place_crystal",
    "place_with_gold",
    "raven_offered",
    "resolve",
    "return_token",
    "sc_step",
    "setup",
    "start_actions",
]
