//! What a game adds to the one game interface to be an environment for
//! learning agents: a fixed action space with a mask, an observation
//! vector of what one seat may see, and the public state as text.
//! [`EnvGame`] is implemented by both engines' `Game` ([`classic`],
//! [`stacks`]), and every game the workspace registers has it
//! ([`crate::with_game`]): the Python package (crate `sequence-py`:
//! sessions, the vectorized stepping, the bindings) is written once over
//! it.

pub mod any;
pub mod classic;
pub mod spread;
pub mod stacks;
mod view_json;

use crate::bot::BotGame;
use sequence_common::{MoveSink, Rules, Seat};
use serde_json::Value;

/// One named part of an observation vector: where it starts, its shape
/// (row-major) and the largest value an entry may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObsPart {
    /// The part's name, e.g. `chips` or `hand`.
    pub name: &'static str,
    /// Index of its first entry in the vector.
    pub offset: usize,
    /// Its shape, e.g. `[3, 10, 10]`.
    pub shape: Vec<usize>,
    /// The largest value of any entry (the smallest is 0).
    pub high: u8,
    /// What an entry means, for the documentation and `observation_layout()`.
    pub doc: &'static str,
}

impl ObsPart {
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the part has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Lays parts out one after another from offset 0.
pub(crate) fn layout(parts: &[(&'static str, &[usize], u8, &'static str)]) -> Vec<ObsPart> {
    let mut offset = 0;
    parts
        .iter()
        .map(|&(name, shape, high, doc)| {
            let p = ObsPart {
                name,
                offset,
                shape: shape.to_vec(),
                high,
                doc,
            };
            offset += p.len();
            p
        })
        .collect()
}

/// A game as an environment: a fixed, documented action space (one index
/// per kind of decision, never more legal moves than one per index) and a
/// `u8` observation vector of what one seat may see (docs/python.md).
///
/// The observation is computed from the whole game for speed, but only
/// from what the seat may see: its own hand and the public state, never
/// another hand or the draw pile's order. The crate's tests check this by
/// comparing a seat's observation of a game with its observation of games
/// dealt at random from its view (`SeatView::determinize`).
pub trait EnvGame: BotGame {
    /// Actions in the action space: every action index is below it.
    const ACTIONS: usize;
    /// Length of the observation vector (the same for every table of the
    /// game: seats past the table are zeros).
    const OBS_LEN: usize;

