//! A turn of classic Sequence: the legal moves (C6, C6a), checking a move
//! (C5, C6, C6a, C8a) and making it: the card to the discard pile, the chip
//! placed or removed, sequences counted (C8, [`crate::sequences`]), the win
//! (C9), the draw after a full round of passes (C6a), the draw of a card and
//! the reshuffle (C7).

use crate::bitboard::{Bitboard, Space, CORNERS, SPACE_BITS};
use crate::card::Card;
use crate::effects::{Chip, Effects};
use crate::game::{Game, Status, Team, MAX_SEQUENCES, ONE_EYED, TWO_EYED};
use crate::moves::{Declaration, IllegalMove, Move};
use crate::options::NoPlay;
use crate::sequences::{add_to_lines, any_sequence, line_runs, Completions, Dir, Window};
use sequence_common::{MoveSink, Outcome, Reshuffler, Seat};

impl Game {
    // ----- move generation ---------------------------------------------------

    /// Fills `out` with every legal move of the seat to move: dead-card
    /// exchanges first (when allowed, in hand order), then the placements
    /// of natural cards by space in reading order, then the jacks' plays
    /// (in hand order); a pass (or stuck discards) only when no play exists
    /// (C6, C6a). Distinct cards only: two copies of a card give one set of
    /// moves. Placements carry no declaration (the engine's default choice,
    /// C8a). Empty when the game is over.
    #[inline]
    pub fn legal_moves<S: MoveSink<Move> + ?Sized>(&self, out: &mut S) {
        out.clear();
        if self.is_over() {
            return;
        }
        let hand = &self.hands[self.turn.index()];
        let kinds = hand.kinds();
        if !self.dead_done && kinds & self.dead_cards() != 0 {
            self.push_dead_moves(out);
        }
        // A space shows one card: the hand's placements are the empty
        // spaces its natural cards show.
        let natural = hand.spaces & !self.occupied.0;
        for (base, half) in [(0u32, natural as u64), (64, (natural >> 64) as u64)] {
            let mut m = half;
            while m != 0 {
                let bit = (base + m.trailing_zeros()) as u8;
                m &= m - 1;
                let card = self.rules.space_card[bit as usize & 127];
                out.push(Move::place(card, Space::from_bit_unchecked(bit)));
            }
        }
        let mut plays = natural != 0;
        if kinds & (TWO_EYED | ONE_EYED) != 0 {
            plays |= self.push_jack_moves(out);
        }
        if !plays {
            self.push_stuck_moves(out);
        }
    }

    /// The dead-card exchanges (C6), in hand order.
    #[cold]
    fn push_dead_moves<S: MoveSink<Move> + ?Sized>(&self, out: &mut S) {
        let hand = &self.hands[self.turn.index()];
        let dead = hand.kinds() & self.dead_cards();
        let mut seen = 0u64;
        for &c in hand.cards() {
            let b = 1u64 << c.index();
            if dead & b & !seen != 0 {
                seen |= b;
                out.push(Move::Dead { card: c });
            }
        }
    }

    /// The jacks' plays (C6), by jack in hand order; whether there is any.
    #[inline(never)]
    fn push_jack_moves<S: MoveSink<Move> + ?Sized>(&self, out: &mut S) -> bool {
        let team = self.team_of(self.turn);
        let hand = &self.hands[self.turn.index()];
        let mut seen = 0u64;
        let mut any = false;
        for &c in hand.cards() {
            let b = 1u64 << c.index();
            if b & (TWO_EYED | ONE_EYED) & !seen == 0 {
                continue;
            }
            seen |= b;
            let t = self.targets_for(c, team);
            any |= !t.is_empty();
            if b & ONE_EYED != 0 {
                for at in t {
                    out.push(Move::Remove { card: c, at });
                }
            } else {
                for at in t {
                    out.push(Move::place(c, at));
                }
            }
        }
        any
    }

