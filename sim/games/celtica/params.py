"""Celtica data: load and validate ``celtica.toml``, declare every parameter (the §12 levers and
their alternatives), and compile one variant into the flat arrays (:class:`Data`) the kernels read.

The track is one string parameter (``track``), one comma-separated token per location, so a
designer can move, add or revalue locations from a config or ``--set`` without touching code::

    track = "sacred,village:1,monastery:1,ruin:1,castle:2,...,finish:4"
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from pathlib import Path
from typing import Any

import numpy as np

from sim.core.datafile import DataFileError, data_error
from sim.core.gamedata import GameData
from sim.core.params import Param, ParamError, ParamSet
from sim.games.celtica.state import (
    K_DIG,
    K_RUIN,
    K_SACRED,
    MAX_LAYERS,
    MAX_LOCATIONS,
    MAX_PER_COLOUR,
    MAX_TYPES,
    N_COLOURS,
)

DATA_FILE = Path(__file__).with_name("celtica.toml")

# Indices into Data.rules (int64): the scalar rules of one variant.
(
    G_DRUIDS,
    G_CARDS,
    G_XP_CARDS,
    G_HAND,
    G_DISPLAY,
    G_START_FRAGS,
    G_COPIES,
    G_TYPES,
    G_FINISH,
    G_SACRED_DRAW,
    G_RUIN_XP,
    G_SWAP_PRICE,
    G_TAKE_PRICE,
    G_XP_NEEDS_DRUID,
    G_OVERSHOOT_FORBID,
    G_END_IMMEDIATE,
    G_FRAG_RULE_ALT,
    G_SWAP_TO_RETURNED,
    G_START_RANDOM,
    G_ROTATE_STARTER,
    G_ROUND_CAP,
    G_MAX_DIG,
    G_MAX_RUIN,
    N_RULES,
) = range(24)

Data = namedtuple(
    "Data",
    [
        "rules",  # int64 (N_RULES,) the G_* scalars
        "loc_kind",  # int64 (MAX_LOCATIONS + 1,) K_* per location, index 0 = Start
        "loc_value",  # int64 (MAX_LOCATIONS + 1,) fragments taken (dig) or returned (ruin)
        "reach",  # int64 (2, MAX_LOCATIONS + 1, MAX_LOCATIONS + 1) reach_table
    ],
)

DIG_SITES = ("village", "monastery", "castle", "dig", "finish")
MAX_SITE_VALUE = 20


def _fail(key: str, what: str) -> DataFileError:
    return data_error(DATA_FILE, key, what)


def load_raw() -> dict[str, Any]:
    """The parsed, validated shipped data file (cached for the process)."""
    return GAME_DATA.read()


def _validate(raw: dict[str, Any]) -> None:
    """The game's own checks of a data file; the numbers are checked as parameter defaults."""
    if len(raw["druids"]["colours"]) != N_COLOURS:
        raise _fail("druids.colours", f"must name {N_COLOURS} colours")
    if len(raw["fragments"]["type_names"]) != MAX_TYPES:
        raise _fail("fragments.type_names", f"must name {MAX_TYPES} position types")
    try:
        parse_track(",".join(raw["track"]["locations"]))
    except ParamError as exc:
        raise _fail("track.locations", str(exc)) from None


def parse_track(text: str) -> list[tuple[str, int]]:
    """``"sacred,village:1,..."`` to [(site, value), ...]; a bad token is a one-line ParamError."""
    allowed = (
        "comma-separated locations: sacred, ruin:N, village:N, monastery:N, castle:N, dig:N, "
        f"with finish:N last; 1 to {MAX_LOCATIONS} locations, N in [0, {MAX_SITE_VALUE}]"
    )
    tokens = [t.strip() for t in text.split(",")]
    if not 1 <= len(tokens) <= MAX_LOCATIONS or any(not t for t in tokens):
        raise ParamError(f"parameter 'track' = {text!r} is not allowed: {allowed}")
    out = []
    for i, token in enumerate(tokens):
        site, sep, value = token.partition(":")
        last = i == len(tokens) - 1

        def bad(why: str, i=i, token=token) -> ParamError:
            return ParamError(
                f"parameter 'track': location {i + 1} {token!r} is not allowed: {why}"
            )

        if site == "sacred" and not sep:
            if last:
                raise bad("the last location is the finish, a dig site such as finish:4")
            out.append((site, 0))
            continue
        if site not in DIG_SITES and site != "ruin":
            raise bad(allowed)
        if site == "finish" and not last:
            raise bad("only the last location is the finish")
        if last and site == "ruin":
            raise bad("the last location is the finish, a dig site such as finish:4")
        if not sep or not value.isdigit() or int(value) > MAX_SITE_VALUE:
            raise bad(f"write {site}:N with N in [0, {MAX_SITE_VALUE}]")
        out.append((site, int(value)))
    return out


