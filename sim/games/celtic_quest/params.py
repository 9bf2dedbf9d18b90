"""Celtic Quest data: load and validate ``celtic_quest.toml`` (every rules number of
rules/celtic-quest.md except the tiles, which are ``tiles.toml``) and declare the parameters: the
levers of §12 and the §10 rulings that have one, each defaulting to the data value at its path.

The check of a data file (shipped, variant file or overridden) runs in three passes, each error a
one-line DataFileError naming the file and the key:

1. shape: every table and key of :data:`SCHEMA` is there with a value of the right type and range
   (no unknown key, so a misspelt key in a variant file is an error, not a silent no-op);
2. levers: a value that is a parameter's default passes that parameter's declaration
   (:data:`LEVERS`, one source for the data check and the declared range);
3. counts: the components agree with each other and with the tile catalogue (11 destinies of
   which 6 basic, 18 quests, quest resources among the game's, tables complete for 2-5 players).

Celtic Trader's levers (Romans, supply, draws, bag tokens, upgrade costs, the Celtic Trader
rulings) keep Celtic Trader's declarations, with their defaults read from this file.

Not a registered game yet (issue 13): the engine compiles its arrays from here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from sim.core.datafile import DataFileError, data_error
from sim.core.gamedata import GameData, get_value, show_value
from sim.core.params import Param, ParamError, ParamSet
from sim.games.celtic_quest.mapgen import TILES_FILE, load_catalogue
from sim.games.celtic_trader import params as trader

DATA_FILE = Path(__file__).with_name("celtic_quest.toml")

MAX_PLAYERS = 5
N_RES = 6
N_LEVELS = 5  # capability levels 0..4
MAX_CARDS = 32  # destiny or quest cards
MAX_CRYSTALS = 32
MAX_POUCH = 6
MAX_QUESTS_HELD = 3
MAX_SPELL_BOXES = 24
N_ENCHANTABLE = sum(t.enchantable for t in load_catalogue().tiles)  # 12: 10 plain + Regni, Cantii

BONUS_TRACKS = ("movement", "trading", "carrying")  # destiny VP by upgrades bought
START_RULES = (
    "stone_circle",
    "any_bastion",
    "woods_tile",
    "hills_tile",
    "enchantable_tile",
    "resource_section",
    "anywhere",
)
# Quest abilities and the largest `amount` each may have.
QUEST_ABILITIES = {
    "extra_mp": 3,
    "draw_extra": 2,
    "free_entry": 1,
    "carry_plus": 2,
    "free_pickup_plus": 2,
    "delivery_rp_plus": 10,
    "ignore_roman_once": 3,
    "upgrade_discount": 10,
    "move_roman_once": 3,
    "crystal_vp_plus": 12,
    "none": 0,
}
# The items in the file's order, and the effect each has.
ITEM_EFFECTS = {
    "gold": "pass_roman",
    "bread": "extra_tile",
    "ring": "delivery_rp",
    "elixir": "free_pickup",
}

Check = Callable[[Any, str], None]


def _fail(key: str, what: str) -> DataFileError:
    return data_error(DATA_FILE, key, what)


def _bad(path: str, value: Any, allowed: str) -> DataFileError:
    return _fail(path, f"= {show_value(value)} is not allowed: {allowed}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(low: int, high: int) -> Check:
    def check(v: Any, path: str) -> None:
        if not _is_int(v) or not low <= v <= high:
            raise _bad(path, v, f"an integer in [{low}, {high}]")

    return check


def _ints(length: int | None, low: int, high: int, rising: bool = False) -> Check:
    """A list of ``length`` (any number if None) integers in [low, high], that do not decrease
    if ``rising``."""
    count = "" if length is None else f"{length} "
    what = f"a list of {count}integers in [{low}, {high}]" + (", not decreasing" if rising else "")

    def check(v: Any, path: str) -> None:
        ok = isinstance(v, list) and bool(v) and len(v) == (length or len(v))
        ok = ok and all(_is_int(x) and low <= x <= high for x in v)
        if not ok or (rising and any(a > b for a, b in zip(v, v[1:], strict=False))):
            raise _bad(path, v, what)

    return check


def _names(length: int | None = None) -> Check:
    """A list of distinct non-empty strings (``length`` of them when given)."""

    def check(v: Any, path: str) -> None:
        ok = isinstance(v, list) and all(isinstance(x, str) and x for x in v)
        if not ok or len(set(v)) != len(v) or (length is not None and len(v) != length):
            count = f"{length} " if length is not None else ""
            raise _bad(path, v, f"a list of {count}distinct names")

    return check


def _one_of(*choices: Any) -> Check:
    def check(v: Any, path: str) -> None:
        if not any(type(v) is type(c) and v == c for c in choices):
            raise _bad(path, v, "one of " + ", ".join(show_value(c) for c in choices))

    return check


def _text(v: Any, path: str) -> None:
    if not isinstance(v, str):
        raise _bad(path, v, "a string")


def _flag(v: Any, path: str) -> None:
    if not isinstance(v, bool):
        raise _bad(path, v, "true or false")


def _by_players(low: int, high: int) -> Check:
    """A table {player count: integer in [low, high]} for the counts 2..5."""

    def check(v: Any, path: str) -> None:
        keys = [str(p) for p in range(2, MAX_PLAYERS + 1)]
        if not isinstance(v, dict) or sorted(v) != keys:
            raise _bad(path, v, f"a table with keys {', '.join(keys)} (player counts)")
        for key in keys:
            _int(low, high)(v[key], f"{path}.{key}")

    return check


LEVER = None  # in SCHEMA: a parameter's default, checked by its declaration (LEVERS)

_BONUS = _ints(N_LEVELS, 0, 1000, rising=True)
SCHEMA: dict[str, Any] = {
    "game": {
        "id": _one_of("celtic_quest"),
        "title": _text,
        "version": _text,
        "players_min": _int(2, MAX_PLAYERS),
        "players_max": _int(2, MAX_PLAYERS),
        "resources": _names(N_RES),
        "terrains": _names(),
        "demand_columns": _ints(5, 1, 100, rising=True),
        "draws_per_turn": LEVER,
        "supply_points": LEVER,
        "ten_markers": LEVER,
        "ten_marker_value": _int(1, 1000),
        "rp_per_vp": _int(1, 10),
        "safety_cap_rounds": LEVER,
    },
    "components": {
        key: _int(0, 200)
        for key in (
            "player_markers",
            "capability_markers_per_player",
            "player_sheets",
            "reference_sheets",
            "bastion_charts",
            "spell_track_markers",
            "rp_vp_markers",
            "destiny_cards",
            "destiny_basic",
            "quest_cards",
            "tiles",
            "tiles_set_aside",
            "tiles_in_stack",
            "resource_tokens_per_type",
            "bastion_markers_per_type",
        )
    },
    "tokens": {
        "resource_per_type": _int(1, 20),
        "resource_on_map_per_type": _int(0, 20),
        "resource_in_bag_per_type": LEVER,
        "roman": _int(0, 20),
        "roman_removed_by_players": _by_players(0, 20),
        "cycle": _int(1, 3),
        "orders": LEVER,
        "romanisation": LEVER,
        "druid": LEVER,
        "crystal": LEVER,
    },
    "capabilities": {
        "upgrade_cost": _ints(N_LEVELS, 0, 100, rising=True),
        "movement": _ints(N_LEVELS, 1, 100, rising=True),
        "trading": _ints(N_LEVELS, 0, 100, rising=True),
        "carrying_x": _ints(N_LEVELS, 1, 5, rising=True),
        "carrying_y": _ints(N_LEVELS, 0, 5, rising=True),
        "start_level": _int(0, N_LEVELS - 1),
    },
    "map": {
        "mode": LEVER,
        "pool": LEVER,
        "catalogue": _one_of(TILES_FILE.name),
        "unconnected_spots_max": LEVER,
        "enchantable_tiles": LEVER,
        "placement": _one_of("seat_order"),
        "bot_placement": LEVER,
        "stuck_tile": _one_of("bottom_of_stack"),
        "adjustment": _one_of("rebuild"),
        "quick_setup": _one_of(False),  # G6: not modelled
    },
    "start_demand": {"rule": _one_of("nearest_in_play_spot"), "column_cap": _int(1, 5)},
    "setup": {"quests_dealt": LEVER, "quests_held_max": LEVER},
    "destiny_deal": {
        "advanced": LEVER,
        "basic_draw": _int(1, 2),
        "advanced_draw": LEVER,
        "advanced_keep": _one_of(1),
        "luckiest": LEVER,
    },
    "start_rules": {rule: _text for rule in START_RULES},
    "destinies": [
        {
            "id": _text,
            "tier": _one_of("basic", "advanced"),
            "name": _text,
            "start": _one_of(*START_RULES),
            **{track: _BONUS for track in BONUS_TRACKS},
            "rp_as_vp": _int(0, 100),
            "quests_vp": _BONUS,
            "crystal_vp_each": _int(0, 100),
            "roman_town_vp_each": _int(0, 100),
            "tribe_vp_each": _int(0, 100),
            "best_basic": _flag,
            "add_last": _flag,
        }
    ],
    "quest_abilities": {ability: _text for ability in QUEST_ABILITIES},
    "quests": [
        {
            "id": _text,
            "name": _text,
            "needs": _names(2),
            "vp": _int(0, 100),
            "ability": _one_of(*QUEST_ABILITIES),
            "amount": _int(0, max(QUEST_ABILITIES.values())),
            "terrain": _text,
        }
    ],
    "items": [
        {
            "id": _one_of(*ITEM_EFFECTS),
            "name": _text,
            "count": _int(0, 20),
            "start_by_seat": _ints(MAX_PLAYERS, 0, MAX_POUCH),
            "effect": _one_of(*ITEM_EFFECTS.values()),
            "amount": _int(0, 20),
        }
    ],
    "pouch": {
        "max": LEVER,
        "unused_at_setup": _one_of("out_of_game"),
        "five_player_items": LEVER,
    },
    "enchantment": {
        "crystal_spots_per_tile": _int(0, 3),
        "plain_roman_spots": _int(0, 3),
        "bastion_roman_spots_per_arm": _int(0, 1),
        "roman_town_hub_spots": _int(0, 3),
        "roman_town_arm_spots": _int(0, 1),
        "druid_spell_steps": _int(0, 3),
        "crystal_spell_steps": _int(0, 3),
        "quest_spell_steps": _int(0, 3),
    },
    "spell_track": {
        "start_box": _int(0, MAX_SPELL_BOXES - 1),
        "end_box": LEVER,
        "crystal_vp": _ints(None, 0, 100),
    },
    "end": {
        "romanised_bastions": _int(1, 6),
        "supply_exhausted": _one_of("end_of_turn"),
        "round_limit": LEVER,
    },
    "scoring": {"tie_break": LEVER, "undelivered_crystal_vp": _int(0, 100)},
    "rulings": {
        key: LEVER
        for key in (
            "first_placement_on_roman",
            "items_after_use",
            "quest_vp_source",
            "harp_bonus",
            "ring_bonus",
            "crystal_delivery",
            "elixir_on_crystals",
            "breads_per_turn",
            "ability_same_visit",
            "demand_raise_target",
            "trading_bonus",
        )
    }
    | {"item_drawn_from_bag": _one_of("to_drawer_pouch")},
}


def _trader(name: str, **changes: Any) -> Param:
    """Celtic Trader's declaration of ``name``: the same lever, the same range and help."""
    return replace(trader.PARAMS.get(name), **changes)


