"""OpenSpiel's algorithms against the package's bots, through the
OpenSpiel games of sequence_game.openspiel (docs/python.md "OpenSpiel").

* ISMCTS: OpenSpiel's ``ISMCTSBot`` (information-set MCTS over
  redeals of what its seat cannot see, ``resample_from_infostate``) with
  random rollouts the engine plays (``PlayoutEvaluator``), against each
  opponent (``random``, ``greedy``, ``level:1`` …).
* DQN: OpenSpiel's JAX DQN agent (``open_spiel.python.jax.dqn``) learns
  in OpenSpiel's ``rl_environment`` against one of our bots, with the
  information-state tensor as input and the legal actions as its mask;
  it is measured before and after against the opponents. Needs ``jax``,
  ``flax``, ``optax``, ``orbax-checkpoint`` and ``chex``
  (``scripts/openspiel-dqn.sh`` makes a virtual environment with them).

Every pairing plays duplicate deals: deal k is played twice with the
seats swapped (2 players), so the luck of the cards cancels. Prints one
line per pairing: wins, draws, losses, the score (a draw counts half)
with its 95 % Wilson interval, and the time per move of the OpenSpiel
side.

  python3 examples/python/openspiel_vs_levels.py --games 20 --sims 200
  python3 examples/python/openspiel_vs_levels.py --ismcts-off --dqn-episodes 2000 --eval 100
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import ismcts

import sequence_game.openspiel as so


def wilson(score: float, n: int) -> tuple:
    """95 % Wilson interval of a rate ``score`` over ``n`` games."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    d = 1 + z * z / n
    c = (score + z * z / (2 * n)) / d
    h = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def report(name: str, results: list, seconds: float, moves: int) -> None:
    n = len(results)
    w, d, l_ = results.count(1), results.count(0), results.count(-1)
    score = (w + d / 2) / n if n else 0.0
    lo, hi = wilson(score, n)
    per = 1000 * seconds / max(moves, 1)
    print(f"{name}: won {w}, drew {d}, lost {l_} of {n}: score {100 * score:.1f} % (95 % interval {100 * lo:.1f}–{100 * hi:.1f}); {per:.1f} ms per move", flush=True)


def play(game, deal_seed: int, seats: dict, timed_seat: int) -> tuple:
    """One game from the deal of ``deal_seed``; ``seats`` maps a seat to a
    ``pyspiel.Bot``-like object with ``step(state)``. Returns the timed
    seat's result (+1/0/−1), its thinking seconds and its moves."""
    state = so.deal(game.new_initial_state(), deal_seed)
    for bot in seats.values():
        if hasattr(bot, "reset"):
            bot.reset()
    spent, moves = 0.0, 0
    while not state.is_terminal():
        seat = state.current_player()
        t = time.perf_counter()
        action = seats[seat].step(state)
        if seat == timed_seat:
            spent += time.perf_counter() - t
            moves += 1
        state.apply_action(action)
    r = state.returns()[timed_seat]
    return (int(np.sign(r)), spent, moves)


