"""Celtic Quest (rules/celtic-quest.md): the full game of which Celtic Trader is the
introduction, played by Celtic Trader's engine.

Celtic Trader's kernels (sim/games/celtic_trader/rules.py and turn.py) play it where the data's
rule ``R_QUEST`` is set and call Celtic Quest's hooks (``rules``) at the places marked "Celtic
Quest" there; its rules live in one module per part of the rulebook (destinies, quests and
their abilities, items, crystals, the druid, enchantment, the spell track, the score), listed
in ``rules``. The state and data extend Celtic Trader's (``layout``). Every game
builds its own map (``mapgen``, §3.1-3.3) unless ``map_mode = "fixed"``; the rules data is
``celtic_quest.toml`` (``params``: every §12 lever), compiled per game by ``compile``.
"""

from sim.core.registry import GameDecl
from sim.games.celtic_quest.decisions import DECISION_KINDS
from sim.games.celtic_quest.layout import END_REASONS
from sim.games.celtic_quest.params import GAME_DATA, PARAMS, load_raw


def _play(setup, seeds):
    from sim.games.celtic_quest.play import play

    return play(setup, seeds)


def _trace(setup, seed):
    from sim.games.celtic_quest.trace import trace

    return trace(setup, seed)


def _warmup() -> None:
    """Compile (or load from the numba cache) the kernels by playing one game of each bot."""
    import numpy as np

    from sim.core.registry import make_setup

    for bots in ("random", "greedy"):
        _play(make_setup("celtic_quest", 4, {}, bots), np.array([1], np.uint64))


def _prepare(setup) -> None:
    from sim.games.celtic_quest.play import build_pool

    build_pool(setup)


def _bots():
    from strategies.celtic_trader.decl import GREEDY_DECL, QUEST_SEARCH_DECL, RANDOM_DECL

    return (RANDOM_DECL, GREEDY_DECL, QUEST_SEARCH_DECL)


_raw = load_raw()
_extras = ("quests_completed", "tiebreak_quests")

GAME = GameDecl(
    id="celtic_quest",
    title="Celtic Quest",
    version=str(_raw["game"]["version"]),
    min_players=_raw["game"]["players_min"],
    max_players=_raw["game"]["players_max"],
    params=PARAMS,
    bots=_bots(),
    end_reasons=END_REASONS,
    score_components=("vp", "crystals", "quests", "destiny"),
    play=_play,
    trace=_trace,
    roles=tuple(d["id"] for d in _raw["destinies"]),
    role_label="destiny",
    role_modes=("random",),
    player_extras=_extras,
    tiebreak=("tiebreak_quests",),
    default_bot="greedy",
    warmup=_warmup,
    prepare=_prepare,
    data=GAME_DATA,
    decision_kinds=DECISION_KINDS,
)
