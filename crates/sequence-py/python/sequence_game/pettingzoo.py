"""PettingZoo AEC environments of classic Sequence (2–12 players, teams)
and Sequence Stacks (2–6 players).

>>> from sequence_game.pettingzoo import env
>>> e = env("classic", players=4)          # 2 teams of 2 (C3)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else \\
...         e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). The agent to
act is the engine's seat to act (in Stacks also a seat offered to Block
out of turn, S5b). Observations are dicts: ``observation``, a ``uint8``
vector of what that seat may see (docs/python.md), and ``action_mask``, an
``int8`` vector over the fixed action space (all 0 for a seat that need
not act). Rewards come at the end: +1 for the winning side's seats (a
team shares it), −1 for the others, 0 for a draw. An action outside the
mask raises ``sequence_game.ActionError`` and changes nothing.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from ._core import Game
from ._envs import action_arg, episode_info, game_over, max_moves_arg, observation_space, render_text, seed_arg, table

__all__ = ["SequenceAECEnv", "env", "raw_env"]


class SequenceAECEnv(AECEnv, EzPickle):
    """A PettingZoo AEC environment of one table of either game.

    ``game``: ``"classic"`` or ``"stacks"``; ``players``; ``teams``
    (classic only, C3); ``options``: rule options as records write them;
    ``max_moves``: truncate after that many moves (1 or more, else
    ``UsageError`` ``env.max_moves``; default: never; both
    games end by their own draw rules); ``render_mode``: ``"human"``
    (print) or ``"ansi"`` (return the text).
    """

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "sequence_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "classic",
        players: int = 2,
        teams: Optional[int] = None,
        options: Optional[dict] = None,
        max_moves: Optional[int] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        EzPickle.__init__(self, game, players, teams, options, max_moves, render_mode)
        super().__init__()
        self._table, probe = table(game, players, teams, options, render_mode, self.metadata["render_modes"])
        self.game_name = probe.game
        self.metadata = dict(self.metadata, name=f"sequence_{probe.game}_v0")
        self.render_mode = render_mode
        self.max_moves = max_moves_arg(max_moves)
        self.possible_agents: List[str] = [f"player_{i}" for i in range(probe.players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        # One space object per agent (PettingZoo seeds them separately).
        self.observation_spaces = {a: observation_space(probe) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(probe.num_actions) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game: Game = probe
        self.agents = []
        self._has_reset = False

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Deals a new game: from ``seed`` when given (the same seed deals
        the same game), else from the environment's own sequence of seeds."""
        if seed is not None:
            self._seeds.seed(seed_arg(seed))
        self.game = Game(seed=self._seeds.getrandbits(63), **self._table)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_act()
        self._has_reset = True

    def _agent_to_act(self) -> str:
        seat = self.game.to_act
        return self.possible_agents[seat if seat is not None else 0]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        if not self._has_reset:
            raise RuntimeError("call reset() before observe()")
        return self.game.env_observation(self._index[agent])

    def step(self, action: Optional[int]) -> None:
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise game_over("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: an action is needed, not None")
        # Raises ActionError outside the mask; the game is then unchanged.
        self.game.play_action(action_arg(action))
        self._cumulative_rewards[agent] = 0.0
        game = self.game
        if game.is_over:
            for a in self.agents:
                self.rewards[a] = game.reward(self._index[a])
                self.terminations[a] = True
                self.infos[a] = episode_info(game)
            self._accumulate_rewards()
            # Every agent is done: each gets its last step (a dead step).
            self._deads_step_first()
        else:
            if self.max_moves is not None and game.ply >= self.max_moves:
                for a in self.agents:
                    self.truncations[a] = True
                self._deads_step_first()
            else:
                self.agent_selection = self.possible_agents[game.to_act]
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> Tuple[Optional[Dict[str, np.ndarray]], float, bool, bool, Dict[str, Any]]:
        """The selected agent's observation, reward, flags and info;
        ``UsageError`` (``env.game_over``) once every agent made its last
        step."""
        if self._has_reset and not self.agents:
            raise game_over("last")
        return super().last(observe)

    def __getstate__(self) -> Dict[str, Any]:
        # The whole state (EzPickle would rebuild a fresh environment from
        # the constructor's arguments): pickles and deep copies go on from
        # the same position (a Game pickles as its record and generator).
        return self.__dict__.copy()

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)

    def render(self) -> Optional[str]:
        return render_text(self.game, self.render_mode)

    def close(self) -> None:
        pass


def raw_env(*args: Any, **kwargs: Any) -> SequenceAECEnv:
    """The environment without wrappers (the arguments of
    :class:`SequenceAECEnv`: ``game``, ``players``, ``teams``,
    ``options``, ``max_moves``, ``render_mode``)."""
    return SequenceAECEnv(*args, **kwargs)


def env(*args: Any, **kwargs: Any) -> SequenceAECEnv:
    """The environment (the arguments of :func:`raw_env`). It enforces the
    order of calls itself (``observe`` or ``step`` before ``reset`` raise),
    so it needs no PettingZoo wrapper; wrap it as you like
    (``pettingzoo.utils.wrappers``)."""
    return raw_env(*args, **kwargs)
