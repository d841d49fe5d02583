"""What the PettingZoo and Gymnasium environments share: the table they
deal, their observation space and what ``render()`` shows."""

from __future__ import annotations

import operator
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np
from gymnasium import spaces

from ._core import ActionError, Game, SequenceError, UsageError
from ._errors import error, int_arg, max_moves_arg, seat_arg, usage  # noqa: F401 (re-exported)


def table(
    game: str,
    players: int,
    teams: Optional[int],
    options: Optional[dict],
    render_mode: Optional[str],
    render_modes: Sequence[str],
) -> Tuple[Dict[str, Any], Game]:
    """The table's arguments for ``Game(seed=…, **table)`` and a game
    dealt at it (seed 0) that validates it at once: ``SetupError`` naming
    the rule (C3, S1) for a bad table, ``UsageError`` ``env.render_mode``
    for an unknown render mode."""
    if render_mode is not None and render_mode not in render_modes:
        raise usage("env.render_mode", f"render_mode {render_mode!r} is not one of {list(render_modes)}")
    args = dict(game=game, players=players, teams=teams, options=options)
    return args, Game(seed=0, **args)


def observation_space(game: Game) -> spaces.Dict:
    """The environments' observation space for the table of ``game``:
    ``observation``, a ``uint8`` Box of what a seat may see, and
    ``action_mask``, an ``int8`` Box of 0/1 over the action space."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=0,
                high=game.observation_high(),
                shape=(game.observation_size,),
                dtype=np.uint8,
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8),
        }
    )


def render_text(game: Any, render_mode: Optional[str]) -> Optional[str]:
    """The board and hands of ``game`` as text: printed for ``"human"``,
    returned for ``"ansi"``; ``None`` with a Gymnasium warning when the
    environment has no render mode."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("render() was called without a render_mode (use 'human' or 'ansi')")
        return None
    text = str(game)
    if render_mode == "human":
        print(text)
        return None
    return text


def action_arg(action: Any) -> int:
    """An action as a Python ``int``: ints and numpy integers (anything
    with ``__index__``); ``TypeError`` for anything else (``3.7``, ``"3"``),
    as ``Game.play_action`` does."""
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(f"an action is an integer, not {type(action).__name__}")
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"an action is an integer, not {type(action).__name__}") from None


def seed_arg(seed: Any) -> int:
    """A seed: an integer 0 to 2**64 - 1 (``UsageError`` ``env.seed``
    outside, ``TypeError`` for a non-integer), as ``VecEnv`` takes it."""
    if isinstance(seed, (bool, np.bool_)):
        raise TypeError(f"a seed is an integer, not {type(seed).__name__}")
    try:
        s = operator.index(seed)
    except TypeError:
        raise TypeError(f"a seed is an integer, not {type(seed).__name__}") from None
    if not 0 <= s < 2**64:
        raise error(UsageError, "env.seed", f"seed must be 0 to {2**64 - 1}, not {s}")
    return s


def game_over(what: str) -> SequenceError:
    """The refusal of ``what`` (``step``, ``last``) once the game is over."""
    cls = ActionError if what == "step" else UsageError
    return error(cls, "env.game_over", f"{what}(): the game is over and every agent was told; call reset()")


def episode_info(game: Game) -> Dict[str, Any]:
    """What an episode's last ``info`` adds: ``status`` (``won``, ``draw``,
    ``playing`` when truncated), ``winner`` (the winning side, -1 for none)
    and ``length`` (moves made, bots' included)."""
    w = game.winner
    return {"status": game.status, "winner": -1 if w is None else w, "length": game.ply}
