"""Declarations of the Celtic Trader bots (names, codes, parameters), importable without the
kernels so that the game's GameDecl can list them without a circular import."""

from sim.core.params import Param, ParamSet
from sim.core.registry import BotDecl
from strategies.search import search_bot_decl  # search hook (bot levels)

GREEDY_PARAMS = ParamSet(
    (
        Param(
            "claim_weight",
            "float",
            0.4,
            "value of one RP claimed as VP at the Stone Circle",
            low=0,
            high=10,
        ),
        Param(
            "endgame_claim_weight",
            "float",
            1.5,
            "the same once the game nears its end",
            low=0,
            high=10,
        ),
        Param(
            "pickup_weight",
            "float",
            0.8,
            "value of a fetched token relative to delivering it",
            low=0,
            high=10,
        ),
        Param(
            "min_token_value",
            "float",
            1.0,
            "least expected value of a token picked up on the way",
            low=0,
            high=100,
        ),
        Param(
            "move_utility",
            "float",
            6.0,
            "VP-equivalent of one Movement upgrade early on",
            low=0,
            high=100,
        ),
        Param(
            "trade_utility", "float", 3.0, "VP-equivalent of +1 Trading early on", low=0, high=100
        ),
        Param(
            "carry_utility",
            "float",
            6.0,
            "VP-equivalent of one Carrying upgrade early on",
            low=0,
            high=100,
        ),
        Param(
            "endgame",
            "float",
            0.6,
            "game progress (0..1: bastions Romanised, supply spent) from which the bot cashes in",
            low=0,
            high=1,
        ),
    )
)
G_CLAIM, G_END_CLAIM, G_PICKUP, G_MIN_TOKEN, G_U_MOVE, G_U_TRADE, G_U_CARRY, G_ENDGAME = range(8)

RANDOM_DECL = BotDecl("random", 0, "uniform over legal actions")
GREEDY_DECL = BotDecl(
    "greedy", 1, "plans pick-up and delivery on Roman-aware shortest paths", GREEDY_PARAMS
)

# search hook (bot levels): code 2, the search budget then greedy's weights for the rollouts.
# same=1 (issue 20): 3x the games/s at the same strength against greedy (2 players, 2,000 games
# seats swapped: 0.606 vs 0.603 without it). Celtic Quest plays the same kernels but loses
# strength to same=1 (0.727 vs 0.771 over 3,000 games) and same=2 (0.748); same=3 keeps it
# (0.766) at 1.4x the games/s of its whole race, so it has its own default.
SEARCH_DECL = search_bot_decl(GREEDY_DECL, rollouts=12, horizon=4, width=3, same=1)
QUEST_SEARCH_DECL = search_bot_decl(GREEDY_DECL, rollouts=12, horizon=4, width=3, same=3)
