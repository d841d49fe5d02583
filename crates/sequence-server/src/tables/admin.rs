//! What the operators change at a table (`sequence admin`,
//! [`crate::routes::admin`]): closing it, renaming the person at a seat.

use super::core::conflict;
use super::{Core, SeatKind, Status, TableError};

/// The longest reason a close keeps (characters).
pub const MAX_REASON: usize = 300;

impl Core {
    /// [`super::Event::Close`]: the table takes nothing more (no move, no
    /// seat, no rematch); an unfinished game stays unfinished (its record
    /// is never published: hands and the draw pile stay hidden).
    pub(super) fn close(&mut self, reason: &str) {
        self.closed = Some(reason.chars().take(MAX_REASON).collect());
        self.status = Status::Closed;
        let now = self.now();
        if let Some(t) = self.times.last_mut() {
            if t.1.is_none() {
                t.1 = now;
            }
        }
    }

    /// [`super::Event::Rename`]: the person at `seat` is called `name`
    /// from now on (their seat, token and games stay theirs).
    ///
    /// # Errors
    /// [`TableError::NotFound`] for a seat the table does not have,
    /// [`TableError::Conflict`] for a seat no person holds or held.
    pub(super) fn rename(&mut self, seat: u8, name: &str) -> Result<(), TableError> {
        let s = self.seat_mut(seat)?;
        if !matches!(s.kind, SeatKind::Human | SeatKind::Left) {
            return Err(conflict(format!(
                "seat {seat} is not a person's: only a person's name can be changed"
            )));
        }
        s.name = Some(name.to_string());
        Ok(())
    }
}
