//! A live game as Python holds it: the game, the named generator it
//! reshuffles from and, when it was dealt here or read from a record, its
//! own record. Like [`sequence_common::record::Match`] (the same deal from
//! the same seed, the same record), but a game built from a view
//! (`determinize`) has no record, and a copy goes on independently.

use crate::trail::{Origin, Trail};
use sequence_common::record::{replay, Record, ReplayError};
use sequence_common::reshuffle::{Recording, Reshuffler};
use sequence_common::rng::{game_rng, GameRng};
use sequence_common::{Notation, Rules, Seat};
use serde_json::Value;

/// A game with its generator and, when known, its record (or, for a game
/// that has none, its [`Trail`] when it can be rebuilt).
pub struct Session<G: Rules> {
    game: G,
    rng: GameRng,
    record: Option<Record<G>>,
    trail: Option<Trail<G>>,
}

impl<G: Rules> Clone for Session<G> {
    fn clone(&self) -> Self {
        Session {
            game: self.game.clone(),
            rng: self.rng.clone(),
            record: self.record.clone(),
            trail: self.trail.clone(),
        }
    }
}

impl<G: Notation> Session<G> {
    /// A new game of the table `config`, dealt from `seed` with ChaCha8 as
    /// the game's rules say (C5, S2): the same deal as
    /// [`sequence_common::record::Match::new`] and `sequence selfplay`.
    pub fn new(config: G::Config, seed: u64) -> Session<G> {
        let (game, record, rng) = Record::deal(config, seed);
        Session {
            game,
            rng,
            record: Some(record),
            trail: None,
        }
    }

    /// A game without a record (e.g. a determinization), reshuffling from
    /// ChaCha8 seeded with `seed`.
    pub fn without_record(game: G, seed: u64) -> Session<G> {
        Session {
            game,
            rng: game_rng(seed),
            record: None,
            trail: None,
        }
    }

    /// A game without a record that came from `origin` (a replayed
    /// record's entry, a Stacks determinization), reshuffling from ChaCha8
    /// seeded with `seed`; it keeps the moves made on it (its [`Trail`]),
    /// so that it can be rebuilt exactly.
    pub fn with_origin(game: G, seed: u64, origin: Origin) -> Session<G> {
        Session {
            trail: Some(Trail::new(origin)),
            ..Session::without_record(game, seed)
        }
    }

    /// A game read from a record (JSON) and replayed move by move, going on
    /// with later reshuffles drawn from ChaCha8 seeded with `seed`.
    ///
    /// # Errors
    /// As [`replay`]: the messages of `sequence verify`.
    pub fn from_record(v: &Value, seed: u64) -> Result<Session<G>, ReplayError> {
        let (record, game) = replay::<G>(v, |_, _, _, _| {})?;
        Ok(Session {
            game,
            rng: game_rng(seed),
            record: Some(record),
            trail: None,
        })
    }

    /// The game.
    #[inline]
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Checks and makes `mv` for `seat`; records it when the session keeps
    /// a record (as [`sequence_common::record::Match::play`] does).
    ///
    /// # Errors
    /// The rule the move breaks; nothing changes then.
    pub fn play(&mut self, seat: Seat, mv: G::Move) -> Result<(), G::Error> {
        match &mut self.record {
            Some(rec) => {
                let mut r = Recording {
                    rng: &mut self.rng,
                    log: &mut rec.reshuffles,
                };
                self.game.play(seat, mv, &mut r)?;
                if G::is_recorded(&mv) {
                    let written = self.game.last_move().map_or(mv, |(_, m)| m);
                    rec.moves.push((seat, written));
                }
            }
            None => match &mut self.trail {
                Some(t) => {
                    let mut r = Recording {
                        rng: &mut self.rng,
                        log: &mut t.reshuffles,
                    };
                    self.game.play(seat, mv, &mut r)?;
                    t.moves.push((seat, mv));
                }
                None => {
                    let mut r = sequence_common::RngReshuffler(&mut self.rng);
                    self.game.play(seat, mv, &mut r)?;
                }
            },
        }
        Ok(())
    }

    /// Makes `mv` of a trail being rebuilt, its reshuffles from `resh`;
    /// the move joins the trail ([`Session::set_trail_reshuffles`] sets
    /// their draw piles after the last).
    ///
    /// # Errors
    /// The rule the move breaks.
    pub fn replay_move<R: Reshuffler<G::Card>>(
        &mut self,
        seat: Seat,
        mv: G::Move,
        resh: &mut R,
    ) -> Result<(), G::Error> {
        self.game.play(seat, mv, resh)?;
        if let Some(t) = &mut self.trail {
            t.moves.push((seat, mv));
        }
        Ok(())
    }

    /// Sets the trail's reshuffles (after [`Session::replay_move`]s).
    pub fn set_trail_reshuffles(&mut self, lists: Vec<Vec<G::Card>>) {
        if let Some(t) = &mut self.trail {
            t.reshuffles = lists;
        }
    }

    /// The trail of a game without a record that can be rebuilt.
    pub fn trail(&self) -> Option<&Trail<G>> {
        self.trail.as_ref()
    }

    /// The generator later reshuffles draw from (for pickling: with the
    /// record it is the whole session).
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// Replaces the generator (restoring a pickled session).
    pub fn set_rng(&mut self, rng: GameRng) {
        self.rng = rng;
    }

    /// Whether the session keeps a record.
    pub fn has_record(&self) -> bool {
        self.record.is_some()
    }

    /// The record so far with its `result` (`null` while unfinished or
    /// drawn); `None` for a game without a record.
    pub fn record(&self) -> Option<Record<G>> {
        self.record.as_ref().map(|r| {
            let mut r = r.clone();
            r.result = Some(self.game.outcome().winner());
            r
        })
    }

    /// The moves written so far, with their seats (empty without a record).
    pub fn history(&self) -> &[(Seat, G::Move)] {
        self.record.as_ref().map_or(&[], |r| &r.moves)
    }

    /// A uniformly random legal move of the seat to act, drawn from the
    /// session's generator (so it follows the seed); `None` once over.
    pub fn random_move(&mut self) -> Option<G::Move> {
        self.game.random_move(&mut self.rng)
    }
}