    /// The rule refusing a player count, a team count, and rule options
    /// that cannot be read, as stable codes (classic `C3.players`,
    /// `C3.teams`, `C11.option`; Stacks `S1.players`, `S1.teams`,
    /// `S3a.option`): the refusals the Python package words itself (a
    /// count past 255, teams asked of a game without them).
    const SETUP_CODES: [&'static str; 3];

    /// Whether a seat's view read back from its JSON
    /// ([`EnvGame::view_from_json`]) is the view itself, so that a game
    /// dealt from it can be dealt again (Stacks); classic views leave out
    /// state the rules keep (C6a's stuck turns).
    const VIEW_READS_BACK: bool = false;

    /// The observation's parts for a table, in order; their lengths add up
    /// to [`EnvGame::obs_len`].
    fn obs_layout(config: &Self::Config) -> Vec<ObsPart>;

    /// Length of the observation vector of a table ([`EnvGame::OBS_LEN`],
    /// the sum of the layout's parts).
    fn obs_len(_config: &Self::Config) -> usize {
        Self::OBS_LEN
    }

    /// The largest value of each observation entry (the Box space's high).
    fn obs_high(config: &Self::Config) -> Vec<u8> {
        let mut v = Vec::new();
        for p in Self::obs_layout(config) {
            v.extend(std::iter::repeat_n(p.high, p.len()));
        }
        v
    }

    /// The action index of `mv` made by `seat` (the seat to act).
    fn action_of(&self, seat: Seat, mv: &Self::Move) -> usize;

    /// The move an action index stands for when `seat` acts now, if it
    /// names one (not yet checked: [`Rules::check`] decides legality).
    fn move_of(&self, seat: Seat, action: usize) -> Option<Self::Move>;

    /// The public state as text (what a spectator sees: the board or the
    /// piles, the counts, whose turn), for the Python `str(game)` and the
    /// environments' `render()`.
    fn render(&self) -> String;

    /// A move's parts by name (the Python `Move`'s properties), its
    /// `declare` written for the table `config`.
    fn move_fields(mv: &Self::Move, config: &Self::Config) -> MoveFields;

    /// What of the table a move's record entry is written with (classic:
    /// the sequence length, for a placement's `declare`, C8a; 0 when the
    /// entry needs nothing of it): a pickled Python `Move` keeps it.
    fn written_with(_config: &Self::Config) -> u8 {
        0
    }

    /// A table whose moves are written with `context`
    /// ([`EnvGame::written_with`]): where a pickled `Move` is read back.
    ///
    /// # Errors
    /// A context no table has, in words.
    fn table_written_with(context: u8) -> Result<Self::Config, String>;

    /// A seat's view read back from its JSON (`SeatView::to_json`, what
    /// the server and the bot protocol send a seat), with its table.
    ///
    /// # Errors
    /// What is missing or wrong in the JSON, in words (`view: …`).
    fn view_from_json(v: &Value) -> Result<(Self::View, Self::Config), String>;

    /// What an action index means, in words (e.g. `place on e5 with the
    /// space's card`), for messages and documentation.
    fn action_text(action: usize) -> String;

    /// Writes what `seat` may see into `out` (exactly
    /// [`EnvGame::obs_len`] entries, every one written).
    fn observe(&self, seat: Seat, out: &mut [u8]);

    /// Writes the legal actions of `seat`, the seat to act, into `mask`
    /// (one byte per action, cleared first) and `bits` (one bit per
    /// action); returns how many actions are legal. The default lists the
    /// legal moves; a game may write the mask directly.
    fn write_mask(&self, seat: Seat, mask: &mut [u8], bits: &mut ActionBits) -> usize {
        let mut sink = MaskSink {
            game: self,
            seat,
            mask,
            bits,
        };
        self.legal_moves(&mut sink);
        sink.bits.count()
    }
}

/// A move's parts by name, for the Python `Move` properties
/// ([`EnvGame::move_fields`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFields {
    /// `place`, `remove`, `dead`, `pass`, `discard` (classic); `pile`,
    /// `skip`, `reverse`, `steal_card`, `steal_chip`, `block`, `pass`,
    /// `discard`, `end` (Stacks).
    pub kind: &'static str,
    /// The card played or discarded, as its record code.
    pub card: Option<String>,
    /// Classic: the space (`e5`) a chip goes on or leaves.
    pub at: Option<String>,
    /// Stacks: the pile's place (`blue-a`).
    pub place: Option<&'static str>,
    /// Stacks: `hand` or `discard`.
    pub source: Option<&'static str>,
    /// Stacks: the seat robbed.
    pub target: Option<u8>,
    /// Stacks: the chip's colour.
    pub colour: Option<&'static str>,
    /// Classic: the sequences declared, as `[first, last]` space pairs.
    pub declare: Option<Vec<(String, String)>>,
}

/// The end of [`EnvGame::render`]: `seat 2 to act`, `blue won`, `seat 1
/// won`, `draw`.
pub fn status_text<G: sequence_common::Notation>(g: &G) -> String {
    match g.outcome() {
        sequence_common::Outcome::Playing => match g.to_act() {
            Some(s) => format!("seat {} to act", s.0),
            None => "playing".into(),
        },
        sequence_common::Outcome::Won(side) => match G::side_to_json(side) {
            Value::String(c) => format!("{c} won"),
            v => format!("seat {v} won"),
        },
        sequence_common::Outcome::Draw => "draw".into(),
    }
}

/// The legal actions as bits (room for 512 actions).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionBits(pub [u64; 8]);

impl ActionBits {
    /// Adds action `a` (ignored past 511).
    #[inline]
    pub fn set(&mut self, a: usize) {
        if let Some(w) = self.0.get_mut(a >> 6) {
            *w |= 1 << (a & 63);
        }
    }

    /// Adds the actions `a + i` for each bit `i` of `v` (`width` bits).
    #[inline]
    pub fn set_run(&mut self, a: usize, v: u64, width: usize) {
        let v = v & ((1u64 << width) - 1);
        let (w, off) = (a >> 6, a & 63);
        if let Some(x) = self.0.get_mut(w) {
            *x |= v << off;
        }
        if off + width > 64 {
            if let Some(x) = self.0.get_mut(w + 1) {
                *x |= v >> (64 - off);
            }
        }
    }

    /// Whether action `a` is in the set.
    #[inline]
    pub fn contains(&self, a: usize) -> bool {
        self.0.get(a >> 6).is_some_and(|w| w >> (a & 63) & 1 != 0)
    }

    /// Number of actions in the set.
    #[inline]
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The `n`-th action of the set (0-based, ascending).
    #[inline]
    pub fn nth(&self, mut n: usize) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate() {
            let c = w.count_ones() as usize;
            if n < c {
                // The engine's select: a bitboard's n-th space is its n-th
                // set bit, and its bit is the position.
                let at = sequence_classic::Bitboard(u128::from(w)).nth(n as u32)?;
                return Some(i * 64 + at.bit() as usize);
            }
            n -= c;
        }
        None
    }
}

