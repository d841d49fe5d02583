//! One interface for a game's rules: [`Rules`], implemented by both engines
//! (`sequence_classic::Game`, `sequence_stacks::Game`) in the manner of
//! shakmaty's `Position`. Everything above the engines — records and
//! [`crate::record::Match`], the bots and their search, the arena, the
//! terminal UI, the server — is written once over this trait.
//!
//! A game has *seats* (`0 … players-1`) and *sides*: the teams of classic
//! Sequence (C3), the seats of Sequence Stacks (S1). The [`Outcome`] names
//! the winning side. What a seat (or a spectator) may see is the engine's
//! [`SeatView`]; nothing else about a game is ever shown to a player.

use crate::effects::MoveEffects;
use crate::moves::MoveSink;
use crate::reshuffle::{Reshuffler, RngReshuffler};
use crate::seat::Seat;
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::hash::Hash;

/// Which game: the one `GameKind` of the workspace.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Classic Sequence (RULES.md Part 1, C1–C11).
    Classic,
    /// Sequence Stacks (RULES.md Part 2, S1–S7).
    Stacks,
}

impl GameKind {
    /// Every game, in the order lists show them (a new game is added
    /// here, and the messages that name the games follow).
    pub const ALL: [GameKind; 2] = [GameKind::Classic, GameKind::Stacks];

    /// `classic` or `stacks`: the name in the API, the bot protocol and on
    /// the command line.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Classic => "classic",
            GameKind::Stacks => "stacks",
        }
    }

    /// The game's title: `Sequence` or `Sequence Stacks`.
    pub fn title(self) -> &'static str {
        match self {
            GameKind::Classic => "Sequence",
            GameKind::Stacks => "Sequence Stacks",
        }
    }

    /// The `format` of the game's records (RECORD.md, RECORD-STACKS.md).
    pub fn record_format(self) -> &'static str {
        match self {
            GameKind::Classic => crate::record::CLASSIC_FORMAT,
            GameKind::Stacks => crate::record::STACKS_FORMAT,
        }
    }

    /// The game of a record `format`, if it is one of ours.
    pub fn from_record_format(format: &str) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.record_format() == format)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GameKind {
    type Err = String;

    /// A game's name (`classic`, `stacks`) or its title written with
    /// dashes (`sequence`, `sequence-stacks`), any case: every game of
    /// [`GameKind::ALL`].
    fn from_str(s: &str) -> Result<GameKind, String> {
        let want = s.trim().to_ascii_lowercase();
        let titled = |k: GameKind| k.title().to_ascii_lowercase().replace(' ', "-");
        GameKind::ALL
            .into_iter()
            .find(|&k| want == k.name() || want == titled(k))
            .ok_or_else(|| {
                let names: Vec<String> = GameKind::ALL.iter().map(|k| k.name().into()).collect();
                format!(
                    "{} is not a game ({})",
                    crate::json::echo(&format!("{s:?}")),
                    crate::table::or_list(&names)
                )
            })
    }
}

/// Where a game stands, by side (a team in classic Sequence, a seat in
/// Sequence Stacks).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Moves remain to be made.
    #[default]
    Playing,
    /// This side won (C9, S7).
    Won(u8),
    /// Drawn (C6a, S6a).
    Draw,
}

impl Outcome {
    /// Whether the game has ended.
    pub fn is_over(self) -> bool {
        self != Outcome::Playing
    }

    /// The winning side, if any.
    pub fn winner(self) -> Option<u8> {
        match self {
            Outcome::Won(s) => Some(s),
            _ => None,
        }
    }

    /// `playing`, `won` or `draw` (the `status` of views and summaries).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Playing => "playing",
            Outcome::Won(_) => "won",
            Outcome::Draw => "draw",
        }
    }
}

/// An error of the rules with a stable, machine-readable code such as
/// `C6.space_taken` or `S5.steal_from_self`: the rule id, a dot, and a
/// name in snake case. Clients translate refusals by this code; the
/// `Display` text is English and names the rule too.
pub trait RuleError: std::error::Error + Clone + PartialEq + Send + Sync + 'static {
    /// The stable code, e.g. `C6.space_taken`.
    fn code(&self) -> &'static str;
}

/// A validated table: players, teams and rule options (C3, S1).
pub trait TableConfig: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The game's rule options.
    type Options;
    /// Seats at the table.
    fn players(&self) -> u8;
    /// Teams, `None` in a game without teams (Stacks).
    fn team_count(&self) -> Option<u8>;
    /// Sides: the teams, or the seats when each plays alone.
    fn sides(&self) -> u8 {
        self.team_count().unwrap_or_else(|| self.players())
    }
    /// The side `seat` plays on at this table (below [`TableConfig::sides`]):
    /// its team (C3: teammates sit apart, teams in turn around the table),
    /// or the seat itself in a game without teams (S1). The same as the
    /// dealt game's [`Rules::side_of`], known before the deal.
    fn side_of(&self, seat: Seat) -> u8 {
        seat.0
    }
    /// The rule options.
    fn rule_options(&self) -> &Self::Options;
}

