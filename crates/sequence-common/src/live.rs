//! [`Match`]: a live game with the generator it reshuffles from and what
//! it keeps of its moves — its own record ([`Record`]) when it was dealt
//! from a seed or read from a record, as the server, the terminal UI, the
//! arena, `sequence selfplay` and the Python package play it; or, for a
//! game that has no record (a replay's step, a determinization), the
//! [`Trail`] it can be rebuilt from, when it has one.

use crate::game::Rules;
use crate::notation::Notation;
use crate::penalty::{check_next, owed_by, Owed, PenaltyError};
use crate::record::{replay, replay_entries, Penalty, Record, ReplayError};
use crate::reshuffle::{Recording, Reshuffler};
use crate::rng::{game_rng, GameRng};
use crate::seat::Seat;
use crate::trail::{Origin, Trail};
use crate::RngReshuffler;
use serde_json::Value;

/// A live game: dealt from a seed with the named generator (ChaCha8,
/// [`crate::rng::game_rng`]) as the game's rules say ([`Rules::deal`]),
/// or read from a record, reshuffling from that generator (C7, S6) and
/// writing every move and every new draw pile into its record. A game
/// that has no record ([`Match::unrecorded`], [`Match::with_origin`])
/// keeps its [`Trail`] instead, when it has one.
pub struct Match<G: Rules> {
    game: G,
    rng: GameRng,
    kept: Kept<G>,
    /// A table-talk penalty being paid (C10): who still owes a discard.
    owed: Option<Owed>,
}

/// What a [`Match`] keeps of its moves.
enum Kept<G: Rules> {
    /// Its record, and the moves made since the record's last entry that
    /// records do not write (Stacks: the declines of a Block window still
    /// open, S5b), so that a copy written out keeps them.
    Record {
        record: Record<G>,
        unwritten: Vec<(Seat, G::Move)>,
    },
    /// No record, but where the game came from and the moves since.
    Trail(Trail<G>),
    /// Nothing (e.g. a classic determinization).
    Nothing,
}

impl<G: Rules> Clone for Kept<G> {
    fn clone(&self) -> Self {
        match self {
            Kept::Record { record, unwritten } => Kept::Record {
                record: record.clone(),
                unwritten: unwritten.clone(),
            },
            Kept::Trail(t) => Kept::Trail(t.clone()),
            Kept::Nothing => Kept::Nothing,
        }
    }
}

impl<G: Rules> Clone for Match<G> {
    fn clone(&self) -> Self {
        Match {
            game: self.game.clone(),
            rng: self.rng.clone(),
            kept: self.kept.clone(),
            owed: self.owed.clone(),
        }
    }
}