/// Collects an action mask from the legal moves: one byte and one bit per
/// action, set for the actions of the legal moves.
pub struct MaskSink<'a, G: EnvGame> {
    /// The game whose legal moves are listed.
    pub game: &'a G,
    /// The seat to act.
    pub seat: Seat,
    /// The mask (length [`EnvGame::ACTIONS`]); cleared by `clear`.
    pub mask: &'a mut [u8],
    /// The same as bits; cleared by `clear`.
    pub bits: &'a mut ActionBits,
}

impl<G: EnvGame> MoveSink<G::Move> for MaskSink<'_, G> {
    fn clear(&mut self) {
        self.mask.fill(0);
        *self.bits = ActionBits::default();
    }

    #[inline]
    fn push(&mut self, m: G::Move) {
        let a = self.game.action_of(self.seat, &m);
        if let Some(x) = self.mask.get_mut(a) {
            *x = 1;
        }
        self.bits.set(a);
    }
}

/// Writes the action mask of the seat to act into `mask` (all zeros once
/// the game is over); returns the number of legal actions.
pub fn action_mask<G: EnvGame>(game: &G, mask: &mut [u8]) -> usize {
    let mut bits = ActionBits::default();
    action_mask_bits(game, mask, &mut bits)
}

/// As [`action_mask`], also writing the legal actions as bits.
#[inline(always)]
pub fn action_mask_bits<G: EnvGame>(game: &G, mask: &mut [u8], bits: &mut ActionBits) -> usize {
    match game.to_act() {
        None => {
            mask.fill(0);
            *bits = ActionBits::default();
            0
        }
        Some(seat) => game.write_mask(seat, mask, bits),
    }
}

/// The legal move of the seat to act that `action` stands for.
///
/// # Errors
/// A message naming the action and why it is refused: the game is over, the
/// index is outside the action space, or it names no legal move now (the
/// rule's message and code come from [`Rules::check`]).
pub fn legal_move_of<G: EnvGame>(game: &G, action: i64) -> Result<(Seat, G::Move), ActionError> {
    let Some(seat) = game.to_act() else {
        return Err(ActionError {
            action,
            code: "env.game_over",
            why: "the game is over".into(),
        });
    };
    if action < 0 || action as u64 >= G::ACTIONS as u64 {
        return Err(ActionError {
            action,
            code: "env.out_of_range",
            why: format!("not an action (0 to {})", G::ACTIONS - 1),
        });
    }
    let a = action as usize;
    let Some(mv) = game.move_of(seat, a) else {
        return Err(ActionError {
            action,
            code: "env.not_legal",
            why: format!("{} is not a legal move now", G::action_text(a)),
        });
    };
    match game.check(seat, mv) {
        Ok(()) => Ok((seat, mv)),
        Err(e) => Err(ActionError {
            action,
            code: sequence_common::RuleError::code(&e),
            why: format!("{} is not a legal move now: {e}", G::action_text(a)),
        }),
    }
}

/// An action that is not legal now (outside the mask).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError {
    /// The action given.
    pub action: i64,
    /// A stable code: the rule's (e.g. `C6.space_taken`), or
    /// `env.out_of_range`, `env.not_legal`, `env.game_over`.
    pub code: &'static str,
    /// Why, in words.
    pub why: String,
}

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "action {}: {}", self.action, self.why)
    }
}

impl std::error::Error for ActionError {}

/// The reward of `seat` once the game is over: +1 when its side won, −1
/// when another side won, 0 for a draw or an unfinished game (rewards are
/// shared by a team, C3).
pub fn reward<G: Rules>(game: &G, seat: Seat) -> f32 {
    match game.outcome().winner() {
        Some(side) if side == game.side_of(seat) => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn nth_is_the_nth_action_in_ascending_order() {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for case in 0..2000 {
            // Sparse, dense, full and empty words.
            let bits = ActionBits(std::array::from_fn(|k| match (case + k) % 4 {
                0 => r.random::<u64>() & r.random::<u64>() & r.random::<u64>(),
                1 => r.random(),
                2 => u64::MAX,
                _ => 0,
            }));
            let all: Vec<usize> = (0..512).filter(|&a| bits.contains(a)).collect();
            assert_eq!(bits.count(), all.len());
            for (n, &a) in all.iter().enumerate() {
                assert_eq!(bits.nth(n), Some(a), "case {case}, n = {n}");
            }
            assert_eq!(bits.nth(all.len()), None);
        }
    }
}
