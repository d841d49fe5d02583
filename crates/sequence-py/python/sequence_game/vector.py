"""``sequence_game.VecEnv`` as a ``gymnasium.vector.VectorEnv``: N games
stepped in Rust per call, with Gymnasium's spaces, autoreset mode and
``infos``.

>>> import gymnasium, sequence_game.gymnasium   # registers the ids
>>> envs = gymnasium.make_vec("sequence_game/Classic-v0", num_envs=64,
...                           vectorization_mode="vector_entry_point", opponents="random")
>>> obs, infos = envs.reset(seed=0)
>>> obs, rewards, terminated, truncated, infos = envs.step(envs.action_space.sample())  # doctest: +SKIP

(sample from the masks: ``obs["action_mask"]``.)

A game that ends is dealt again in the same step (Gymnasium's
``AutoresetMode.SAME_STEP``): ``terminated[i]`` is True, the reward is the
game's last, the observation is the new game's first, and ``infos`` hold
``winner`` (the winning side, −1 for a draw) and ``length`` (moves) of
the game that ended, with ``_winner`` / ``_length`` marking the games
that ended. The final observation is not kept (``final_obs`` is absent):
rewards come only at the end, so learners need no bootstrap from it.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ._core import Game, VecEnv
from ._errors import usage
from ._envs import observation_space

__all__ = ["SequenceVectorEnv"]


class SequenceVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of one table in one Rust vector.

    ``opponents``: a bot name (``random``, ``greedy``, …): the agent plays
    ``seat`` in every game and the bots every other seat inside ``step``;
    the reward is the agent's. ``opponents=None``: self-play, the agent
    plays every seat (the observation and mask are the seat to act's,
    ``infos["to_act"]``) and each game's reward is that of the seat that
    acted in this step (+1 when its move won the game), with every seat's
    in ``infos["rewards"]`` (``[N, players]``) when a game ends.
    ``seed``, ``threads``, ``records`` as ``sequence_game.VecEnv``
    (``records()`` then returns the finished games' records).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        game: str = "classic",
        num_envs: int = 8,
        players: int = 2,
        teams: Optional[int] = None,
        options: Optional[dict] = None,
        seat: int = 0,
        opponents: Optional[str] = "greedy",
        seed: int = 0,
        threads: int = 1,
        records: bool = False,
        max_moves: Optional[int] = None,
        illegal_action: str = "raise",
        render_mode: Optional[str] = None,
    ) -> None:
        if max_moves is not None:
            raise usage("env.max_moves", "max_moves: the Rust vector does not truncate (both games end by their own rules)")
        if illegal_action != "raise":
            raise usage("env.illegal_action", "illegal_action: the Rust vector raises ActionError for an action outside a mask")
        if render_mode is not None:
            raise usage("env.render_mode", "the Rust vector does not render (use SequenceEnv)")
        kwargs: Dict[str, Any] = dict(players=players, teams=teams, options=options, seed=seed, threads=threads, records=records)
        if opponents is not None:
            kwargs.update(opponents=opponents, seat=seat)
        self.vec = VecEnv(game, num_envs=num_envs, **kwargs)
        probe = Game(game, players=players, teams=teams, options=options)
        self.num_envs = num_envs
        self.players = probe.players
        self.self_play = opponents is None
        self.single_observation_space = observation_space(probe)
        self.single_action_space = spaces.Discrete(probe.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._to_act = np.zeros(num_envs, dtype=np.int64)
        self._started = False

    def _obs(self, obs: np.ndarray, mask: np.ndarray) -> Dict[str, np.ndarray]:
        self._mask = mask.copy()
        return {"observation": obs.copy(), "action_mask": self._mask}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Deals every game again (from ``seed`` when given)."""
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise TypeError(f"a seed is an integer, not {type(seed).__name__}")
        obs, mask, to_act = self.vec.reset(seed=None if seed is None else int(seed))
        self._to_act = to_act.copy()
        self._started = True
        return self._obs(obs, mask), {"to_act": to_act.copy()}

    def step(self, actions: Any) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """One action per game; raises ``ActionError`` (naming the game)
        for an action outside its mask, and then no game moves."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions are integers, not {actions.dtype}")
        acted = self._to_act
        obs, mask, to_act, rewards, done = self.vec.step(actions.astype(np.int64, copy=False))
        if self.self_play:
            reward = rewards[np.arange(self.num_envs), acted].astype(np.float32)
        else:
            reward = rewards[:, 0].astype(np.float32)
        terminated = done.copy()
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        infos: Dict[str, Any] = {"to_act": to_act.copy()}
        if done.any():
            winner, length, _ = self.vec.results()
            infos.update(winner=winner, _winner=terminated.copy(), length=length, _length=terminated.copy())
            if self.self_play:
                infos.update(rewards=rewards.copy(), _rewards=terminated.copy())
        self._to_act = to_act.copy()
        return self._obs(obs, mask), reward, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """The current masks as booleans ``[N, actions]`` (sb3-contrib)."""
        if not self._started:
            raise RuntimeError("call reset() first")
        return self._mask.astype(bool)

    def records(self) -> list:
        """The records of the games finished since the last call, as
        ``(index, record)`` (needs ``records=True``)."""
        return self.vec.records()

    def tally(self) -> Dict[str, Any]:
        """Games, wins by side, draws and moves since the last reset."""
        return self.vec.tally()
