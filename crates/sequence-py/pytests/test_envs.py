"""The PettingZoo AEC and Gymnasium environments pass their libraries'
own API checks, are seeded, reward at the end, and refuse illegal
actions."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import sequence_game as sg  # noqa: E402
from sequence_game.gymnasium import SequenceEnv  # noqa: E402
from sequence_game.pettingzoo import env as aec_env  # noqa: E402

AEC_TABLES = [("classic", 2, None), ("classic", 3, None), ("classic", 4, 2), ("classic", 12, 3), ("stacks", 2, None), ("stacks", 6, None)]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game,players,teams", AEC_TABLES)
def test_pettingzoo_api_and_seed_tests_pass(game, players, teams):
    api_test(aec_env(game, players=players, teams=teams), num_cycles=200)
    seed_test(lambda: aec_env(game, players=players, teams=teams), num_cycles=100)


def play_aec(e, seed, rng):
    e.reset(seed=seed)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert e.observation_space(agent).contains(obs)
        legal = obs["action_mask"].nonzero()[0]
        e.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize("game,players,teams", [("classic", 4, 2), ("classic", 6, 3), ("stacks", 3, None)])
def test_aec_rewards_are_team_shared_and_end_the_game(game, players, teams):
    e = aec_env(game, players=players, teams=teams)
    rng = np.random.default_rng(0)
    for seed in range(3):
        totals = play_aec(e, seed, rng)
        g = e.unwrapped.game
        assert g.is_over
        for i, a in enumerate(e.possible_agents):
            assert totals[a] == g.reward(i)
        if g.winner is not None:
            winners = [a for i, a in enumerate(e.possible_agents) if g.side_of(i) == g.winner]
            assert all(totals[a] == 1.0 for a in winners)
            assert sum(v == 1.0 for v in totals.values()) == len(winners)


def test_aec_is_seeded_and_refuses_illegal_actions():
    e = aec_env("classic", players=2)
    e.reset(seed=5)
    first = e.unwrapped.game.record()
    e.reset(seed=5)
    assert e.unwrapped.game.record() == first
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    ply = e.unwrapped.game.ply
    with pytest.raises(sg.ActionError) as err:
        e.step(bad)
    assert err.value.code.startswith(("env.", "C"))
    assert e.unwrapped.game.ply == ply
    # Observations of a seat that need not act carry no legal action, and
    # never another hand.
    other = [a for a in e.agents if a != e.agent_selection][0]
    assert e.observe(other)["action_mask"].sum() == 0
    with pytest.raises(RuntimeError):
        aec_env("classic").step(0)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game", ["classic", "stacks"])
def test_gymnasium_check_env_passes(game):
    check_env(SequenceEnv(game, players=2))
    env = gymnasium.make(f"sequence_game/{game.capitalize()}-v0", opponents="random")
    check_env(env.unwrapped)
    env.close()


def test_gymnasium_episode_against_greedy_and_illegal_actions():
    env = SequenceEnv("classic", players=2, opponents="greedy", seat=1)
    obs, info = env.reset(seed=3)
    assert env.game.to_act == 1 and (obs["action_mask"] == info["action_mask"]).all()
    assert env.action_masks().dtype == bool
    rng = np.random.default_rng(1)
    total, steps = 0.0, 0
    while True:
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, r, term, trunc, info = env.step(a)
        total += r
        steps += 1
        if term or trunc:
            break
    assert term and total in (-1.0, 0.0, 1.0) and info["status"] in ("won", "draw")
    # Illegal: "lose" ends the episode with -1, the game unchanged.
    obs, _ = env.reset(seed=4)
    ply = env.game.ply
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, r, term, _, info = env.step(bad)
    assert (r, term) == (-1.0, True) and env.game.ply == ply
    assert info["illegal_action"]["code"]
    # the episode ended with the illegal action: no more steps, no second reward
    good = int(np.flatnonzero(obs["action_mask"])[0])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(good)
    assert env.game.ply == ply
    obs, _ = env.reset(seed=4)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    strict = SequenceEnv("stacks", players=3, illegal_action="raise", opponents=["random", "greedy", "random"])
    obs, _ = strict.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(sg.ActionError):
        strict.step(bad)
    with pytest.raises(sg.BotError):
        SequenceEnv(opponents="nobody")
    with pytest.raises(ValueError):
        SequenceEnv(seat=2)


def test_gymnasium_is_reproducible():
    def run(seed):
        env = SequenceEnv("stacks", players=3, opponents="greedy")
        obs, _ = env.reset(seed=seed)
        out = [obs["observation"].copy()]
        for _ in range(20):
            a = int(np.flatnonzero(obs["action_mask"])[0])
            obs, r, term, trunc, _ = env.step(a)
            out.append(obs["observation"].copy())
            if term or trunc:
                break
        return out

    a, b = run(7), run(7)
    assert all((x == y).all() for x, y in zip(a, b)) and len(a) == len(b)
