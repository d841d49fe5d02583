"""Every refusal docs/python.md's error table names, each raised with its
exact exception class and code, and nothing it touches changed (the
game's record, position and generator; the vector's games; the
environment's episode)."""

import json

import numpy as np
import pytest

import sequence_game as sg


def state(g):
    """Everything a refusal could change in a game: its record, position
    (the spectator's view and every seat's), and its generator (the next
    random move of a copy)."""
    views = [g.view(s).to_json() for s in range(g.players)]
    nxt = g.copy().random_move()
    rec = g.record_json() if _has_record(g) else None
    return (rec, json.dumps(views, sort_keys=True), g.ply, g.to_act, nxt)


def _has_record(g):
    try:
        g.record()
        return True
    except sg.UsageError:
        return False


def refused(g, call, exc, code):
    """`call(g)` raises exactly `exc` with `code` and leaves `g` as it was."""
    before = state(g)
    with pytest.raises(sg.SequenceError) as e:
        call(g)
    assert type(e.value) is exc, f"{type(e.value).__name__}: {e.value}"
    assert e.value.code == code, str(e.value)
    assert isinstance(e.value, ValueError)
    assert state(g) == before
    return e.value


def find(game, players, want, seeds=range(200), max_plies=400):
    """The first position of random play (seeded) where `want(g)` holds."""
    for seed in seeds:
        g = sg.Game(game, players=players, seed=seed)
        for _ in range(max_plies):
            if g.is_over:
                break
            if want(g):
                return g
            g.play(g.random_move())
    raise AssertionError("no such position")


# ----- IllegalMoveError: the rules refuse a move --------------------------------


