"""Self-play vectors: every seat driven from Python or by our bots, roles
alternated per game."""

import numpy as np
import pytest

import sequence_game as sg
from sequence_game.selfplay import SelfPlay


def uniform(seed):
    rng = np.random.default_rng(seed)

    def policy(obs, mask):
        assert mask.dtype == np.int8 and obs.dtype == np.uint8
        assert (mask.sum(axis=1) > 0).all()
        return (rng.random(mask.shape) * mask).argmax(axis=1)

    return policy


def test_both_seats_from_python_alternate_and_score_each_role():
    calls = {0: 0, 1: 0}

    def counted(role, inner):
        def policy(obs, mask, idx):
            calls[role] += len(idx)
            return inner(obs, mask)

        return policy

    sp = SelfPlay("classic", num_envs=16, roles=[counted(0, uniform(1)), counted(1, uniform(2))], seed=3)
    seats_of_role0 = []
    for _ in range(2000):
        rot = sp.vec.rotations().copy()
        out = sp.step()
        for i in np.flatnonzero(out["done"]):
            r = out["rewards"][i]
            assert r[0] == -r[1]
            seats_of_role0.append(int((0 - rot[i]) % 2))
    assert calls[0] > 0 and calls[1] > 0
    # role 0 sat at both seats, about as often
    assert len(seats_of_role0) >= 16
    assert 0.3 < np.mean(seats_of_role0) < 0.7


def test_a_python_role_against_bots_of_the_vector():
    sp = SelfPlay("classic", num_envs=32, roles=[uniform(4), "greedy"], seed=5)
    stats = sp.play(games=96)
    me, bot = stats
    assert me["games"] == bot["games"] >= 96
    assert me["wins"] == bot["losses"] and me["losses"] == bot["wins"]
    # greedy beats a uniform random policy almost always (docs/python.md)
    assert bot["wins"] > 0.8 * bot["games"]


def test_only_the_role_to_act_is_asked():
    asked = []

    def mine(obs, mask, idx):
        # the games given are exactly those where role 0 must decide
        roles = sp.vec.roles_to_act()
        assert (roles[idx] == 0).all()
        assert set(np.flatnonzero(roles == 0)) == set(idx)
        asked.append(len(idx))
        return (mask != 0).argmax(axis=1)

    sp = SelfPlay("stacks", num_envs=8, players=3, roles=[mine, "random", "greedy"], seed=2)
    for _ in range(200):
        out = sp.step()
        # the bots' roles decided inside the vector: Python saw role 0 only
        assert set(out["roles"]) <= {0}
    assert sum(asked) == 200 * 8


def test_team_roles_share_rewards():
    a, b = uniform(7), uniform(8)
    sp = SelfPlay("classic", num_envs=8, players=4, roles=[a, b, a, b], seed=9)
    ended = 0
    for _ in range(3000):
        out = sp.step()
        for i in np.flatnonzero(out["done"]):
            r = out["rewards"][i]
            assert r[0] == r[2] and r[1] == r[3] and r[0] == -r[1] or (r == 0).all()
            ended += 1
        if ended >= 8:
            break
    assert ended >= 8


def test_self_play_is_reproducible():
    def run():
        return SelfPlay("classic", num_envs=8, roles=[uniform(1), uniform(2)], seed=4).play(games=20)

    assert run() == run()


def test_bad_roles_are_refused():
    with pytest.raises(ValueError):
        SelfPlay("classic", roles=[uniform(1)])
    with pytest.raises(ValueError):
        SelfPlay("classic", roles=["random", "greedy"])
    with pytest.raises(TypeError):
        SelfPlay("classic", roles=[uniform(1), 3])
    with pytest.raises(sg.BotError) as e:
        SelfPlay("classic", roles=[uniform(1), "nobody"])
    assert e.value.code == "bot.spec"
    with pytest.raises(sg.UsageError) as e:
        sg.VecEnv("classic", roles=[None, "random"], opponents="random")
    assert e.value.code == "env.roles"