    #[cold]
    fn push_stuck_moves<S: MoveSink<Move> + ?Sized>(&self, out: &mut S) {
        let hand = &self.hands[self.turn.index()];
        if self.rules.no_play == NoPlay::Discard && !hand.is_empty() {
            let mut seen = 0u64;
            for &c in hand.cards() {
                if seen >> c.index() & 1 == 0 {
                    seen |= 1 << c.index();
                    out.push(Move::Discard { card: c });
                }
            }
        } else {
            out.push(Move::Pass);
        }
    }

    /// The completions a placement on `at` by the seat to move would make
    /// (C8), for choosing a declaration (C8a). `None` when `at` is taken.
    pub fn completions_at(&self, at: Space) -> Option<Completions> {
        if self.occupied.contains(at) || at.is_corner() {
            return None;
        }
        let team = self.team_of(self.turn);
        let own = self.chips[team.index()].with(at) | CORNERS;
        Some(Completions::find_with(own, at, self.rules.len, |m| {
            self.may_count(team, m)
        }))
    }

    // ----- playing -------------------------------------------------------------

    /// Checks `mv` as made by `seat` and plays it: the card goes to the
    /// seat's discard pile, the chip is placed or removed, sequences are
    /// counted (C8), a card is drawn (reshuffling when needed, C7), and the
    /// turn passes on; returns what it did ([`Effects`]). On error nothing
    /// changes.
    ///
    /// # Errors
    /// [`IllegalMove`] naming the rule the move breaks (see
    /// [`Game::check`]), or [`IllegalMove::Reshuffle`] when the reshuffler
    /// refuses.
    pub fn play<S: Reshuffler<Card> + ?Sized>(
        &mut self,
        seat: Seat,
        mv: Move,
        r: &mut S,
    ) -> Result<Effects, IllegalMove> {
        self.check(seat, mv)?;
        self.apply(seat, mv, r)
    }

    /// Whether `seat` may make `mv` now (C5, C6, C6a, C8, C8a).
    ///
    /// # Errors
    /// [`IllegalMove`] naming the rule the move breaks:
    /// [`IllegalMove::GameOver`], [`IllegalMove::WrongSeat`] when it is not
    /// `seat`'s turn, then what the move itself breaks.
    pub fn check(&self, seat: Seat, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if seat != self.turn {
            return Err(IllegalMove::WrongSeat(seat));
        }
        let team = self.team_of(self.turn);
        let hand = &self.hands[self.turn.index()];
        match mv {
            Move::Place { card, at, declare } => {
                if !hand.contains(card) {
                    return Err(IllegalMove::NotInHand(card));
                }
                if card.is_one_eyed_jack() {
                    return Err(IllegalMove::WrongUse(card));
                }
                if at.is_corner() {
                    return Err(IllegalMove::Corner);
                }
                if self.occupied.contains(at) {
                    return Err(IllegalMove::SpaceTaken(at));
                }
                if !card.is_jack() && !self.rules.layout.spaces_of(card).contains(at) {
                    return Err(IllegalMove::WrongSpace { card, at });
                }
                if let Some(d) = declare {
                    let own = self.chips[team.index()].with(at) | CORNERS;
                    let comp = Completions::find_with(own, at, self.rules.len, |m| {
                        self.may_count(team, m)
                    });
                    let (ws, n) = d.window_array();
                    comp.check_declared(&ws[..n], self.rules.len)?;
                }
                Ok(())
            }
            Move::Remove { card, at } => {
                if !hand.contains(card) {
                    return Err(IllegalMove::NotInHand(card));
                }
                if !card.is_one_eyed_jack() {
                    return Err(IllegalMove::WrongUse(card));
                }
                if at.is_corner() {
                    return Err(IllegalMove::Corner);
                }
                if !self.occupied.contains(at) {
                    return Err(IllegalMove::NoChip(at));
                }
                if self.chips[team.index()].contains(at) {
                    return Err(IllegalMove::OwnChip);
                }
                if self.locked.contains(at) && !self.rules.removable {
                    return Err(IllegalMove::Locked);
                }
                Ok(())
            }
            Move::Dead { card } => {
                if !hand.contains(card) {
                    return Err(IllegalMove::NotInHand(card));
                }
                if self.dead_done {
                    return Err(IllegalMove::SecondDead);
                }
                if !self.is_dead(card) {
                    return Err(IllegalMove::NotDead(card));
                }
                Ok(())
            }
            Move::Pass => {
                if self.has_play() {
                    return Err(IllegalMove::NotStuck);
                }
                if self.rules.no_play == NoPlay::Discard && !hand.is_empty() {
                    return Err(IllegalMove::MustDiscard);
                }
                Ok(())
            }
            Move::Discard { card } => {
                if self.rules.no_play != NoPlay::Discard {
                    return Err(IllegalMove::MustPass);
                }
                if !hand.contains(card) {
                    return Err(IllegalMove::NotInHand(card));
                }
                if self.has_play() {
                    return Err(IllegalMove::NotStuck);
                }
                Ok(())
            }
        }
    }

