//! The table-talk penalty (C10, RULES.md): a team whose members talked
//! about their cards is given the penalty, and each member who holds a
//! card discards one of their choice, in seat order, out of turn and
//! drawing none, before play goes on. [`Owed`] is who still owes a
//! discard; a live game keeps it ([`crate::record::Match::give_penalty`]),
//! and a record's replay works it out from the first discard (the record
//! does not write who gave the penalty).

use crate::game::GameKind;
use crate::notation::Notation;
use crate::seat::Seat;

/// A table-talk penalty being paid (C10): the team given it and the seats
/// that still owe their discard, in the order they make it (seat order;
/// members holding no card owe none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owed {
    /// The team (its number; views and records name it by colour).
    pub team: u8,
    /// Seats that still owe a discard, the next first; never empty while
    /// the penalty is being paid.
    pub seats: Vec<Seat>,
}

/// Why the table-talk penalty (C10) cannot be given, or a discard for it
/// cannot be made now. Every text names C10.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PenaltyError {
    /// The game has no table-talk penalty (Sequence Stacks has no teams, S1).
    #[error("{} has no table-talk penalty (C10 is classic Sequence's)", .0.title())]
    NoPenalty(GameKind),
    /// The game is over.
    #[error("the table-talk penalty is given during a game (C10)")]
    GameOver,
    /// A penalty is still being paid.
    #[error("a table-talk penalty is still being paid: wait until every card is discarded (C10)")]
    StillPaying,
    /// The team does not exist.
    #[error("team {team} does not exist: the teams are 0 to {last} (C10)")]
    NoTeam {
        /// The team asked for.
        team: u8,
        /// The last team's number.
        last: u8,
    },
    /// The team has a single player.
    #[error("the table-talk penalty is for a team of two or more players (C10)")]
    TeamTooSmall,
    /// No member of the team holds a card: nobody has anything to discard.
    #[error("no player of the team holds a card to discard (C10)")]
    NoCards,
    /// No penalty is being paid.
    #[error("no table-talk penalty is waiting for this seat (C10)")]
    NotOwed,
    /// A discard by a member whose turn to discard has not come.
    #[error(
        "seat {first} discards for the table-talk penalty before seat {seat} (C10: each member \
         of the team in seat order)"
    )]
    NotNext {
        /// The seat that discards next.
        first: u8,
        /// The seat that tried.
        seat: u8,
    },
    /// The rules refuse the discard (a card not in the hand): the
    /// engine's code and words.
    #[error("{text} (C10)")]
    Card {
        /// The engine's stable code.
        code: &'static str,
        /// The engine's message.
        text: String,
    },
}

impl PenaltyError {
    /// The stable code: `C10.no_penalty`, `C10.game_over`, `C10.pending`,
    /// `C10.no_team`, `C10.team_size`, `C10.no_cards`, `C10.order`,
    /// `C10.not_in_hand` (or the engine's code for another refusal).
    pub fn code(&self) -> &'static str {
        match self {
            PenaltyError::NoPenalty(_) | PenaltyError::NotOwed => "C10.no_penalty",
            PenaltyError::GameOver => "C10.game_over",
            PenaltyError::StillPaying => "C10.pending",
            PenaltyError::NoTeam { .. } => "C10.no_team",
            PenaltyError::TeamTooSmall => "C10.team_size",
            PenaltyError::NoCards => "C10.no_cards",
            PenaltyError::NotNext { .. } => "C10.order",
            PenaltyError::Card { code, .. } if code.ends_with(".not_in_hand") => "C10.not_in_hand",
            PenaltyError::Card { code, .. } => code,
        }
    }
}

/// Who owes a discard when `team` is given the table-talk penalty (C10):
/// its members holding a card, in seat order.
///
/// # Errors
/// [`PenaltyError::NoPenalty`] in a game without teams,
/// [`PenaltyError::NoTeam`], [`PenaltyError::TeamTooSmall`] for a team of
/// one player.
pub fn owed_by<G: Notation>(game: &G, team: u8) -> Result<Owed, PenaltyError> {
    if !G::TABLE_TALK_PENALTY {
        return Err(PenaltyError::NoPenalty(G::KIND));
    }
    let sides = game.sides();
    if team >= sides {
        return Err(PenaltyError::NoTeam {
            team,
            last: sides.saturating_sub(1),
        });
    }
    let members: Vec<Seat> = (0..game.players())
        .map(Seat)
        .filter(|&s| game.side_of(s) == team)
        .collect();
    if members.len() < 2 {
        return Err(PenaltyError::TeamTooSmall);
    }
    let seats = members
        .into_iter()
        .filter(|&s| game.holds_a_card(s))
        .collect();
    Ok(Owed { team, seats })
}

/// Checks that `seat` is the next to discard of `owed` (the seats that
/// still owe a discard, in order).
///
/// # Errors
/// [`PenaltyError::NotNext`] naming the seat that discards next;
/// [`PenaltyError::NotOwed`] when nobody owes a discard.
pub fn check_next(owed: &[Seat], seat: Seat) -> Result<(), PenaltyError> {
    match owed.first() {
        Some(&first) if first == seat => Ok(()),
        Some(&first) => Err(PenaltyError::NotNext {
            first: first.0,
            seat: seat.0,
        }),
        None => Err(PenaltyError::NotOwed),
    }
}
