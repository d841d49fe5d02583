//! User names: what a name may be, and the key that makes two names the
//! same (case and confusable characters folded, UTS #39 skeleton).

use unicode_normalization::char::is_combining_mark;
use unicode_security::{skeleton, MixedScript};

/// Fewest characters of a user name.
pub const MIN_NAME: usize = 3;
/// Most characters of a user name.
pub const MAX_NAME: usize = 20;

/// Names no one may take (they would read as the server's own words).
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "deleted",
    "deleted-player",
    "deleted_player",
    "guest",
    "moderator",
    "root",
    "sequence",
    "server",
    "system",
];

/// Checks a user name: 3 to 20 characters, letters and digits of one
/// script (plus `_` and `-`), starting with a letter or digit, not
/// reserved.
///
/// # Errors
/// What is wrong, in words (the message of a 400).
pub fn check_name(name: &str) -> Result<(), String> {
    let n = name.chars().count();
    if !(MIN_NAME..=MAX_NAME).contains(&n) {
        return Err(format!(
            "a user name has {MIN_NAME} to {MAX_NAME} characters, not {n}"
        ));
    }
    if let Some(c) = refused_char(name) {
        return Err(format!(
            "a user name holds letters, digits, `_` and `-` only, not {}",
            describe(c)
        ));
    }
    if !name.chars().next().is_some_and(char::is_alphanumeric) {
        return Err("a user name starts with a letter or a digit".into());
    }
    if !name.is_single_script() {
        return Err(
            "a user name is written in one script (not Latin and Cyrillic mixed, say)".into(),
        );
    }
    let key = name_key(name);
    if RESERVED.iter().any(|r| name_key(r) == key) {
        return Err(format!("the user name `{name}` is reserved"));
    }
    Ok(())
}

/// The first character a user name may not hold: a name holds letters,
/// digits, `_` and `-`, and combining marks (a virama, a vowel sign, an
/// accent) right after a letter, a digit or another mark, as the scripts
/// of Kannada, Devanagari or Georgian write names (the one-script check
/// then refuses a mark of another script).
fn refused_char(name: &str) -> Option<char> {
    let mut after_letter = false;
    for c in name.chars() {
        let letter = c.is_alphanumeric();
        let mark = after_letter && is_combining_mark(c);
        if !(letter || mark || c == '_' || c == '-') {
            return Some(c);
        }
        after_letter = letter || mark;
    }
    None
}

/// A character for a message: itself when printable, else its code.
fn describe(c: char) -> String {
    if c.is_control() || c.is_whitespace() || crate::limits::is_bidi_control(c) {
        format!("U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}

/// The key two names share when they read alike: lower case, then the
/// UTS #39 confusable skeleton (`0` and `o`, `1` and `l`, `rn` and `m`,
/// Cyrillic `а` and Latin `a`), lower case again. Names are unique by it.
pub fn name_key(name: &str) -> String {
    let lower = name.to_lowercase();
    skeleton(&lower).collect::<String>().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        // Kannada with a virama (U+0CCD), the language's own name; Hindi
        // with a virama (U+094D); Latin with a combining accent
        for ok in [
            "ann",
            "Bob_42",
            "zoë-x",
            "مریم",
            "Игорь",
            "12ab",
            "ಕನ್ನಡ",
            "ರಾಮ",
            "लक्ष्मी",
            "zoe\u{301}x",
        ] {
            assert_eq!(check_name(ok), Ok(()), "{ok}");
        }
        let why = |n: &str| check_name(n).unwrap_err();
        assert!(why("ab").contains("3 to 20"));
        assert!(why(&"a".repeat(21)).contains("not 21"));
        assert!(why("an n").contains("U+0020"));
        assert!(why("a\u{202e}bc").contains("U+202E"));
        assert!(why("ab<c").contains("`<`"));
        assert!(why("_abc").contains("starts with"));
        // a combining mark alone, after `_`, or of another script
        assert!(
            why("\u{CCD}abc").contains("not `\u{CCD}`"),
            "{}",
            why("\u{CCD}abc")
        );
        assert!(why("ab_\u{CCD}c").contains("letters, digits"));
        assert!(
            why("ಕನ\u{94D}ನಡ").contains("one script"),
            "{}",
            why("ಕನ\u{94D}ನಡ")
        );
        // Latin a, Cyrillic о
        assert!(why("bоb1").contains("one script"), "{}", why("bоb1"));
        assert!(why("Admin").contains("reserved"));
        assert!(why("GUEST").contains("reserved"));
        assert!(why("deleted_player").contains("reserved"));
    }

    #[test]
    fn names_that_read_alike_share_a_key() {
        let same = [
            ("Alice", "alice"),
            ("ALICE", "alice"),
            ("b0b", "BOB"),
            ("mall", "ma11"),
            ("mary", "rnary"),
            // Cyrillic а, е, о against Latin
            ("аlесо", "aleco"),
        ];
        for (a, b) in same {
            assert_eq!(name_key(a), name_key(b), "{a} / {b}");
        }
        // the example of docs/api.md and docs/accounts.md: an all-Cyrillic
        // look-alike is a valid name and the same name; a mixed one is
        // refused
        assert_eq!(check_name("Асе"), Ok(()));
        assert_eq!(name_key("Асе"), name_key("Ace"));
        assert!(check_name("\u{410}nn").is_err_and(|e| e.contains("one script")));
        assert_ne!(name_key("alice"), name_key("alicia"));
        assert_ne!(name_key("bob"), name_key("rob"));
    }
}
