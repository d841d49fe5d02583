"""The vectorized stepping API: stacked arrays, reproducible, refuses
actions outside the masks without moving any game."""

import numpy as np
import pytest

import sequence_game as sg


def twins(num_envs, seed):
    """Two vectors of the same classic games, both reset: the one a test
    disturbs, its twin that sees nothing, and the first's arrays."""
    env = sg.VecEnv("classic", num_envs=num_envs, seed=seed)
    twin = sg.VecEnv("classic", num_envs=num_envs, seed=seed)
    arrays = env.reset()
    twin.reset()
    return env, twin, arrays


def assert_steps_alike(env, twin, actions):
    """`actions` give both vectors the same arrays (shapes and values)."""
    got, want = env.step(actions), twin.step(actions)
    for x, y in zip(got, want):
        assert x.shape == y.shape and (x == y).all()
    return got


def test_shapes_dtypes_and_random_games():
    env = sg.VecEnv("classic", num_envs=32, players=2, seed=1)
    obs, mask, to_act = env.reset()
    assert obs.shape == (32, env.observation_size) and obs.dtype == np.uint8
    assert mask.shape == (32, sg.CLASSIC_ACTIONS) and mask.dtype == np.int8
    assert to_act.shape == (32,) and set(to_act) <= {0, 1}
    finished = 0
    for _ in range(300):
        a = env.random_actions()
        assert all(mask[i, a[i]] == 1 for i in range(32))
        obs, mask, to_act, rewards, done = env.step(a)
        assert rewards.shape == (32, 2) and done.dtype == np.bool_
        assert (rewards[~done] == 0).all()
        for i in np.flatnonzero(done):
            assert sorted(rewards[i]) in ([-1.0, 1.0], [0.0, 0.0])
        finished += int(done.sum())
    t = env.tally()
    assert t["games"] == finished >= 32 and sum(t["wins"]) + t["draws"] == finished


def test_python_actions_are_accepted_as_lists_and_arrays():
    env = sg.VecEnv("stacks", num_envs=4, players=3, seed=2)
    obs, mask, _ = env.reset()
    a = [int(np.flatnonzero(m)[0]) for m in mask]
    env.step(a)
    obs, mask, *_ = env.step(np.array([int(np.flatnonzero(m)[0]) for m in mask], dtype=np.int32))
    with pytest.raises(sg.UsageError):
        env.step("no")


def test_reproducible_whatever_the_threads():
    def run(threads):
        env = sg.VecEnv("classic", num_envs=256, players=4, seed=9, threads=threads)
        env.reset()
        for _ in range(50):
            out = env.step(env.random_actions())
        return [x.copy() for x in out], env.tally()

    (a, ta), (b, tb) = run(1), run(2)
    assert ta == tb and all((x == y).all() for x, y in zip(a, b))
    env = sg.VecEnv("classic", num_envs=8, seed=9)
    first = env.reset()[0].copy()
    env.step(env.random_actions())
    assert (env.reset(seed=9)[0] == first).all()


def test_an_illegal_action_names_the_game_and_moves_nothing():
    env, twin, (obs, mask, to_act) = twins(3, 4)
    snap = [x.copy() for x in (obs, mask, to_act)]
    legal = np.argmax(mask, axis=1)  # the first legal action of each game
    bad = legal.copy()
    bad[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(sg.ActionError) as e:
        env.step(bad)
    assert str(e.value).startswith("game 2: action")
    with pytest.raises(sg.ActionError) as e:
        env.step([0, 0])
    assert e.value.code == "env.batch_size"
    with pytest.raises(sg.ActionError):
        env.step([-1, 10**6, 0])
    for x, y in zip((obs, mask, to_act), snap):
        assert (x == y).all()
    # Nothing moved: the refused vector steps exactly as its twin that saw
    # no refusal.
    assert_steps_alike(env, twin, legal)


def test_reset_without_a_seed_deals_new_games_reproducibly():
    env = sg.VecEnv("classic", num_envs=4, seed=3)
    first = env.reset()[0].copy()
    assert (sg.VecEnv("classic", num_envs=4, seed=3).reset()[0] == first).all()
    second = env.reset()[0].copy()
    assert not (second == first).all()  # not the same deals again
    again = sg.VecEnv("classic", num_envs=4, seed=3)
    again.reset()
    assert (again.reset()[0] == second).all()  # the same sequence of seeds
    assert (env.reset(seed=3)[0] == first).all()


def test_arrays_made_read_only_or_resized_are_replaced():
    env, twin, (obs, mask, _) = twins(4, 5)
    obs.flags.writeable = False
    mask.resize((1,), refcheck=False)
    a = np.argmax(twin.reset()[1], axis=1)
    env.reset()
    got = assert_steps_alike(env, twin, a)
    assert got[0] is not obs and got[1] is not mask


def test_strided_actions_and_argument_errors():
    env = sg.VecEnv("classic", num_envs=4, seed=6)
    _, mask, _ = env.reset()
    wide = np.zeros((4, 2), dtype=np.int64)
    wide[:, 0] = np.argmax(mask, axis=1)
    env.step(wide[:, 0])  # a column view: not contiguous
    for kwargs, code in [
        ({"num_envs": 0}, "env.num_envs"),
        ({"num_envs": -1}, "env.num_envs"),
        ({"seed": -1}, "env.seed"),
        ({"threads": 0}, "env.threads"),
        ({"seat": 1}, "env.seat"),
        ({"seat": -1, "opponents": "random"}, "seat.no_such_seat"),
        ({"seat": 2, "opponents": "random"}, "seat.no_such_seat"),
    ]:
        with pytest.raises(sg.SequenceError) as e:
            sg.VecEnv("classic", **kwargs)
        assert e.value.code == code, kwargs
    with pytest.raises(sg.SequenceError) as e:
        env.reset(seed=-5)
    assert e.value.code == "env.seed"


def test_single_agent_mode_against_greedy():
    env = sg.VecEnv("classic", num_envs=16, players=2, seed=3, opponents="greedy", seat=1)
    obs, mask, to_act = env.reset()
    assert (to_act == 1).all()
    wins = losses = 0
    for _ in range(400):
        obs, mask, to_act, rewards, done = env.step(env.random_actions())
        assert rewards.shape == (16, 1) and (to_act == 1).all()
        wins += int((rewards > 0).sum())
        losses += int((rewards < 0).sum())
    assert losses > 5 * max(wins, 1)
    with pytest.raises(sg.BotError):
        sg.VecEnv(opponents="nobody")
    with pytest.raises(sg.UsageError):
        sg.VecEnv(num_envs=0)
    with pytest.raises(sg.SetupError):
        sg.VecEnv("stacks", players=2, teams=2)