@dataclasses.dataclass(frozen=True)
class TrackParam(Param):
    """The ``track`` string parameter, validated by :func:`parse_track`."""

    def allowed(self) -> str:
        return "comma-separated locations such as 'sacred,village:1,ruin:2,...,finish:4'"

    def validate(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise ParamError(f"parameter 'track' = {value!r} is not allowed: {self.allowed()}")
        parse_track(value)
        return ",".join(t.strip() for t in value.split(","))


def param_set(raw: dict[str, Any]) -> ParamSet:
    """The declared parameters, their defaults read from ``raw``."""
    g, dr, xp, fr = raw["game"], raw["druids"], raw["experience"], raw["fragments"]
    alt = raw["alternatives"]

    def choice(name: str, doc: str, provisional: bool = False) -> Param:
        return Param(
            name, "str", alt[name][0], doc, choices=tuple(alt[name]), provisional=provisional
        )

    params = [
        Param(
            "druids",
            "int",
            dr["count"],
            "druid pawns in play (one card colour each)",
            low=2,
            high=N_COLOURS,
        ),
        Param(
            "druid_cards_per_colour",
            "int",
            dr["cards_per_colour"],
            "Druid cards per colour",
            low=1,
            high=MAX_PER_COLOUR,
        ),
        Param(
            "hand_size",
            "int",
            dr["hand_size"],
            "Druid cards dealt per player each round",
            low=1,
            high=15,
        ),
        Param(
            "xp_cards_per_colour",
            "int",
            xp["cards_per_colour"],
            "Experience cards per colour",
            low=0,
            high=MAX_PER_COLOUR,
            provisional=True,
        ),
        Param(
            "ruin_xp_reward", "int", xp["ruin_reward"], "XP cards drawn on a ruin", low=0, high=3
        ),
        Param("xp_swap_price", "int", xp["swap_price"], "XP cards per final swap", low=1, high=10),
        Param("xp_take_price", "int", xp["take_price"], "XP cards per final take", low=1, high=10),
        Param(
            "xp_requires_druid_in_hand",
            "bool",
            xp["requires_druid_in_hand"],
            "XP cards playable only while holding a Druid card; if false an XP-only player "
            "may still play XP cards (or pass) while the round lasts",
        ),
        Param(
            "amulets",
            "int",
            fr["amulets"],
            "amulets (copies of each fragment type)",
            low=1,
            high=MAX_LAYERS,
        ),
        Param(
            "fragments_per_amulet",
            "int",
            fr["per_amulet"],
            "fragment position types",
            low=2,
            high=MAX_TYPES,
        ),
        Param(
            "display_size",
            "int",
            fr["display_size"],
            "face-up fragment display slots",
            low=1,
            high=20,
        ),
        Param(
            "start_fragments",
            "int",
            fr["start_per_player"],
            "fragments per player at setup",
            low=0,
            high=9,
        ),
        Param(
            "sacred_draw",
            "int",
            raw["sacred"]["draw"],
            "Druid cards a sacred place offers (all or none, the player's choice; 0 = no effect)",
            low=0,
            high=3,
        ),
        TrackParam(
            "track",
            "str",
            ",".join(raw["track"]["locations"]),
            "the locations after Start, the last one the finish",
            provisional=True,
        ),
        Param(
            "ruin_offset",
            "int",
            0,
            "added to every ruin's value (at least 0): sweeps the ruin penalties",
            low=-MAX_SITE_VALUE,
            high=MAX_SITE_VALUE,
        ),
        choice(
            "overshoot", "a move past the finish stops on it, or is forbidden", provisional=True
        ),
        choice("end_trigger", "first druid home: finish the round, or end at once"),
        choice(
            "fragment_end_rule",
            "immediate end when all fragments are held by players, or "
            "when the display or the reserve (returned pile not counted) is empty",
        ),
        choice("swap_goes_to", "where the fragment given in a final 1-XP swap goes"),
        choice("start_seat", "first player: seat 0 (youngest) or a random seat"),
        choice(
            "round_starter",
            "next round's first player: left of the last mover, or the "
            "previous starter's left neighbour",
        ),
        Param(
            "safety_cap_rounds",
            "int",
            g["safety_cap_rounds"],
            "safety cap (rounds), ends as turn_cap",
            low=1,
            high=100_000,
        ),
    ]
    return ParamSet(tuple(params))


GAME_DATA = GameData(
    DATA_FILE,
    ("game", "druids", "experience", "fragments", "sacred", "track", "alternatives"),
    _validate,
    param_set,
)
PARAMS = param_set(load_raw())


def colour_names() -> list[str]:
    return list(load_raw()["druids"]["colours"])


def type_names() -> list[str]:
    return list(load_raw()["fragments"]["type_names"])


def compile_data(params: dict[str, Any]) -> Data:
    """The arrays of one variant (``params`` is a resolved parameter dict)."""
    track = [
        (site, max(0, value + params["ruin_offset"]) if site == "ruin" else value)
        for site, value in parse_track(params["track"])
    ]
    loc_kind = np.zeros(MAX_LOCATIONS + 1, np.int64)
    loc_value = np.zeros(MAX_LOCATIONS + 1, np.int64)
    for i, (site, value) in enumerate(track, start=1):
        loc_kind[i] = K_SACRED if site == "sacred" else K_RUIN if site == "ruin" else K_DIG
        loc_value[i] = value

    rules = np.zeros(N_RULES, np.int64)
    rules[G_DRUIDS] = params["druids"]
    rules[G_CARDS] = params["druid_cards_per_colour"]
    rules[G_XP_CARDS] = params["xp_cards_per_colour"]
    rules[G_HAND] = params["hand_size"]
    rules[G_DISPLAY] = params["display_size"]
    rules[G_START_FRAGS] = params["start_fragments"]
    rules[G_COPIES] = params["amulets"]
    rules[G_TYPES] = params["fragments_per_amulet"]
    rules[G_FINISH] = len(track)
    rules[G_SACRED_DRAW] = params["sacred_draw"]
    rules[G_RUIN_XP] = params["ruin_xp_reward"]
    rules[G_SWAP_PRICE] = params["xp_swap_price"]
    rules[G_TAKE_PRICE] = params["xp_take_price"]
    rules[G_XP_NEEDS_DRUID] = bool(params["xp_requires_druid_in_hand"])
    rules[G_OVERSHOOT_FORBID] = params["overshoot"] == "forbid"
    rules[G_END_IMMEDIATE] = params["end_trigger"] == "immediate"
    rules[G_FRAG_RULE_ALT] = params["fragment_end_rule"] == "display_or_reserve_empty"
    rules[G_SWAP_TO_RETURNED] = params["swap_goes_to"] == "returned_pile"
    rules[G_START_RANDOM] = params["start_seat"] == "random"
    rules[G_ROTATE_STARTER] = params["round_starter"] == "rotate"
    rules[G_ROUND_CAP] = params["safety_cap_rounds"]
    rules[G_MAX_DIG] = max([v for site, v in track if site not in ("sacred", "ruin")], default=0)
    rules[G_MAX_RUIN] = max([v for site, v in track if site == "ruin"], default=0)
    reach = reach_table(loc_kind, loc_value, len(track))
    return Data(rules=rules, loc_kind=loc_kind, loc_value=loc_value, reach=reach)


def reach_table(loc_kind: np.ndarray, loc_value: np.ndarray, finish: int) -> np.ndarray:
    """``[0, pos, d]`` / ``[1, pos, d]``: the largest dig / ruin value (at most MAX_SITE_VALUE)
    among the ``d`` locations after ``pos`` (a move past the finish stops on it), so that the
    greedy bot finds how many fragments it may weigh without walking each druid's moves.
    A running maximum over ``d`` (numpy): every slice of games builds its data, and the
    Python loop over positions and distances took a millisecond (issue 42)."""
    reach = np.zeros((2, MAX_LOCATIONS + 1, MAX_LOCATIONS + 1), np.int64)
    pos = np.arange(finish + 1)[:, None]
    loc = np.minimum(pos + np.arange(1, MAX_LOCATIONS + 1)[None, :], finish)
    kinds, value = loc_kind[loc], np.clip(loc_value[loc], 0, MAX_SITE_VALUE)
    for row, kind in ((0, K_DIG), (1, K_RUIN)):
        gained = np.where(kinds == kind, value, 0)
        reach[row, : finish + 1, 1:] = np.maximum.accumulate(gained, axis=1)
    return reach


def default_data(players: int = 4, **overrides) -> Data:
    """Compiled data of the default rules (plus overrides): handy for tests and the REPL."""
    return compile_data(PARAMS.resolve(players, overrides))


def track_labels(params: dict[str, Any]) -> list[str]:
    """Readable name of every location, index 0 = Start (for the trace)."""
    data = compile_data(params)
    labels = ["Start"]
    for i, (site, _) in enumerate(parse_track(params["track"]), start=1):
        value = int(data.loc_value[i])
        labels.append("sacred place" if site == "sacred" else f"{site} {value}")
    return labels