/// Why a written-out match ([`Match::from_record_and_unwritten`]) does not
/// rebuild.
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
        Match::resume_with(record, game, rng)
    }

    /// Resumes a replayed record; later reshuffles draw from ChaCha8 seeded
    /// with `seed`.
    pub fn resume(record: Record<G>, game: G, seed: u64) -> Match<G> {
        Match::resume_with(record, game, game_rng(seed))
    }

    /// Resumes a replayed record; later reshuffles draw from `rng`.
    fn resume_with(record: Record<G>, game: G, rng: GameRng) -> Match<G> {
        Match {
            game,
            rng,
            kept: Kept::Record {
                record,
                unwritten: vec![],
            },
            owed: None,
        }
    }

    /// A game without a record (e.g. a determinization), reshuffling from
    /// ChaCha8 seeded with `seed`.
    pub fn unrecorded(game: G, seed: u64) -> Match<G> {
        Match {
            game,
            rng: game_rng(seed),
            kept: Kept::Nothing,
            owed: None,
        }
    }

    /// A game without a record that came from `origin` (a replayed
    /// record's entry, a view's determinization), reshuffling from ChaCha8
    /// seeded with `seed`; it keeps the moves made on it (its [`Trail`]),
    /// so that it can be rebuilt exactly.
    pub fn with_origin(game: G, seed: u64, origin: Origin) -> Match<G> {
        Match {
            game,
            rng: game_rng(seed),
            kept: Kept::Trail(Trail::new(origin)),
            owed: None,
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

    /// A game read from its record (JSON) as it stood after the record's
    /// last entry, before what the record's silence after it means (a
    /// Stacks Block window stays open, S5b), then `unwritten` — the moves
    /// made since that records do not write, as [`Match::unwritten`]
    /// gives them — made with `rng` as the generator: a match written out
    /// (pickled) rebuilt exactly.
    ///
    /// # Errors
    /// As [`replay`] for the record; a message for an unwritten move that
    /// cannot be read or made.
    pub fn from_record_and_unwritten(
        v: &Value,
        unwritten: &[Value],
        rng: GameRng,
    ) -> Result<Match<G>, UnwrittenError> {
        let entries = v.get("moves").and_then(Value::as_array).map_or(0, Vec::len);
        // `result` says how the game stood when written out, which the
        // replay (closing an open Block window) may not match; it is made
        // again
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
        let mut m = Match::resume_with(record, open.unwrap_or(closed), rng);
        for e in unwritten {
            let bad = |m: String| UnwrittenError::Move(format!("{m} (in {e})"));
            let (seat, mv) =
                G::move_from_input(e, m.game.config()).map_err(|m| bad(m.to_string()))?;
            if G::is_recorded(&mv) {
                return Err(bad("a move that records write".into()));
            }
            m.play(seat, mv).map_err(|m| bad(m.to_string()))?;
        }
        Ok(m)
    }

    /// The game (the whole state: show players [`Match::view`]).
    #[inline]
    pub fn game(&self) -> &G {
        &self.game
    }

    /// What `seat` may see.
    pub fn view(&self, seat: Seat) -> G::View {
        self.game.view(seat)
    }

    /// The seat that must decide now: while a table-talk penalty is being
    /// paid (C10), the member that discards next; else the game's.
    pub fn to_act(&self) -> Option<Seat> {
        match &self.owed {
            Some(o) => o.seats.first().copied(),
            None => self.game.to_act(),
        }
    }

    /// Checks and plays `mv` for `seat` and keeps it: in the record as the
    /// record format writes it (classic: a placement that made sequences
    /// with its `declare`, C8a; Stacks: a declined Block is not written),
    /// or in the trail; returns what the move did ([`Rules::Effects`]).
    ///
    /// # Errors
    /// [`Rules::Error`] naming the rule; nothing changes then.
    pub fn play(&mut self, seat: Seat, mv: G::Move) -> Result<G::Effects, G::Error> {
        match &mut self.kept {
            Kept::Record { record, unwritten } => {
                let mut r = Recording {
                    rng: &mut self.rng,
                    log: &mut record.reshuffles,
                };
                let effects = self.game.play(seat, mv, &mut r)?;
                if G::is_recorded(&mv) {
                    let written = self.game.last_move().map_or(mv, |(_, m)| m);
                    record.moves.push((seat, written));
                    unwritten.clear();
                } else {
                    unwritten.push((seat, mv));
                }
                Ok(effects)
            }
            Kept::Trail(t) => {
                let mut r = Recording {
                    rng: &mut self.rng,
                    log: &mut t.reshuffles,
                };
                let effects = self.game.play(seat, mv, &mut r)?;
                t.moves.push((seat, mv));
                Ok(effects)
            }
            Kept::Nothing => self.game.play(seat, mv, &mut RngReshuffler(&mut self.rng)),
        }
    }

    /// Makes `mv` of a trail being rebuilt, its reshuffles from `resh`;
    /// the move joins the trail ([`Match::set_trail_reshuffles`] sets
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
        if let Kept::Trail(t) = &mut self.kept {
            t.moves.push((seat, mv));
        }
        Ok(())
    }

    /// Sets the trail's reshuffles (after [`Match::replay_move`]s).
    pub fn set_trail_reshuffles(&mut self, lists: Vec<Vec<G::Card>>) {
        if let Kept::Trail(t) = &mut self.kept {
            t.reshuffles = lists;
        }
    }

    /// The trail of a game without a record that can be rebuilt.
    pub fn trail(&self) -> Option<&Trail<G>> {
        match &self.kept {
            Kept::Trail(t) => Some(t),
            _ => None,
        }
    }

    /// The moves made since the record's last entry that records do not
    /// write (Stacks: declined Blocks of a window still open, S5b), as
    /// input entries (`{"seat": 2, "pass": true}`); empty without a
    /// record.
    pub fn unwritten(&self) -> Vec<Value> {
        let c = self.game.config();
        match &self.kept {
            Kept::Record { unwritten, .. } => unwritten
                .iter()
                .map(|(s, m)| G::move_to_json(*s, m, c))
                .collect(),
            _ => vec![],
        }
    }

    /// The table-talk penalty (C10) given to `team`: each of its members
    /// who holds a card must discard one ([`Match::penalty`]), in seat
    /// order, before play goes on.
    ///
    /// # Errors
    /// [`PenaltyError`]: a game without the penalty or over, a penalty
    /// still being paid, a team that does not exist or of one player, a
    /// team none of whose members holds a card; nothing changes then.
    pub fn give_penalty(&mut self, team: u8) -> Result<(), PenaltyError> {
        if self.game.outcome().is_over() {
            return Err(if G::TABLE_TALK_PENALTY {
                PenaltyError::GameOver
            } else {
                PenaltyError::NoPenalty(G::KIND)
            });
        }
        if self.owed.is_some() {
            return Err(PenaltyError::StillPaying);
        }
        let owed = owed_by(&self.game, team)?;
        if owed.seats.is_empty() {
            return Err(PenaltyError::NoCards);
        }
        self.owed = Some(owed);
        Ok(())
    }

    /// The table-talk penalty being paid (C10), if one is.
    pub fn penalty_owed(&self) -> Option<&Owed> {
        self.owed.as_ref()
    }

    /// A discard for the table-talk penalty being paid (C10): `seat`, the
    /// member that discards next, discards `card` out of turn and draws
    /// none ([`Notation::penalty_discard`]); the record writes it among
    /// the moves. Once every member has discarded, play goes on.
    ///
    /// # Errors
    /// [`PenaltyError::NotOwed`] when no penalty is being paid,
    /// [`PenaltyError::NotNext`] for a member whose turn to discard has
    /// not come, [`PenaltyError::Card`] for a card not in the hand;
    /// nothing changes then.
    pub fn penalty(&mut self, seat: Seat, card: G::Card) -> Result<(), PenaltyError> {
        let owed = self.owed.as_mut().ok_or(PenaltyError::NotOwed)?;
        check_next(&owed.seats, seat)?;
        match self.game.penalty_discard(seat, card) {
            None => return Err(PenaltyError::NoPenalty(G::KIND)),
            Some(Err(e)) => {
                return Err(PenaltyError::Card {
                    code: crate::game::RuleError::code(&e),
                    text: e.to_string(),
                })
            }
            Some(Ok(())) => {}
        }
        owed.seats.remove(0);
        if owed.seats.is_empty() {
            self.owed = None;
        }
        if let Kept::Record { record, .. } = &mut self.kept {
            record.penalties.push(Penalty {
                before: record.moves.len(),
                seat,
                card,
            });
        }
        Ok(())
    }

    /// The record so far, with `result` set (`{"winner": null}` while
    /// unfinished or drawn); `None` for a game without a record.
    pub fn record(&self) -> Option<Record<G>> {
        match &self.kept {
            Kept::Record { record, .. } => {
                let mut r = record.clone();
                r.result = Some(self.game.outcome().winner());
                Some(r)
            }
            _ => None,
        }
    }

    /// The record so far as JSON ([`Match::record`]).
    pub fn to_json(&self) -> Option<Value> {
        self.record().map(|r| r.to_json())
    }

    /// The moves written so far, with their seats (empty without a record).
    pub fn history(&self) -> &[(Seat, G::Move)] {
        match &self.kept {
            Kept::Record { record, .. } => &record.moves,
            _ => &[],
        }
    }

    /// Number of moves written so far (0 without a record).
    pub fn moves(&self) -> usize {
        self.history().len()
    }

    /// Number of reshuffles written so far (0 without a record).
    pub fn reshuffles(&self) -> usize {
        match &self.kept {
            Kept::Record { record, .. } => record.reshuffles.len(),
            _ => 0,
        }
    }

    /// The generator later reshuffles draw from (with the record, the
    /// whole match when written out).
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// Replaces the generator (a written-out match read back).
    pub fn set_rng(&mut self, rng: GameRng) {
        self.rng = rng;
    }

    /// A uniformly random legal move of the seat to act, drawn from the
    /// match's generator (so it follows the seed); `None` once over.
    pub fn random_move(&mut self) -> Option<G::Move> {
        self.game.random_move(&mut self.rng)
    }
}
