//! What a game adds to the one game interface to be an environment for
//! learning agents: a fixed action space with a mask, and an observation
//! vector of what one seat may see. [`EnvGame`] is implemented by both
//! engines' `Game` ([`crate::classic_env`], [`crate::stacks_env`]);
//! everything else in this crate (sessions, the vectorized stepping, the
//! Python bindings) is written once over it.

use sequence_bots::BotGame;
use sequence_common::{MoveSink, Rules, Seat};

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

    /// The observation's parts for a table, in order; their lengths add up
    /// to [`EnvGame::obs_len`].
    fn obs_layout(config: &Self::Config) -> Vec<ObsPart>;

    /// Length of the observation vector of a table.
    fn obs_len(config: &Self::Config) -> usize {
        Self::obs_layout(config).iter().map(ObsPart::len).sum()
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

    /// What an action index means, in words (e.g. `place on e5 with the
    /// space's card`), for messages and documentation.
    fn action_text(action: usize) -> String;

    /// Writes what `seat` may see into `out` (exactly
    /// [`EnvGame::obs_len`] entries, every one written).
    fn observe(&self, seat: Seat, out: &mut [u8]);
}

/// Collects an action mask: one flag per action, set for the actions of
/// the legal moves.
pub struct MaskSink<'a, G: EnvGame> {
    /// The game whose legal moves are listed.
    pub game: &'a G,
    /// The seat to act.
    pub seat: Seat,
    /// The mask (length [`EnvGame::ACTIONS`]); cleared by `clear`.
    pub mask: &'a mut [u8],
    /// Number of legal moves pushed.
    pub count: usize,
}

impl<G: EnvGame> MoveSink<G::Move> for MaskSink<'_, G> {
    fn clear(&mut self) {
        self.mask.fill(0);
        self.count = 0;
    }

    #[inline]
    fn push(&mut self, m: G::Move) {
        let a = self.game.action_of(self.seat, &m);
        if let Some(x) = self.mask.get_mut(a) {
            *x = 1;
        }
        self.count += 1;
    }
}

/// Writes the action mask of the seat to act into `mask` (all zeros once
/// the game is over); returns the number of legal moves.
pub fn action_mask<G: EnvGame>(game: &G, mask: &mut [u8]) -> usize {
    match game.to_act() {
        None => {
            mask.fill(0);
            0
        }
        Some(seat) => {
            let mut sink = MaskSink {
                game,
                seat,
                mask,
                count: 0,
            };
            game.legal_moves(&mut sink);
            sink.count
        }
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