def _switch(name: str, choices: tuple[str, ...], doc: str, provisional: bool = False) -> Param:
    return Param(name, "str", None, doc, choices=choices, provisional=provisional)


def _count(name: str, low: int, high: int, doc: str, provisional: bool = False) -> Param:
    return Param(name, "int", None, doc, low=low, high=high, provisional=provisional)


def _flag_param(name: str, doc: str) -> Param:
    return Param(name, "bool", None, doc)


# Every declared parameter but romans_in_play (a table by player count) and the data path its
# default is read from. The data value at that path is checked by the declaration.
LEVERS: tuple[tuple[Param, str], ...] = (
    (_trader("turn_limit"), "end.round_limit"),
    (
        _trader(
            "map_mode",
            doc="map: generated (every game builds its own from tiles.toml, §3.1-3.3, seeded by "
            "the game's seed) or fixed (the Celtic Trader layout of the same tiles)",
        ),
        "map.mode",
    ),
    (
        _count(
            "map_pool",
            0,
            100_000,
            "generated maps: each game plays one of this many maps, each built once per variant "
            "when a game first plays it (map k from seed k), chosen by the game's seed; 0: every "
            "game builds its own map (a few hundred games/s)",
        ),
        "map.pool",
    ),
    (
        _switch(
            "map_placement",
            ("random", "players"),
            "generated maps: who places each tile (§3.1 item 2, B17): random (uniform over the "
            "legal positions and rotations, the bots' default policy) or players (the bot of "
            "the seat drawing it chooses: random uniformly, greedy by its estimate)",
        ),
        "map.bot_placement",
    ),
    (
        _trader(
            "first_placement_on_roman",
            doc="first placement on a Roman: stop (ends the turn unless a gold is used, B25) "
            "or relocate_first (move or leave that Roman, no gold needed)",
        ),
        "rulings.first_placement_on_roman",
    ),
    (_trader("demand_raise_target"), "rulings.demand_raise_target"),
    (_trader("trading_bonus"), "rulings.trading_bonus"),
    (_trader("draws_per_turn"), "game.draws_per_turn"),
    (_trader("supply_points"), "game.supply_points"),
    (_trader("ten_markers"), "game.ten_markers"),
    (_trader("safety_cap_rounds"), "game.safety_cap_rounds"),
    (_trader("resource_in_bag_per_type"), "tokens.resource_in_bag_per_type"),
    (_trader("orders_tokens"), "tokens.orders"),
    (_trader("romanisation_tokens"), "tokens.romanisation"),
    *((_trader(f"upgrade_cost_{i}"), f"capabilities.upgrade_cost.{i}") for i in range(1, N_LEVELS)),
    (
        _flag_param(
            "advanced",
            "advanced rules (§4.11): all destiny cards, each player draws advanced_destiny_draw "
            "and keeps one; false: the 6 basic cards, one each",
        ),
        "destiny_deal.advanced",
    ),
    (
        _flag_param("luckiest", "the advanced destiny deck holds the Luckiest (false: 10 cards)"),
        "destiny_deal.luckiest",
    ),
    (
        _count("advanced_destiny_draw", 1, 2, "destiny cards each player draws (advanced rules)"),
        "destiny_deal.advanced_draw",
    ),
    (
        _count("quests_dealt", 0, MAX_QUESTS_HELD, "quest cards dealt to each player"),
        "setup.quests_dealt",
    ),
    (
        _count("quests_held", 1, MAX_QUESTS_HELD, "uncompleted quest cards a player may hold"),
        "setup.quests_held_max",
    ),
    (_count("druid_tokens", 0, 3, "druid tokens in the bag"), "tokens.druid"),
    (_count("crystals", 0, MAX_CRYSTALS, "crystal tokens in the game"), "tokens.crystal"),
    (
        _count(
            "spell_track_length",
            1,
            MAX_SPELL_BOXES,
            "spell track box that ends the game (crystals valued by spell_track.crystal_vp)",
        ),
        "spell_track.end_box",
    ),
    (
        _count(
            "enchantable_tiles",
            0,
            N_ENCHANTABLE,
            f"tiles with an enchanted side in play (crystal spots); fewer than {N_ENCHANTABLE}: "
            "the first ones of tiles.toml, the others are never enchanted",
            provisional=True,
        ),
        "map.enchantable_tiles",
    ),
    (
        _count(
            "unconnected_spots_max",
            0,
            18,
            "resource spots off the Stone Circle's roads a map may have (more: the map is rebuilt)",
        ),
        "map.unconnected_spots_max",
    ),
    (_count("pouch_limit", 0, MAX_POUCH, "items a player may hold"), "pouch.max"),
    (
        _switch(
            "five_player_items",
            ("bag", "removed"),
            "at 5 players, the items no seat starts with: into the bag at setup (revised ruling, "
            "§3 item 4), or removed from the game (the earlier ruling); below 5 always removed",
        ),
        "pouch.five_player_items",
    ),
    (_count("bread_extra_tiles", 0, 6, "tiles of movement a bread adds"), "items.bread.amount"),
    (_count("ring_extra_rp", 0, 20, "RP a ring adds to a delivery"), "items.ring.amount"),
    (
        _count("elixir_free_pickups", 0, 3, "pick-ups an elixir frees from the Y count"),
        "items.elixir.amount",
    ),
    (
        _switch(
            "items_after_use",
            ("discard_pile", "removed_from_game"),
            "used or discarded items: to the discard pile, back to the bag with the cycle token "
            "(B3), or removed_from_game",
            provisional=True,
        ),
        "rulings.items_after_use",
    ),
    (
        _switch(
            "ring_bonus",
            ("per_token", "per_delivery"),
            "ring: +RP on one delivered token, one ring per token (B7), or once per delivery",
        ),
        "rulings.ring_bonus",
    ),
    (
        _switch(
            "harp_bonus",
            ("per_token", "per_delivery"),
            "Harp-type quests: +RP per delivered token (B6), or once per delivery",
        ),
        "rulings.harp_bonus",
    ),
    (
        _switch(
            "crystal_delivery",
            ("player_choice", "all_or_none"),
            "crystals delivered at the Stone Circle: any number, one batch (B14), or all carried",
        ),
        "rulings.crystal_delivery",
    ),
    (
        _switch(
            "quest_vp_source",
            ("end_count", "supply"),
            "quest VP: counted at the end from the face-up cards (B5), or taken from the RP/VP "
            "supply at completion",
        ),
        "rulings.quest_vp_source",
    ),
    (
        _switch(
            "tie_break",
            ("most_quests", "shared"),
            "tied scores: most completed quests wins, then shared; or shared at once",
        ),
        "scoring.tie_break",
    ),
    (
        _flag_param("elixir_on_crystals", "an elixir also frees a crystal pick-up (B8)"),
        "rulings.elixir_on_crystals",
    ),
    (
        _count("breads_per_turn", 0, 6, "breads usable in one turn (0 = any number, B9)"),
        "rulings.breads_per_turn",
    ),
    (
        _flag_param(
            "ability_same_visit",
            "a completed quest's ability works from its completion on (B16); false: from the "
            "player's next turn",
        ),
        "rulings.ability_same_visit",
    ),
)


