"""Catan rules kernels: the kernel API (sim/games/README.md) and the search bot's hook.

``init_state``, ``current_player``, ``is_over``, ``legal_actions``, ``step``, ``advance``,
``scores`` and ``determinize``: pure ``@leaf`` functions over the flat state (state.py).

``step(state, action, data, rng, out)`` copies ``state`` into ``out`` and applies one decision
there; it never writes ``state``. Chance (the board shuffles, dice, development-card draws and
the card taken by a steal) comes only from the ``rng`` argument. Rule references are to
rules/catan-base.md (§ sections, A-numbered resolutions, B-numbered scenarios).

Turn shape (a phase machine, one decision per action)::

    SETUP_SETTLE -> SETUP_ROAD  (snake order: seats 0..n-1 then n-1..0 from the first player)
    PRE_ROLL: roll, or play one development card first
      roll 7 -> DISCARD (each seat over the threshold, one card per action) -> ROBBER -> STEAL
      else production -> MAIN
    MAIN: build, buy, maritime trade, play one development card, end the turn
      domestic offer -> TRADE (the others answer, the proposer picks; trade.py) -> MAIN
      Knight -> ROBBER -> STEAL; Road Building -> ROAD_BUILDING; Year of Plenty -> YOP
    end of turn -> SBP (5-6 players: each other seat builds or passes) -> next PRE_ROLL

The win is checked after every action taken in the active player's own turn, and when a turn
starts (§5); never in setup or in the Special Building Phase (§4.2).

The rules themselves live in one module per part of the rulebook (Great Wall and Troy call
into them):

- rules_setup: setup (§3), ``init_state``;
- rules_turn: a turn's start and end, the Special Building Phase, the win (§4.2, §5),
  ``step`` and ``advance``;
- rules_options: the legal actions of every phase, ``legal_actions``;
- rules_roll: dice, production, discards on a 7, the robber's victims (§4);
- rules_build: builds, card purchases and development card plays (§4, §4.1);
- rules_longest: longest road and largest army, placing roads and settlements (§4.3, A3);
- rules_placement: where a road or a settlement may go (§3, the distance rule);
- rules_hidden: hidden information, ``determinize`` (§7);
- rules_shared: readers (whose decision, pieces, VP, ``scores``, costs, harbour ratios)
  and paying or taking cards from the bank;
- trade.py: domestic trade.
"""

from sim.games.catan.rules_hidden import determinize
from sim.games.catan.rules_options import legal_actions
from sim.games.catan.rules_setup import init_state
from sim.games.catan.rules_shared import current_player, is_over, scores
from sim.games.catan.rules_turn import advance, step

__all__ = [
    "advance",
    "current_player",
    "determinize",
    "init_state",
    "is_over",
    "legal_actions",
    "scores",
    "step",
]