    /// Plays a move already known to be legal for `seat`, the seat to move
    /// (from [`Game::legal_moves`], [`Game::random_move`] or checked by
    /// [`Game::check`]) and returns what it did ([`Effects`]). Playing an
    /// unchecked illegal move leaves the game in an unspecified (but
    /// memory-safe) state.
    ///
    /// # Errors
    /// Only [`IllegalMove::Reshuffle`] when the reshuffler refuses (the
    /// state is then unchanged).
    #[inline(always)]
    pub fn apply<S: Reshuffler<Card> + ?Sized>(
        &mut self,
        seat: Seat,
        mv: Move,
        r: &mut S,
    ) -> Result<Effects, IllegalMove> {
        debug_assert_eq!(seat, self.turn, "apply for a seat not to move");
        match mv {
            // Most moves: a placement with a card left to draw.
            Move::Place { card, at, declare } if self.draw_len > 0 => {
                Ok(self.place(card, at, declare))
            }
            _ => self.apply_any(mv, r),
        }
    }

    /// [`Game::apply`] of a placement by the seat to move while the draw
    /// pile is not empty (so no reshuffle, C7): the card to the discard
    /// pile, the chip placed (C6), sequences counted (C8, C8a) and the win
    /// (C9), a card drawn, the turn passed on. The playout's fast path.
    #[inline(always)]
    pub(crate) fn place(&mut self, card: Card, at: Space, declare: Option<Declaration>) -> Effects {
        debug_assert!(self.draw_len > 0);
        let seat = self.turn;
        let team = self.team_of(seat);
        let mask = self.rules.card_mask[card.index() & 63];
        self.hands[seat.index()].remove(card, mask);
        self.push_discard(seat, card);
        // Whole-word updates from locals: the space's bit comes from a
        // table, so the compiler cannot narrow the stores to the one 32-bit
        // word the bit is in, which a later 64-bit load could not forward
        // from (a stall of a dozen cycles on every move).
        let t = team.index().min(2);
        let bit = SPACE_BITS[at.bit() as usize & 127];
        self.chips[t] = Bitboard(self.chips[t].0 | bit);
        self.occupied = Bitboard(self.occupied.0 | bit);
        let runs = add_to_lines(&mut self.lines[t], at, self.rules.len);
        self.cover(at);
        self.stuck_run = 0;
        self.ply += 1;
        let mut fx = Effects::new(seat);
        fx.chip = Some(Chip::Placed { at, team });
        if any_sequence(runs) {
            let (made, n) = self.count_sequences(team, at, declare, runs);
            fx.sequences = made;
            fx.new_sequences = n;
            // The last move as a record writes it: with the sequences it
            // made declared (C8a).
            self.last = Some((
                seat,
                Move::Place {
                    card,
                    at,
                    declare: Some(made),
                },
            ));
            if self.seq_count[team.index()] >= self.rules.win {
                self.status = Status::Won(team);
                fx.end = Outcome::Won(team.0);
                return fx;
            }
        } else {
            self.last = Some((seat, Move::Place { card, at, declare }));
        }
        self.draw_len -= 1;
        let c = self.draw[self.draw_len as usize];
        self.hands[seat.index()].push(c, self.rules.card_mask[c.index() & 63]);
        fx.drawn.push(c);
        self.turn = seat.next(self.rules.players, sequence_common::Direction::Clockwise);
        self.dead_done = false;
        fx
    }