def _declared(raw: dict[str, Any], p: Param, path: str) -> Param:
    """``p`` with its default (and, for the spell track, its range) read from ``raw``."""
    if p.name == "spell_track_length":  # one crystal value per box
        p = replace(p, high=min(p.high, len(raw["spell_track"]["crystal_vp"]) - 1))
    return replace(p, default=get_value(raw, path))


def _check_shape(node: Any, schema: Any, path: str) -> None:
    """Pass 1: ``node`` has every key of ``schema``, no other, each value of the right type."""
    if isinstance(schema, list):  # [[records]], addressed by their unique id
        if not isinstance(node, list) or not node:
            raise _bad(path, node, "a list of [[" + path + "]] records")
        seen: set[str] = set()
        for i, record in enumerate(node):
            rid = record.get("id") if isinstance(record, dict) else None
            if not isinstance(rid, str) or rid in seen:
                raise _fail(f"{path}.{i}.id", "must be a name no other record has")
            seen.add(rid)
            _check_shape(record, schema[0], f"{path}.{rid}")
        return
    if not isinstance(schema, dict):
        schema(node, path)
        return
    if not isinstance(node, dict):
        raise _bad(path, node, "a table")
    for key in node:
        if key not in schema:
            raise _fail(f"{path}.{key}" if path else key, "is not a Celtic Quest key (misspelt?)")
    for key, sub in schema.items():
        where = f"{path}.{key}" if path else key
        if key not in node:
            raise _fail(where, "is missing")
        if sub is not LEVER:
            _check_shape(node[key], sub, where)


