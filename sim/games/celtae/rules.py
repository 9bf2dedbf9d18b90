"""Celtae rules kernels: the kernel API (sim/games/README.md) and the search bot's hook.

``init_state``, ``current_player``, ``is_over``, ``legal_actions``, ``step`` (pure: copies
``state`` into ``out`` and changes only ``out``), ``scores``, ``components`` and
``determinize``. Every decision of rules/celtae.md §7 is one action; the engine settles
everything else itself (automatic phases, a decision with one option, a declined optional
step), so a bot is only asked when it has a real choice. Chance (bag draws, deck draws and
reshuffles, Solitairix's card) comes from the ``rng`` argument.

The rules themselves live in one module per part of the rulebook:

- rules_setup: setup (§3, solo §3.3);
- rules_turn: rounds, a player's turn, the end of the game (§4.1, §4.2, §5), ``step``;
- rules_options: the options of every decision (§7, for §4.3-4.10);
- rules_actions: performing them: move, choose / refresh / swap, the four actions, citadel
  bonuses, bonus tokens (§4.3, §4.5, §4.7-4.9);
- rules_progress: progress event, leader flip, pile pawns (§4.4, §4.10);
- rules_solo: Solitairix's turn (§4.12);
- rules_scoring: final scoring (§6);
- rules_hidden: hidden information, ``determinize`` (§7);
- rules_shared: board vocabulary, worker counts and shared procedures (§4.0, §4.6, §4.11).
"""

from sim.games.celtae.rules_hidden import determinize
from sim.games.celtae.rules_options import legal_actions
from sim.games.celtae.rules_scoring import components, scores
from sim.games.celtae.rules_setup import init_state
from sim.games.celtae.rules_turn import current_player, is_over, step

__all__ = [
    "components",
    "current_player",
    "determinize",
    "init_state",
    "is_over",
    "legal_actions",
    "scores",
    "step",
]
