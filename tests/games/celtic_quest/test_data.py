"""Celtic Quest rules data (rules/celtic-quest.md §2-§6, §9, §10, §12): the file loads and
validates, its counts are the spec's, every §12 lever is a declared parameter (or a data path)
with the spec's default, a broken file is a one-line error naming the key, and the PROVISIONAL
marks cover the gaps G1-G8.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from sim.core.datafile import DataFileError
from sim.core.gamedata import DataError, get_value
from sim.core.registry import GAME_MODULES
from sim.games.celtic_quest.params import (
    DATA_FILE,
    GAME_DATA,
    LEVER,
    LEVERS,
    PARAMS,
    SCHEMA,
    bag_at_setup,
    destiny_deck,
    load_raw,
)
from sim.games.celtic_trader.params import PARAMS as TRADER_PARAMS

RAW = load_raw()
TEXT = DATA_FILE.read_text()
RESOURCES = ("deer", "cloth", "wheat", "fish", "ore", "grape")


def by_id(table: str) -> dict[str, dict]:
    return {r["id"]: r for r in RAW[table]}


# ------------------------------------------------------------------------------------------------
# The file loads, validates, and is not a registered game yet
# ------------------------------------------------------------------------------------------------


def test_the_shipped_file_loads_and_validates():
    raw = GAME_DATA.read()
    assert raw == RAW and GAME_DATA.file == DATA_FILE
    game = raw["game"]
    assert (game["id"], game["title"]) == ("celtic_quest", "Celtic Quest")
    assert (game["players_min"], game["players_max"]) == (2, 5)
    assert isinstance(game["version"], str)
    assert GAME_DATA.required == tuple(SCHEMA)


def test_the_game_is_registered_with_a_checked_mode():
    from sim.core.check import invariants_module

    assert GAME_MODULES["celtic_quest"] == "sim.games.celtic_quest"
    assert invariants_module("celtic_quest").__name__ == "sim.games.celtic_quest.invariants"


# ------------------------------------------------------------------------------------------------
# Counts: §2 components, §3 setup, §9 tables
# ------------------------------------------------------------------------------------------------


def test_components_and_setup_counts_match_the_spec():
    comp, tok, game = RAW["components"], RAW["tokens"], RAW["game"]
    assert comp["player_markers"] == 5 and comp["capability_markers_per_player"] == 3
    assert comp["bastion_charts"] == 6 and RAW["end"]["romanised_bastions"] == 6
    assert (comp["tiles"], comp["tiles_set_aside"], comp["tiles_in_stack"]) == (24, 2, 21)
    assert comp["rp_vp_markers"] == 51 and game["supply_points"] == 114
    assert (game["ten_markers"], game["ten_marker_value"]) == (5, 10)
    assert comp["resource_tokens_per_type"] == 13  # 78 = 7 playing + 6 bastion markers per type
    assert (tok["resource_per_type"], tok["resource_on_map_per_type"]) == (7, 3)
    assert tok["resource_in_bag_per_type"] == 4
    assert tok["roman"] == 14 and tok["crystal"] == 16
    assert (tok["cycle"], tok["orders"], tok["romanisation"], tok["druid"]) == (1, 1, 1, 1)
    assert game["resources"] == list(RESOURCES) and game["draws_per_turn"] == 2
    assert game["demand_columns"] == [1, 2, 4, 6, 8]
    caps = RAW["capabilities"]
    assert caps["upgrade_cost"] == [0, 2, 4, 7, 10]
    assert caps["movement"][0] == 2 and caps["trading"][0] == 0 and caps["start_level"] == 0
    assert (caps["carrying_x"][0], caps["carrying_y"][0]) == (1, 0)
    assert RAW["setup"] == {"quests_dealt": 1, "quests_held_max": 1}
    assert RAW["pouch"]["max"] == 3
    assert RAW["map"]["unconnected_spots_max"] == 2 and RAW["map"]["enchantable_tiles"] == 12
    assert RAW["start_demand"]["column_cap"] == 5


def test_spell_track_G5():
    track = RAW["spell_track"]
    assert (track["start_box"], track["end_box"]) == (0, 12)
    assert track["crystal_vp"] == list(range(13))  # box k = k VP per crystal


@pytest.mark.parametrize(
    ("players", "romans", "bag"), [(2, 14, 42), (3, 13, 41), (4, 12, 40), (5, 11, 39)]
)
def test_Q4_romans_and_the_bag_at_setup(players, romans, bag):
    values = PARAMS.defaults(players)
    assert values["romans_in_play"] == romans
    assert bag_at_setup(RAW, values) == bag  # 24 resources + 4 specials + Romans


# Q5 and §3 item 4: starting items by seat; the box counts.
ITEMS = {  # id: (count, seats 1..5, effect, amount)
    "gold": (4, [1, 0, 0, 0, 1], "pass_roman", 1),
    "bread": (4, [0, 1, 0, 0, 1], "extra_tile", 1),
    "ring": (3, [0, 0, 1, 0, 0], "delivery_rp", 2),
    "elixir": (3, [0, 0, 0, 1, 0], "free_pickup", 1),
}


def test_Q5_items_counts_starting_items_and_effects():
    items = by_id("items")
    assert list(items) == list(ITEMS)
    for item, (count, seats, effect, amount) in ITEMS.items():
        got = items[item]
        assert (got["count"], got["start_by_seat"], got["effect"], got["amount"]) == (
            count,
            seats,
            effect,
            amount,
        )
    assert sum(i["count"] for i in RAW["items"]) == 14


# G3: the destiny table of §9 (start rule, bonus).
DESTINIES = {
    "fastest": ("basic", "hills_tile", {"movement": [0, 14, 24, 37, 53]}),
    "trusted": ("basic", "stone_circle", {"rp_as_vp": 1}),
    "haggler": ("basic", "any_bastion", {"trading": [0, 14, 24, 37, 53]}),
    "strongest": ("basic", "woods_tile", {"carrying": [0, 14, 24, 37, 53]}),
    "seeker": ("basic", "stone_circle", {"quests_vp": [0, 8, 16, 24, 32]}),
    "mystic": ("basic", "enchantable_tile", {"crystal_vp_each": 4}),
    "wanderer": (
        "advanced",
        "any_bastion",
        {"movement": [0, 7, 14, 21, 28], "carrying": [0, 7, 14, 21, 28]},
    ),
    "versatile": (
        "advanced",
        "stone_circle",
        {
            "movement": [0, 5, 10, 15, 20],
            "trading": [0, 5, 10, 15, 20],
            "carrying": [0, 5, 10, 15, 20],
        },
    ),
    "collaborator": ("advanced", "resource_section", {"roman_town_vp_each": 6}),
    "provider": ("advanced", "resource_section", {"tribe_vp_each": 5}),
    "luckiest": ("advanced", "anywhere", {"best_basic": True, "add_last": True}),
}
NO_BONUS = {
    "movement": [0] * 5,
    "trading": [0] * 5,
    "carrying": [0] * 5,
    "rp_as_vp": 0,
    "quests_vp": [0] * 5,
    "crystal_vp_each": 0,
    "roman_town_vp_each": 0,
    "tribe_vp_each": 0,
    "best_basic": False,
    "add_last": False,
}


def test_11_destinies_6_basic_5_advanced_with_the_G3_table():
    destinies = by_id("destinies")
    assert list(destinies) == list(DESTINIES)
    assert Counter(d["tier"] for d in RAW["destinies"]) == {"basic": 6, "advanced": 5}
    for did, (tier, start, bonus) in DESTINIES.items():
        d = destinies[did]
        assert (d["tier"], d["start"]) == (tier, start), did
        assert {k: d[k] for k in NO_BONUS} == NO_BONUS | bonus, did
    assert set(RAW["start_rules"]) == {d[1] for d in DESTINIES.values()} | {"woods_tile"}


def test_Q21_destiny_decks():
    assert len(destiny_deck(RAW, advanced=False, luckiest=True)) == 6
    assert len(destiny_deck(RAW, advanced=True, luckiest=False)) == 10  # enough for 5 x 2
    assert destiny_deck(RAW, advanced=True, luckiest=True)[-1] == "luckiest"
    assert RAW["destiny_deal"]["advanced_draw"] == 2 and RAW["destiny_deal"]["advanced_keep"] == 1


# G4: the quest table of §9.
QUESTS = {  # id: (needs, vp, ability, amount, terrain)
    "horse": (["wheat", "fish"], 6, "extra_mp", 1, ""),
    "talisman": (["deer", "grape"], 6, "draw_extra", 1, ""),
    "wood_spirit": (["deer", "cloth"], 6, "free_entry", 1, "woods"),
    "hill_spirit": (["ore", "grape"], 6, "free_entry", 1, "hills"),
    "pack": (["cloth", "wheat"], 6, "carry_plus", 1, ""),
    "sack": (["fish", "ore"], 6, "free_pickup_plus", 1, ""),
    "harp": (["cloth", "grape"], 6, "delivery_rp_plus", 2, ""),
    "chariot": (["wheat", "ore"], 6, "extra_mp", 1, ""),
    "basket": (["deer", "wheat"], 6, "carry_plus", 1, ""),
    "net": (["cloth", "fish"], 6, "free_pickup_plus", 1, ""),
    "lyre": (["fish", "grape"], 6, "delivery_rp_plus", 2, ""),
    "amulet": (["ore", "grape"], 6, "draw_extra", 1, ""),
    "shield": (["deer", "ore"], 6, "ignore_roman_once", 1, ""),
    "anvil": (["cloth", "ore"], 6, "upgrade_discount", 1, ""),
    "raven": (["deer", "fish"], 6, "move_roman_once", 1, ""),
    "mistletoe": (["wheat", "grape"], 6, "crystal_vp_plus", 1, ""),
    "torc": (["deer", "cloth"], 12, "none", 0, ""),
    "cauldron": (["wheat", "fish"], 12, "none", 0, ""),
}
NAMED = ("horse", "talisman", "wood_spirit", "hill_spirit", "pack", "sack", "harp")


def test_18_quests_with_the_G4_table():
    quests = by_id("quests")
    assert list(quests) == list(QUESTS) and RAW["components"]["quest_cards"] == 18
    for qid, (needs, vp, ability, amount, terrain) in QUESTS.items():
        q = quests[qid]
        assert (q["needs"], q["vp"], q["ability"], q["amount"], q["terrain"]) == (
            needs,
            vp,
            ability,
            amount,
            terrain,
        ), qid
    assert set(RAW["quest_abilities"]) == {q[2] for q in QUESTS.values()}


def test_the_7_named_quests_keep_the_text_abilities():
    """§2 quest_effects_named: Talisman draw 3 return 1, Horse wheat + fish +1 MP, the Spirits'
    free terrain, Pack X + 1, Sack Y + 1, Harp +2 RP."""
    q = by_id("quests")
    draws = RAW["game"]["draws_per_turn"]
    assert (draws + q["talisman"]["amount"], q["talisman"]["amount"]) == (3, 1)
    assert q["horse"]["needs"] == ["wheat", "fish"] and q["horse"]["amount"] == 1
    assert q["wood_spirit"]["terrain"] == "woods" and q["hill_spirit"]["terrain"] == "hills"
    assert [q[n]["amount"] for n in ("pack", "sack", "harp")] == [1, 1, 2]
    assert all(q[n]["ability"] != "none" for n in NAMED)


def test_every_resource_is_needed_by_6_quests_and_every_pair_once():
    needs = [tuple(sorted(q["needs"])) for q in RAW["quests"]]
    assert Counter(r for pair in needs for r in pair) == dict.fromkeys(RESOURCES, 6)
    twice = {tuple(sorted(p)) for p in (("deer", "cloth"), ("wheat", "fish"), ("ore", "grape"))}
    assert Counter(needs) == {
        tuple(sorted(p)): 2 if tuple(sorted(p)) in twice else 1 for p in combinations(RESOURCES, 2)
    }


def test_Q23_destiny_scoring_numbers():
    """Mystic, 3 crystals at final box 9, 30 VP, one quest printed 6 VP: 75; Seeker 5 quests: 32."""
    mystic, seeker = by_id("destinies")["mystic"], by_id("destinies")["seeker"]
    crystal_value = RAW["spell_track"]["crystal_vp"][9]
    assert (
        30 + by_id("quests")["horse"]["vp"] + 3 * crystal_value + 3 * mystic["crystal_vp_each"]
        == 75
    )
    assert seeker["quests_vp"][min(5, 4)] == 32


def test_G2_enchantment_and_spell_steps():
    e = RAW["enchantment"]
    assert (e["plain_roman_spots"], e["bastion_roman_spots_per_arm"]) == (1, 1)
    assert (e["roman_town_hub_spots"], e["roman_town_arm_spots"]) == (1, 0)
    assert e["crystal_spots_per_tile"] == 1
    assert (e["druid_spell_steps"], e["crystal_spell_steps"], e["quest_spell_steps"]) == (1, 1, 0)


# ------------------------------------------------------------------------------------------------
# §12 levers: declared parameters with the spec's defaults
# ------------------------------------------------------------------------------------------------

# The §12 table (Celtic Quest's rows), lever -> (parameter, spec default, the ruling's
# alternative or None).
LEVER_PARAMS = {
    "Bag specials: druid tokens": ("druid_tokens", 1, None),
    "Spell track length": ("spell_track_length", 12, None),
    "Crystals in the game": ("crystals", 16, None),
    "Enchantable tiles (crystal spots)": ("enchantable_tiles", 12, None),
    "Pouch limit": ("pouch_limit", 3, None),
    "Item effects: bread +1 tile": ("bread_extra_tiles", 1, None),
    "Item effects: ring +2 RP": ("ring_extra_rp", 2, None),
    "Item effects: elixir 1 free pick-up": ("elixir_free_pickups", 1, None),
    "Used / discarded items": ("items_after_use", "discard_pile", "removed_from_game"),
    "Unused items at 5 players (§3 item 4)": ("five_player_items", "bag", "removed"),
    "Ring bonus scope": ("ring_bonus", "per_token", "per_delivery"),
    "Harp bonus scope": ("harp_bonus", "per_token", "per_delivery"),
    "Crystal delivery amount": ("crystal_delivery", "player_choice", "all_or_none"),
    "Quest cards dealt": ("quests_dealt", 1, None),
    "Quest cards held": ("quests_held", 1, None),
    "Quest VP source": ("quest_vp_source", "end_count", "supply"),
    "Destiny set: basic or advanced": ("advanced", False, True),
    "Destiny set: the Luckiest in the advanced set": ("luckiest", True, False),
    "Destiny set: choose 1 of 2": ("advanced_destiny_draw", 2, None),
    "First placement on a Roman": ("first_placement_on_roman", "stop", "relocate_first"),
    "Tie-break": ("tie_break", "most_quests", "shared"),
    "Unconnected resource spot tolerance": ("unconnected_spots_max", 2, None),
    "Map mode": ("map_mode", "generated", "fixed"),
    "Engine: generated maps per variant (0 = one per game)": ("map_pool", 256, None),
    "Map building policy (B17; issue 41: the players)": ("map_placement", "random", "players"),
    # §10 rulings with an alternative (issue 13: declare the alternative as a parameter)
    "B8 elixir for crystals": ("elixir_on_crystals", True, False),
    "B9 breads per turn (0 = any)": ("breads_per_turn", 0, None),
    "B16 ability from completion": ("ability_same_visit", True, False),
    # All Celtic Trader levers (CT §12) that apply to Celtic Quest
    "CT Roman tokens in play": ("romans_in_play", {2: 14, 3: 13, 4: 12, 5: 11}, None),
    "CT time / round limit": ("turn_limit", 0, None),
    "CT tokens drawn per turn": ("draws_per_turn", 2, None),
    "CT orders tokens": ("orders_tokens", 1, None),
    "CT Romanisation tokens": ("romanisation_tokens", 1, None),
    "CT resource tokens in the bag": ("resource_in_bag_per_type", 4, None),
    "CT RP/VP supply": ("supply_points", 114, None),
    "CT '+10' markers": ("ten_markers", 5, None),
    "CT upgrade cost 1": ("upgrade_cost_1", 2, None),
    "CT upgrade cost 2": ("upgrade_cost_2", 4, None),
    "CT upgrade cost 3": ("upgrade_cost_3", 7, None),
    "CT upgrade cost 4": ("upgrade_cost_4", 10, None),
    "CT trading bonus mode": ("trading_bonus", "per_token", "per_visit"),
    "CT demand raise target": ("demand_raise_target", "below_8", "any"),
    "CT safety cap": ("safety_cap_rounds", 500, None),
}
# §12 rows that are tables: levers by data path, with the spec's default.
LEVER_PATHS = {
    "Crystal VP by box": ("spell_track.crystal_vp", list(range(13))),
    "Starting items by seat (seat 5: gold + bread)": ("items.gold.start_by_seat", [1, 0, 0, 0, 1]),
    "Talisman draw 3, return 1": ("quests.talisman.amount", 1),
    "Quest VP (Horse)": ("quests.horse.vp", 6),
    "Quest abilities (Harp)": ("quests.harp.ability", "delivery_rp_plus"),
    "Destiny bonus tables (Fastest)": ("destinies.fastest.movement", [0, 14, 24, 37, 53]),
    "Destiny start rules (Mystic)": ("destinies.mystic.start", "enchantable_tile"),
    "Tile catalogue": ("map.catalogue", "tiles.toml"),
    "CT demand columns": ("game.demand_columns", [1, 2, 4, 6, 8]),
    "CT movement track": ("capabilities.movement", [2, 3, 4, 5, 6]),
    "CT trading track": ("capabilities.trading", [0, 1, 2, 4, 7]),
    "CT carrying track X": ("capabilities.carrying_x", [1, 2, 2, 3, 3]),
    "CT carrying track Y": ("capabilities.carrying_y", [0, 0, 1, 1, 2]),
    "CT RP -> VP rate": ("game.rp_per_vp", 1),
    "CT start demand rule (cap 5)": ("start_demand.column_cap", 5),
    "CT total Roman tokens": ("tokens.roman", 14),
}


@pytest.mark.parametrize("lever", list(LEVER_PARAMS))
def test_every_lever_is_a_parameter_with_the_spec_default(lever):
    name, default, alternative = LEVER_PARAMS[lever]
    p = PARAMS.get(name)
    assert p.default == default
    assert p.doc
    if alternative is not None:
        assert p.validate(alternative) == alternative
        if p.kind == "str":
            assert set(p.choices) == {default, alternative}


@pytest.mark.parametrize("lever", list(LEVER_PATHS))
def test_table_levers_are_data_paths_with_the_spec_default(lever):
    path, default = LEVER_PATHS[lever]
    assert get_value(RAW, path) == default
    assert GAME_DATA.resolve({path: default}) == RAW


def test_every_parameter_is_in_the_lever_table_and_reads_its_default_from_the_data():
    assert set(PARAMS.names()) == {v[0] for v in LEVER_PARAMS.values()}
    for p, path in LEVERS:
        assert PARAMS.get(p.name).default == get_value(RAW, path), p.name
    assert "roles_in_play" not in PARAMS.names() and "start_mode" not in PARAMS.names()
    for name in ("draws_per_turn", "supply_points", "trading_bonus", "romans_in_play"):
        assert PARAMS.get(name).allowed() == TRADER_PARAMS.get(name).allowed()


def test_schema_lever_keys_are_exactly_the_parameters_data_paths():
    def lever_keys(node, prefix):
        for key, sub in node.items():
            if sub is LEVER:
                yield f"{prefix}{key}"
            elif isinstance(sub, dict):
                yield from lever_keys(sub, f"{prefix}{key}.")

    paths = {path for _, path in LEVERS}
    record_paths = {"items.bread.amount", "items.ring.amount", "items.elixir.amount"}
    index_paths = {f"capabilities.upgrade_cost.{i}" for i in range(1, 5)}
    assert set(lever_keys(SCHEMA, "")) == paths - record_paths - index_paths


def test_a_data_value_read_by_a_parameter_moves_its_default():
    raw = GAME_DATA.resolve({"tokens.crystal": 20, "rulings.ring_bonus": "per_delivery"})
    params = GAME_DATA.param_set(raw)
    assert params.get("crystals").default == 20
    assert params.get("ring_bonus").default == "per_delivery"
    assert PARAMS.get("crystals").default == 16  # the shipped data is intact


# ------------------------------------------------------------------------------------------------
# A broken file: one line naming the key
# ------------------------------------------------------------------------------------------------

BROKEN = [
    # (shipped text, replacement, key named, what is said)
    ("end_box = 12 ", 'end_box = "12" ', "spell_track.end_box", "an integer in [1, 12]"),
    ("crystal = 16 ", "crystal = 16.5 ", "tokens.crystal", "an integer in [0, 32]"),
    ("luckiest = true ", "luckiest = 1 ", "destiny_deal.luckiest", "true or false"),
    ('vp = 12\nability = "none"', 'vp = "twelve"\nability = "none"', "quests.torc.vp", "integer"),
    ("rp_as_vp = 1\n", "rp_as_vp = true\n", "destinies.trusted.rp_as_vp", "integer"),
    ("[pouch]\nmax = 3", "[pouch]\nmaxx = 3", "pouch.maxx", "not a Celtic Quest key"),
    ("[pouch]\nmax = 3", "[pouch]\n", "pouch.max", "is missing"),
    ("tie_break = ", "tiebreak = ", "scoring.tiebreak", "not a Celtic Quest key"),
    ('needs = ["wheat", "fish"]', 'needs = ["wheet", "fish"]', "quests.horse.needs", "wheet"),
    ('needs = ["deer", "grape"]', 'needs = ["deer", "deer"]', "quests.talisman.needs", "distinct"),
    ('terrain = "woods"', 'terrain = "swamp"', "quests.wood_spirit.terrain", "woods, hills"),
    ('start = "hills_tile"', 'start = "hill"', "destinies.fastest.start", "hills_tile"),
    ("trading = [0, 14, 24", "trading = [0, 34, 24", "destinies.haggler.trading", "decreasing"),
    ('ring_bonus = "per_token"', 'ring_bonus = "per_visit"', "rulings.ring_bonus", "per_delivery"),
    ("{ 2 = 0, 3 = 1, 4 = 2, 5 = 3 }", "{ 2 = 0, 3 = 1, 4 = 2 }", "tokens.roman_removed", "5"),
    ("druid = 1 ", "druid = 9 ", "tokens.druid", "druid_tokens"),
    ("start_by_seat = [1, 0, 0, 0, 1]", "start_by_seat = [1, 0, 0, 0, 3]", "items", "pouch.max"),
    ("count = 4\nstart_by_seat = [1", "count = 1\nstart_by_seat = [1", "items.gold", "count"),
    (
        'tier = "basic"\nname = "The Seeker',
        'tier = "advanced"\nname = "The Seeker',
        "destinies",
        "6",
    ),
    ("quest_cards = 18", "quest_cards = 19", "quests", "19"),
    ("tiles_in_stack = 21", "tiles_in_stack = 22", "components.tiles_in_stack", "tiles.toml"),
    ("quick_setup = false", "quick_setup = true", "map.quick_setup", "false"),
    ('mode = "generated"', 'mode = "random"', "map.mode", "generated"),
    ("[components]", "[components]\nextra = 1", "components.extra", "not a Celtic Quest key"),
]


@pytest.mark.parametrize(("old", "new", "key", "what"), BROKEN)
def test_a_broken_file_is_one_line_naming_the_key(old, new, key, what):
    assert old in TEXT
    with pytest.raises(DataFileError) as err:
        GAME_DATA.read(TEXT.replace(old, new, 1), "variant.toml")
    text = str(err.value)
    assert "\n" not in text and what in text, text
    assert text.startswith("variant.toml: '" + key), text  # the user's file (issue 36, 19)


def test_a_missing_table_names_the_file_and_the_table():
    with pytest.raises(DataFileError, match=r"^variant\.toml: 'rulings' is missing$"):
        GAME_DATA.read(TEXT.replace("[rulings]", "[rulingz]"), "variant.toml")


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"spell_track.end_box": 13}, "spell_track_length"),
        ({"quests.horse.needs.0": "wheet"}, "unknown resource 'wheet'"),
        ({"quests.horse.needs": ["wheat"]}, "a list of 2 entries"),
        ({"items.bread.amount": 9}, "bread_extra_tiles"),
        ({"destinies.seeker.quests_vp.1": 40}, "not decreasing"),
        ({"destinies.nobody.rp_as_vp": 1}, "unknown data path"),
        ({"rulings.quest_vp_source": "later"}, "'end_count', 'supply'"),
    ],
)
def test_bad_overrides_are_one_line_naming_the_path(override, message):
    with pytest.raises(DataError) as err:
        GAME_DATA.resolve(override)
    text = str(err.value)
    assert message in text and "\n" not in text and next(iter(override)) in text


# ------------------------------------------------------------------------------------------------
# Every path is listable; the PROVISIONAL marks cover the gaps G1-G8
# ------------------------------------------------------------------------------------------------

PATHS = {d.path: d for d in GAME_DATA.paths()}

GAPS = {  # gap: data paths marked PROVISIONAL for it
    "G1 tile catalogue": ["map.catalogue", "map.enchantable_tiles"],
    "G2 Roman spots of flipped sides": [
        "enchantment.plain_roman_spots",
        "enchantment.bastion_roman_spots_per_arm",
        "enchantment.roman_town_hub_spots",
        "enchantment.roman_town_arm_spots",
    ],
    "G3 destiny cards": [
        "destinies.fastest.start",
        "destinies.trusted.rp_as_vp",
        "destinies.seeker.quests_vp",
        "destinies.luckiest.best_basic",
        "start_rules.anywhere",
    ],
    "G4 quest cards": [
        "quests.horse.vp",
        "quests.talisman.needs",
        "quests.torc.vp",
        "quests.raven.ability",
        "quest_abilities.move_roman_once",
    ],
    "G5 spell track values": ["spell_track.crystal_vp", "spell_track.start_box"],
    "G6 quick setup": ["map.quick_setup"],
    "G7 items beyond the starting ones": [
        "rulings.items_after_use",
        "rulings.item_drawn_from_bag",
    ],
    "G8 map adjustment": ["map.adjustment"],
}
TEXT_GIVEN = [  # not PROVISIONAL: the text gives them
    "destinies.fastest.movement",
    "quests.horse.needs",
    "quests.harp.ability",
    "spell_track.end_box",
    "tokens.crystal",
    "items.ring.amount",
    "items.gold.start_by_seat",
    "pouch.max",
    "map.unconnected_spots_max",
    "game.supply_points",
    "rulings.ring_bonus",
]


@pytest.mark.parametrize("gap", list(GAPS))
def test_provisional_marks_cover_the_gaps(gap):
    for path in GAPS[gap]:
        assert PATHS[path].provisional, path


def test_text_given_values_are_not_marked():
    for path in TEXT_GIVEN:
        assert not PATHS[path].provisional, path


def test_every_lever_path_is_listed():
    for _, path in LEVERS:
        listed = path if path in PATHS else path.rpartition(".")[0]  # a list entry: its list
        assert listed in PATHS and get_value(RAW, listed) == PATHS[listed].value, path
    for path, _ in LEVER_PATHS.values():
        assert path in PATHS
    assert len(PATHS) > 300
    assert all(get_value(RAW, p) == d.value for p, d in PATHS.items())


def test_provisional_parameters_are_marked():
    marked = {p.name for p in PARAMS if p.provisional}
    assert marked == {"safety_cap_rounds", "enchantable_tiles", "items_after_use"}