def _check_levers(raw: dict[str, Any]) -> None:
    """Pass 2: every parameter's default, read from the data, passes its declaration."""
    kinds = {"bool": bool, "str": str}
    for p, path in LEVERS:
        p = _declared(raw, p, path)
        value = p.default
        try:
            if not (isinstance(value, kinds[p.kind]) if p.kind in kinds else _is_int(value)):
                raise ParamError(p.name)
            p.validate(value)
        except ParamError:
            raise _bad(path, value, f"{p.allowed()} (parameter {p.name})") from None


def _require(ok: bool, key: str, what: str) -> None:
    if not ok:
        raise _fail(key, what)


def _check_counts(raw: dict[str, Any]) -> None:
    """Pass 3: the counts agree with each other, with the tiles and with 2-5 players."""
    g, comp, tok = raw["game"], raw["components"], raw["tokens"]
    players = g["players_max"]
    _require(
        g["players_min"] <= players <= comp["player_markers"],
        "game.players_max",
        "must be at least players_min and at most components.player_markers",
    )
    for key in ("player_sheets", "reference_sheets"):
        _require(comp[key] >= players, f"components.{key}", "one per player")
    _require(
        comp["capability_markers_per_player"] == len(BONUS_TRACKS),
        "components.capability_markers_per_player",
        "one per capability: 3",
    )
    _require(
        comp["bastion_markers_per_type"] == comp["bastion_charts"],
        "components.bastion_markers_per_type",
        "one per bastion chart",
    )
    _require(
        raw["end"]["romanised_bastions"] <= comp["bastion_charts"],
        "end.romanised_bastions",
        "at most the number of bastions",
    )
    _require(
        comp["resource_tokens_per_type"]
        == tok["resource_per_type"] + comp["bastion_markers_per_type"],
        "components.resource_tokens_per_type",
        "= tokens.resource_per_type + components.bastion_markers_per_type",
    )
    _require(
        tok["resource_on_map_per_type"] + tok["resource_in_bag_per_type"]
        <= tok["resource_per_type"],
        "tokens.resource_per_type",
        "must hold the tokens on the map and in the bag",
    )
    cat = load_catalogue()
    for key, n in (
        ("tiles", len(cat.tiles)),
        ("tiles_set_aside", sum(t.set_aside for t in cat.tiles)),
        ("tiles_in_stack", len(cat.stack)),
    ):
        _require(comp[key] == n, f"components.{key}", f"must be {n}, as in {TILES_FILE.name}")
    removed = tok["roman_removed_by_players"]
    _require(
        max(removed.values()) <= tok["roman"],
        "tokens.roman_removed_by_players",
        "at most tokens.roman",
    )
    _require(
        raw["capabilities"]["upgrade_cost"][0] == 0,
        "capabilities.upgrade_cost",
        "level 0 is free (0)",
    )
    _require(
        raw["start_demand"]["column_cap"] <= len(g["demand_columns"]),
        "start_demand.column_cap",
        "at most the number of demand columns",
    )
    sp = raw["spell_track"]
    _require(sp["start_box"] < sp["end_box"], "spell_track.start_box", "before end_box")
    _check_cards(raw, players)
    _check_items(raw, players)


