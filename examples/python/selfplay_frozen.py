#!/usr/bin/env python3
"""Self-play against a frozen copy: a numpy-only REINFORCE agent (a linear
softmax policy over the observation, masked to the legal actions) plays
both roles of classic 2-player games in a self-play vector, against a
copy of itself that is frozen and refreshed every `--refresh` games; the
roles change seats every game. It prints its share of wins against the
frozen copy per round and, at the end, against `random` and `greedy`
with 95 % (Wilson) intervals.

With `--curve DIR` it also scores the agent against `random` and `greedy`
(`--eval` games each, on fresh deals) before training and after each of
the game counts in `--at`, and writes the learning curve to
`DIR/learning-curve.csv`, `.md` (a table) and `.svg` (a chart):

    python3 examples/python/selfplay_frozen.py [--games 4000] [--envs 64] [--refresh 500] [--eval 400] [--seed 0]
    python3 examples/python/selfplay_frozen.py --games 8000 --at 1000,2000,4000,8000 --curve docs
"""

import argparse
import os

# One BLAS thread: the policies multiply small matrices, and BLAS threads
# fighting over a shared machine's cores make each product many times
# slower (set the variable yourself to override).
for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")
import numpy as np

from interval import wilson
from sequence_game.selfplay import SelfPlay
import sequence_game as sg


