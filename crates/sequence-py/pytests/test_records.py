"""Records (RECORD.md, RECORD-STACKS.md): read, written and verified with
the messages and exit codes of `sequence verify`."""

import json

import pytest

import sequence_game as sg


def finished(game="classic", players=2, seed=1):
    g = sg.Game(game, players=players, seed=seed)
    g.playout()
    return g


@pytest.mark.parametrize("game", ["classic", "stacks"])
def test_records_round_trip_as_text_dict_and_path(game, tmp_path):
    g = finished(game, 3)
    rec = g.record()
    assert rec["format"] in ("sequence-record/1", "sequence-stacks-record/1")
    text = g.record_json()
    assert json.loads(text) == rec
    p = tmp_path / "game.json"
    p.write_text(text)
    for source in (text, rec, p, str(p), text.encode()):
        assert sg.verify(source) == g.summary()
    back = sg.Game.from_record(p)
    assert str(back) == str(g) and back.record() == rec
    steps = sg.replay(rec)
    assert [s.index for s in steps] == list(range(len(rec["moves"])))
    if game == "classic":
        assert str(steps[-1].game) == str(g)
    # (Stacks: after the last written move the replay closes an open Block
    # window, S5b, so the final game may be one step further.)
    assert steps[0].move.to_json(steps[0].seat) == rec["moves"][0]


def test_a_resumed_game_goes_on_and_records_the_rest():
    g = sg.Game("classic", seed=4)
    for _ in range(10):
        g.play(g.random_move())
    r = sg.Game.from_record(g.record(), seed=9)
    assert r.ply == 10
    r.playout()
    assert sg.verify(r.record())["moves"] == r.ply


def test_an_illegal_move_is_named_with_its_index_and_rule():
    rec = finished().record()
    rec["moves"][3] = {"seat": rec["moves"][3]["seat"], "pass": True}
    with pytest.raises(sg.RecordError) as e:
        sg.verify(rec)
    err = e.value
    assert err.exit_code == 1 and err.index == 3 and err.code == "record.illegal_move"
    assert str(err).startswith('move 3 {"seat":') and str(err).endswith("(C6a)")
    assert err.why.endswith("(C6a)") and json.loads(err.entry)["pass"] is True


def test_a_move_with_an_unknown_key_is_a_malformed_move():
    # Regression (tester): it was reported as record.illegal_move.
    rec = finished().record()
    rec["moves"][3]["extra"] = 1
    with pytest.raises(sg.RecordError) as e:
        sg.verify(rec)
    err = e.value
    assert err.code == "record.malformed_move" and err.exit_code == 1 and err.index == 3
    assert err.why == "malformed move: unknown key `extra`"


def test_malformed_records_exit_2_naming_the_field():
    cases = {
        "{": "line 1",
        "[]": "a record must be a JSON object",
        '{"format": "chess"}': "unknown format",
        '{"format": "sequence-record/1", "players": 2}': "field `options`" ,
    }
    for text, part in cases.items():
        with pytest.raises(sg.RecordError) as e:
            sg.verify(text)
        assert e.value.exit_code == 2 and e.value.code == "record.malformed"
        assert part in str(e.value) or "missing" in str(e.value), str(e.value)
    rec = finished().record()
    rec["players"] = 5
    with pytest.raises(sg.RecordError) as e:
        sg.verify(rec)
    assert "C3" in str(e.value)
    with pytest.raises(sg.RecordError) as e:
        sg.verify({"format": "sequence-record/1", "deck": ["ZZ"]})
    assert e.value.exit_code == 2


def test_a_wrong_result_is_a_mismatch():
    g = finished()
    rec = g.record()
    rec["result"] = {"winner": "green" if rec["result"]["winner"] == "blue" else "blue"}
    with pytest.raises(sg.RecordError) as e:
        sg.verify(rec)
    assert e.value.exit_code == 1 and e.value.code == "record.mismatch"
    assert str(e.value).startswith("the record does not match its replay: record says winner")


def test_a_missing_file_is_a_record_error(tmp_path):
    for missing in (tmp_path / "nope.json", str(tmp_path / "nope.json")):
        with pytest.raises(sg.RecordError) as e:
            sg.verify(missing)
        assert e.value.exit_code == 2 and e.value.code == "record.unreadable"
        assert "nope.json" in str(e.value)


def shared_examples(repo):
    """The shared example records (shared/examples beside the repository,
    or $SEQUENCE_SHARED/examples)."""
    import os
    import pathlib

    for base in (os.environ.get("SEQUENCE_SHARED"), repo.parent / "shared"):
        if base and (pathlib.Path(base) / "examples").is_dir():
            return pathlib.Path(base) / "examples"
    pytest.skip("shared/examples is not beside the repository")


@pytest.mark.parametrize("sub", ["", "stacks"])
def test_shared_examples_verify_as_sequence_verify_says(repo, sub):
    d = shared_examples(repo) / sub if sub else shared_examples(repo)
    checked = 0
    for p in sorted(d.glob("*.json")):
        if p.name.endswith(".expected.json"):
            continue
        expected = json.loads(p.with_name(p.stem + ".expected.json").read_text())
        summary = sg.verify(p)
        for k, v in expected.items():
            assert summary[k] == v, (p.name, k)
        checked += 1
    assert checked >= 4
    illegal = json.loads((d / "illegal" / "expected.json").read_text())
    for name, want in illegal.items():
        with pytest.raises(sg.RecordError) as e:
            sg.verify(d / "illegal" / name)
        assert e.value.index == want["first_illegal_move"], name
        assert e.value.why == want["why"], name
        assert e.value.exit_code == 1
