//! Sequence Stacks under the one game interface: [`Game`] implements
//! [`sequence_common::Rules`] (the table is [`Config`], moves are
//! [`Decision`]s, refusals [`PlayError`], views [`SeatView`]); each seat
//! plays alone, so a side is a seat (S1).

use crate::card::Card;
use crate::effects::Effects;
use crate::game::{Config, Game, SetupError, Status};
use crate::moves::{Decision, PlayError, Source};
use crate::options::Options;
use crate::view::SeatView;
use rand::Rng;
use sequence_common::{Outcome, Rules, Seat, TableConfig};

/// Where a game with this status stands, by side (seat).
pub(crate) fn outcome(status: Status) -> Outcome {
    match status {
        Status::Playing => Outcome::Playing,
        Status::Won(s) => Outcome::Won(s.0),
        Status::Draw => Outcome::Draw,
    }
}

impl TableConfig for Config {
    type Options = Options;

    fn players(&self) -> u8 {
        Config::players(self)
    }

    fn team_count(&self) -> Option<u8> {
        None
    }

    fn rule_options(&self) -> &Options {
        self.options()
    }
}

impl Game {
    /// Number of distinct move keys.
    pub const MOVE_KEYS: usize = 252;

    /// The decision's dense key (below [`Game::MOVE_KEYS`]): pile plays by
    /// card, source and place, action cards by source and target, Block,
    /// Pass, discards by card, End.
    #[inline]
    pub fn move_key(d: &Decision) -> usize {
        let f = |s: Source| (s == Source::Discard) as usize;
        match *d {
            Decision::Pile { card, from, place } => card.index() * 16 + f(from) * 8 + place.index(),
            Decision::Skip { from } => 192 + f(from),
            Decision::Reverse { from } => 194 + f(from),
            Decision::StealCard { from, target } => 196 + f(from) * 6 + target.index() % 6,
            Decision::StealChip {
                from,
                target,
                colour,
            } => 208 + f(from) * 12 + (target.index() % 6) * 2 + colour.index(),
            Decision::Block => 232,
            Decision::Pass => 233,
            Decision::Discard { card } => 234 + card.index(),
            Decision::End => 251,
        }
    }

    /// Where the game stands by side (seat).
    pub fn outcome(&self) -> Outcome {
        outcome(self.status())
    }
}

impl Rules for Game {
    sequence_common::rules_types!(Stacks, move: Decision, error: PlayError);

    /// A table of `players` seats under `options`; every seat plays
    /// alone (S1), so a team count is refused ([`SetupError::Teams`]).
    fn table(players: u8, teams: Option<u8>, options: Options) -> Result<Config, SetupError> {
        if let Some(t) = teams {
            return Err(SetupError::Teams(t));
        }
        Config::new(players, options)
    }

    fn from_deck(config: &Config, dealer: Seat, deck: &[Card]) -> Result<Game, SetupError> {
        Game::new(*config, dealer, deck)
    }

    fn deal<R: Rng + ?Sized>(config: &Config, rng: &mut R) -> (Game, Vec<Card>) {
        Game::deal(*config, rng)
    }

    sequence_common::forward_rules!(apply, play, view, spectator_view);

    fn sides(&self) -> u8 {
        Game::players(self)
    }

    #[inline]
    fn side_of(&self, seat: Seat) -> u8 {
        seat.0
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn last_move(&self) -> Option<(Seat, Decision)> {
        self.last
    }
}
