//! [`Match`]: a live game dealt from a seed that keeps its own record
//! ([`Record`]), as the server, the terminal UI, the arena and `sequence
//! selfplay` play it.

use crate::game::Rules;
use crate::notation::Notation;
use crate::record::{replay, Penalty, Record, ReplayError};
use crate::reshuffle::Recording;
use crate::rng::GameRng;
use crate::seat::Seat;
use serde_json::Value;

/// A live game that keeps its own record: dealt from a seed with the named
/// generator (ChaCha8, [`crate::rng::game_rng`]) as the game's rules say
/// ([`Rules::deal`]), reshuffling from it (C7, S6) and writing every move
/// and every new draw pile into the record. The server, the terminal UI,
/// the arena and `sequence selfplay` play through it.
pub struct Match<G: Rules> {
    game: G,
    record: Record<G>,
    rng: GameRng,
}

impl<G: Rules> Clone for Match<G> {
    fn clone(&self) -> Self {
        Match {
            game: self.game.clone(),
            record: self.record.clone(),
            rng: self.rng.clone(),
        }
    }
}

impl<G: Notation> Record<G> {
    /// A new game of the table `config` dealt from `seed` with ChaCha8 (C5,
    /// S2), its record with no moves yet, and the generator to order its
    /// reshuffles with (C7, S6): how [`Match::new`], `sequence selfplay` and
    /// the Python package start a game.
    pub fn deal(config: G::Config, seed: u64) -> (G, Record<G>, crate::rng::GameRng) {
        let mut rng = crate::rng::game_rng(seed);
        let (game, deck) = G::deal(&config, &mut rng);
        let record = Record {
            config,
            dealer: game.dealer(),
            deck,
            reshuffles: vec![],
            moves: vec![],
            penalties: vec![],
            result: None,
        };
        (game, record, rng)
    }
}

impl<G: Notation> Match<G> {
    /// A new game of the table `config`, dealt from `seed`.
    pub fn new(config: G::Config, seed: u64) -> Match<G> {
        let (game, record, rng) = Record::deal(config, seed);
        Match { game, record, rng }
    }

    /// Resumes a replayed record; later reshuffles draw from ChaCha8 seeded
    /// with `seed`.
    pub fn resume(record: Record<G>, game: G, seed: u64) -> Match<G> {
        Match {
            game,
            record,
            rng: crate::rng::game_rng(seed),
        }
    }

    /// Resumes a game from a record's JSON (e.g. a saved game): replays it
    /// as [`replay`] does (a Stacks Block window open at the end of an
    /// unfinished game stays open, S5b) and
    /// goes on with later reshuffles drawn from ChaCha8 seeded with `seed`.
    ///
    /// # Errors
    /// As [`replay`].
    pub fn from_record_json(v: &Value, seed: u64) -> Result<Match<G>, ReplayError> {
        let (record, game) = replay(v, |_, _, _, _| {})?;
        Ok(Match::resume(record, game, seed))
    }

    /// The game (the whole state: show players [`Match::view`]).
    pub fn game(&self) -> &G {
        &self.game
    }

    /// What `seat` may see.
    pub fn view(&self, seat: Seat) -> G::View {
        self.game.view(seat)
    }

    /// The seat that must decide now.
    pub fn to_act(&self) -> Option<Seat> {
        self.game.to_act()
    }

    /// Checks and plays `mv` for `seat` and records it as the record format
    /// writes it (classic: a placement that made sequences with its
    /// `declare`, C8a; Stacks: a declined Block is not written); returns
    /// what the move did ([`Rules::Effects`]).
    ///
    /// # Errors
    /// [`Rules::Error`] naming the rule; nothing changes then.
    pub fn play(&mut self, seat: Seat, mv: G::Move) -> Result<G::Effects, G::Error> {
        let mut r = Recording {
            rng: &mut self.rng,
            log: &mut self.record.reshuffles,
        };
        let effects = self.game.play(seat, mv, &mut r)?;
        if G::is_recorded(&mv) {
            let written = self.game.last_move().map_or(mv, |(_, m)| m);
            self.record.moves.push((seat, written));
        }
        Ok(effects)
    }

    /// The table-talk penalty (C10): `seat` discards `card` out of turn
    /// and draws none ([`Notation::penalty_discard`]); the record writes
    /// it among the moves. `None` when the game has no such penalty.
    ///
    /// # Errors
    /// [`Rules::Error`] (the card is not in the seat's hand, the game is
    /// over); nothing changes then.
    pub fn penalty(&mut self, seat: Seat, card: G::Card) -> Option<Result<(), G::Error>> {
        let r = self.game.penalty_discard(seat, card)?;
        if r.is_ok() {
            self.record.penalties.push(Penalty {
                before: self.record.moves.len(),
                seat,
                card,
            });
        }
        Some(r)
    }

    /// The record so far, with `result` set (`{"winner": null}` while
    /// unfinished or drawn).
    pub fn record(&self) -> Record<G> {
        let mut r = self.record.clone();
        r.result = Some(self.game.outcome().winner());
        r
    }

    /// The record so far as JSON ([`Match::record`]).
    pub fn to_json(&self) -> Value {
        self.record().to_json()
    }

    /// Number of moves written so far.
    pub fn moves(&self) -> usize {
        self.record.moves.len()
    }
}
