"""Gymnasium's vector API: the Rust vector as a ``VectorEnv`` and
Gymnasium's own Sync/Async vectors of ``SequenceEnv`` run whole episodes
in every autoreset mode; per-game results and records from a vector."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv  # noqa: E402

import sequence_game as sg  # noqa: E402
import sequence_game.gymnasium  # noqa: E402,F401
from sequence_game.gymnasium import SequenceEnv  # noqa: E402
from sequence_game.vector import SequenceVectorEnv  # noqa: E402


def masked(rng, masks):
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def run_episodes(envs, mode, want, rng, limit=3000):
    """Steps random legal actions until `want` episodes ended; checks each
    ended episode's info and returns their rewards."""
    obs, infos = envs.reset(seed=1)
    assert envs.observation_space.contains(obs)
    n = envs.num_envs
    ended_rewards = []
    need_reset = np.zeros(n, dtype=bool)
    for _ in range(limit):
        if mode == AutoresetMode.DISABLED and need_reset.any():
            obs, infos = envs.reset(options={"reset_mask": need_reset})
            need_reset[:] = False
        obs, reward, term, trunc, infos = envs.step(masked(rng, obs["action_mask"]))
        done = term | trunc
        for i in np.flatnonzero(done):
            ended_rewards.append(float(reward[i]))
            if mode == AutoresetMode.SAME_STEP and "final_info" in infos:
                fin = infos["final_info"]
                assert fin["_winner"][i] and fin["length"][i] > 0
            elif "winner" in infos:
                assert infos["_winner"][i] and infos["length"][i] > 0
                assert -1 <= infos["winner"][i] < 6
        if mode == AutoresetMode.DISABLED:
            need_reset |= done
        if len(ended_rewards) >= want:
            return ended_rewards
    raise AssertionError(f"only {len(ended_rewards)} episodes ended")


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED])
@pytest.mark.parametrize("kind", ["sync", "async"])
def test_gymnasium_vectors_of_sequence_env_run_whole_episodes(mode, kind):
    fns = [lambda: SequenceEnv("classic", opponents="random")] * 3
    cls = SyncVectorEnv if kind == "sync" else AsyncVectorEnv
    envs = cls(fns, autoreset_mode=mode)
    try:
        rewards = run_episodes(envs, mode, 6, np.random.default_rng(0))
        assert set(rewards) <= {-1.0, 0.0, 1.0}
    finally:
        envs.close()


@pytest.mark.parametrize("mode", ["sync", "async", "vector_entry_point"])
def test_make_vec_runs_whole_episodes(mode):
    envs = gymnasium.make_vec("sequence_game/Stacks-v0", num_envs=2, vectorization_mode=mode, opponents="random", players=3)
    try:
        am = envs.metadata["autoreset_mode"]
        rewards = run_episodes(envs, am, 4, np.random.default_rng(1))
        assert set(rewards) <= {-1.0, 0.0, 1.0}
    finally:
        envs.close()


def test_the_rust_vector_is_a_gymnasium_vector_env():
    envs = SequenceVectorEnv("classic", num_envs=16, opponents="random", seed=3)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert envs.single_action_space == gymnasium.spaces.Discrete(sg.CLASSIC_ACTIONS)
    assert envs.action_space.shape == (16,)
    obs, infos = envs.reset(seed=3)
    assert envs.observation_space.contains(obs)
    assert obs["action_mask"].dtype == np.int8
    rng = np.random.default_rng(2)
    games = wins = 0
    for _ in range(400):
        obs, reward, term, trunc, infos = envs.step(masked(rng, obs["action_mask"]))
        assert envs.observation_space.contains(obs)
        assert not trunc.any()
        assert (reward[~term] == 0).all()
        for i in np.flatnonzero(term):
            games += 1
            w = infos["winner"][i]
            assert reward[i] == (1.0 if w == 0 else (0.0 if w == -1 else -1.0))
            wins += w == 0
            assert infos["_winner"][i] and infos["length"][i] >= 20
    assert games >= 16
    assert envs.tally()["games"] == games
    # the seat-0 agent is as good as random: about half
    assert 0.2 < wins / games < 0.8


def test_self_play_vector_rewards_the_seat_that_acted():
    envs = SequenceVectorEnv("classic", num_envs=8, opponents=None, seed=5)
    obs, infos = envs.reset()
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(400):
        acted = infos["to_act"].copy()
        obs, reward, term, trunc, infos = envs.step(masked(rng, obs["action_mask"]))
        for i in np.flatnonzero(term):
            ended += 1
            assert infos["rewards"][i, acted[i]] == reward[i]
            if infos["winner"][i] >= 0:
                assert reward[i] == 1.0  # in 2-player classic, the winner made the last move
    assert ended >= 8


@pytest.mark.parametrize("game,players", [("classic", 2), ("classic", 4), ("stacks", 3)])
def test_vector_results_and_records(game, players):
    v = sg.VecEnv(game, num_envs=6, players=players, seed=7, records=True)
    v.reset()
    seen = 0
    for _ in range(3000):
        obs, mask, to_act, rewards, done = v.step(v.random_actions())
        if done.any():
            winner, length, _ = v.results()
            recs = dict(v.records())
            assert set(recs) == set(np.flatnonzero(done))
            for i, rec in recs.items():
                summary = sg.verify(rec)
                assert summary["moves"] == len(rec["moves"])
                w = summary["winner"]
                g = sg.Game.from_record(rec)
                assert g.is_over and g.ply == length[i]
                assert (g.winner if g.winner is not None else -1) == winner[i]
                assert w is None or g.winner is not None
                seen += 1
        if seen >= 8:
            break
    assert seen >= 8
    assert v.records() == []
    with pytest.raises(sg.UsageError) as e:
        sg.VecEnv(game, num_envs=2, players=players).records()
    assert e.value.code == "env.records"


def test_vector_records_are_reproducible():
    def first(seed):
        v = sg.VecEnv("classic", num_envs=4, seed=seed, records=True)
        while True:
            v.step(v.random_actions())
            r = v.records()
            if r:
                return r

    assert first(11) == first(11)
    assert first(11) != first(12)