def sample(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row of probabilities `p`, never one of probability 0
    (an illegal one): the uniform draw is scaled by the row's float32 sum,
    which may fall short of 1 (unscaled, a draw above it picked the last
    action, illegal — the example once stopped with ActionError)."""
    c = p.cumsum(axis=1)
    u = rng.random((len(p), 1)) * c[:, -1:]
    return (c <= u).sum(axis=1)


class Linear:
    """A masked linear softmax policy: logits = W · (obs / high) + b."""

    def __init__(self, obs_size: int, actions: int, high: np.ndarray, seed: int):
        self.W = np.zeros((obs_size, actions), dtype=np.float32)
        self.b = np.zeros(actions, dtype=np.float32)
        self.scale = 1.0 / np.maximum(high, 1).astype(np.float32)
        self.rng = np.random.default_rng(seed)

    def probs(self, obs: np.ndarray, mask: np.ndarray):
        x = obs.astype(np.float32) * self.scale
        z = x @ self.W + self.b
        z = np.where(mask != 0, z, -1e9)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z) * (mask != 0)
        return x, p / p.sum(axis=1, keepdims=True)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        _, p = self.probs(obs, mask)
        return sample(p, self.rng)

    def copy(self) -> "Linear":
        c = Linear.__new__(Linear)
        c.W, c.b, c.scale = self.W.copy(), self.b.copy(), self.scale
        c.rng = np.random.default_rng(int(self.rng.integers(2**63)))
        return c


class Learner:
    """The learning role: acts with the policy, keeps each game's
    decisions, and learns from a game's result when it ends (REINFORCE
    with a running baseline)."""

    def __init__(self, policy: Linear, num_envs: int, lr: float):
        self.policy = policy
        self.lr = lr
        self.trace = [[] for _ in range(num_envs)]
        self.baseline = 0.0

    def __call__(self, obs, mask, idx):
        x, p = self.policy.probs(obs, mask)
        a = sample(p, self.policy.rng)
        for k, i in enumerate(idx):
            self.trace[i].append((x[k], p[k], a[k]))
        return a

    def finish(self, game: int, reward: float) -> None:
        steps = self.trace[game]
        self.trace[game] = []
        if not steps:
            return
        adv = reward - self.baseline
        self.baseline += 0.01 * (reward - self.baseline)
        xs = np.stack([s[0] for s in steps])
        g = -np.stack([s[1] for s in steps])
        g[np.arange(len(steps)), [s[2] for s in steps]] += 1.0  # ∇ log π(a|x) w.r.t. the logits
        step = self.lr * adv / len(steps)
        self.policy.W += step * (xs.T @ g)
        self.policy.b += step * g.sum(axis=0)


def evaluate(policy: Linear, opponent: str, games: int, envs: int, seed: int):
    def act(obs, mask):
        return policy.act(obs, mask)

    me = SelfPlay("classic", num_envs=envs, roles=[act, opponent], seed=seed).play(games)[0]
    return me["wins"], me["games"]


def write_curve(out: str, rows, args) -> None:
    """The learning curve as CSV, a Markdown table and an SVG chart (win
    rate with its 95 % interval against each opponent, by games played)."""
    os.makedirs(out, exist_ok=True)
    base = os.path.join(out, "learning-curve")
    with open(base + ".csv", "w") as f:
        f.write("games,opponent,wins,played,rate,low,high\n")
        for g, opp, k, n, lo, hi in rows:
            f.write(f"{g},{opp},{k},{n},{k / n:.4f},{lo:.4f},{hi:.4f}\n")
    by_games = sorted({r[0] for r in rows})
    cell = {(r[0], r[1]): r for r in rows}
    opps = ["random", "greedy"]
    with open(base + ".md", "w") as f:
        f.write(f"REINFORCE self-play (`{' '.join(args)}`): win rate with its 95 % interval, {rows[0][3]} games per point\n\n")
        f.write("| games trained | " + " | ".join(f"vs {o}" for o in opps) + " |\n")
        f.write("| ---: | " + " | ".join("---" for _ in opps) + " |\n")
        for g in by_games:
            cells = []
            for o in opps:
                _, _, k, n, lo, hi = cell[(g, o)]
                cells.append(f"{k / n:.1%} ({lo:.1%}–{hi:.1%})")
            f.write(f"| {g} | " + " | ".join(cells) + " |\n")
    w, h, m = 640, 360, 50
    top = max(by_games) or 1
    x = lambda g: m + (w - 2 * m) * g / top
    y = lambda r: h - m - (h - 2 * m) * r
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{w / 2}" y="20" text-anchor="middle">REINFORCE (numpy, self-play): win rate by games trained, 95 % intervals</text>']
    for t in range(0, 11, 2):
        r = t / 10
        parts.append(f'<line x1="{m}" x2="{w - m}" y1="{y(r)}" y2="{y(r)}" stroke="#ddd"/>')
        parts.append(f'<text x="{m - 6}" y="{y(r) + 4}" text-anchor="end">{t * 10}%</text>')
    for g in by_games:
        parts.append(f'<text x="{x(g)}" y="{h - m + 16}" text-anchor="middle">{g}</text>')
    parts.append(f'<text x="{w / 2}" y="{h - 10}" text-anchor="middle">games trained</text>')
    for o, colour in zip(opps, ("#1f77b4", "#d62728")):
        pts = [(x(g), y(cell[(g, o)][2] / cell[(g, o)][3])) for g in by_games]
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{" ".join(f"{a:.1f},{b:.1f}" for a, b in pts)}"/>')
        for g in by_games:
            _, _, k, n, lo, hi = cell[(g, o)]
            parts.append(f'<line x1="{x(g):.1f}" x2="{x(g):.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" stroke="{colour}"/>')
            parts.append(f'<circle cx="{x(g):.1f}" cy="{y(k / n):.1f}" r="3" fill="{colour}"/>')
        ly = 40 + 16 * opps.index(o)
        parts.append(f'<text x="{w - m}" y="{ly}" text-anchor="end" fill="{colour}">vs {o}</text>')
    parts.append("</svg>")
    with open(base + ".svg", "w") as f:
        f.write("\n".join(parts) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--refresh", type=int, default=500, help="games between refreshes of the frozen copy")
    ap.add_argument("--eval", type=int, default=400, help="games against random and greedy at the end")
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--curve", help="write the learning curve (csv, md, svg) into this directory")
    ap.add_argument("--at", default="", help="with --curve: game counts to score at, e.g. 1000,2000,4000")
    a = ap.parse_args()
    at = sorted({int(x) for x in a.at.split(",") if x.strip()} | {a.games}) if a.curve else []
    rows = []

    def score(trained: int) -> None:
        for opp in ("random", "greedy"):
            k, n = evaluate(policy, opp, a.eval, a.envs, a.seed + 1)
            lo, hi = wilson(k, n)
            rows.append((trained, opp, k, n, lo, hi))
            print(f"after {trained} games, against {opp}: {k}/{n} = {k / n:.1%} (95 % interval {lo:.1%}–{hi:.1%})", flush=True)

    probe = sg.Game("classic")
    policy = Linear(probe.observation_size, probe.num_actions, probe.observation_high(), a.seed)
    learner = Learner(policy, a.envs, a.lr)
    frozen = policy.copy()

    def opponent(obs, mask):
        return frozen.act(obs, mask)

    if a.curve:
        score(0)
    sp = SelfPlay("classic", num_envs=a.envs, roles=[learner, opponent], seed=a.seed)
    played = wins = round_games = 0
    while played < a.games:
        out = sp.step()
        for i in np.flatnonzero(out["done"]):
            r = float(out["rewards"][i, 0])
            learner.finish(i, r)
            played += 1
            round_games += 1
            wins += r > 0
            if round_games >= a.refresh:
                lo, hi = wilson(wins, round_games)
                print(f"games {played}: {wins / round_games:.1%} won against the frozen copy ({lo:.1%}–{hi:.1%})")
                frozen = policy.copy()
                wins = round_games = 0
            if at and played >= at[0]:
                at.pop(0)
                score(played)
    if a.curve:
        import sys

        write_curve(a.curve, rows, ["selfplay_frozen.py"] + sys.argv[1:])
        return
    for opp in ("random", "greedy"):
        k, n = evaluate(policy, opp, a.eval, a.envs, a.seed + 1)
        lo, hi = wilson(k, n)
        print(f"against {opp}: {k}/{n} = {k / n:.1%} (95 % interval {lo:.1%}–{hi:.1%})")


if __name__ == "__main__":
    main()
