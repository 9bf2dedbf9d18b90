import pytest

from sim.core.params import (
    Param,
    ParamError,
    ParamSet,
    canonical_id,
    parse_assignments,
    parse_value,
)

PARAMS = ParamSet(
    (
        Param("romans_in_play", "int", {2: 14, 3: 13, 4: 12, 5: 11}, low=0, high=14),
        Param("rate", "float", 0.5, low=0.0, high=1.0),
        Param("fast", "bool", False),
        Param("mode", "str", "stop", choices=("stop", "relocate_first")),
    )
)


def test_defaults_by_player_count():
    assert PARAMS.defaults(2)["romans_in_play"] == 14
    assert PARAMS.defaults(5)["romans_in_play"] == 11


def test_overrides_are_validated_and_coerced():
    values = PARAMS.resolve(4, {"romans_in_play": 11.0, "rate": 1, "mode": "relocate_first"})
    assert values == {"romans_in_play": 11, "rate": 1.0, "fast": False, "mode": "relocate_first"}
    assert isinstance(values["romans_in_play"], int)


@pytest.mark.parametrize(
    "override, fragment",
    [
        ({"romans": 3}, "unknown parameter 'romans'"),
        ({"romans_in_play": 15}, "'romans_in_play' = 15"),
        ({"romans_in_play": 2.5}, "an integer in [0, 14]"),
        ({"romans_in_play": True}, "romans_in_play"),
        ({"rate": "x"}, "a number in [0, 1]"),
        ({"fast": 1}, "true or false"),
        ({"mode": "jump"}, "one of 'stop', 'relocate_first'"),
    ],
)
def test_bad_overrides_name_the_key(override, fragment):
    with pytest.raises(ParamError) as info:
        PARAMS.resolve(4, override)
    message = str(info.value)
    assert fragment in message and "\n" not in message


def test_set_syntax():
    assert parse_assignments(["a=12", "b=0.5", "c=true", "d=stop"]) == {
        "a": 12,
        "b": 0.5,
        "c": True,
        "d": "stop",
    }
    assert parse_value('"quoted"') == "quoted"
    with pytest.raises(ParamError, match="KEY=VALUE"):
        parse_assignments(["novalue"])


def test_canonical_id_is_sorted_and_stable():
    assert canonical_id("g", {"b": 1, "a": 2}) == "g(a=2,b=1)"
    assert PARAMS.non_default(4, PARAMS.resolve(4, {"rate": 0.25})) == {"rate": 0.25}


def test_duplicate_declarations_are_rejected():
    with pytest.raises(ValueError):
        ParamSet((Param("a", "int", 1), Param("a", "int", 2)))
