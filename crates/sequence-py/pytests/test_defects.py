"""The defects a researcher found trying the package from docs/python.md
alone; each input here failed before its fix."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import sequence_game as sg  # noqa: E402
import sequence_game.gymnasium  # noqa: E402,F401  (registers the ids)
from sequence_game.gymnasium import SequenceEnv  # noqa: E402
from sequence_game.pettingzoo import env as aec_env  # noqa: E402


def random_legal(obs, rng):
    """One random legal action per game of a batched dict observation (0
    for a game that ended: next-step autoreset ignores its action)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_vector_envs_survive_the_first_episode_end(mode):
    # Gymnasium's `_add_info` stacks each info key in an array typed by its
    # first value: `to_act` was an int during play and None at the end.
    envs = gymnasium.make_vec("sequence_game/Classic-v0", num_envs=2, vectorization_mode=mode, opponents="random")
    try:
        obs, info = envs.reset(seed=0)
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(400):
            obs, reward, term, trunc, info = envs.step(random_legal(obs, rng))
            ended += int(np.sum(term | trunc))
            if ended >= 3:
                break
        assert ended >= 3
    finally:
        envs.close()


@pytest.mark.parametrize("players", [3, 6])
def test_s5b_replay_of_stacks_ends_where_the_record_does(tmp_path, players):
    # The record's silence closes the last Block window (S5b): the replay's
    # last game must be the finished one, as `sequence replay --last` shows.
    specs = ["greedy", "random", "ismcts:50it"] * 2
    g = sg.Game("stacks", players=players, seed=104)
    bots = [sg.Bot(specs[s], game="stacks", seed=s) for s in range(players)]
    while not g.is_over:
        bots[g.to_act].play(g)
    path = tmp_path / "game.json"
    path.write_text(g.record_json())
    last = sg.replay(path)[-1].game
    resumed = sg.Game.from_record(path)
    assert last.is_over and last.status == resumed.status == g.status
    assert last.winner == resumed.winner == g.winner
    assert last.ply == resumed.ply
    assert sg.verify(path)["winner"] == g.winner


def test_s5b_replay_seed_104_three_players_is_won_by_seat_2(tmp_path):
    g = sg.Game("stacks", players=3, seed=104)
    bots = [sg.Bot(s, game="stacks", seed=i) for i, s in enumerate(["greedy", "random", "ismcts:50it"])]
    while not g.is_over:
        bots[g.to_act].play(g)
    steps = sg.replay(g.record())
    assert steps[-1].game.status == "won" and steps[-1].game.winner == g.winner
    assert steps[-1].game.to_act is None


def test_gymnasium_reset_hands_the_agent_a_decision_even_with_max_moves_1():
    env = SequenceEnv("classic", players=4, seat=3, opponents="random", max_moves=1)
    obs, info = env.reset(seed=0)
    assert info["to_act"] == 3
    assert obs["action_mask"].sum() > 0
    action = int(np.flatnonzero(obs["action_mask"])[0])
    obs, reward, term, trunc, info = env.step(action)
    assert "illegal_action" not in info
    assert trunc and not term and reward == 0.0


def test_play_with_a_seat_not_at_the_table_names_the_seat():
    g = sg.Game("classic", players=2, seed=1)
    m = g.legal_moves()[0]
    for seat in (5, 2, 255):
        with pytest.raises(sg.UsageError) as e:
            g.play(m, seat=seat)
        assert e.value.code == "seat.no_such_seat"
        with pytest.raises(sg.UsageError) as e:
            g.check(m, seat=seat)
        assert e.value.code == "seat.no_such_seat"
    assert g.ply == 0