    /// [`Game::apply`] of any move (the general path).
    fn apply_any<S: Reshuffler<Card> + ?Sized>(
        &mut self,
        mv: Move,
        r: &mut S,
    ) -> Result<Effects, IllegalMove> {
        let seat = self.turn;
        let team = self.team_of(seat);
        let mut fx = Effects::new(seat);
        let mut written = mv;
        let card = mv.card();
        let needs_draw = card.is_some();
        // A draw follows every move but a pass and a winning placement, and
        // only a draw can need a reshuffle (C7). Whether the move wins is
        // known only after it is made, so on the rare move that finds the
        // draw pile empty the state is kept to restore if the reshuffler
        // refuses: a refusal then changes nothing.
        let before =
            (needs_draw && self.draw_len == 0 && self.rules.reshuffle).then(|| self.clone());
        if let Some(c) = card {
            self.hands[seat.index()].remove(c, self.rules.card_mask[c.index() & 63]);
            self.push_discard(seat, c);
        }
        let mut ends_game = false;
        match mv {
            Move::Place { at, declare, .. } => {
                self.add_chip(team, at);
                fx.chip = Some(Chip::Placed { at, team });
                self.stuck_run = 0;
                let runs = line_runs(&self.lines[team.index() % 3], at, self.rules.len);
                if any_sequence(runs) {
                    let (made, n) = self.count_sequences(team, at, declare, runs);
                    fx.sequences = made;
                    fx.new_sequences = n;
                    // The last move as a record writes it: with the
                    // sequences it made declared (C8a).
                    written = Move::Place {
                        card: mv.card().unwrap_or(Card::JS),
                        at,
                        declare: Some(made),
                    };
                    if self.seq_count[team.index()] >= self.rules.win {
                        self.status = Status::Won(team);
                        fx.end = Outcome::Won(team.0);
                        ends_game = true;
                    }
                }
            }
            Move::Remove { at, .. } => {
                if let Some(team) = self.chip_at(at) {
                    fx.chip = Some(Chip::Removed { at, team });
                }
                self.remove_chip(at);
                self.stuck_run = 0;
                if self.locked.contains(at) {
                    fx.broken = self.break_sequences(at);
                }
            }
            Move::Dead { .. } => {
                self.dead_done = true;
                self.stuck_run = 0;
            }
            Move::Pass | Move::Discard { .. } => {
                if self.dead_done {
                    self.stuck_run = 0;
                } else {
                    self.stuck_run += 1;
                }
                if self.stuck_run >= self.rules.players {
                    self.status = Status::Draw;
                    fx.end = Outcome::Draw;
                    ends_game = true;
                }
            }
        }
        if needs_draw && !ends_game {
            if let Some(before) = before {
                if let Err(e) = self.reshuffle(r) {
                    *self = before;
                    return Err(e);
                }
                fx.reshuffled = true;
            }
            if self.draw_len > 0 {
                self.draw_len -= 1;
                let c = self.draw[self.draw_len as usize];
                self.hands[seat.index()].push(c, self.rules.card_mask[c.index() & 63]);
                fx.drawn.push(c);
            }
        }
        self.ply += 1;
        self.last = Some((seat, written));
        if !ends_game && mv.ends_turn() {
            self.turn = seat.next(self.rules.players, sequence_common::Direction::Clockwise);
            self.dead_done = false;
        }
        Ok(fx)
    }

