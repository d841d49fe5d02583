#!/usr/bin/env python3
"""Stable-Baselines3 checks of the package (run by scripts/sb3-check.sh,
which installs torch, stable-baselines3 and sb3-contrib; not part of CI):

1. SB3's own env checker (``check_env``) on ``SequenceEnv`` (classic 2 and
   Stacks 3 players);
2. the SB3 ``VecEnv`` adapter (``sequence_game.sb3.SB3VecEnv``): its
   spaces, ``reset``/``step`` shapes and dtypes, the masks ``MaskablePPO``
   reads, a whole game's ``infos``, and SB3's ``VecCheckNan`` and
   ``VecMonitor`` wrappers over it;
3. ``MaskablePPO`` (sb3-contrib) training ``--steps`` steps on the adapter
   against ``random``, then its win rate over ``--eval`` games with masks
   (and a masked random agent's, for comparison), with 95 % intervals.

    python3 examples/python/sb3_check.py [--steps 8192] [--envs 8] [--eval 200] [--seed 0]
"""

import argparse
import time

import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.vec_env import VecCheckNan, VecMonitor

from interval import wilson
from sequence_game.gymnasium import SequenceEnv
from sequence_game.sb3 import SB3VecEnv


def check_single_envs() -> None:
    for game, players in (("classic", 2), ("stacks", 3)):
        env = SequenceEnv(game, players=players, opponents="random")
        check_env(env, warn=True)
        print(f"check_env: SequenceEnv({game!r}, players={players}) passed")


def check_adapter(envs: int, seed: int) -> None:
    env = SB3VecEnv("classic", num_envs=envs, opponents="random", seed=seed)
    assert is_masking_supported(env)
    obs = env.reset()
    assert obs.shape == (envs,) + env.observation_space.shape and obs.dtype == np.uint8
    assert env.observation_space.contains(obs[0])
    masks = get_action_masks(env)
    assert masks.shape == (envs, env.action_space.n) and masks.dtype == bool and masks.any(axis=1).all()
    rng = np.random.default_rng(seed)
    ended = 0
    wrapped = VecMonitor(VecCheckNan(env, raise_exception=True))
    wrapped.reset()
    for _ in range(2000):
        m = get_action_masks(env)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in m])
        obs, rewards, dones, infos = wrapped.step(actions)
        assert obs.shape[0] == envs and rewards.dtype == np.float32 and dones.dtype == bool
        for i in np.flatnonzero(dones):
            info = infos[i]
            assert info["winner"] in (-1, 0, 1) and info["length"] > 0, info
            assert rewards[i] in (-1.0, 0.0, 1.0) and "episode" in info
            assert info["terminal_observation"].shape == env.observation_space.shape
            ended += 1
    assert ended > 0, "no game ended in 2000 steps"
    print(f"SB3VecEnv: reset/step/masks/infos checked, VecCheckNan + VecMonitor over it, {ended} games ended")


def win_rate(model, games: int, envs: int, seed: int):
    env = SB3VecEnv("classic", num_envs=envs, opponents="random", seed=seed)
    obs = env.reset()
    wins = played = 0
    rng = np.random.default_rng(seed)
    while played < games:
        masks = env.action_masks()
        if model is None:
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        else:
            actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        obs, rewards, dones, _ = env.step(actions)
        for i in np.flatnonzero(dones):
            if played < games:
                wins += rewards[i] > 0
                played += 1
    return int(wins), played


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=8192)
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--eval", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    check_single_envs()
    check_adapter(a.envs, a.seed)
    env = SB3VecEnv("classic", num_envs=a.envs, opponents="random", seed=a.seed)
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=256, seed=a.seed, verbose=0, device="cpu")
    t = time.perf_counter()
    model.learn(total_timesteps=a.steps)
    took = time.perf_counter() - t
    print(f"MaskablePPO: {model.num_timesteps} steps on SB3VecEnv in {took:.1f} s ({model.num_timesteps / took:.0f} steps/s)")
    for name, m in (("MaskablePPO", model), ("masked random", None)):
        k, n = win_rate(m, a.eval, a.envs, a.seed + 1)
        lo, hi = wilson(k, n)
        print(f"{name} vs random: {k}/{n} = {k / n:.1%} (95 % interval {lo:.1%}–{hi:.1%})")
    print("sb3 check: all passed")


if __name__ == "__main__":
    main()