@pytest.mark.parametrize(
    "call,exc,code",
    [
        (lambda g: g.play(g.legal_moves()[0], seat=-1), sg.UsageError, "seat.no_such_seat"),
        (lambda g: g.observe(-1), sg.UsageError, "seat.no_such_seat"),
        (lambda g: g.view(-1), sg.UsageError, "seat.no_such_seat"),
        (lambda g: g.reward(-1), sg.UsageError, "seat.no_such_seat"),
        (lambda g: g.side_of(2**70), sg.UsageError, "seat.no_such_seat"),
        (lambda g: g.play_action(2**63), sg.ActionError, "env.out_of_range"),
        (lambda g: g.play_action(-(2**70)), sg.ActionError, "env.out_of_range"),
        (lambda g: g.move_of_action(2**64), sg.ActionError, "env.out_of_range"),
        (lambda g: sg.Game("classic", players=2**70), sg.SetupError, "C3.players"),
        (lambda g: sg.Game("classic", players=-1), sg.SetupError, "C3.players"),
        (lambda g: sg.Game("classic", players=4, teams=2**70), sg.SetupError, "C3.teams"),
        (lambda g: sg.Game("stacks", players=2**70), sg.SetupError, "S1.players"),
        (lambda g: sg.Game(seed=-1), sg.UsageError, "game.seed"),
        (lambda g: sg.Game(seed=2**64), sg.UsageError, "game.seed"),
        (lambda g: sg.Bot("random", seed=-1), sg.UsageError, "game.seed"),
        (lambda g: g.view(0).determinize(seed=-1), sg.UsageError, "game.seed"),
        (lambda g: g.action_text(999), sg.ActionError, "env.out_of_range"),
        (lambda g: g.action_text(-1), sg.ActionError, "env.out_of_range"),
        (lambda g: sg.action_text(405, "classic"), sg.ActionError, "env.out_of_range"),
        (lambda g: sg.action_text(252, "stacks"), sg.ActionError, "env.out_of_range"),
    ],
)
def test_integers_out_of_range_raise_the_documented_error_not_overflow(call, exc, code):
    g = sg.Game("classic", players=2, seed=3)
    before = g.record_json()
    with pytest.raises(exc) as e:
        call(g)
    assert e.value.code == code
    assert g.record_json() == before


@pytest.mark.parametrize("game", ["classic", "stacks"])
def test_a_move_after_the_end_says_the_game_is_over(game):
    g = sg.Game(game, players=2, seed=4)
    g.playout()
    assert g.is_over
    entry = {"card": "7H", "at": "d6"} if game == "classic" else {"play": "B1", "to": "blue-a"}
    code = "C9.game_over" if game == "classic" else "S7.game_over"
    before = g.record_json()
    for call in (g.play, g.check):
        with pytest.raises(sg.IllegalMoveError) as e:
            call(entry)
        assert e.value.code == code
    assert g.record_json() == before


def test_pettingzoo_after_the_end_raises_the_documented_errors():
    e = aec_env("classic", players=2)
    e.reset(seed=2)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.agents == []
    with pytest.raises(sg.ActionError) as err:
        e.step(0)
    assert err.value.code == "env.game_over"
    with pytest.raises(sg.UsageError) as err:
        e.last()
    assert err.value.code == "env.game_over"


@pytest.mark.parametrize("bad", [3.7, "3", 3.0, None, [3]])
def test_envs_refuse_actions_that_are_not_integers(bad):
    gym_env = SequenceEnv("classic", opponents="random")
    gym_env.reset(seed=0)
    with pytest.raises(TypeError):
        gym_env.step(bad)
    assert gym_env.game.ply in (0, 1)  # nothing the agent did moved it
    e = aec_env("classic", players=2)
    e.reset(seed=0)
    if bad is not None:
        with pytest.raises(TypeError):
            e.step(bad)
        assert e.unwrapped.game.ply == 0
    # numpy integers are integers
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    e.step(np.int64(legal))
    assert e.unwrapped.game.ply == 1


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "abc"])
def test_pettingzoo_reset_refuses_bad_seeds(bad):
    e = aec_env("classic", players=2)
    if isinstance(bad, int):
        with pytest.raises(sg.UsageError) as err:
            e.reset(seed=bad)
        assert err.value.code == "env.seed"
    else:
        with pytest.raises(TypeError):
            e.reset(seed=bad)


def test_masks_are_int8_everywhere():
    g = sg.Game("classic", players=2, seed=0)
    assert g.action_mask().dtype == np.int8
    v = sg.VecEnv("classic", num_envs=2)
    obs, mask, to_act = v.reset()
    assert mask.dtype == np.int8
    assert v.step(v.random_actions())[1].dtype == np.int8
    gym_env = SequenceEnv("classic", opponents="random")
    obs, info = gym_env.reset(seed=0)
    assert obs["action_mask"].dtype == np.int8 and info["action_mask"].dtype == np.int8
    e = aec_env("classic", players=2)
    e.reset(seed=0)
    assert e.observe("player_0")["action_mask"].dtype == np.int8
    # one mask serves Gymnasium's masked sampling from every source
    a = gym_env.action_space.sample(g.action_mask())
    assert g.action_mask()[a] == 1