    /// The discard piles, the card just played included, become the new
    /// draw pile in the reshuffler's order (C7).
    #[cold]
    fn reshuffle<S: Reshuffler<Card> + ?Sized>(&mut self, r: &mut S) -> Result<(), IllegalMove> {
        let n = self.ndiscard as usize;
        let mut pile = self.discards;
        r.reshuffle(&mut pile[..n])?;
        for (i, c) in pile[..n].iter().rev().enumerate() {
            self.draw[i] = *c;
        }
        self.draw_len = n as u8;
        self.ndiscard = 0;
        self.discarded = [0; 2];
        Ok(())
    }

    /// Adds the sequences a placement on `at` made (C8): the declared ones
    /// or the engine's default choice (C8a); returns them. `runs` are the
    /// placement's [`line_runs`]. No allocation. Usually each line through
    /// the chip that holds a sequence is exactly a sequence long, and then
    /// its one window is the choice; longer lines take the general search
    /// of [`Completions`].
    #[cold]
    fn count_sequences(
        &mut self,
        team: Team,
        at: Space,
        declare: Option<Declaration>,
        runs: [u8; 4],
    ) -> (Declaration, u8) {
        let len = self.rules.len;
        let mut ws = [Window {
            start: at,
            dir: Dir::East,
        }; 8];
        let mut n = 0;
        let mut simple = declare.is_none();
        for e in runs {
            simple &= e & 0x80 == 0 || (e & 7) + (e >> 3 & 7) + 1 == len;
        }
        if simple {
            for (d, e) in runs.into_iter().enumerate() {
                if e & 0x80 != 0 {
                    let dir = Dir::ALL[d];
                    let start = Space::from_bit_unchecked(at.bit() - (e & 7) * dir.step());
                    let w = Window { start, dir };
                    if self.may_count(team, w.mask_on_board(len).0) {
                        ws[n] = w;
                        n += 1;
                    }
                }
            }
        } else {
            (ws, n) = self.chosen_windows(team, at, declare);
        }
        let n = n.min(MAX_SEQUENCES - self.nseq as usize);
        for &w in &ws[..n] {
            let mask = w.mask_on_board(len);
            self.seqs[self.nseq as usize] = w;
            self.seq_team[self.nseq as usize] = team.0;
            self.nseq += 1;
            self.locked |= Bitboard(mask.0 & !CORNERS.0);
        }
        self.seq_count[team.index()] += n as u8;
        (Declaration::new(&ws[..n]), n as u8)
    }

    /// The windows a placement on `at` counts when its lines are longer than
    /// a sequence or it declares them (C8a): the declared ones, or the
    /// engine's default choice among every window through `at`.
    #[cold]
    #[inline(never)]
    fn chosen_windows(
        &self,
        team: Team,
        at: Space,
        declare: Option<Declaration>,
    ) -> ([Window; 8], usize) {
        match declare {
            Some(d) => d.window_array(),
            None => {
                let own = self.chips[team.index()] | CORNERS;
                Completions::find_with(own, at, self.rules.len, |m| self.may_count(team, m))
                    .default_windows(self.rules.last_window)
            }
        }
    }

    /// Takes every sequence through `at` off the board's count (a one-eyed
    /// jack under `removable_sequences`, C11); returns their windows, in
    /// the order they were made.
    #[cold]
    fn break_sequences(&mut self, at: Space) -> Declaration {
        let mut k = 0;
        let len = self.rules.len;
        let mut broken = [Window {
            start: at,
            dir: Dir::East,
        }; 8];
        let mut nbroken = 0;
        for i in 0..self.nseq as usize {
            if self.seqs[i].mask_on_board(len).contains(at) {
                self.seq_count[self.seq_team[i] as usize] -= 1;
                if let Some(slot) = broken.get_mut(nbroken) {
                    *slot = self.seqs[i];
                    nbroken += 1;
                }
            } else {
                self.seqs[k] = self.seqs[i];
                self.seq_team[k] = self.seq_team[i];
                k += 1;
            }
        }
        self.nseq = k as u8;
        self.locked =
            (0..k).fold(Bitboard::EMPTY, |b, i| b | self.seqs[i].mask_on_board(len)) & !CORNERS;
        Declaration::new(&broken[..nbroken])
    }
}
