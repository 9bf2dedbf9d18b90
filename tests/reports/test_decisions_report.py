"""What the players did (issue 18): the decision mix table, its plot and the rule-hole flags."""

import json
import re

import polars as pl

import experiments
from reports import make_report


def test_a_disabled_decision_is_flagged_as_never_taken(tmp_path):
    config = {
        "name": "holes",
        "game": "celtic_trader",
        "games": 150,
        "seed": 4,
        "players": 3,
        "bots": "greedy",
        "params": {"orders_tokens": 0, "romanisation_tokens": [0, 1]},
    }
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    out = make_report([run], tmp_path / "rep")
    mix = pl.read_csv(out / "decision_mix.csv")
    assert {"role", "strategy", "n", "act_move", "act_deliver"} <= set(mix.columns)
    assert (out / "decision_mix.png").exists()
    summary = (out / "summary.md").read_text()
    holes = summary.split("## Rule holes", 1)[1].split("\n## ", 1)[0]
    never: dict[str, list[str]] = {"v0": [], "v1": []}
    for line in holes.splitlines():
        found = re.search(r"never taken by any seat[^:]*: ([^(]+) \(", line)
        if found is None:
            continue
        kinds = found.group(1).split(", ")
        where = line.split(": ")[0]
        for v in ("v0", "v1"):
            if where == "- every variant" or where.startswith(f"- variant {v} "):
                never[v] += kinds
    v0, v1 = never["v0"], never["v1"]
    assert "orders" in v0 and "orders" in v1  # out of the bag in both variants
    assert "romanise" not in v0 + v1  # Romanisation is back in v1: v0's settings, not a hole
    elsewhere = next(x for x in holes.splitlines() if "taken in other variants" in x)
    assert elsewhere.startswith("- variant romanisation_tokens 0:")
    assert elsewhere.split("other variants: ")[1].startswith("romanise (")
    assert "not a rule hole" in elsewhere
    # roles dealt at random: choosing a role is no decision of this setup, never flagged
    assert not any("role" in kinds for kinds in never.values())
    assert "role" not in holes.replace("romanisation", "")
    assert "move" not in v0 and "deliver" not in v0


def _holes(out) -> list[str]:
    summary = (out / "summary.md").read_text()
    return summary.split("## Rule holes", 1)[1].split("\n## ", 1)[0].splitlines()


def test_a_kind_random_play_takes_but_the_bots_never_do_is_a_bot_gap(tmp_path):
    from reports.decisions import RANDOM_GAMES, random_play_use

    config = {
        "name": "gap",
        "game": "celtic_trader",
        "games": 100,
        "seed": 4,
        "players": 3,
        "bots": "greedy",
        "params": {"orders_tokens": 0},
    }
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    out = make_report([run], tmp_path / "rep")
    mix = pl.read_csv(out / "decision_mix.csv")
    assert mix["act_discard"].sum() == 0 and mix["act_orders"].sum() == 0  # greedy: neither
    setup = json.loads((run / "manifest.json").read_text())["variants"][0]["setup"]
    use = random_play_use("celtic_trader", setup)
    assert use["discard"] > 0 and use["orders"] == 0  # random play discards; no orders tokens
    assert random_play_use("celtic_trader", dict(setup, bots=["search"] * 3)) is use  # cached
    holes = _holes(out)
    gap = next(x for x in holes if "the bots never did" in x)
    assert gap.startswith("- variant base:") and "the bots never did discard;" in gap
    assert f"{RANDOM_GAMES} random games of this setup" in gap
    assert gap.endswith("a gap of the bots, not a rule hole.")
    dead = next(x for x in holes if "nor by random play" in x)
    assert "orders" in dead and "discard" not in dead and "(a dead rule in this setup)" in dead
    # the headline counts rule holes, not the bots' gaps
    summary = (out / "summary.md").read_text()
    n = sum(x.startswith("- ") and "not a rule hole" not in x for x in holes)
    assert f"{n} possible rule hole" in summary.split("\n\n")[1]


def test_a_random_level_variant_of_the_report_is_the_random_play(tmp_path):
    config = {
        "name": "levels",
        "game": "celtic_trader",
        "games": 60,
        "seed": 5,
        "players": 3,
        "bots": ["greedy", "random"],
        "params": {"orders_tokens": 0},
    }
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    out = make_report([run], tmp_path / "rep")
    gap = next(x for x in _holes(out) if "the bots never did" in x)
    labels = pl.read_csv(out / "balance.csv")["label"].to_list()
    random_label = next(x for x in labels if "random" in x)
    assert f"60 random games of the report's variant {random_label}" in gap
    assert "discard" in gap and not gap.startswith(f"- variant {random_label}")
    # the random variant itself: a kind only the other bots take is no dead rule
    mix = pl.read_csv(out / "decision_mix.csv")
    greedy_only = [
        c[4:]
        for c in mix.columns
        if c.startswith("act_")
        and mix.filter(pl.col("strategy") == "random")[c].sum() == 0
        and mix.filter(pl.col("strategy") == "greedy")[c].sum() > 0
    ]
    for line in _holes(out):
        if line.startswith(f"- variant {random_label}") and "dead rule" in line:
            assert not any(k in line.split(": ", 2)[2] for k in greedy_only), line
    if greedy_only:
        line = next(x for x in _holes(out) if "random play never did" in x)
        assert all(k in line for k in greedy_only) and line.endswith("(not a rule hole).")


def test_a_bot_gap_in_every_variant_is_one_line_with_random_plays_range():
    from reports.findings import _merge_variants

    labels = ["romans_in_play 10", "romans_in_play 12", "romans_in_play 14"]

    def gap(label, rate, games=200):
        return (
            f"- variant {label}: the bots never did discard; random play does (discard {rate} a "
            f"game, {games:,} random games of this setup): a gap of the bots, not a rule hole."
        )

    lines = [gap(labels[0], "15.3"), gap(labels[1], "14.2"), gap(labels[2], "12.9")]
    lines += [f"- variant {labels[2]}: only the seat 3 ever takes x."]
    lines += [f"- variant {labels[1]}: only the seat 2 ever takes x."]
    assert _merge_variants(lines, labels) == [
        "- every variant: the bots never did discard; random play does (discard 12.9-15.3 a "
        "game, 200 random games of this setup): a gap of the bots, not a rule hole.",
        f"- variant {labels[2]}: only the seat 3 ever takes x.",  # seats are not ranges
        f"- variant {labels[1]}: only the seat 2 ever takes x.",
    ]
    # the same rate and games in two variants: said once; a third with other kinds apart
    two = [gap(labels[0], "1.5", 1000), gap(labels[1], "1.5", 1000)]
    other = gap(labels[2], "2.0").replace("did discard", "did discard, pick_up")
    merged = _merge_variants([*two, other], labels)
    assert merged[0] == two[0].replace(
        f"- variant {labels[0]}:", f"- variants {labels[0]}, {labels[1]}:"
    )
    assert merged[1] == other
