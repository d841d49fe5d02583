"""The rule options as the engines list them (the list the server's lobby
and `sequence options` show): names, rule ids (C2-C11, S3a-S7), values and
defaults, and games that can be made with each value offered."""

import pytest

import sequence_game as sg


def test_classic_options_name_their_rules_and_defaults():
    opts = {o["name"]: o for o in sg.rule_options("classic")}
    assert opts["sequence_length"]["rule"] == "C11"
    assert opts["sequence_length"]["default"] == 5
    assert opts["no_play"]["rule"] == "C6a"
    assert opts["no_play"]["values"] == ["pass", "discard"]
    assert opts["win_sequences"]["by_sides"] == {"2": 2, "3": 1}
    assert list(opts) == [
        "win_sequences",
        "sequence_length",
        "removable_sequences",
        "no_reshuffle",
        "board",
        "no_play",
        "default_window",
    ]


def test_stacks_options_are_the_engines():
    opts = {o["name"]: o for o in sg.rule_options("stacks")}
    assert opts["piles_per_colour"] == {
        "name": "piles_per_colour",
        "rule": "S3a",
        "values": [1, 2, 3, 4],
        "default": 2,
    }
    # every value offered makes a game
    for o in opts.values():
        for v in o["values"]:
            sg.stacks(players=3, options={o["name"]: v}, seed=1)


def test_an_unknown_game_is_refused():
    with pytest.raises(sg.UsageError):
        sg.rule_options("chess")
