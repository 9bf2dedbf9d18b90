"""What the players did (issue 18): the decision mix table, its plot and the rule-hole flags."""

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
        if "never taken by any seat: " not in line:
            continue
        kinds = line.split("never taken by any seat: ")[1].split(" (")[0].split(", ")
        where = line.split(": ")[0]
        for v in ("v0", "v1"):
            if where == "- every variant" or where.startswith(f"- variant {v} "):
                never[v] += kinds
    v0, v1 = never["v0"], never["v1"]
    assert "orders" in v0 and "orders" in v1  # out of the bag in both variants
    assert "romanise" not in v0 + v1  # Romanisation is back in v1: v0's settings, not a hole
    elsewhere = next(x for x in holes.splitlines() if "taken in other variants" in x)
    assert elsewhere.startswith("- variant v0 (romanisation_tokens=0):")
    assert elsewhere.split("other variants: ")[1].startswith("romanise (")
    assert "not a rule hole" in elsewhere
    # roles dealt at random: choosing a role is no decision of this setup, never flagged
    assert not any("role" in kinds for kinds in never.values())
    assert "role" not in holes.replace("romanisation", "")
    assert "move" not in v0 and "deliver" not in v0
