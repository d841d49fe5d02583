"""Both games as OpenSpiel Python games, backed by the Rust engine.

>>> import pyspiel, sequence_game.openspiel  # registers the games
>>> game = pyspiel.load_game("python_sequence", {"players": 4})   # 2 teams of 2 (C3)
>>> game = pyspiel.load_game("python_sequence_stacks", {"players": 3})
>>> state = game.new_initial_state()
>>> while not state.is_terminal():
...     state.apply_action(state.legal_actions()[0])
>>> state.returns()

``python_sequence`` is classic Sequence (C1–C11; 2, 3, 4, 6, 8, 9, 10 or
12 players, 2 or 3 teams) and ``python_sequence_stacks`` Sequence Stacks
(S1–S7; 2 to 6 players). Parameters: ``players``, ``teams`` (classic; 0:
the rules' default, C3), ``options`` (the record's rule options as JSON
text, README "Classic rule options") and ``max_moves`` (the game ends as a draw, returns all 0, after that many
moves; default 5,000, above any game seen in random play).

**Chance is explicit, at the shuffle**: the first eight moves of every
game are chance nodes that pick the engine's 64-bit seed one byte at a
time (256 equally likely outcomes each, least significant byte first);
the deal and every later draw and reshuffle then come from that seed in
the engine (ChaCha8, the C5/S2 deal, the same game as
``sequence_game.Game(seed=…)`` and ``sequence selfplay --seed``). No
seat observes the seed, so a seat cannot tell two deals apart except by
the cards it sees. Why not per-card chance nodes: the engine shuffles its
draw pile itself, so that records replay exactly, and does not take a card
from outside at a draw. Why not ``SAMPLED_STOCHASTIC``: OpenSpiel
serializes such a game with its generator's state (``GetRNGState``),
which a Python game cannot provide, so ``serialize_game_and_state``,
``pickle`` and ``random_sim_test(serialize=True)`` would abort. With the
seed as chance outcomes a state is its history: it serializes, replays
and clones exactly. ``deal(state, seed)`` plays the eight chance moves of
a chosen seed. ``resample_from_infostate(player, sampler)`` deals the
cards the player cannot see at random (``View.determinize``), for ISMCTS.

**Actions** are the package's action spaces (docs/python.md "Action
spaces": 405 classic, 252 Stacks) and the legal actions its masks.
**Returns** come at the end: +1 for each seat of the winning side (a team
shares it), −1 for the others, 0 for a draw. With two sides of equal size
the game is declared ``ZERO_SUM``, else ``GENERAL_SUM``.

**Observations** are from what a seat may see only (its own hand and the
public state, never another hand or the draw pile's order):

* observation tensor: ``Game.observe(seat)`` as float32 (525 classic, 419
  Stacks entries; layout in docs/python.md "Observations"); the string:
  the seat, its hand and the public board or piles;
* information-state tensor: the observation followed by the cards each
  seat played so far, the observer first then clockwise (players × 52
  copies of each card in classic, players × 17 card kinds in Stacks):
  a fixed-size summary, not perfect recall (the order of moves is left
  out);
* information-state string: perfect recall of the moves (each seat's
  move as the record shows it) and of the seat's own hand after every
  change, then the current observation string.

A public observer (``private_info`` NONE) leaves the hand out; observers
of every player's private cards are refused.
"""

from __future__ import annotations

import json
import random
from typing import Any, Dict, List, Optional

import numpy as np
import pyspiel

from ._core import Bot, Game
from ._errors import usage

__all__ = ["SequenceGame", "StacksGame", "SequenceState", "BotAgent", "PlayoutEvaluator", "deal", "resample", "CLASSIC", "STACKS"]

CLASSIC = "python_sequence"
STACKS = "python_sequence_stacks"
MAX_MOVES = 5000

_PARAMS = {"players": 2, "teams": 0, "options": "", "max_moves": MAX_MOVES}
# The chance nodes of the shuffle: the seed's bytes.
SEED_BYTES = 8


def _game_type(short_name: str, long_name: str, min_players: int, max_players: int, utility: Any) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_PARAMS),
    )


_TYPES = {
    "classic": (CLASSIC, "Python Sequence (Rust engine)", 2, 12),
    "stacks": (STACKS, "Python Sequence Stacks (Rust engine)", 2, 6),
}
# Card kinds of the information-state tensor's "played" part.
_SUITS, _RANKS = "SHDC", "A23456789TJQK"
_STACKS_KINDS = ["B1", "B2", "B3", "B4", "B5", "BW", "R1", "R2", "R3", "R4", "R5", "RW", "SKIP", "REVERSE", "STEAL-CARD", "STEAL-CHIP", "BLOCK"]


