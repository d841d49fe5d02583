#!/usr/bin/env python3
"""The speeds of docs/python.md, measured on one core (CPU time of this
process): random classic 2-player games through the AEC environment and
through the vectorized API, and a bare legal_moves + play loop.

    python3 examples/python/benchmark.py [--seconds 5]
"""

import argparse
import random
import time

import sequence_game as sg


def timed(seconds, body):
    t0 = time.process_time()
    n = units = 0
    while time.process_time() - t0 < seconds:
        u = body(n)
        units += u
        n += 1
    return n, units, time.process_time() - t0


def bare_loop(seconds):
    rng = random.Random(1)

    def one(n):
        g = sg.Game("classic", players=2, seed=n)
        moves = 0
        while not g.is_over:
            ms = g.legal_moves()
            g.play(ms[rng.randrange(len(ms))])
            moves += 1
        return moves

    games, moves, dt = timed(seconds, one)
    print(f"legal_moves + play loop: {moves / dt:,.0f} moves/s ({games / dt:,.0f} games/s)")


def aec(seconds):
    from random_agent import play_game  # this folder's random agent
    from sequence_game.pettingzoo import env as make_env

    rng = random.Random(0)
    e = make_env("classic", players=2)

    def one(n):
        e.reset(seed=n)
        return play_game(e, rng)[1]

    games, steps, dt = timed(seconds, one)
    print(f"PettingZoo AEC, random agents: {games / dt:,.0f} games/s ({steps / dt:,.0f} steps/s)")


def vector(seconds, observe, num_envs=1024):
    env = sg.VecEnv("classic", num_envs=num_envs, players=2, seed=1)
    env.reset()

    def one(n):
        _, _, _, _, done = env.step(env.random_actions(), observe=observe)
        return int(done.sum())

    calls, games, dt = timed(seconds, one)
    print(
        f"VecEnv x{num_envs}, random actions, observe={observe}: {games / dt:,.0f} games/s "
        f"({calls * num_envs / dt:,.0f} steps/s)"
    )


def engine(seconds):
    def one(n):
        g = sg.Game("classic", players=2, seed=n)
        return g.playout()

    games, moves, dt = timed(seconds, one)
    print(f"engine playouts (Game.playout, for reference): {games / dt:,.0f} games/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    a = ap.parse_args()
    bare_loop(a.seconds)
    aec(a.seconds)
    vector(a.seconds, True)
    vector(a.seconds, False)
    engine(a.seconds)


if __name__ == "__main__":
    main()