def ismcts_vs(game, args, opponent: str) -> None:
    results, spent, moves = [], 0.0, 0
    for i in range(args.games):
        seat = i % 2
        searcher = ismcts.ISMCTSBot(
            game,
            so.PlayoutEvaluator(args.rollouts, seed=args.seed + i),
            args.uct_c,
            args.sims,
            random_state=np.random.RandomState(args.seed + i),
        )
        seats = {seat: searcher, 1 - seat: so.BotAgent(opponent, game=args.game, seed=args.seed + i)}
        r, s, m = play(game, args.seed + i // 2, seats, seat)
        results.append(r)
        spent += s
        moves += m
    report(f"ISMCTS {args.sims} sims vs {opponent}", results, spent, moves)


class _DQNPlayer:
    """The DQN agent's greedy policy at a seat, as a ``step(state)`` bot."""

    def __init__(self, agent, env_game) -> None:
        self.agent = agent
        self.game = env_game

    def step(self, state) -> int:
        seat = state.current_player()
        legal = state.legal_actions()
        info = state.information_state_tensor(seat)
        self.agent.player_id = seat
        action, _ = self.agent.act_epsilon_greedy(np.asarray(info, np.float32), np.asarray(legal), 0.0)
        return int(action)


def dqn_run(game, args, opponents: list) -> None:
    from open_spiel.python.jax import dqn  # needs jax, flax, optax, orbax-checkpoint, chex

    env = rl_environment.Environment(game, seed=args.seed)
    size = env.observation_spec()["info_state"][0]
    agent = dqn.DQN(
        player_id=0,
        state_representation_size=size,
        num_actions=env.action_spec()["num_actions"],
        hidden_layers_sizes=[128, 128],
        batch_size=64,
        replay_buffer_capacity=20_000,
        min_buffer_size_to_learn=1_000,
        learn_every=4,
        update_target_network_every=500,
        learning_rate=1e-3,
        optimizer_str="adam",
        epsilon_decay_duration=args.dqn_episodes * 20,
        epsilon_end=0.05,
        seed=args.seed,
        allow_checkpointing=False,
    )
    player = _DQNPlayer(agent, game)

    def evaluate(tag: str) -> None:
        for opp in opponents:
            results, spent, moves = [], 0.0, 0
            for i in range(args.eval):
                seat = i % 2
                seats = {seat: player, 1 - seat: so.BotAgent(opp, game=args.game, seed=10_000 + i)}
                r, s, m = play(game, 10_000 + args.seed + i // 2, seats, seat)
                results.append(r)
                spent += s
                moves += m
            report(f"DQN {tag} vs {opp}", results, spent, moves)

    evaluate("untrained")
    trainer = so.BotAgent(args.dqn_opponent, game=args.game, seed=args.seed)
    t0 = time.perf_counter()
    steps = 0
    for episode in range(args.dqn_episodes):
        seat = episode % 2
        agent.player_id = seat
        ts = env.reset()
        while not ts.last():
            p = ts.observations["current_player"]
            if p == seat:
                action = agent.step(ts).action
                steps += 1
            else:
                action = trainer.step(env.get_state)
            ts = env.step([action])
        agent.step(ts)
        if (episode + 1) % max(1, args.dqn_episodes // 5) == 0:
            print(f"  DQN episode {episode + 1}/{args.dqn_episodes} against {args.dqn_opponent}: {steps} agent steps, {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"DQN trained {args.dqn_episodes} episodes ({steps} agent steps) against {args.dqn_opponent} in {time.perf_counter() - t0:.0f} s", flush=True)
    evaluate(f"after {args.dqn_episodes} episodes")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["classic", "stacks"], default="classic")
    ap.add_argument("--games", type=int, default=20, help="ISMCTS games per opponent (even: duplicate deals)")
    ap.add_argument("--sims", type=int, default=200, help="ISMCTS simulations per move")
    ap.add_argument("--rollouts", type=int, default=1, help="engine rollouts per ISMCTS leaf")
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument("--opponents", default="random,greedy", help="our bots, comma-separated (level:1 … level:5 too)")
    ap.add_argument("--ismcts-off", action="store_true")
    ap.add_argument("--dqn-episodes", type=int, default=0, help="DQN training episodes (0: no DQN)")
    ap.add_argument("--dqn-opponent", default="random", help="the bot DQN trains against")
    ap.add_argument("--eval", type=int, default=100, help="DQN evaluation games per opponent")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    game = pyspiel.load_game(so.CLASSIC if args.game == "classic" else so.STACKS, {"players": 2})
    opponents = [o for o in args.opponents.split(",") if o]
    if not args.ismcts_off:
        for opp in opponents:
            ismcts_vs(game, args, opp)
    if args.dqn_episodes:
        dqn_run(game, args, opponents)


if __name__ == "__main__":
    main()