def _card_index(kind: str, card: Optional[str]) -> Optional[int]:
    """The index of a played card in the "played" part (None for none)."""
    if card is None:
        return None
    if kind == "classic":
        return _SUITS.index(card[1]) * 13 + _RANKS.index(card[0])
    return _STACKS_KINDS.index(card)


def _hand_text(kind: str, counts: bytes) -> str:
    """A hand's cards (``7H 7H JD``, ``B1 SKIP``) from its counts per card."""
    if kind == "classic":
        names = [r + su for su in _SUITS for r in _RANKS]
    else:
        names = _STACKS_KINDS
    return " ".join(name for name, n in zip(names, counts) for _ in range(n))


class _SequenceGameBase(pyspiel.Game):
    """An OpenSpiel game of one table of either game (module doc)."""

    KIND = "classic"

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        p = dict(_PARAMS)
        p.update(params or {})
        short, long_name, lo, hi = _TYPES[self.KIND]
        options = json.loads(p["options"]) if p["options"] else None
        teams = int(p["teams"]) or None
        self.table = dict(game=self.KIND, players=int(p["players"]), teams=teams, options=options)
        probe = Game(seed=0, **self.table)  # SetupError naming the rule for a bad table
        self.max_moves = int(p["max_moves"])
        if self.max_moves < 1:
            raise usage("env.max_moves", f"max_moves must be 1 or more, not {self.max_moves}")
        sizes = [sum(1 for s in range(probe.players) if probe.side_of(s) == side) for side in range(probe.sides)]
        zero_sum = len(sizes) == 2 and sizes[0] == sizes[1]
        utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        self.players = probe.players
        self.num_cards = 52 if self.KIND == "classic" else len(_STACKS_KINDS)
        layout = {part["name"]: part for part in probe.observation_layout()}
        hand = layout["hand"]
        self.hand_slice = slice(hand["offset"], hand["offset"] + int(np.prod(hand["shape"])))
        self.observation_size = probe.observation_size
        super().__init__(
            _game_type(short, long_name, lo, hi, utility),
            pyspiel.GameInfo(
                num_distinct_actions=probe.num_actions,
                max_chance_outcomes=256,
                num_players=probe.players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0 if zero_sum else None,
                max_game_length=self.max_moves + SEED_BYTES,
            ),
            p,
        )

    def new_initial_state(self) -> "SequenceState":
        """A new game before the shuffle: ``SEED_BYTES`` chance nodes."""
        return SequenceState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "SequenceObserver":
        return SequenceObserver(self, iig_obs_type, params)


class SequenceGame(_SequenceGameBase):
    """Classic Sequence (C1–C11) as an OpenSpiel game: ``python_sequence``."""

    KIND = "classic"


class StacksGame(_SequenceGameBase):
    """Sequence Stacks (S1–S7) as an OpenSpiel game: ``python_sequence_stacks``."""

    KIND = "stacks"


class _Engine:
    """The engine's game of a state. Copied with ``Game.copy``; pickled
    (OpenSpiel's serialization) as the table, the seed and the actions,
    replayed on load, so a state is exactly its history. A game of
    ``resample`` (a determinization, which no history makes) pickles as
    the game itself."""

    def __init__(self, table: Dict[str, Any], seed: Optional[int], game: Game) -> None:
        self.table = table
        self.seed = seed
        self.actions: List[int] = []
        self.game = game

    def play(self, action: int) -> None:
        self.game.play_action(action)
        self.actions.append(action)

    def __deepcopy__(self, memo: Any) -> "_Engine":
        e = _Engine(self.table, self.seed, self.game.copy())
        e.actions = list(self.actions)
        return e

    def __getstate__(self) -> Dict[str, Any]:
        exact = self.seed is not None
        return {"table": self.table, "seed": self.seed, "actions": self.actions, "game": None if exact else self.game}

    def __setstate__(self, st: Dict[str, Any]) -> None:
        self.table, self.seed, self.actions, self.game = st["table"], st["seed"], st["actions"], st["game"]
        if self.game is None:
            self.game = Game(seed=self.seed, **self.table)
            for a in self.actions:
                self.game.play_action(a)