/// The rules of one game, implemented by each engine's `Game`. A value is
/// a whole game, hidden cards included; show a player only its
/// [`Rules::view`].
///
/// The hot path ([`Rules::legal_moves`] into a fixed list,
/// [`Rules::random_move`], [`Rules::apply`]) allocates nothing.
pub trait Rules: Clone + Send + Sync + 'static {
    /// Which game this is.
    const KIND: GameKind;
    /// Number of distinct move keys: [`Rules::move_key`] is below it.
    const MOVE_KEYS: usize;

    /// A card (what decks, hands, piles and reshuffles hold).
    type Card: Copy + Ord + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static;
    /// One decision of a seat. Its `Default` is a filler for fixed lists
    /// and the fallback of a bot given no legal move (a pass).
    type Move: Copy + Eq + Hash + fmt::Debug + Default + Send + Sync + 'static;
    /// The rule options (one per Interpretation and house rule).
    type Options: Clone + fmt::Debug + Default + PartialEq + Send + Sync + 'static;
    /// A validated table.
    type Config: TableConfig<Options = Self::Options>;
    /// A table or deal that breaks the rules (C1, C3, S1, S2).
    type SetupError: RuleError;
    /// Why a move is refused.
    type Error: RuleError;
    /// What one seat, or a spectator, may see.
    type View: SeatView<Game = Self>;
    /// What a move did ([`Rules::apply`], [`Rules::play`]): a small fixed
    /// value, hidden cards included (show a seat only
    /// [`MoveEffects::seen_by`] it).
    type Effects: MoveEffects;

    // ----- the table and the deal ------------------------------------------

    /// A validated table of `players` seats in `teams` teams (`None`: the
    /// default; a game without teams takes none) under `options`.
    ///
    /// # Errors
    /// [`Rules::SetupError`] naming the rule broken (C3, S1) or the option.
    fn table(
        players: u8,
        teams: Option<u8>,
        options: Self::Options,
    ) -> Result<Self::Config, Self::SetupError>;

    /// A game dealt from `deck` (top first) by `dealer` (C5, S2).
    ///
    /// # Errors
    /// [`Rules::SetupError`] when the deck is not the game's cards or the
    /// dealer is not a seat.
    fn from_deck(
        config: &Self::Config,
        dealer: Seat,
        deck: &[Self::Card],
    ) -> Result<Self, Self::SetupError>;

    /// A game with the dealer and the deck order drawn from `rng` as the
    /// game's rules say (C5: a cut; S2: a choice), and the deck, top first,
    /// for the record.
    fn deal<R: Rng + ?Sized>(config: &Self::Config, rng: &mut R) -> (Self, Vec<Self::Card>);

    /// Another random game of this game's table, for playouts and research
    /// (benchmarks, training): a uniformly random dealer and deck order
    /// drawn from `rng` with the fast shuffle, sharing the table's rule
    /// tables. Not the documented procedure of [`Rules::deal`] that records
    /// rely on.
    fn fresh_deal<R: Rng + ?Sized>(&self, rng: &mut R) -> Self {
        Self::deal(self.config(), rng).0
    }

    /// The table.
    fn config(&self) -> &Self::Config;

    /// Seats at the table.
    fn players(&self) -> u8 {
        self.config().players()
    }

    /// Sides (teams, or seats when each plays alone).
    fn sides(&self) -> u8 {
        self.config().sides()
    }

    /// The side of `seat` (its team, C3; or the seat itself).
    fn side_of(&self, seat: Seat) -> u8;

    /// The dealer (C5, S2).
    fn dealer(&self) -> Seat;

    // ----- the state ---------------------------------------------------------

    /// The seat that must decide now; `None` once the game is over.
    fn to_act(&self) -> Option<Seat>;

    /// Where the game stands.
    fn outcome(&self) -> Outcome;

    /// Whether the game has ended.
    fn is_over(&self) -> bool {
        self.outcome().is_over()
    }

    /// Moves made so far (every decision counts one).
    fn ply(&self) -> u32;

    /// The last move and its seat, as a record writes it (classic: with the
    /// sequences it made declared, C8a).
    fn last_move(&self) -> Option<(Seat, Self::Move)>;

    // ----- moves -------------------------------------------------------------

    /// Every legal move of the seat to act, into `out` (cleared first);
    /// empty once the game is over.
    fn legal_moves<S: MoveSink<Self::Move> + ?Sized>(&self, out: &mut S);

    /// A uniformly random legal move of the seat to act (the same
    /// distribution as picking from [`Rules::legal_moves`]), `None` once
    /// the game is over.
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Move>;

    /// A dense index of `mv` among every move of the game, below
    /// [`Rules::MOVE_KEYS`]: the same move has the same key in any
    /// position (searches key their statistics by it).
    fn move_key(mv: &Self::Move) -> usize;

    /// Whether `seat` may make `mv` now.
    ///
    /// # Errors
    /// [`Rules::Error`] naming the rule the move breaks.
    fn check(&self, seat: Seat, mv: Self::Move) -> Result<(), Self::Error>;

    /// Makes a move already known to be legal, drawing as the rules say and
    /// asking `reshuffler` for the order of any new draw pile (C7, S6), and
    /// says what it did. An unchecked illegal move leaves the game in an
    /// unspecified (but memory-safe) state.
    ///
    /// # Errors
    /// Only when the reshuffler refuses; the game is then unchanged.
    fn apply<S: Reshuffler<Self::Card> + ?Sized>(
        &mut self,
        seat: Seat,
        mv: Self::Move,
        reshuffler: &mut S,
    ) -> Result<Self::Effects, Self::Error>;

    /// [`Rules::check`], then [`Rules::apply`]: what the move did. On error
    /// nothing changes.
    ///
    /// # Errors
    /// As [`Rules::check`] and [`Rules::apply`].
    fn play<S: Reshuffler<Self::Card> + ?Sized>(
        &mut self,
        seat: Seat,
        mv: Self::Move,
        reshuffler: &mut S,
    ) -> Result<Self::Effects, Self::Error> {
        self.check(seat, mv)?;
        self.apply(seat, mv, reshuffler)
    }

    /// Plays uniformly random legal moves (reshuffling with `rng`) until
    /// the game ends or `max_moves` were made; returns how many were.
    fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R, max_moves: u32) -> u32 {
        let mut n = 0;
        while n < max_moves {
            let Some(seat) = self.to_act() else { break };
            let Some(mv) = self.random_move(rng) else {
                break;
            };
            if self.apply(seat, mv, &mut RngReshuffler(&mut *rng)).is_err() {
                break;
            }
            n += 1;
        }
        n
    }

    // ----- what each may see -------------------------------------------------

    /// What `seat` may see: the public state, its own hand and its legal
    /// moves when it must decide; never another hand or the draw pile's
    /// order.
    fn view(&self, seat: Seat) -> Self::View;

    /// What a spectator may see: the public state only, no hand at all. The
    /// engine, not the server, decides what that is.
    fn spectator_view(&self) -> Self::View;
}

