//! Classic Sequence under the one game interface: [`Game`] implements
//! [`sequence_common::Rules`] (the table is [`Config`], moves are
//! [`Move`], refusals [`IllegalMove`], views [`SeatView`]); a side is a
//! team (C3).

use crate::card::Card;
use crate::effects::Effects;
use crate::game::{Game, SetupError, Status};
use crate::moves::{IllegalMove, Move};
use crate::options::{Config, Options};
use crate::view::SeatView;
use rand::Rng;
use sequence_common::{Outcome, Reshuffler, Rules, Seat, TableConfig};

/// Move keys: placements by card × space, then removals, dead cards, the
/// pass and stuck discards (see [`Game::move_key`]).
const KEY_REMOVE: usize = 52 * 110;
const KEY_DEAD: usize = 2 * 52 * 110;
const KEY_PASS: usize = KEY_DEAD + 52;
const KEY_DISCARD: usize = KEY_PASS + 1;

impl TableConfig for Config {
    type Options = Options;

    fn players(&self) -> u8 {
        Config::players(self)
    }

    fn team_count(&self) -> Option<u8> {
        Some(self.teams())
    }

    /// C3: around the table the seats belong to the teams in turn (seat 0
    /// to team 0, seat 1 to team 1, …), so teammates never sit side by
    /// side.
    fn side_of(&self, seat: Seat) -> u8 {
        seat.0 % self.teams()
    }

    fn rule_options(&self) -> &Options {
        self.options()
    }
}

impl Game {
    /// The move's dense key (below [`Game::MOVE_KEYS`]): placements by card
    /// and space, removals by jack and space, dead cards, the pass and
    /// stuck discards by card. A declaration does not change the key.
    #[inline]
    pub fn move_key(mv: &Move) -> usize {
        match *mv {
            Move::Place { card, at, .. } => card.index() * 110 + at.bit() as usize,
            Move::Remove { card, at } => KEY_REMOVE + card.index() * 110 + at.bit() as usize,
            Move::Dead { card } => KEY_DEAD + card.index(),
            Move::Pass => KEY_PASS,
            Move::Discard { card } => KEY_DISCARD + card.index(),
        }
    }

    /// Number of distinct move keys.
    pub const MOVE_KEYS: usize = KEY_DISCARD + 52;

    /// Where the game stands by side (team, C3).
    pub fn outcome(&self) -> Outcome {
        match self.status() {
            Status::Playing => Outcome::Playing,
            Status::Won(t) => Outcome::Won(t.0),
            Status::Draw => Outcome::Draw,
        }
    }

    /// The seat to move; `None` once the game is over.
    #[inline]
    pub fn to_act(&self) -> Option<Seat> {
        (!self.is_over()).then_some(self.turn)
    }
}

impl Rules for Game {
    sequence_common::rules_types!(Classic, move: Move, error: IllegalMove);

    fn table(players: u8, teams: Option<u8>, options: Options) -> Result<Config, SetupError> {
        Ok(Config::new(players, teams, options)?)
    }

    fn from_deck(config: &Config, dealer: Seat, deck: &[Card]) -> Result<Game, SetupError> {
        Game::new(config.clone(), dealer, deck)
    }

    fn deal<R: Rng + ?Sized>(config: &Config, rng: &mut R) -> (Game, Vec<Card>) {
        Game::deal(config.clone(), rng)
    }

    sequence_common::forward_rules!(is_over, ply, last_move, view);

    #[inline]
    fn sides(&self) -> u8 {
        self.teams()
    }

    #[inline]
    fn side_of(&self, seat: Seat) -> u8 {
        self.team_of(seat).0
    }

    #[inline(always)]
    fn apply<S: Reshuffler<Card> + ?Sized>(
        &mut self,
        seat: Seat,
        mv: Move,
        reshuffler: &mut S,
    ) -> Result<Effects, IllegalMove> {
        Game::apply(self, seat, mv, reshuffler)
    }

    fn spectator_view(&self) -> SeatView {
        SeatView::spectator(self)
    }
}