# -- the second round of findings (issue 30's leftovers) -------------------


@pytest.mark.parametrize(
    "kwargs,code",
    [
        (dict(players=2, seat=3), "seat.no_such_seat"),
        (dict(players=2, seat=-1), "seat.no_such_seat"),
        (dict(players=4, seat=2**70), "seat.no_such_seat"),
        (dict(players=3, opponents=["random", "greedy"]), "env.opponents"),
        (dict(players=2, opponents=["random"] * 3), "env.opponents"),
        (dict(illegal_action="x"), "env.illegal_action"),
        (dict(max_moves=-1), "env.max_moves"),
        (dict(max_moves=0), "env.max_moves"),
        (dict(render_mode="rgb_array"), "env.render_mode"),
    ],
)
def test_gymnasium_env_arguments_raise_coded_usage_errors(kwargs, code):
    with pytest.raises(sg.UsageError) as e:
        SequenceEnv("classic", **kwargs)
    assert e.value.code == code


def test_env_arguments_of_the_wrong_type_raise_type_error():
    with pytest.raises(TypeError):
        SequenceEnv("classic", seat="1")
    with pytest.raises(TypeError):
        SequenceEnv("classic", max_moves=2.5)
    with pytest.raises(TypeError):
        aec_env("classic", max_moves="10")


@pytest.mark.parametrize("bad", [-3, 0, -(2**70)])
def test_pettingzoo_refuses_max_moves_below_one(bad):
    with pytest.raises(sg.UsageError) as e:
        aec_env("classic", players=2, max_moves=bad)
    assert e.value.code == "env.max_moves"
    # a good one still truncates there
    e = aec_env("classic", players=2, max_moves=3)
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.game.ply == 3


def test_vector_and_selfplay_arguments_raise_coded_usage_errors():
    from sequence_game.selfplay import SelfPlay
    from sequence_game.vector import SequenceVectorEnv

    for kwargs, code in [
        (dict(max_moves=10), "env.max_moves"),
        (dict(illegal_action="lose"), "env.illegal_action"),
        (dict(render_mode="ansi"), "env.render_mode"),
    ]:
        with pytest.raises(sg.UsageError) as e:
            SequenceVectorEnv("classic", num_envs=2, **kwargs)
        assert e.value.code == code
    with pytest.raises(sg.UsageError) as e:
        SelfPlay("classic", num_envs=2, players=2, roles=["random"])
    assert e.value.code == "env.roles"


def test_verify_of_a_missing_file_says_what_sequence_verify_says(tmp_path):
    import os
    import pathlib
    import subprocess

    exe = os.environ.get("SEQUENCE_BIN") or str(pathlib.Path(__file__).resolve().parents[3] / "target/debug/sequence")
    for path in ("/nonexistent", str(tmp_path)):
        with pytest.raises(sg.RecordError) as e:
            sg.verify(path)
        assert e.value.code == "record.unreadable" and e.value.exit_code == 2
        cli = subprocess.run([exe, "verify", path], capture_output=True, text=True)
        assert cli.returncode == 2
        assert cli.stderr.strip() == f"error: {e.value}"
    assert str(e.value) == f"{tmp_path}: a directory, not a record file"
    with pytest.raises(sg.RecordError) as e:
        sg.verify("/nonexistent")
    assert str(e.value) == "/nonexistent: no such file"


@pytest.mark.parametrize(
    "bad,says",
    [
        ("x", "not JSON"),
        ("{", "not JSON"),
        ("[1, 2]", "not a view but a list"),
        ('"hand"', "not a view but a string"),
        ("3", "not a view but a number"),
        ([1, 2], "not a view but a list"),
        (None, "not a view but null"),
    ],
)
def test_view_from_json_says_when_it_is_not_json_or_not_a_view(bad, says):
    with pytest.raises(sg.NotationError) as e:
        sg.View.from_json(bad)
    assert e.value.code == "view.json"
    assert says in str(e.value) and "players" not in str(e.value)


def test_view_from_json_reads_json_text_as_the_dict():
    import json

    g = sg.Game("classic", players=2, seed=5)
    v = g.view(g.to_act)
    from_text = sg.View.from_json(json.dumps(v.to_json()))
    assert np.array_equal(from_text.observation(), v.observation())
    assert from_text.legal_moves() == v.legal_moves()
