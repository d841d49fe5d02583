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
    let (scheme, rest) = header?.trim_start().split_once([' ', '\t'])?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let t = rest.trim();
    well_formed(t).then_some(t)
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
}
