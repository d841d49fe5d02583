#!/usr/bin/env python3
"""A Python agent against the built-in `greedy` bot: the agent's share of
wins with its 95 % (Wilson) interval, seats alternating.

The agent here asks `greedy` itself through the binding (replace `choose`
with your own policy): it should win about half of the games, and
`--agent random` shows what random play gets.

    python3 examples/python/vs_greedy.py [--game classic|stacks] [--games 200] [--agent greedy|random|ismcts:200it]
"""

import argparse

from interval import wilson
import sequence_game as sg


class Agent:
    """Your agent: gets the view of its seat (its hand and the public
    state only) and answers one of its legal moves."""

    def __init__(self, game: str, spec: str, seed: int):
        self.bot = sg.Bot(spec, game=game, seed=seed)

    def choose(self, view: sg.View) -> sg.Move:
        return self.bot.choose(view)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="classic", choices=["classic", "stacks"])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    agent = Agent(a.game, a.agent, a.seed)
    opponent = sg.Bot(a.opponent, game=a.game, seed=a.seed + 1)
    wins = draws = 0
    for n in range(a.games):
        game = sg.Game(a.game, players=2, seed=a.seed * 1_000_003 + n)
        me = n % 2  # alternate seats: the first player's edge cancels
        while not game.is_over:
            seat = game.to_act
            if seat == me:
                game.play(agent.choose(game.view(seat)), seat)
            else:
                opponent.play(game)
        if game.winner is None:
            draws += 1
        elif game.winner == game.side_of(me):
            wins += 1
    lo, hi = wilson(wins, a.games)
    print(
        f"{a.agent} vs {a.opponent} ({a.game}, 2 players): won {wins} of {a.games} "
        f"({100 * wins / a.games:.1f} %, 95 % interval {100 * lo:.1f}–{100 * hi:.1f} %), {draws} draws"
    )


if __name__ == "__main__":
    main()
