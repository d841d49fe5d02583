"""Type stubs of the extension module ``sequence_game._core`` (the Rust
bindings). Rule ids (C1–C11 classic, S1–S7 Stacks) refer to RULES.md."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union, type_check_only

import numpy as np
import numpy.typing as npt

GameName = Literal["classic", "stacks"]
Status = Literal["playing", "won", "draw"]
RecordLike = Union[str, bytes, Dict[str, Any], "os.PathLike[str]"]
MoveLike = Union["Move", Dict[str, Any]]

CLASSIC_ACTIONS: int
"""Actions of classic Sequence: 405 (docs/python.md)."""
STACKS_ACTIONS: int
"""Actions of Sequence Stacks: 252 (docs/python.md)."""

class SequenceError(ValueError):
    """Base of every error: ``code`` is stable (``C6.space_taken``),
    ``rule`` its rule id (``C6``) or None."""

    code: str
    rule: Optional[str]

class IllegalMoveError(SequenceError):
    """A move the rules refuse (C5–C9, S3–S7); the game is unchanged."""

class SetupError(SequenceError):
    """A table or options that break the rules (C3, C11, S1, S3a)."""

class NotationError(SequenceError):
    """A move entry that cannot be read (``notation.*`` codes)."""

class ActionError(SequenceError):
    """An action outside the mask (``env.*`` codes or the rule's)."""

class RecordError(SequenceError):
    """A record that does not verify, with ``sequence verify``'s message."""

    exit_code: int
    """2: malformed; 1: an illegal move or a mismatch."""
    index: Optional[int]
    """Index of the offending move in ``moves``."""
    entry: Optional[str]
    """The offending move entry as compact JSON."""
    why: str

class BotError(SequenceError):
    """A bot name that cannot be built, or a bot that failed."""

class UsageError(SequenceError):
    """A seat not at the table, a move of the other game, a game without a
    record, an argument of the wrong type."""

class Move:
    """One move (immutable, hashable). Classic: ``place``, ``remove``,
    ``dead``, ``pass``, ``discard`` (C6, C6a); Stacks: ``pile``, ``skip``,
    ``reverse``, ``steal_card``, ``steal_chip``, ``block``, ``pass``,
    ``discard``, ``end`` (S3–S5)."""

    @property
    def game(self) -> GameName: ...
    @property
    def kind(self) -> str: ...
    @property
    def card(self) -> Optional[str]:
        """The card played or discarded (record code: ``7H``, ``B3``)."""
    @property
    def at(self) -> Optional[str]:
        """Classic: the space (``e5``)."""
    @property
    def place(self) -> Optional[str]:
        """Stacks: the pile's place (``blue-a``)."""
    @property
    def source(self) -> Optional[Literal["hand", "discard"]]: ...
    @property
    def target(self) -> Optional[int]:
        """Stacks: the seat a steal robs."""
    @property
    def colour(self) -> Optional[Literal["blue", "red"]]: ...
    @property
    def declare(self) -> Optional[List[Tuple[str, str]]]:
        """Classic: declared sequences (C8a) as (first, last) spaces."""
    @property
    def key(self) -> int:
        """The engine's dense move key."""
    @property
    def text(self) -> str:
        """The move in words, e.g. ``7♥ on d6``."""
    def to_json(self, seat: int) -> Dict[str, Any]:
        """The move by ``seat`` as a record entry."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@type_check_only
class _Position:
    """The properties ``Game`` and ``View`` share (no such class at run
    time)."""

    @property
    def game(self) -> GameName: ...
    @property
    def to_act(self) -> Optional[int]:
        """The seat that must decide now (in Stacks also a seat offered to
        Block, S5b); None once over."""
    @property
    def status(self) -> Status: ...
    @property
    def winner(self) -> Optional[int]:
        """The winning side (team or seat); None while playing or drawn."""
    @property
    def is_over(self) -> bool: ...
    @property
    def ply(self) -> int:
        """Moves made so far (every decision counts one)."""

class View(_Position):
    """What one seat (or a spectator) may see."""

    @staticmethod
    def from_json(view: Union[Dict[str, Any], str], game: Optional[GameName] = None) -> View:
        """The view a seat's JSON describes (a bot-protocol view)."""

    @property
    def seat(self) -> Optional[int]: ...
    def legal_moves(self) -> List[Move]: ...
    def to_json(self) -> Dict[str, Any]:
        """The view as the server and the bot protocol send it."""
    def __getitem__(self, key: str) -> Any: ...
    def determinize(self, seed: int = 0) -> Game:
        """A whole game consistent with the view (unseen cards dealt from
        ``seed``), without a record: for searching agents."""
    def observation(self) -> npt.NDArray[np.uint8]: ...

class Game(_Position):
    """A game of classic Sequence (C1–C11) or Sequence Stacks (S1–S7)."""

    def __init__(
        self,
        game: GameName = "classic",
        players: int = 2,
        teams: Optional[int] = None,
        options: Optional[Dict[str, Any]] = None,
        seed: int = 0,
    ) -> None: ...
    @staticmethod
    def from_record(record: RecordLike, seed: int = 0) -> Game:
        """Replays a record into a game that goes on (RecordError)."""
    @property
    def players(self) -> int: ...
    @property
    def teams(self) -> Optional[int]: ...
    @property
    def sides(self) -> int: ...
    def side_of(self, seat: int) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def options(self) -> Dict[str, Any]: ...
    @property
    def last_move(self) -> Optional[Tuple[int, Move]]: ...
    def legal_moves(self) -> List[Move]: ...
    def check(self, move_: MoveLike, seat: Optional[int] = None) -> None:
        """Raises IllegalMoveError unless the move is legal now."""
    def play(self, move_: MoveLike, seat: Optional[int] = None) -> None:
        """Checks and makes the move (IllegalMoveError; unchanged then)."""
    def apply(self, move_: MoveLike, seat: Optional[int] = None) -> None:
        """The same as ``play``."""
    def parse_move(self, entry: Dict[str, Any]) -> Move: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    def action_mask(self) -> npt.NDArray[np.int8]: ...
    def legal_actions(self) -> List[int]: ...
    def action_of(self, move_: MoveLike) -> int: ...
    def move_of_action(self, action: int) -> Move: ...
    def action_text(self, action: int) -> str: ...
    def play_action(self, action: int) -> None:
        """Makes the legal move of ``action`` (ActionError outside the mask)."""
    def observe(self, seat: int) -> npt.NDArray[np.uint8]:
        """What ``seat`` may see, encoded (docs/python.md)."""
    def env_observation(self, seat: int) -> Dict[str, npt.NDArray[Any]]:
        """``{"observation": uint8, "action_mask": int8}``."""
    def observation_layout(self) -> List[Dict[str, Any]]: ...
    def observation_high(self) -> npt.NDArray[np.uint8]: ...
    def view(self, seat: int) -> View: ...
    def spectator_view(self) -> View: ...
    def random_move(self) -> Optional[Move]: ...
    def playout(self, max_moves: int = 100000) -> int: ...
    def reward(self, seat: int) -> float: ...
    def record(self) -> Dict[str, Any]: ...
    def record_json(self) -> str: ...
    def history(self) -> List[Tuple[int, Move]]: ...
    def summary(self) -> Dict[str, Any]: ...
    def copy(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...

class Bot:
    """A built-in bot: ``random``, ``greedy``, ``greedy:40%``,
    ``search:500it``, ``search:200ms``, ``level:1`` … ``level:5``."""

    def __init__(self, spec: str = "greedy", game: GameName = "classic", seed: int = 0) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def game(self) -> GameName: ...
    @property
    def seed(self) -> int: ...
    def choose(self, view: View) -> Move: ...
    def play(self, game: Game) -> Move: ...

class Step:
    """One move of a replayed record."""

    index: int
    seat: int
    move: Move
    game: Game

class VecEnv:
    """N games stepped together in Rust (docs/python.md "Vectorized")."""

    def __init__(
        self,
        game: GameName = "classic",
        num_envs: int = 64,
        players: int = 2,
        teams: Optional[int] = None,
        options: Optional[Dict[str, Any]] = None,
        seed: int = 0,
        opponents: Optional[str] = None,
        seat: Optional[int] = None,
        threads: int = 1,
        records: bool = False,
    ) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    def reset(
        self, seed: Optional[int] = None
    ) -> Tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8], npt.NDArray[np.int64]]: ...
    def step(
        self, actions: Union[Sequence[int], npt.NDArray[np.integer[Any]]], observe: bool = True
    ) -> Tuple[
        npt.NDArray[np.uint8],
        npt.NDArray[np.int8],
        npt.NDArray[np.int64],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]: ...
    def random_actions(self) -> npt.NDArray[np.int64]: ...
    def results(self) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``(winner, length)`` of the games that ended in the last step."""
    def records(self) -> List[Tuple[int, Dict[str, Any]]]:
        """``(index, record)`` of the games finished since the last call."""
    def tally(self) -> Dict[str, Any]: ...

def verify(record: RecordLike) -> Dict[str, Any]:
    """The summary ``sequence verify`` prints (RecordError otherwise)."""

def replay(record: RecordLike) -> List[Step]: ...
def action_text(action: int, game: GameName = "classic") -> str: ...
def rule_options(game: GameName = "classic") -> List[Dict[str, Any]]:
    """The game's rule options as its engine lists them: name, rule, values, default."""
def elo_difference(p: float) -> float:
    """The Elo difference a score ``p`` (0–1) stands for, ``400 · log10(p / (1 − p))`` (``p`` clamped to 0.0001–0.9999)."""
def score_interval(scores: Sequence[float]) -> Tuple[float, float]:
    """The 95 % interval of the mean of ``scores`` (each 0–1), clipped to 0–1; the mean ± ½ for fewer than two."""

LADDER: Dict[str, int]