def occupied(g):
    """The spaces holding a chip (from the public board planes)."""
    chips = g.observe(0)[:300].reshape(3, 100).any(axis=0)
    return ["abcdefghij"[i % 10] + str(i // 10 + 1) for i in np.flatnonzero(chips)]


def test_illegal_move_c6_space_taken():
    def taken(g):
        hand = g.view(g.to_act)["hand"]
        return any(c in ("JD", "JC") for c in hand) and occupied(g)

    g = find("classic", 2, taken)
    jack = next(c for c in g.view(g.to_act)["hand"] if c in ("JD", "JC"))
    at = occupied(g)[0]
    err = refused(g, lambda g: g.play({"card": jack, "at": at}), sg.IllegalMoveError, "C6.space_taken")
    assert err.rule == "C6"


def test_illegal_move_c5_not_your_turn():
    g = sg.Game("classic", players=2, seed=1)
    m = g.legal_moves()[0]
    refused(g, lambda g: g.play(m, seat=1 - g.to_act), sg.IllegalMoveError, "C5.not_your_turn")
    refused(g, lambda g: g.check(m, seat=1 - g.to_act), sg.IllegalMoveError, "C5.not_your_turn")


def test_illegal_move_c6a_not_stuck():
    g = sg.Game("classic", players=2, seed=1)
    refused(g, lambda g: g.play({"pass": True}), sg.IllegalMoveError, "C6a.not_stuck")


def test_illegal_move_s5_steal_from_self():
    g = find("stacks", 3, lambda g: "STEAL-CHIP" in g.view(g.to_act)["hand"] and g.legal_moves()[0].kind != "block")
    s = g.to_act
    refused(
        g,
        lambda g: g.play({"seat": s, "play": "STEAL-CHIP", "target": s, "colour": "blue"}),
        sg.IllegalMoveError,
        "S5.steal_from_self",
    )


def test_illegal_move_s5b_window_open():
    g = find("stacks", 3, lambda g: any(m.kind == "block" for m in g.legal_moves()))
    offered = g.to_act
    other = next(s for s in range(3) if s != offered)
    refused(g, lambda g: g.play({"seat": other, "end": True}), sg.IllegalMoveError, "S5b.window_open")


@pytest.mark.parametrize("game,code", [("classic", "C9.game_over"), ("stacks", "S7.game_over")])
def test_illegal_move_after_the_end(game, code):
    g = sg.Game(game, players=2, seed=9)
    g.playout()
    entry = {"card": "7H", "at": "d6"} if game == "classic" else {"play": "B1", "to": "blue-a"}
    refused(g, lambda g: g.play(entry), sg.IllegalMoveError, code)
    refused(g, lambda g: g.play(entry, seat=0), sg.IllegalMoveError, code)


# ----- SetupError: a table or options that break the rules ---------------------


@pytest.mark.parametrize(
    "kwargs,code",
    [
        (dict(game="classic", players=5), "C3.players"),
        (dict(game="classic", players=6, teams=4), "C3.teams"),
        (dict(game="classic", options={"sequence_length": 7}), "C11.option"),
        (dict(game="classic", options={"no_such_option": 1}), "C11.option"),
        (dict(game="stacks", players=7), "S1.players"),
        (dict(game="stacks", players=3, teams=3), "S1.teams"),
        (dict(game="stacks", options={"no_such_option": 1}), "S3a.option"),
    ],
)
def test_setup_errors(kwargs, code):
    for make in (lambda: sg.Game(**kwargs), lambda: sg.VecEnv(num_envs=2, **kwargs)):
        with pytest.raises(sg.SequenceError) as e:
            make()
        assert type(e.value) is sg.SetupError and e.value.code == code, str(e.value)


# ----- NotationError: a move entry that cannot be read --------------------------


@pytest.mark.parametrize(
    "entry,code",
    [
        ({"card": "7H"}, "notation.no_kind"),
        ({"card": "7H", "at": "z99"}, "notation.field"),
        ({"card": "ZZ", "at": "d6"}, "notation.field"),
        ({"at": "d6"}, "notation.missing"),
    ],
)
def test_notation_errors(entry, code):
    g = sg.Game("classic", players=2, seed=2)
    for call in (g.parse_move, g.play, g.check):
        refused(g, lambda g: call(entry), sg.NotationError, code)


# ----- ActionError: an action outside the mask ----------------------------------


def test_action_errors_of_a_game():
    g = sg.Game("classic", players=2, seed=2)
    illegal = int(np.flatnonzero(g.action_mask() == 0)[0])
    refused(g, lambda g: g.play_action(illegal), sg.ActionError, g.copy() and _code_of(g, illegal))
    for bad in (-1, 405, 2**63, -(2**70)):
        refused(g, lambda g: g.play_action(bad), sg.ActionError, "env.out_of_range")
        refused(g, lambda g: g.move_of_action(bad), sg.ActionError, "env.out_of_range")
        refused(g, lambda g: g.action_text(bad), sg.ActionError, "env.out_of_range")
    g.playout()
    refused(g, lambda g: g.play_action(0), sg.ActionError, "env.game_over")


def _code_of(g, action):
    try:
        g.copy().play_action(action)
    except sg.ActionError as e:
        assert e.code == "env.not_legal" or e.rule is not None
        return e.code
    raise AssertionError("the action was legal")


def test_action_errors_of_a_vector_move_no_game():
    v = sg.VecEnv("classic", num_envs=4, seed=3, records=True)
    twin = sg.VecEnv("classic", num_envs=4, seed=3, records=True)
    for e in (v, twin):
        e.reset()
        e.step(e.random_actions())
        mask = e.step(e.random_actions())[1].copy()
    actions = v.random_actions()
    before = (mask.copy(), v.tally())
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(sg.SequenceError) as e:
        v.step(bad)
    assert type(e.value) is sg.ActionError and e.value.code in ("env.not_legal",) or e.value.rule
    assert "game 2" in str(e.value)
    bad[2] = 10**6
    with pytest.raises(sg.ActionError) as e:
        v.step(bad)
    assert e.value.code == "env.out_of_range"
    with pytest.raises(sg.ActionError) as e:
        v.step(actions[:3])
    assert e.value.code == "env.batch_size"
    assert v.tally() == before[1]
    # the same actions step as if the refusals never were: as the twin
    # that saw none
    twin.random_actions()
    a = v.step(actions)
    b = twin.step(actions)
    for x, y in zip(a, b):
        assert (x == y).all()
    for _ in range(300):
        acts = v.random_actions()
        twin.random_actions()
        v.step(acts)
        twin.step(acts)
    assert v.records() == twin.records() != []


# ----- RecordError: a record that does not verify -------------------------------


def test_record_errors_carry_verify_exit_codes():
    g = sg.Game("classic", players=2, seed=5)
    for _ in range(6):
        g.play(g.random_move())
    rec = g.record()
    with pytest.raises(sg.SequenceError) as e:
        sg.verify({"format": "sequence-record/1"})
    assert type(e.value) is sg.RecordError and e.value.code == "record.malformed" and e.value.exit_code == 2
    bad = json.loads(json.dumps(rec))
    bad["moves"][3] = bad["moves"][1]
    with pytest.raises(sg.RecordError) as e:
        sg.verify(bad)
    assert e.value.code == "record.illegal_move" and e.value.exit_code == 1 and e.value.index == 3
    g.playout()
    done = g.record()
    done["result"] = {"winner": "green" if done["result"]["winner"] != "green" else "blue"} if done["result"]["winner"] else {"winner": "blue"}
    with pytest.raises(sg.RecordError) as e:
        sg.verify(done)
    assert e.value.code == "record.mismatch" and e.value.exit_code == 1
    for call in (sg.replay, sg.Game.from_record):
        with pytest.raises(sg.RecordError) as e:
            call(bad)
        assert e.value.code == "record.illegal_move"


# ----- BotError: a bot name that cannot be built --------------------------------


@pytest.mark.parametrize("spec", ["nobody", "ismcts:fast", "greedy:140%", "level:9"])
def test_bot_errors(spec):
    with pytest.raises(sg.SequenceError) as e:
        sg.Bot(spec, game="classic")
    assert type(e.value) is sg.BotError and e.value.code == "bot.spec"


# ----- UsageError: a call the API refuses ---------------------------------------


def test_usage_errors_of_a_game():
    g = sg.Game("classic", players=2, seed=6)
    for seat in (-1, 2, 5, 255, 2**70):
        for call in (g.observe, g.view, g.reward, g.side_of, g.env_observation):
            refused(g, lambda g: call(seat), sg.UsageError, "seat.no_such_seat")
        refused(g, lambda g: g.play(g.legal_moves()[0], seat=seat), sg.UsageError, "seat.no_such_seat")
    stacks_move = sg.Game("stacks", players=2, seed=1).legal_moves()[0]
    refused(g, lambda g: g.play(stacks_move), sg.UsageError, "move.wrong_game")
    refused(g, lambda g: g.action_of(stacks_move), sg.UsageError, "move.wrong_game")
    d = g.view(0).determinize(1)
    refused(d, lambda d: d.record(), sg.UsageError, "record.none")
    for seed in (-1, 2**64):
        with pytest.raises(sg.UsageError) as e:
            sg.Game(seed=seed)
        assert e.value.code == "game.seed"
        refused(g, lambda g: g.view(0).determinize(seed), sg.UsageError, "game.seed")
        with pytest.raises(sg.UsageError) as e:
            sg.VecEnv(num_envs=2, seed=seed)
        assert e.value.code == "env.seed"
    with pytest.raises(sg.UsageError) as e:
        sg.Game("chess")
    assert e.value.code == "game.unknown"


def test_usage_errors_of_a_vector():
    for kwargs, code in [
        (dict(num_envs=0), "env.num_envs"),
        (dict(threads=0), "env.threads"),
        (dict(seat=1), "env.seat"),
        (dict(seat=2, opponents="random"), "seat.no_such_seat"),
    ]:
        with pytest.raises(sg.UsageError) as e:
            sg.VecEnv("classic", **kwargs)
        assert e.value.code == code


def test_pettingzoo_refusals_change_nothing():
    pytest.importorskip("pettingzoo")
    from sequence_game.pettingzoo import env as aec_env

    e = aec_env("classic", players=2)
    e.reset(seed=4)
    g = e.unwrapped.game
    agent = e.agent_selection
    illegal = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    before = state(g)
    with pytest.raises(sg.ActionError):
        e.step(illegal)
    assert state(e.unwrapped.game) == before and e.agent_selection == agent
    with pytest.raises(sg.UsageError) as err:
        e.reset(seed=-1)
    assert err.value.code == "env.seed"
    assert state(e.unwrapped.game) == before


def test_gymnasium_raise_mode_changes_nothing():
    pytest.importorskip("gymnasium")
    from sequence_game.gymnasium import SequenceEnv

    env = SequenceEnv("classic", opponents="random", illegal_action="raise")
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = state(env.game)
    with pytest.raises(sg.ActionError):
        env.step(illegal)
    assert state(env.game) == before
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(legal)
