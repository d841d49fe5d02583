//! Accounts, optional: a person may sign up with a user name and a
//! password and sign in from any browser; guests and seat tokens work as
//! before. The HTTP routes are [`crate::routes::account`]
//! (docs/api.md "Accounts"); storage is [`crate::db`] (migration 0002).
//!
//! * [`names`]: what a user name may be, and the key that makes names
//!   unique (case and confusables folded);
//! * [`password`]: Argon2id hashes and their cost;
//! * [`session`]: session cookies, the CSRF token, the extractors of the
//!   signed-in account;
//! * [`throttle`]: the delays of failed sign-ins;
//! * [`passkeys`]: passkeys (WebAuthn), a second way to sign in
//!   (migration 0004).
//!
//! A seat taken while signed in belongs to the account (table
//! `seat_owners`, by the seat token's hash); a guest who signs up later
//! claims their seats and finished games with the seat tokens their
//! browser kept (`POST /api/account/claim`). Passwords are never logged
//! nor echoed in a message.

pub mod names;
pub mod passkeys;
pub mod password;
pub mod session;
pub mod throttle;

pub use names::{check_name, name_key};
pub use session::{Account, Session, Signed};

/// The name shown for a deleted account.
pub const DELETED_NAME: &str = "deleted player";
