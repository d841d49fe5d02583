//! A live game as Python holds it: the game, the named generator it
//! reshuffles from and, when it was dealt here or read from a record, its
//! own record. Like [`sequence_common::record::Match`] (the same deal from
//! the same seed, the same record), but a game built from a view
//! (`determinize`) has no record, and a copy goes on independently.

use crate::trail::{Origin, Trail};
use sequence_common::record::{replay, replay_entries, Record, ReplayError};
use sequence_common::reshuffle::{Recording, Reshuffler};
use sequence_common::rng::{game_rng, GameRng};
use sequence_common::{Notation, Rules, Seat};
use serde_json::Value;

/// Why a pickled game's state does not rebuild.
#[derive(Debug)]
pub enum UnwrittenError {
    /// Its record does not replay.
    Record(ReplayError),
    /// An unwritten move after it cannot be read or made.
    Move(String),
}

impl From<ReplayError> for UnwrittenError {
    fn from(e: ReplayError) -> Self {
        UnwrittenError::Record(e)
    }
}

/// A game with its generator and, when known, its record (or, for a game
/// that has none, its [`Trail`] when it can be rebuilt).
pub struct Session<G: Rules> {
    game: G,
    rng: GameRng,
    record: Option<Record<G>>,
    trail: Option<Trail<G>>,
    /// The moves made since the record's last entry that records do not
    /// write (Stacks: the declines of a Block window still open, S5b), so
    /// that a pickle keeps them; empty without a record.
    unwritten: Vec<(Seat, G::Move)>,
}

impl<G: Rules> Clone for Session<G> {
    fn clone(&self) -> Self {
        Session {
            game: self.game.clone(),
            rng: self.rng.clone(),
            record: self.record.clone(),
            trail: self.trail.clone(),
            unwritten: self.unwritten.clone(),
        }
    }
}

impl<G: Notation> Session<G> {
    /// A new game of the table `config`, dealt from `seed` with ChaCha8 as
    /// the game's rules say (C5, S2): the same deal as
    /// [`sequence_common::record::Match::new`] and `sequence selfplay`.
    pub fn new(config: G::Config, seed: u64) -> Session<G> {
        let (game, record, rng) = Record::deal(config, seed);
        Session::resume(record, game, rng)
    }

    /// A game without a record (e.g. a determinization), reshuffling from
    /// ChaCha8 seeded with `seed`.
    pub fn without_record(game: G, seed: u64) -> Session<G> {
        Session {
            game,
            rng: game_rng(seed),
            record: None,
            trail: None,
            unwritten: vec![],
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
        Ok(Session::resume(record, game, game_rng(seed)))
    }

    /// A game read from its record (JSON) as it stood after the record's
    /// last entry, before what the record's silence after it means (a
    /// Stacks Block window stays open, S5b), then `unwritten` — the moves
    /// made since that records do not write, as [`Session::unwritten`]
    /// gives them — made with `rng` as the generator: a pickled game
    /// rebuilt exactly.
    ///
    /// # Errors
    /// As [`replay`] for the record; a message for an unwritten move that
    /// cannot be read or made.
    pub fn from_record_and_unwritten(
        v: &Value,
        unwritten: &[Value],
        rng: GameRng,
    ) -> Result<Session<G>, UnwrittenError> {
        let entries = v.get("moves").and_then(Value::as_array).map_or(0, Vec::len);
        // `result` says how the game stood when pickled, which the replay
        // (closing an open Block window) may not match; it is made again
        let mut v = v.clone();
        if let Value::Object(o) = &mut v {
            o.remove("result");
        }
        let mut open = None;
        let (record, closed) = replay_entries::<G>(&v, |i, _, _, g| {
            if i + 1 == entries {
                open = Some(g.clone());
            }
        })?;
        let mut s = Session::resume(record, open.unwrap_or(closed), rng);
        for e in unwritten {
            let bad = |m: String| UnwrittenError::Move(format!("{m} (in {e})"));
            let (seat, mv) =
                G::move_from_input(e, s.game.config()).map_err(|m| bad(m.to_string()))?;
            if G::is_recorded(&mv) {
                return Err(bad("a move that records write".into()));
            }
            s.play(seat, mv).map_err(|m| bad(m.to_string()))?;
        }
        Ok(s)
    }

    /// A session over a replayed record.
    fn resume(record: Record<G>, game: G, rng: GameRng) -> Session<G> {
        Session {
            game,
            rng,
            record: Some(record),
            trail: None,
            unwritten: vec![],
        }
    }

    /// The moves made since the record's last entry that records do not
    /// write (Stacks: declined Blocks of a window still open, S5b), as
    /// input entries (`{"seat": 2, "pass": true}`).
    pub fn unwritten(&self) -> Vec<Value> {
        let c = self.game.config();
        self.unwritten
            .iter()
            .map(|(s, m)| G::move_to_json(*s, m, c))
            .collect()
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
                    self.unwritten.clear();
                } else {
                    self.unwritten.push((seat, mv));
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