def _check_cards(raw: dict[str, Any], players: int) -> None:
    """Destiny and quest cards: counts, deals for players_max, quest resources and abilities."""
    comp, g = raw["components"], raw["game"]
    dest, quests = raw["destinies"], raw["quests"]
    basic = [d for d in dest if d["tier"] == "basic"]
    later = [d for d in dest if d["tier"] == "advanced" and not d["add_last"]]
    _require(
        len(dest) == comp["destiny_cards"] <= MAX_CARDS,
        "destinies",
        f"must list components.destiny_cards ({comp['destiny_cards']}) cards",
    )
    _require(
        len(basic) == comp["destiny_basic"],
        "destinies",
        f"must hold components.destiny_basic ({comp['destiny_basic']}) basic cards",
    )
    for d in dest:
        _require(
            d["tier"] == "advanced" or not d["add_last"],
            f"destinies.{d['id']}.add_last",
            "only an advanced card is added last",
        )
    deal = raw["destiny_deal"]
    _require(
        players * deal["basic_draw"] <= len(basic),
        "destiny_deal.basic_draw",
        f"{players} players need that many basic cards each",
    )
    _require(
        players * deal["advanced_draw"] <= len(basic) + len(later),
        "destiny_deal.advanced_draw",
        f"{players} players need that many advanced-deck cards each (without add_last)",
    )
    _require(
        len(quests) == comp["quest_cards"] <= MAX_CARDS,
        "quests",
        f"must list components.quest_cards ({comp['quest_cards']}) cards",
    )
    setup = raw["setup"]
    _require(
        setup["quests_dealt"] <= setup["quests_held_max"],
        "setup.quests_dealt",
        "at most setup.quests_held_max",
    )
    _require(
        players * setup["quests_dealt"] <= len(quests),
        "setup.quests_dealt",
        f"{players} players need that many quest cards each",
    )
    for q in quests:
        where = f"quests.{q['id']}"
        for r in q["needs"]:
            _require(
                r in g["resources"],
                f"{where}.needs",
                f"has an unknown resource '{r}' (known: {', '.join(g['resources'])})",
            )
        if q["ability"] == "free_entry":
            _require(
                q["terrain"] in g["terrains"],
                f"{where}.terrain",
                f"one of {', '.join(g['terrains'])} for free_entry",
            )
        else:
            _require(q["terrain"] == "", f"{where}.terrain", 'only free_entry has one (else "")')
        high = QUEST_ABILITIES[q["ability"]]
        _require(q["amount"] <= high, f"{where}.amount", f"at most {high} for {q['ability']}")


