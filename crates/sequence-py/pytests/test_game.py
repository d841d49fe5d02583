"""The rules through Python: tables, moves, refusals with codes, views,
copies, seeds (C1–C11, S1–S7)."""

import copy

import pytest

import sequence_game as sg

TABLES = [("classic", p, None) for p in (2, 3, 4, 6, 8, 9, 10, 12)] + [
    ("classic", 6, 3),
    ("classic", 12, 3),
] + [("stacks", p, None) for p in range(2, 7)]


@pytest.mark.parametrize("game,players,teams", TABLES)
def test_random_games_finish_and_their_records_verify(game, players, teams):
    g = sg.Game(game, players=players, teams=teams, seed=players)
    assert g.players == players and g.game == game
    n = 0
    while not g.is_over:
        seat = g.to_act
        moves = g.legal_moves()
        assert moves, "a seat to act always has a legal move"
        m = moves[n % len(moves)]
        g.check(m)
        g.play(m)
        assert g.last_move[0] == seat
        n += 1
    assert g.status in ("won", "draw")
    assert g.legal_moves() == [] and g.to_act is None
    summary = sg.verify(g.record())
    assert summary["moves"] == len(g.history())
    if g.status == "won":
        w = g.winner
        assert {g.reward(s) for s in range(players) if g.side_of(s) == w} == {1.0}
        assert {g.reward(s) for s in range(players) if g.side_of(s) != w} == {-1.0}


def test_c3_tables_that_break_the_rules_raise_setup_errors():
    with pytest.raises(sg.SetupError) as e:
        sg.Game("classic", players=5)
    assert e.value.code == "C3.players" and e.value.rule == "C3"
    with pytest.raises(sg.SetupError) as e:
        sg.Game("classic", players=6, teams=4)
    assert e.value.code == "C3.teams"
    with pytest.raises(sg.SetupError) as e:
        sg.Game("stacks", players=7)
    assert e.value.code == "S1.players"
    with pytest.raises(sg.SetupError):
        sg.Game("classic", options={"sequence_length": 7})
    with pytest.raises(sg.SetupError):
        sg.Game("classic", options={"no_such_option": 1})
    with pytest.raises(sg.UsageError):
        sg.Game("chess")


def test_c11_options_change_the_rules():
    g = sg.Game("classic", players=2, options={"sequence_length": 4, "win_sequences": 1}, seed=3)
    assert g.options == {"win_sequences": 1, "sequence_length": 4}
    layout = {p["name"]: p for p in g.observation_layout()}
    obs = g.observe(0)
    rules = obs[layout["rules"]["offset"] : layout["rules"]["offset"] + 2]
    assert list(rules) == [4, 1]
    g.playout()
    assert g.is_over
    assert sg.verify(g.record())["moves"] == g.ply


def test_same_seed_same_deal_and_different_seeds_differ():
    a = sg.Game("classic", players=4, seed=11)
    b = sg.Game("classic", players=4, seed=11)
    c = sg.Game("classic", players=4, seed=12)
    assert a.record()["deck"] == b.record()["deck"]
    assert a.record()["deck"] != c.record()["deck"]
    assert a.view(0)["hand"] == b.view(0)["hand"]


def test_c6_illegal_moves_raise_with_the_rule_and_change_nothing():
    g = sg.Game("classic", players=2, seed=5)
    seat = g.to_act
    before = g.record_json()
    hand = g.view(seat)["hand"]
    # A card the seat does not hold.
    missing = next(c for c in ("2S", "3S", "4S", "5S", "6S", "7S", "8S") if c not in hand)
    with pytest.raises(sg.IllegalMoveError) as e:
        g.play({"card": missing, "at": "b1" if missing == "2S" else "c1"})
    assert e.value.code == "C6.not_in_hand" and e.value.rule == "C6"
    # Not this seat's turn (C5).
    with pytest.raises(sg.IllegalMoveError) as e:
        g.play(g.legal_moves()[0], seat=1 - seat)
    assert e.value.code == "C5.not_your_turn"
    # A corner is free (C6).
    with pytest.raises(sg.IllegalMoveError) as e:
        g.play({"card": "JD", "at": "a1"}) if "JD" in hand else g.play({"card": hand[0], "at": "a1"})
    assert e.value.code in ("C6.corner", "C6.wrong_space")
    # Passing with a play in hand (C6a).
    with pytest.raises(sg.IllegalMoveError) as e:
        g.play({"pass": True})
    assert e.value.code == "C6a.not_stuck"
    assert g.record_json() == before
    # A taken space (C6).
    m = next(m for m in g.legal_moves() if m.kind == "place" and not m.card.startswith("J"))
    g.play(m)
    g.play(g.legal_moves()[0])
    other = g.to_act
    hand2 = g.view(other)["hand"]
    jack = next((c for c in hand2 if c in ("JD", "JC")), None)
    if jack:
        with pytest.raises(sg.IllegalMoveError) as e:
            g.play({"card": jack, "at": m.at})
        assert e.value.code == "C6.space_taken"