class SequenceState(pyspiel.State):
    """A state: the seed's bytes while shuffling, then the engine's game
    (``.game``, a ``sequence_game.Game`` that holds every hand: read it
    only where the whole truth is wanted) and what the information state
    remembers."""

    def __init__(self, game: _SequenceGameBase) -> None:
        super().__init__(game)
        self.table = game.table
        self.seed_bytes: List[int] = []
        self.engine: Optional[_Engine] = None
        self.kind = game.KIND
        self.players = game.players
        self.max_moves = game.max_moves
        self.hand_slice = game.hand_slice
        # cards each seat played (absolute seats), for the info-state tensor
        self.played = np.zeros((game.players, game.num_cards), np.float32)
        # the public moves as text: (seat, text); and each seat's hand
        # after every change: per seat a list of (number of moves, the
        # hand's counts per card as bytes)
        self.moves: List[tuple] = []
        self.hands: List[List[tuple]] = [[] for _ in range(game.players)]

    @property
    def game(self) -> Optional[Game]:
        """The engine's game (every hand); None while shuffling."""
        return None if self.engine is None else self.engine.game

    # -- what a seat holds ------------------------------------------------

    def _hand(self, seat: int) -> bytes:
        return self.game.observe(seat)[self.hand_slice].tobytes()

    def _hand_text(self, seat: int) -> str:
        return _hand_text(self.kind, self._hand(seat))

    # -- the OpenSpiel state API -----------------------------------------

    def current_player(self) -> int:
        if self.game is None:
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.game.to_act

    def chance_outcomes(self) -> List[tuple]:
        """The next byte of the seed: 256 equally likely outcomes."""
        return [(b, 1.0 / 256) for b in range(256)]

    def _legal_actions(self, player: int) -> List[int]:
        if player != self.current_player():
            return []
        return sorted(self.game.legal_actions())

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            self.seed_bytes.append(int(action))
            if len(self.seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(self.seed_bytes), "little")
                self.engine = _Engine(self.table, seed, Game(seed=seed, **self.table))
                self.hands = [[(0, self._hand(s))] for s in range(self.players)]
            return
        seat = self.game.to_act
        self.engine.play(int(action))
        _, move = self.game.last_move
        i = _card_index(self.kind, move.card)
        if i is not None:
            self.played[seat, i] += 1
        self.moves.append((seat, move.text))
        # In classic only the mover's hand changes (C6: play, draw); in
        # Stacks a steal changes another's.
        for s in [seat] if self.kind == "classic" else range(self.players):
            h = self._hand(s)
            if h != self.hands[s][-1][1]:
                self.hands[s].append((len(self.moves), h))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {len(self.seed_bytes)}: {action}"
        return Game(seed=0, **self.table).action_text(int(action)) if self.game is None else self.game.action_text(int(action))

    def is_terminal(self) -> bool:
        return self.game is not None and (self.game.is_over or self.game.ply >= self.max_moves)

    def returns(self) -> List[float]:
        if self.game is None or not self.game.is_over:
            return [0.0] * self.players
        return [float(self.game.reward(s)) for s in range(self.game.players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> "SequenceState":
        """A state the player cannot tell from this one: the cards it
        cannot see dealt at random (``View.determinize``); the seed comes
        from ``probability_sampler()`` (a float in [0, 1)) when given."""
        return resample(self, player_id, probability_sampler)

    def __str__(self) -> str:
        if self.game is None:
            return f"shuffling: seed bytes {self.seed_bytes}"
        hands = "\n".join(f"seat {s} hand: {self._hand_text(s)}" for s in range(self.game.players))
        return f"{self.game}\n{hands}"


def deal(state: SequenceState, seed: int) -> SequenceState:
    """Plays the shuffle's chance moves of ``seed`` (0 to 2**64 - 1) on a
    new state: the game ``sequence_game.Game(seed=seed)`` deals."""
    for b in int(seed).to_bytes(SEED_BYTES, "little"):
        state.apply_action(b)
    return state


def resample(state: SequenceState, player: int, sampler: Any = None) -> SequenceState:
    """``state`` with the cards ``player`` cannot see (other hands, the draw
    pile's order) dealt at random; what ``player`` saw is kept. The
    resampler ISMCTS takes (``ISMCTSBot.set_resampler``)."""
    if callable(sampler):
        seed = int(sampler() * 2**63)
    else:
        seed = random.getrandbits(63)
    new = state.clone()
    if state.game is None:
        return new
    new.engine = _Engine(state.table, None, state.game.view(player).determinize(seed))
    return new


class SequenceObserver:
    """OpenSpiel's Python observer: the observation (default) or the
    information state (``perfect_recall``) of one seat; module doc."""

    def __init__(self, game: _SequenceGameBase, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise usage("openspiel.observer", f"observation parameters are not supported: {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise usage("openspiel.observer", "an observer of every player's private cards is not offered (hands are hidden)")
        if not iig_obs_type.public_info:
            raise usage("openspiel.observer", "an observer without the public state is not offered")
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.recall = iig_obs_type.perfect_recall
        self.hand_slice = game.hand_slice
        pieces = [("observation", game.observation_size, (game.observation_size,))]
        if self.recall:
            pieces.append(("played", game.players * game.num_cards, (game.players, game.num_cards)))
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: SequenceState, player: int) -> None:
        if state.game is None:  # nothing is dealt yet
            self.tensor.fill(0)
            return
        obs = self.dict["observation"]
        obs[:] = state.game.observe(player)
        if not self.private:
            obs[self.hand_slice] = 0
        if self.recall:
            # clockwise from the observer
            self.dict["played"][:] = np.roll(state.played, -player, axis=0)

    def string_from(self, state: SequenceState, player: int) -> str:
        g = state.game
        if g is None:
            return f"seat {player}; shuffling"
        to_act = g.to_act
        head = f"seat {player}; " + (f"seat {to_act} to act" if to_act is not None else g.status)
        now = f"{head}\n{g}"
        if self.private:
            now += f"\nhand: {state._hand_text(player)}"
        if not self.recall:
            return now
        lines = [f"{g.game} players={g.players} seat={player}"]
        hands = {at: _hand_text(state.kind, h) for at, h in state.hands[player]} if self.private else {}
        for i, (seat, text) in enumerate(state.moves):
            lines.append(f"{i + 1}. seat {seat}: {text}")
            if i + 1 in hands:
                lines.append(f"   hand {hands[i + 1]}")
        if 0 in hands:
            lines.insert(1, f"   hand {hands[0]}")
        return "\n".join(lines) + "\n" + now


class PlayoutEvaluator:
    """An MCTS/ISMCTS evaluator (``open_spiel.python.algorithms.mcts.
    Evaluator``) whose random rollouts the engine plays (``Game.playout``:
    uniform random legal moves as OpenSpiel's ``RandomRolloutEvaluator``,
    far faster than stepping the state from Python), each from a redeal of
    what the seat to act cannot see; uniform priors."""

    def __init__(self, n_rollouts: int = 1, seed: int = 0) -> None:
        self.n_rollouts = n_rollouts
        self._seeds = random.Random(seed)

    def evaluate(self, state: SequenceState) -> np.ndarray:
        total = np.zeros(state.num_players())
        if state.game is None:  # still shuffling: nothing to tell the seats apart
            return total
        seat = state.game.to_act
        for _ in range(self.n_rollouts):
            # each rollout from a redeal of what the seat to act cannot see
            # (and so a draw pile of its own): the state's own generator
            # would draw the same cards every time
            g = state.game.view(seat).determinize(self._seeds.getrandbits(63))
            g.playout(max(0, state.max_moves - g.ply))
            if g.is_over:
                total += [g.reward(s) for s in range(g.players)]
        return total / self.n_rollouts

    def prior(self, state: SequenceState) -> List[tuple]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class BotAgent(pyspiel.Bot):
    """One of the package's bots (``random``, ``greedy``, ``level:3``, …;
    docs/bots.md) as an OpenSpiel bot: it decides from the seat's view
    only (``Game.view``)."""

    def __init__(self, spec: str, game: str = "classic", seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = Bot(spec, game=game, seed=seed)

    def step(self, state: SequenceState) -> int:
        g = state.game
        move = self.bot.choose(g.view(g.to_act))
        return g.action_of(move)

    def restart_at(self, state: SequenceState) -> None:
        pass

    def inform_action(self, state: SequenceState, player_id: int, action: int) -> None:
        pass


def _register() -> None:
    for cls in (SequenceGame, StacksGame):
        short, long_name, lo, hi = _TYPES[cls.KIND]
        if short not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(short, long_name, lo, hi, pyspiel.GameType.Utility.GENERAL_SUM), cls)


_register()
