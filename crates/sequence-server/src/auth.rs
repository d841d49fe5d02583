//! Seat tokens: 128 random bits shown once as 32 hex characters, stored
//! only as their SHA-256.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// A fresh token (32 lowercase hex characters, 128 bits from the OS
/// generator) and the hash to store.
pub fn new_token() -> (String, [u8; 32]) {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let hash = hash(&token);
    (token, hash)
}

/// SHA-256 of a token's text.
pub fn hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Compares two hashes without an early exit.
pub fn same(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The token of an `Authorization: Bearer TOKEN` header value, if well
/// formed (32 hex characters). The scheme is matched in any case
/// (`bearer`, `BEARER`: RFC 9110 §11.1).
pub fn bearer(header: Option<&str>) -> Option<&str> {
    bearer_token(header).ok()
}

/// How a request names its seat, for messages.
pub const USE_BEARER: &str = "use `Authorization: Bearer <seat token>`";

/// The message for a token that is not 32 hex characters.
pub const MALFORMED: &str =
    "malformed token: a seat token is 32 hex characters (0-9, a-f), as the server gave it";

/// The token of an `Authorization` header's text (`None`: no header),
/// or why there is none, in words: no header, another scheme than
/// `Bearer` (named), no token after it, or a token that is not 32 hex
/// characters.
///
/// # Errors
/// The message for a 401.
pub fn bearer_token(header: Option<&str>) -> Result<&str, String> {
    let Some(h) = header else {
        return Err(format!("missing token: {USE_BEARER}"));
    };
    let h = h.trim();
    let (scheme, rest) = h.split_once([' ', '\t']).unwrap_or((h, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        let shown = if scheme.is_empty() {
            "the Authorization header is empty".to_string()
        } else if well_formed(scheme) {
            "the Authorization header holds a token without its scheme".to_string()
        } else {
            format!(
                "the Authorization header uses the scheme `{}`",
                crate::limits::echo(scheme)
            )
        };
        return Err(format!("{shown}: {USE_BEARER}"));
    }
    let t = rest.trim();
    if t.is_empty() {
        return Err(format!("no token after `Bearer`: {USE_BEARER}"));
    }
    if well_formed(t) {
        Ok(t)
    } else {
        Err(MALFORMED.to_string())
    }
}

/// The seat token a request gave, read but not yet matched to a seat:
/// none, a well-formed token, or why what was given is not one. The HTTP
/// layer reads it from the `Authorization` header, the WebSocket from its
/// `hello`; [`crate::tables::Core::seat_of_token`] finds its seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatToken {
    /// No token was given (a spectator, where that is allowed).
    Missing,
    /// A well-formed token.
    Given(String),
    /// What was given is not a token: why, in words.
    Refused(String),
}

impl SeatToken {
    /// The token of an `Authorization` header's text (see
    /// [`bearer_token`]).
    pub fn from_header(text: &str) -> SeatToken {
        match bearer_token(Some(text)) {
            Ok(t) => SeatToken::Given(t.to_string()),
            Err(why) => SeatToken::Refused(why),
        }
    }

    /// An `Authorization` header that is not readable text.
    pub fn unreadable_header() -> SeatToken {
        SeatToken::Refused(format!(
            "the Authorization header is not readable text: {USE_BEARER}"
        ))
    }

    /// The token of a WebSocket `hello` (`None`: a spectator).
    pub fn from_hello(token: Option<&str>) -> SeatToken {
        match token {
            None => SeatToken::Missing,
            Some(t) if well_formed(t) => SeatToken::Given(t.to_string()),
            Some(_) => SeatToken::Refused(MALFORMED.to_string()),
        }
    }

    /// Whether no token was given.
    pub fn is_missing(&self) -> bool {
        *self == SeatToken::Missing
    }

    /// The token, or why there is none (the message of a 401).
    ///
    /// # Errors
    /// The message: a missing token says what to send.
    pub fn token(&self) -> Result<&str, String> {
        match self {
            SeatToken::Given(t) => Ok(t),
            SeatToken::Missing => Err(format!("missing token: {USE_BEARER}")),
            SeatToken::Refused(why) => Err(why.clone()),
        }
    }
}

/// Whether `t` looks like a token (32 lowercase hex characters).
pub fn well_formed(t: &str) -> bool {
    t.len() == 32
        && t.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A new table id: 16 lowercase hex characters (64 random bits).
pub fn new_table_id() -> String {
    let mut bytes = [0u8; 8];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// Whether `id` looks like a table id.
pub fn table_id_ok(id: &str) -> bool {
    id.len() == 16
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bit_hex_and_hash_stably() {
        let (t, h) = new_token();
        assert!(well_formed(&t));
        assert_eq!(hash(&t), h);
        let (t2, h2) = new_token();
        assert_ne!(t, t2);
        assert!(!same(&h, &h2));
        assert!(same(&h, &hash(&t)));
        assert_eq!(bearer(Some(&format!("Bearer {t}"))), Some(t.as_str()));
        assert_eq!(bearer(Some("Bearer xyz")), None);
        assert_eq!(bearer(None), None);
        // the scheme is case-insensitive (fresh-tester report: `bearer` got 401)
        for scheme in ["bearer", "BEARER", "BeArEr"] {
            assert_eq!(bearer(Some(&format!("{scheme} {t}"))), Some(t.as_str()));
        }
        assert_eq!(bearer(Some(&format!("Basic {t}"))), None);
        assert_eq!(bearer(Some(&format!("Bearer{t}"))), None);
    }

    /// Fresh-tester report: `Basic abc` got "malformed token".
    #[test]
    fn refusals_say_what_to_send() {
        let (t, _) = new_token();
        assert_eq!(bearer_token(Some(&format!("bearer {t}"))), Ok(t.as_str()));
        let err = |h: &str| bearer_token(Some(h)).unwrap_err();
        assert_eq!(
            err("Basic abc"),
            "the Authorization header uses the scheme `Basic`: use `Authorization: Bearer <seat token>`"
        );
        assert!(err(&t).contains("without its scheme"), "{}", err(&t));
        assert!(err("").contains("is empty"));
        assert!(err("Bearer").starts_with("no token after `Bearer`"));
        assert!(err("Bearer xyz").contains("32 hex characters"));
        assert!(bearer_token(None).unwrap_err().starts_with("missing token"));
    }

    #[test]
    fn seat_tokens_say_why_they_are_not_tokens() {
        let (t, _) = new_token();
        assert_eq!(
            SeatToken::from_header(&format!("Bearer {t}")).token(),
            Ok(t.as_str())
        );
        assert_eq!(SeatToken::from_hello(Some(&t)).token(), Ok(t.as_str()));
        assert!(SeatToken::from_hello(None).is_missing());
        assert!(SeatToken::Missing
            .token()
            .unwrap_err()
            .starts_with("missing token"));
        assert_eq!(
            SeatToken::from_hello(Some("xyz")).token(),
            Err(MALFORMED.to_string())
        );
        assert!(SeatToken::from_header("Basic abc")
            .token()
            .unwrap_err()
            .contains("scheme `Basic`"));
        assert!(SeatToken::unreadable_header()
            .token()
            .unwrap_err()
            .contains("not readable text"));
    }
}
