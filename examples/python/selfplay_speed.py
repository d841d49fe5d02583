#!/usr/bin/env python3
"""Speeds of Python-driven play (docs/python.md "Speeds"):

* `vector`: classic 2-player games per second when both seats of every
  game are driven from a numpy policy (a linear layer over the
  observation, masked argmax): through `VecEnv` directly (one policy for
  both seats) and through `SelfPlay` (a policy per role, roles
  alternating), with the Rust random agent for reference;
* `arena` (with `--sequence BIN`): the per-move cost of a Python policy
  seated in `sequence arena` through the bot protocol
  (`cmd:python3 -m sequence_game.protocol …`), as the arena's time with
  it less the time with the built-in `random` in its place, per move of
  the Python seat.

    python3 examples/python/selfplay_speed.py [--envs 256] [--steps 300] [--rounds 5] [--sequence target/release/sequence --games 20]

Each figure is the median of `--rounds` runs (this machine is shared).
"""

import argparse
import os

# One BLAS thread: the policies multiply small matrices, and BLAS threads
# fighting over a shared machine's cores make each product many times
# slower (set the variable yourself to override).
for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import sequence_game as sg
from sequence_game.selfplay import SelfPlay


class LinearPolicy:
    """A softmax policy over logits = obs · W (float32 numpy), sampled with
    the Gumbel trick among the legal actions (a deterministic policy can
    play a game forever)."""

    def __init__(self, obs_size, actions, seed):
        self.rng = np.random.default_rng(seed)
        self.W = (0.01 * self.rng.standard_normal((obs_size, actions))).astype(np.float32)

    def __call__(self, obs, mask):
        z = obs.astype(np.float32) @ self.W
        z += self.rng.gumbel(size=z.shape).astype(np.float32)
        z[mask == 0] = -np.inf
        return z.argmax(axis=1)


def games_per_second(step, count_done, steps):
    """Games finished per second in the steady state: `steps` untimed
    steps first (the games all start together), then `steps` timed."""
    for _ in range(steps):
        step()
    games, t0 = 0, time.perf_counter()
    for _ in range(steps):
        games += count_done(step())
    return games / (time.perf_counter() - t0)


def vector_figures(envs, steps):
    probe = sg.Game("classic")
    a, b = (LinearPolicy(probe.observation_size, probe.num_actions, s) for s in (1, 2))
    v = sg.VecEnv("classic", num_envs=envs, seed=0)
    state = {}
    state["obs"], state["mask"], state["to_act"] = v.reset()
    actions = np.zeros(envs, dtype=np.int64)

    def vec_step():
        # seat 0 by policy a, seat 1 by policy b (the same games SelfPlay
        # plays, without its roles and rotation)
        seat0 = state["to_act"] == 0
        for sel, pol in ((seat0, a), (~seat0, b)):
            if sel.any():
                actions[sel] = pol(state["obs"][sel], state["mask"][sel])
        out = v.step(actions)
        state["obs"], state["mask"], state["to_act"] = out[0], out[1], out[2]
        return out[4]

    rv = sg.VecEnv("classic", num_envs=envs, seed=0)
    sp = SelfPlay("classic", num_envs=envs, roles=[a, b], seed=0)
    return {
        "VecEnv, a numpy policy per seat": games_per_second(vec_step, lambda d: int(d.sum()), steps),
        "SelfPlay, two numpy policies, roles alternating": games_per_second(sp.step, lambda o: int(o["done"].sum()), steps),
        "VecEnv, Rust random_actions (reference)": games_per_second(lambda: rv.step(rv.random_actions())[4], lambda d: int(d.sum()), steps),
    }


def protocol_ms_per_move(moves=200):
    """The bot process's own work per decision, in process: reading the
    request, View.from_json, the observation and mask, the policy, the
    answer."""
    import io
    import json

    from sequence_game.protocol import serve

    msgs, seed = [], 0
    while len(msgs) < moves:
        g = sg.Game("classic", seed=seed)
        seed += 1
        while not g.is_over:
            v = g.view(g.to_act).to_json()
            msgs.append(json.dumps({"type": "move", "time_ms": 5000, "view": v, "legal_moves": v["legal_moves"]}))
            g.play(g.random_move())
    text = "\n".join([json.dumps({"type": "hello", "game": "classic", "seed": 1})] + msgs + ['{"type": "quit"}']) + "\n"

    def first(obs, mask):
        return int(np.flatnonzero(mask)[0])

    t0 = time.perf_counter()
    serve(first, stdin=io.StringIO(text), stdout=io.StringIO())
    return (time.perf_counter() - t0) / len(msgs) * 1000


def arena_seconds(exe, bots, games, env):
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run(
            [exe, "arena", "--bots", bots, "--games", str(games), "--seed", "1", "--out", out],
            capture_output=True, text=True, env=env, check=True,
        )
    elapsed = time.perf_counter() - t0
    moves = sum(int(m) for m in re.findall(r"in (\d+) moves", r.stderr + r.stdout))
    return elapsed, moves


def arena_figure(exe, games):
    with tempfile.TemporaryDirectory() as d:
        pathlib.Path(d, "speed_agent.py").write_text(
            "import numpy as np\n"
            "def policy(obs, mask):\n"
            "    return int(np.flatnonzero(mask)[0])\n"
        )
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([d] + [p for p in sys.path if p])
        py = f"cmd:{sys.executable} -m sequence_game.protocol speed_agent:policy"
        t_py, moves_py = arena_seconds(exe, f"{py},random", games, env)
        # (a bot is listed once: `greedy:100%` is another uniformly random bot)
        t_rs, moves_rs = arena_seconds(exe, "greedy:100%,random", games, env)
        # the Python seat makes about half of the moves
        return (t_py - t_rs) / max(moves_py / 2, 1) * 1000, t_py, t_rs, moves_py


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--steps", type=int, default=300, help="steps timed per figure (after as many untimed)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sequence", help="the sequence binary, for the arena figure")
    ap.add_argument("--games", type=int, default=20)
    a = ap.parse_args()
    runs = [vector_figures(a.envs, a.steps) for _ in range(a.rounds)]
    for name in runs[0]:
        vals = [r[name] for r in runs]
        print(f"{name}: {statistics.median(vals):,.0f} games/s (median of {len(vals)}, {min(vals):,.0f}–{max(vals):,.0f})")
    ms = [protocol_ms_per_move() for _ in range(a.rounds)]
    print(f"protocol bot, its own work per decision (in process): {statistics.median(ms):.3f} ms "
          f"(median of {len(ms)}, {min(ms):.3f}–{max(ms):.3f})")
    if a.sequence:
        per = [arena_figure(a.sequence, a.games) for _ in range(a.rounds)]
        ms = [p[0] for p in per]
        print(f"arena, Python policy through the protocol: {statistics.median(ms):.2f} ms per move of the Python seat "
              f"more than the built-in random (median of {len(ms)}, {min(ms):.2f}–{max(ms):.2f}; "
              f"{a.games} games: {statistics.median(p[1] for p in per):.2f} s against {statistics.median(p[2] for p in per):.2f} s)")


if __name__ == "__main__":
    main()
