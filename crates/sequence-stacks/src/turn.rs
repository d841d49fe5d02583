//! A turn of Sequence Stacks: the legal decisions (S3–S5), checking one
//! and making it: piles and their completion (S3), action cards and the
//! Block window (S5, S5b), the draws (S4, S4a), the reshuffle (S6, S6a), the
//! win (S7) and the draw (S6a).

use crate::card::{Card, Colour, Place, KINDS};
use crate::effects::{Effects, Report, Unreported, WindowClosed};
use crate::game::{meets_win, BlockOffer, Game, Status, HAND_SIZE};
use crate::moves::{Decision, PlayError, Source};
use crate::options::{BlockWindow, Refill, ReshuffleActions};
use crate::rules::outcome;
use sequence_common::{MoveSink, Reshuffler, Seat};

impl Game {
    // ----- legal decisions -------------------------------------------------

    /// The legal decisions of the seat that must decide ([`Game::to_act`]),
    /// written into `out` (cleared first). Empty once the game ended.
    #[inline]
    pub fn legal_moves<S: MoveSink<Decision> + ?Sized>(&self, out: &mut S) {
        self.list_decisions(out, true);
    }

    /// Lists the legal decisions, the discards only if `with_discards`;
    /// returns the hand mask of the seat whose turn it is (0 in a window).
    #[inline]
    pub(crate) fn list_decisions<S: MoveSink<Decision> + ?Sized>(
        &self,
        out: &mut S,
        with_discards: bool,
    ) -> u32 {
        out.clear();
        if self.status != Status::Playing {
            return 0;
        }
        if let Some(w) = self.window {
            out.push(Decision::Pass);
            if self.hand_mask[w.offered.index()] & (1 << Card::Block.index()) != 0 {
                out.push(Decision::Block);
            }
            return 0;
        }
        let s = self.turn;
        let mask = self.hand_mask[s.index()];
        let ppc = self.config.options.piles_per_colour;
        for colour in Colour::ALL {
            let base = colour.index() * 6;
            let wild = mask & (1 << (base + 5)) != 0;
            for slot in 0..ppc {
                let p = Place::new(colour, slot);
                let n = self.pile_len[p.index()] as usize;
                out.push_if(
                    mask & (1 << (base + n)) != 0,
                    Decision::Pile {
                        card: Card::from_index(base + n),
                        from: Source::Hand,
                        place: p,
                    },
                );
                out.push_if(
                    wild,
                    Decision::Pile {
                        card: Card::from_index(base + 5),
                        from: Source::Hand,
                        place: p,
                    },
                );
            }
        }
        if let Some(top) = self.discard_top(s) {
            if let Some(colour) = top.colour() {
                for slot in 0..ppc {
                    let p = Place::new(colour, slot);
                    if self.fits(top, p) {
                        out.push(Decision::Pile {
                            card: top,
                            from: Source::Discard,
                            place: p,
                        });
                    }
                }
            } else {
                self.push_actions(top, Source::Discard, out);
            }
        }
        let mut acts = mask & (0b1111 << 12);
        while acts != 0 {
            let k = acts.trailing_zeros() as usize;
            acts &= acts - 1;
            self.push_actions(Card::from_index(k), Source::Hand, out);
        }
        if with_discards {
            let mut m = mask;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                out.push(Decision::Discard {
                    card: Card::from_index(k),
                });
            }
        }
        if mask == 0 {
            out.push(Decision::End);
        }
        mask
    }

    #[inline]
    fn push_actions<S: MoveSink<Decision> + ?Sized>(&self, k: Card, from: Source, out: &mut S) {
        let s = self.turn;
        match k {
            Card::Skip => out.push(Decision::Skip { from }),
            Card::Reverse => out.push(Decision::Reverse { from }),
            Card::StealCard => {
                for t in 0..self.config.players {
                    out.push_if(
                        (t != s.0) & (self.discard_len[t as usize] > 0),
                        Decision::StealCard {
                            from,
                            target: Seat(t),
                        },
                    );
                }
            }
            Card::StealChip => {
                let ok = [
                    self.steal_chip_allowed(s, Colour::Blue),
                    self.steal_chip_allowed(s, Colour::Red),
                ];
                for t in 0..self.config.players {
                    let c = self.chips[t as usize];
                    let other = t != s.0;
                    out.push_if(
                        other & ok[0] & (c[0] > 0),
                        Decision::StealChip {
                            from,
                            target: Seat(t),
                            colour: Colour::Blue,
                        },
                    );
                    out.push_if(
                        other & ok[1] & (c[1] > 0),
                        Decision::StealChip {
                            from,
                            target: Seat(t),
                            colour: Colour::Red,
                        },
                    );
                }
            }
            _ => {}
        }
    }

    /// Whether `card` may go onto the pile at `place` now (S3): same colour,
    /// one higher than the top (1 on a free place), a wild standing for that
    /// number.
    #[inline]
    pub fn fits(&self, card: Card, place: Place) -> bool {
        if place.slot() >= self.config.options.piles_per_colour
            || card.colour() != Some(place.colour())
        {
            return false;
        }
        let n = self.pile_len[place.index()];
        n < 5 && (card.is_wild() || card.number() == Some(n + 1))
    }

    // ----- playing ---------------------------------------------------------

    /// Plays `decision` for `seat`, drawing as the rules say (S4) and asking
    /// `reshuffler` for the order of any new draw pile (S6): [`Game::check`]
    /// followed by [`Game::apply`]; what it did. On error nothing changes.
    ///
    /// # Errors
    /// [`PlayError`] naming the rule, or [`PlayError::Reshuffle`] when the
    /// reshuffler refused.
    pub fn play<S: Reshuffler<Card> + ?Sized>(
        &mut self,
        seat: Seat,
        decision: Decision,
        reshuffler: &mut S,
    ) -> Result<Effects, PlayError> {
        self.check(seat, decision)?;
        // A draw can only need a reshuffle when fewer cards are left than a
        // hand takes; keep the state to restore if the reshuffler refuses.
        let before = (self.draw_len < HAND_SIZE).then(|| self.clone());
        let r = self.apply(seat, decision, reshuffler);
        if let (Err(_), Some(before)) = (&r, before) {
            *self = before;
        }
        r
    }

    /// Whether `seat` may make `decision` now: `Ok` exactly for the
    /// decisions [`Game::legal_moves`] lists for [`Game::to_act`].
    ///
    /// # Errors
    /// [`PlayError`] naming the rule (S3–S7).
    pub fn check(&self, seat: Seat, decision: Decision) -> Result<(), PlayError> {
        if self.status != Status::Playing {
            return Err(PlayError::GameOver);
        }
        if seat.0 >= self.config.players {
            return Err(PlayError::NoSuchSeat(seat.0));
        }
        if let Some(w) = self.window {
            return match decision {
                Decision::Block if seat == w.completer => Err(PlayError::OwnBlock),
                Decision::Block | Decision::Pass if seat != w.offered => {
                    Err(PlayError::NotOffered(seat.0))
                }
                Decision::Block if self.hands[seat.index()][Card::Block.index()] == 0 => {
                    Err(PlayError::NotInHand(Card::Block))
                }
                Decision::Block | Decision::Pass => Ok(()),
                _ => Err(PlayError::WindowOpen {
                    offered: w.offered.0,
                }),
            };
        }
        match decision {
            Decision::Block => return Err(PlayError::NoCompletion),
            Decision::Pass => return Err(PlayError::NoWindow),
            _ => {}
        }
        if seat != self.turn {
            return Err(PlayError::NotYourTurn(seat.0));
        }
        match decision {
            Decision::Pile { card, from, place } => {
                self.check_source(seat, card, from)?;
                if card.is_action() {
                    return Err(PlayError::NotAPileCard(card));
                }
                if place.slot() >= self.config.options.piles_per_colour {
                    return Err(PlayError::NoSuchPlace(
                        place,
                        self.config.options.piles_per_colour,
                    ));
                }
                if !self.fits(card, place) {
                    return Err(PlayError::DoesNotFit(card, place));
                }
            }
            Decision::Skip { from } => self.check_source(seat, Card::Skip, from)?,
            Decision::Reverse { from } => self.check_source(seat, Card::Reverse, from)?,
            Decision::StealCard { from, target } => {
                self.check_source(seat, Card::StealCard, from)?;
                self.check_target(seat, target)?;
                if self.discard_len[target.index()] == 0 {
                    return Err(PlayError::NothingToSteal(target.0));
                }
            }
            Decision::StealChip {
                from,
                target,
                colour,
            } => {
                self.check_source(seat, Card::StealChip, from)?;
                self.check_target(seat, target)?;
                if self.chips[target.index()][colour.index()] == 0 {
                    return Err(PlayError::NoSuchChip);
                }
                if !self.steal_chip_allowed(seat, colour) {
                    return Err(PlayError::StealChipWins);
                }
            }
            Decision::Discard { card } => {
                if self.hands[seat.index()][card.index()] == 0 {
                    return Err(PlayError::NotInHand(card));
                }
            }
            Decision::End => {
                if self.hand_len[seat.index()] != 0 {
                    return Err(PlayError::HandNotEmpty);
                }
            }
            Decision::Block | Decision::Pass => {}
        }
        Ok(())
    }

    /// Applies a decision already known to be legal (listed by
    /// [`Game::legal_moves`] or accepted by [`Game::check`]) without checking
    /// it again, and says what it did: the fast path of playouts. An
    /// illegal decision here leaves the game inconsistent (it may panic in
    /// debug builds).
    ///
    /// # Errors
    /// Only [`PlayError::Reshuffle`]; the game must then be dropped (or use
    /// [`Game::play`], which restores it).
    #[inline]
    pub fn apply<S: Reshuffler<Card> + ?Sized>(
        &mut self,
        seat: Seat,
        decision: Decision,
        reshuffler: &mut S,
    ) -> Result<Effects, PlayError> {
        let mut fx = Effects::new(seat);
        self.apply_into(seat, decision, reshuffler, &mut fx)?;
        fx.end = outcome(self.status);
        Ok(fx)
    }

    /// [`Game::apply`] without saying what the decision did: the fast
    /// path of playouts, which drop the effects (no work is done for
    /// them).
    ///
    /// # Errors
    /// As [`Game::apply`].
    #[inline]
    pub fn apply_unreported<S: Reshuffler<Card> + ?Sized>(
        &mut self,
        seat: Seat,
        decision: Decision,
        reshuffler: &mut S,
    ) -> Result<(), PlayError> {
        self.apply_into(seat, decision, reshuffler, &mut Unreported)
    }

    /// [`Game::apply`], writing what the decision did into `fx`.
    fn apply_into<S: Reshuffler<Card> + ?Sized, F: Report>(
        &mut self,
        seat: Seat,
        decision: Decision,
        reshuffler: &mut S,
        fx: &mut F,
    ) -> Result<(), PlayError> {
        debug_assert_eq!(self.check(seat, decision), Ok(()));
        self.ply += 1;
        self.last = Some((seat, decision));
        match decision {
            Decision::Block => {
                self.take_from_hand(seat, Card::Block);
                self.onto_action_pile(Card::Block);
                self.close_window(Some(seat), reshuffler, fx)
            }
            Decision::Pass => {
                let Some(mut w) = self.window else {
                    return Ok(());
                };
                if w.remaining <= 1 {
                    self.close_window(None, reshuffler, fx)
                } else {
                    w.remaining -= 1;
                    w.offered = w.offered.next(self.config.players, self.direction);
                    self.window = Some(w);
                    Ok(())
                }
            }
            Decision::Pile { card, from, place } => {
                self.take(seat, card, from);
                let p = place.index();
                self.piles[p][self.pile_len[p] as usize] = card;
                self.pile_len[p] += 1;
                self.pile_played = true;
                if self.pile_len[p] == 5 {
                    for &c in &self.piles[p] {
                        self.completed[c.index()] += 1;
                    }
                    self.completed_len += 5;
                    self.pile_len[p] = 0;
                    let remaining = match self.config.options.block_window {
                        BlockWindow::AllOpponents => self.config.players - 1,
                        BlockWindow::NextPlayer => 1,
                    };
                    let offer = BlockOffer {
                        completer: seat,
                        offered: seat.next(self.config.players, self.direction),
                        remaining,
                        colour: place.colour(),
                        from_hand: from == Source::Hand,
                    };
                    self.window = Some(offer);
                    fx.completed(place, offer);
                    return Ok(());
                }
                self.after_play(from, reshuffler, fx)
            }
            Decision::Skip { from } => {
                self.take(seat, Card::Skip, from);
                self.onto_action_pile(Card::Skip);
                self.skips = self.skips.saturating_add(1);
                self.after_play(from, reshuffler, fx)
            }
            Decision::Reverse { from } => {
                self.take(seat, Card::Reverse, from);
                self.onto_action_pile(Card::Reverse);
                self.direction = self.direction.reversed();
                self.after_play(from, reshuffler, fx)
            }
            Decision::StealCard { from, target } => {
                self.take(seat, Card::StealCard, from);
                self.onto_action_pile(Card::StealCard);
                let t = target.index();
                self.discard_len[t] -= 1;
                let c = self.discards[t][self.discard_len[t] as usize];
                self.give(seat, c);
                self.known[seat.index()][c.index()] += 1;
                fx.took(target, c);
                self.after_play(from, reshuffler, fx)
            }
            Decision::StealChip {
                from,
                target,
                colour,
            } => {
                self.take(seat, Card::StealChip, from);
                self.onto_action_pile(Card::StealChip);
                self.chips[target.index()][colour.index()] -= 1;
                self.chips[seat.index()][colour.index()] += 1;
                fx.stole_chip(target, colour);
                if meets_win(self.chips[seat.index()]) {
                    self.status = Status::Won(seat);
                    return Ok(());
                }
                self.after_play(from, reshuffler, fx)
            }
            Decision::Discard { card } => {
                self.take_from_hand(seat, card);
                let s = seat.index();
                self.discards[s][self.discard_len[s] as usize] = card;
                self.discard_len[s] += 1;
                self.end_turn(reshuffler, fx)
            }
            Decision::End => self.end_turn(reshuffler, fx),
        }
    }

    #[inline]
    fn check_source(&self, seat: Seat, card: Card, from: Source) -> Result<(), PlayError> {
        match from {
            Source::Hand => {
                if self.hands[seat.index()][card.index()] == 0 {
                    return Err(PlayError::NotInHand(card));
                }
            }
            Source::Discard => {
                if self.discard_top(seat) != Some(card) {
                    return Err(PlayError::NotOnDiscardTop(card));
                }
            }
        }
        Ok(())
    }

    #[inline]
    fn check_target(&self, seat: Seat, target: Seat) -> Result<(), PlayError> {
        if target.0 >= self.config.players {
            return Err(PlayError::NoSuchSeat(target.0));
        }
        if target == seat {
            return Err(PlayError::StealFromSelf);
        }
        Ok(())
    }

    #[inline]
    fn take_from_hand(&mut self, seat: Seat, card: Card) {
        let s = seat.index();
        self.hands[s][card.index()] -= 1;
        self.hand_len[s] -= 1;
        let kn = &mut self.known[s][card.index()];
        *kn = kn.saturating_sub(1);
        if self.hands[s][card.index()] == 0 {
            self.hand_mask[s] &= !(1 << card.index());
        }
    }

    #[inline]
    fn take(&mut self, seat: Seat, card: Card, from: Source) {
        match from {
            Source::Hand => self.take_from_hand(seat, card),
            Source::Discard => self.discard_len[seat.index()] -= 1,
        }
    }

    #[inline]
    fn onto_action_pile(&mut self, card: Card) {
        self.actions[card.index() - 12] += 1;
        self.actions_len += 1;
    }

    /// S4 step 3: a hand emptied by a play during the turn draws 5 more.
    #[inline]
    fn after_play<S: Reshuffler<Card> + ?Sized, F: Report>(
        &mut self,
        from: Source,
        reshuffler: &mut S,
        fx: &mut F,
    ) -> Result<(), PlayError> {
        if from == Source::Hand && self.hand_len[self.turn.index()] == 0 {
            self.draw_up_to(self.turn, HAND_SIZE, reshuffler, fx)?;
        }
        Ok(())
    }

    /// Closes the Block window (S5b): blocked by `blocked_by`, or else the
    /// completer takes a chip of the pile's colour from the supply (if it
    /// has one), which may win (S7) or leave nothing to win (S7's draw).
    fn close_window<S: Reshuffler<Card> + ?Sized, F: Report>(
        &mut self,
        blocked_by: Option<Seat>,
        reshuffler: &mut S,
        fx: &mut F,
    ) -> Result<(), PlayError> {
        let Some(w) = self.window.take() else {
            return Ok(());
        };
        fx.closed(WindowClosed {
            completer: w.completer,
            colour: w.colour,
            blocked_by,
            chip: None,
        });
        if blocked_by.is_none() {
            let c = w.colour.index();
            if self.supply[c] > 0 {
                self.supply[c] -= 1;
                self.chips[w.completer.index()][c] += 1;
                fx.chip_taken(w.colour);
                if meets_win(self.chips[w.completer.index()]) {
                    self.status = Status::Won(w.completer);
                    return Ok(());
                }
                if self.supply == [0, 0]
                    && self.config.options.dead_game_draw
                    && !self.config.options.steal_chip_can_win
                {
                    self.status = Status::Draw;
                    return Ok(());
                }
            }
        }
        self.after_play(
            if w.from_hand {
                Source::Hand
            } else {
                Source::Discard
            },
            reshuffler,
            fx,
        )
    }

    /// Nothing can be drawn: the draw pile is empty and a reshuffle would
    /// find no card (S6, S6a).
    pub fn nothing_to_draw(&self) -> bool {
        self.draw_len == 0
            && self.completed_len == 0
            && (self.actions_len == 0
                || self.config.options.reshuffle_actions == ReshuffleActions::Never)
    }

    fn end_turn<S: Reshuffler<Card> + ?Sized, F: Report>(
        &mut self,
        reshuffler: &mut S,
        fx: &mut F,
    ) -> Result<(), PlayError> {
        if self.config.options.refill == Refill::TurnEnd {
            self.draw_up_to(self.turn, HAND_SIZE, reshuffler, fx)?;
        }
        if !self.pile_played && self.nothing_to_draw() {
            self.quiet_turns += 1;
            if self.quiet_turns >= self.config.players {
                self.status = Status::Draw;
                return Ok(());
            }
        } else {
            self.quiet_turns = 0;
        }
        let steps = if self.skips == 0 {
            1
        } else {
            1 + (self.skips as u16 % self.config.players as u16) as u8
        };
        self.skips = 0;
        for _ in 0..steps {
            self.turn = self.turn.next(self.config.players, self.direction);
        }
        self.pile_played = false;
        if self.config.options.refill == Refill::TurnStart {
            self.draw_up_to(self.turn, HAND_SIZE, reshuffler, fx)?;
        }
        Ok(())
    }

    #[inline]
    fn draw_up_to<S: Reshuffler<Card> + ?Sized, F: Report>(
        &mut self,
        seat: Seat,
        n: u8,
        reshuffler: &mut S,
        fx: &mut F,
    ) -> Result<(), PlayError> {
        let s = seat.index();
        fx.drawer(seat);
        loop {
            let need = n.saturating_sub(self.hand_len[s]);
            if need == 0 {
                return Ok(());
            }
            if self.draw_len == 0 {
                self.reshuffle(reshuffler, fx)?;
                if self.draw_len == 0 {
                    return Ok(());
                }
            }
            let k = need.min(self.draw_len);
            let top = self.draw_len as usize;
            let mut mask = self.hand_mask[s];
            let hand = &mut self.hands[s];
            for &c in self.draw[top - k as usize..top].iter() {
                hand[c.index()] += 1;
                mask |= 1 << c.index();
                fx.drew(c);
            }
            self.hand_mask[s] = mask;
            self.hand_len[s] += k;
            self.draw_len -= k;
        }
    }

    /// The cards a reshuffle would take now, per kind (S6, S6a).
    pub fn reshuffle_content(&self) -> [u8; KINDS] {
        let mut c = [0u8; KINDS];
        let completed = self.completed_len > 0;
        let actions = match self.config.options.reshuffle_actions {
            ReshuffleActions::WhenNoCompleted => !completed,
            ReshuffleActions::Always => true,
            ReshuffleActions::Never => false,
        };
        if completed {
            c[..12].copy_from_slice(&self.completed);
        }
        if actions {
            c[12..].copy_from_slice(&self.actions);
        }
        c
    }

    fn reshuffle<S: Reshuffler<Card> + ?Sized, F: Report>(
        &mut self,
        reshuffler: &mut S,
        fx: &mut F,
    ) -> Result<(), PlayError> {
        let content = self.reshuffle_content();
        // The cards in kind order, straight into the (empty) draw pile's
        // array: the reshuffler orders them top first, and the pile keeps
        // its top last.
        let mut n = 0;
        for k in Card::ALL {
            let c = content[k.index()] as usize;
            self.draw[n..n + c].fill(k);
            n += c;
        }
        if n == 0 {
            return Ok(());
        }
        reshuffler
            .reshuffle(&mut self.draw[..n])
            .map_err(PlayError::Reshuffle)?;
        for (have, take) in self.completed.iter_mut().zip(&content[..12]) {
            self.completed_len -= take;
            *have -= take;
        }
        for (have, take) in self.actions.iter_mut().zip(&content[12..]) {
            self.actions_len -= take;
            *have -= take;
        }
        self.draw[..n].reverse();
        self.draw_len = n as u8;
        self.reshuffles = self.reshuffles.saturating_add(1);
        fx.reshuffled();
        Ok(())
    }
}
