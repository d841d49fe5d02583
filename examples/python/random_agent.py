#!/usr/bin/env python3
"""A random agent in the PettingZoo AEC environment: every seat picks a
uniformly random legal action from its action mask.

    python3 examples/python/random_agent.py [--game classic|stacks] [--players N] [--games N] [--seed S]
"""

import argparse
import random
from typing import Dict, Tuple

from sequence_game.pettingzoo import env as make_env


def play_game(env, rng: random.Random) -> Tuple[Dict[str, float], int]:
    """Plays the game ``env`` was just reset to with every seat choosing
    a uniformly random action of its mask; returns the rewards each agent
    collected and the steps taken (the dead steps at the end included)."""
    totals = {agent: 0.0 for agent in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            legal = obs["action_mask"].nonzero()[0]
            action = int(legal[rng.randrange(len(legal))])
        env.step(action)
        steps += 1
    return totals, steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="classic", choices=["classic", "stacks"])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--teams", type=int, default=None)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()

    rng = random.Random(a.seed)
    env = make_env(a.game, players=a.players, teams=a.teams)
    for n in range(a.games):
        env.reset(seed=a.seed + n)
        totals, _ = play_game(env, rng)
        game = env.unwrapped.game
        print(f"game {n}: {game.status} after {game.ply} moves; rewards {totals}")
    env.close()


if __name__ == "__main__":
    main()