def _check_items(raw: dict[str, Any], players: int) -> None:
    """Items: their effects, and starting items that fit the pouch and the box."""
    pouch = raw["pouch"]["max"]
    for item in raw["items"]:
        where = f"items.{item['id']}"
        effect = ITEM_EFFECTS[item["id"]]
        _require(item["effect"] == effect, f"{where}.effect", f"the {item['id']}'s is '{effect}'")
        _require(
            sum(item["start_by_seat"]) <= item["count"],
            f"{where}.start_by_seat",
            f"must hand out at most count ({item['count']}) items",
        )
    for seat in range(players):
        held = sum(item["start_by_seat"][seat] for item in raw["items"])
        _require(held <= pouch, "items", f"seat {seat + 1} starts with more than pouch.max items")


def _validate(raw: dict[str, Any]) -> None:
    """The game's own checks of a data file (shipped, variant file or overridden)."""
    _check_shape(raw, SCHEMA, "")
    ids = [item["id"] for item in raw["items"]]
    _require(ids == list(ITEM_EFFECTS), "items", f"must be, in order: {', '.join(ITEM_EFFECTS)}")
    _check_levers(raw)
    _check_counts(raw)


def param_set(raw: dict[str, Any]) -> ParamSet:
    """The declared parameters, their defaults read from ``raw``."""
    g, tok = raw["game"], raw["tokens"]
    removed = tok["roman_removed_by_players"]
    romans = {
        p: tok["roman"] - removed[str(p)] for p in range(g["players_min"], g["players_max"] + 1)
    }
    params = [_trader("romans_in_play", default=romans, high=tok["roman"])]
    params += [_declared(raw, p, path) for p, path in LEVERS]
    return ParamSet(tuple(params))


GAME_DATA = GameData(DATA_FILE, tuple(SCHEMA), _validate, param_set)


def load_raw() -> dict[str, Any]:
    """The parsed, validated shipped data file (cached for the process)."""
    return GAME_DATA.read()


PARAMS = param_set(load_raw())


def destiny_deck(raw: dict[str, Any], advanced: bool, luckiest: bool) -> tuple[str, ...]:
    """The destiny ids shuffled at setup: the basic cards; under the advanced rules all of them,
    the cards added last (the Luckiest) only with ``luckiest``."""
    return tuple(
        d["id"]
        for d in raw["destinies"]
        if d["tier"] == "basic" or (advanced and (luckiest or not d["add_last"]))
    )


def bag_at_setup(raw: dict[str, Any], params: dict[str, Any]) -> int:
    """Tokens in the bag at setup (§3 item 10): resources, the special tokens and the Romans."""
    return (
        len(raw["game"]["resources"]) * params["resource_in_bag_per_type"]
        + raw["tokens"]["cycle"]
        + params["orders_tokens"]
        + params["romanisation_tokens"]
        + params["druid_tokens"]
        + params["romans_in_play"]
    )
