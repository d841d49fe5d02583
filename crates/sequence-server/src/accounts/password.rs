//! Passwords: what one may be, and their Argon2id hashes (the `argon2`
//! crate, PHC strings with their own salt and cost, so that a later cost
//! applies to new hashes while old ones still verify).
//!
//! The cost is OWASP's first Argon2id setting: 19 MiB of memory, 2
//! passes, 1 lane ([`params`]). Its CPU per attempt is measured by
//! `cargo bench -p sequence-server --bench sign_in` (docs/accounts.md):
//! under the 50 ms the server may spend. Safe because the memory makes
//! each guess as costly on a GPU as here, and guesses at the server are
//! slowed per address and per account ([`super::throttle`]); at most
//! [`HASHING_AT_ONCE`] hashes run at once (19 MiB each), so a flood of
//! sign-ins cannot take the server's memory.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::sync::OnceLock;
use tokio::sync::Semaphore;

/// Fewest characters of a password.
pub const MIN_PASSWORD: usize = 8;
/// Most bytes of a password.
pub const MAX_PASSWORD: usize = 1024;
/// Argon2id memory in KiB (19 MiB).
pub const M_COST: u32 = 19 * 1024;
/// Argon2id passes.
pub const T_COST: u32 = 2;
/// Argon2id lanes.
pub const P_COST: u32 = 1;
/// Hashes computed at once; more wait their turn.
pub const HASHING_AT_ONCE: usize = 4;

/// The Argon2id cost of new hashes.
pub fn params() -> Params {
    // the constants are within argon2's bounds
    Params::new(M_COST, T_COST, P_COST, None).unwrap_or_default()
}

fn hasher() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params())
}

/// Checks a new password: 8 characters to 1024 bytes, not the user name.
///
/// # Errors
/// What is wrong, in words (never the password itself).
pub fn check_password(password: &str, name: &str) -> Result<(), String> {
    if password.chars().count() < MIN_PASSWORD {
        return Err(format!("a password has at least {MIN_PASSWORD} characters"));
    }
    if password.len() > MAX_PASSWORD {
        return Err(format!("a password has at most {MAX_PASSWORD} bytes"));
    }
    if password.to_lowercase() == name.to_lowercase() {
        return Err("a password is not the user name".into());
    }
    Ok(())
}

/// The Argon2id hash (PHC string) of `password` with a fresh salt
/// (blocking: tens of milliseconds; see [`hash_async`]).
///
/// # Errors
/// The hasher's error, in words.
pub fn hash(password: &str) -> Result<String, String> {
    let mut bytes = [0u8; 16];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut bytes);
    let salt = SaltString::encode_b64(&bytes).map_err(|e| format!("cannot make a salt: {e}"))?;
    hasher()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash the password: {e}"))
}

/// Whether `password` matches the PHC string `stored` (blocking). A
/// stored string that cannot be read matches nothing.
pub fn verify(password: &str, stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    hasher()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok()
}

/// A hash of a random password, checked when no account has the name
/// asked for, so that "no such user" takes as long as "wrong password".
pub fn decoy() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        let (random, _) = crate::auth::new_token();
        hash(&random).unwrap_or_default()
    })
}

fn hashing() -> &'static Semaphore {
    static AT_ONCE: OnceLock<Semaphore> = OnceLock::new();
    AT_ONCE.get_or_init(|| Semaphore::new(HASHING_AT_ONCE))
}

/// [`hash`] on a blocking thread, at most [`HASHING_AT_ONCE`] at once.
///
/// # Errors
/// As [`hash`].
pub async fn hash_async(password: String) -> Result<String, String> {
    let _turn = hashing().acquire().await.map_err(|e| e.to_string())?;
    tokio::task::spawn_blocking(move || hash(&password))
        .await
        .map_err(|e| e.to_string())?
}

/// [`verify`] on a blocking thread, at most [`HASHING_AT_ONCE`] at once;
/// `stored` `None` checks [`decoy`] and answers `false`.
pub async fn verify_async(password: String, stored: Option<String>) -> bool {
    let Ok(_turn) = hashing().acquire().await else {
        return false;
    };
    tokio::task::spawn_blocking(move || match stored {
        Some(s) => verify(&password, &s),
        None => {
            verify(&password, decoy());
            false
        }
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_salted_and_verify() {
        let a = hash("correct horse").expect("hash");
        let b = hash("correct horse").expect("hash");
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(verify("correct horse", &a));
        assert!(!verify("correct horsE", &a));
        assert!(!verify("correct horse", "not a hash"));
        assert!(!verify("x", decoy()));
    }

    #[test]
    fn passwords_are_checked_without_echoing_them() {
        assert_eq!(check_password("long enough", "ann"), Ok(()));
        let short = check_password("s3cret", "ann").unwrap_err();
        assert!(short.contains("at least 8") && !short.contains("s3cret"));
        assert!(check_password(&"x".repeat(1025), "ann").is_err());
        assert!(check_password("Annabelle", "annabelle").is_err());
    }
}