/// What one seat (or a spectator) may see of a game: the only thing a
/// player, a bot or a browser is ever given. It cannot hold another seat's
/// hand or the draw pile's order.
pub trait SeatView: Clone + Send + Sync + 'static {
    /// The game it is a view of.
    type Game: Rules;

    /// The seat it belongs to; `None` for a spectator.
    fn seat(&self) -> Option<Seat>;

    /// The seat that must decide now; `None` once the game is over.
    fn to_act(&self) -> Option<Seat>;

    /// Where the game stands.
    fn outcome(&self) -> Outcome;

    /// Moves made so far.
    fn ply(&self) -> u32;

    /// The legal moves when this seat must decide, else empty.
    fn legal_moves(&self) -> Vec<<Self::Game as Rules>::Move>;

    /// A whole game consistent with this view: the unseen cards dealt at
    /// random into the other hands (their sizes are public) and the draw
    /// pile (ISMCTS determinization). For a spectator every hand is unseen.
    /// `None` when the view does not add up to the game's cards (a view
    /// read from outside the process); a view the engine made always does.
    fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Game>;

    /// The view as JSON: what the server sends this seat and the bot
    /// protocol sends a program (docs/api.md, docs/bot-protocol.md).
    fn to_json(&self) -> Value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_kinds_by_name_and_record_format() {
        for k in GameKind::ALL {
            assert_eq!(k.name().parse::<GameKind>(), Ok(k));
            assert_eq!(GameKind::from_record_format(k.record_format()), Some(k));
            assert_eq!(
                serde_json::to_value(k).unwrap(),
                serde_json::json!(k.name())
            );
        }
        assert!("chess".parse::<GameKind>().is_err());
        assert_eq!(GameKind::from_record_format("chess/1"), None);
    }

    /// The other spellings are the titles with dashes, any case; a name
    /// that is no game lists the games.
    #[test]
    fn game_kinds_by_title() {
        assert_eq!(" Sequence ".parse::<GameKind>(), Ok(GameKind::Classic));
        assert_eq!("SEQUENCE-STACKS".parse::<GameKind>(), Ok(GameKind::Stacks));
        assert_eq!(
            "chess".parse::<GameKind>(),
            Err("\"chess\" is not a game (classic or stacks)".to_string())
        );
    }

    /// `GameKind::ALL` holds every game once: this match stops compiling
    /// when a variant is added, until it is counted here (and in `ALL`).
    #[test]
    fn all_lists_every_game() {
        let index = |k: GameKind| match k {
            GameKind::Classic => 0,
            GameKind::Stacks => 1,
        };
        assert_eq!(GameKind::ALL.map(index), [0, 1]);
    }
}
