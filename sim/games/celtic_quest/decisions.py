"""The kinds of decision a Celtic Quest seat takes: Celtic Trader's, then Celtic Quest's own
(``decision_kind`` is the shared engine's, sim/games/celtic_trader/decisions.py)."""

from sim.games.celtic_trader.kinds import DECISION_KINDS as TRADER_KINDS
from sim.games.celtic_trader.kinds import QUEST_KINDS

# the role draft does not exist in Celtic Quest: its column stays (always 0) so that the
# kinds keep the shared engine's indices
DECISION_KINDS = TRADER_KINDS + QUEST_KINDS