def test_s5_stacks_refusals_carry_codes():
    g = sg.Game("stacks", players=3, seed=2)
    seat = g.to_act
    with pytest.raises(sg.IllegalMoveError) as e:
        g.play({"seat": seat, "play": "STEAL-CHIP", "target": seat, "colour": "blue"})
    assert e.value.code in ("S5.steal_from_self", "S4.not_in_hand")
    with pytest.raises(sg.IllegalMoveError) as e:
        g.play({"seat": (seat + 1) % 3, "end": True})
    assert e.value.code == "S4.not_your_turn"
    with pytest.raises(sg.IllegalMoveError) as e:
        g.play({"pass": True})
    assert e.value.code == "S5b.no_window"


def test_moves_are_values_and_read_from_record_entries():
    g = sg.Game("classic", seed=1)
    m = g.legal_moves()[0]
    again = g.parse_move(m.to_json(g.to_act))
    assert again == m and hash(again) == hash(m)
    assert m.game == "classic" and m.kind in ("place", "remove", "dead")
    assert str(m) == m.text
    with pytest.raises(sg.NotationError) as e:
        g.parse_move({"card": "7H"})
    assert e.value.code == "notation.no_kind"
    with pytest.raises(sg.NotationError) as e:
        g.parse_move({"card": "7X", "at": "d6"})
    assert e.value.code == "notation.field"
    with pytest.raises(sg.UsageError):
        g.play("7H d6")
    s = sg.Game("stacks", seed=1)
    with pytest.raises(sg.UsageError) as e:
        s.play(m)
    assert e.value.code == "move.wrong_game"


def test_views_show_only_the_seat_and_public_state():
    g = sg.Game("classic", players=4, seed=9)
    for _ in range(10):
        g.play(g.random_move())
    v = g.view(1)
    j = v.to_json()
    assert v.seat == 1 and j["seat"] == 1 and len(j["hand"]) == j["hand_sizes"][1]
    text = str(j)
    assert "draw_pile_order" not in text and "hands" not in j
    spectator = g.spectator_view()
    assert spectator.seat is None and "hand" not in spectator.to_json()
    if g.to_act != 1:
        assert v.legal_moves() == []
    assert g.view(g.to_act).legal_moves() == g.legal_moves()
    with pytest.raises(sg.UsageError) as e:
        g.view(4)
    assert e.value.code == "seat.no_such_seat"
    # Determinized games agree with the view and keep the seat's hand.
    d = v.determinize(seed=3)
    assert d.view(1)["hand"] == j["hand"]
    assert d.view(1)["board"] == j["board"]
    with pytest.raises(sg.UsageError):
        d.record()


def test_observations_ignore_what_the_seat_cannot_see():
    for game, players in (("classic", 3), ("stacks", 4)):
        g = sg.Game(game, players=players, seed=4)
        for _ in range(25):
            g.play(g.random_move())
        for seat in range(players):
            obs = g.observe(seat)
            assert obs.dtype.name == "uint8" and obs.shape == (g.observation_size,)
            assert (obs <= g.observation_high()).all()
            for k in range(3):
                other = g.view(seat).determinize(seed=k)
                assert (other.observe(seat) == obs).all()
            assert (g.view(seat).observation() == obs).all()


def test_copies_are_independent():
    g = sg.Game("stacks", players=2, seed=8)
    h = g.copy()
    k = copy.deepcopy(g)
    g.playout()
    assert g.is_over and h.ply == 0 and k.ply == 0
    h.playout()
    assert h.record() == g.record()  # the same generator: the same random game


def test_actions_round_trip_with_moves():
    for game in ("classic", "stacks"):
        g = sg.Game(game, players=3, seed=6)
        while not g.is_over:
            mask = g.action_mask()
            acts = g.legal_actions()
            assert sorted(acts) == list(mask.nonzero()[0])
            for m in g.legal_moves():
                a = g.action_of(m)
                assert mask[a] == 1
                assert g.action_of(g.move_of_action(a)) == a
            bad = next(a for a in range(g.num_actions) if mask[a] == 0)
            before = g.ply
            with pytest.raises(sg.ActionError):
                g.play_action(bad)
            assert g.ply == before
            g.play_action(acts[g.ply % len(acts)])
        with pytest.raises(sg.ActionError) as e:
            g.play_action(0)
        assert e.value.code == "env.game_over"
    assert sg.action_text(44) == "place on e5 with the space's card"
    assert sg.action_text(232, "stacks") == "BLOCK"
