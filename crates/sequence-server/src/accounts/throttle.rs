//! Sign-in delays: failed attempts are counted per client address, per
//! account name, and per account name from one address (table
//! `sign_in_failures`, shared by every instance), and each count makes
//! the next attempt wait longer, doubling from a threshold up to a cap.
//!
//! * per address (`a:ADDRESS`): after 10 failures, 1 s, 2 s, 4 s … up to
//!   15 minutes: one address cannot guess fast, at any account;
//! * per account from one address (`ua:NAME:ADDRESS`): after 5 failures,
//!   the same doubling up to 15 minutes;
//! * per account (`u:NAME`): after 20 failures from any address, 1 s
//!   doubling up to 5 minutes — but only for addresses that have failed
//!   at this account themselves: a flood from one address (or many) never
//!   locks the owner out from another address; their first attempt there
//!   is always heard.
//!
//! A waiting attempt is refused (429 with `Retry-After`) without looking
//! at the password, and does not count. A success forgets the account's
//! counts (`u:` and `ua:`), never the address's. Failures older than a
//! day are forgotten. The answer to a wrong password and to a name no
//! account has is the same, and takes as long (a decoy hash is checked).

/// A day in ms: failures older than this are forgotten.
pub const FORGET_MS: i64 = 24 * 3600 * 1000;

/// One throttle: failures allowed before any delay, and the longest
/// delay in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Failures without delay.
    pub free: i64,
    /// The longest delay, seconds.
    pub cap_s: i64,
}

/// Per client address.
pub const ADDRESS: Rule = Rule {
    free: 10,
    cap_s: 900,
};
/// Per account name from one address.
pub const NAME_AT_ADDRESS: Rule = Rule {
    free: 5,
    cap_s: 900,
};
/// Per account name from every address that has failed at it.
pub const NAME: Rule = Rule {
    free: 20,
    cap_s: 300,
};

impl Rule {
    /// The delay in ms after `failures` failures: 0 up to `free`, then
    /// 1 s doubling per failure, at most `cap_s`.
    pub fn delay_ms(self, failures: i64) -> i64 {
        if failures < self.free {
            return 0;
        }
        let doublings = (failures - self.free).min(30) as u32;
        (1000i64 << doublings).min(self.cap_s * 1000)
    }
}

/// The keys of an attempt at account `name_key` from `address`:
/// `[address, name, name at address]`.
pub fn keys(name_key: &str, address: &str) -> [String; 3] {
    [
        format!("a:{address}"),
        format!("u:{name_key}"),
        format!("ua:{name_key}:{address}"),
    ]
}

/// How long (ms) an attempt must still wait at `now`, given the failures
/// `(count, last ms)` of its three [`keys`] (`None`: none stored).
pub fn wait_ms(now: i64, counts: [Option<(i64, i64)>; 3]) -> i64 {
    let live = |c: Option<(i64, i64)>| c.filter(|&(_, last)| now - last < FORGET_MS);
    let left = |rule: Rule, c: Option<(i64, i64)>| {
        live(c).map_or(0, |(n, last)| (last + rule.delay_ms(n) - now).max(0))
    };
    let [address, name, here] = counts;
    let mut wait = left(ADDRESS, address).max(left(NAME_AT_ADDRESS, here));
    // the account's own delay only for an address that has failed there
    if live(here).is_some() {
        wait = wait.max(left(NAME, name));
    }
    wait
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_from_the_threshold_up_to_the_cap() {
        assert_eq!(ADDRESS.delay_ms(9), 0);
        assert_eq!(ADDRESS.delay_ms(10), 1000);
        assert_eq!(ADDRESS.delay_ms(13), 8000);
        assert_eq!(ADDRESS.delay_ms(10_000), 900_000);
        assert_eq!(NAME.delay_ms(100), 300_000);
    }

    #[test]
    fn a_flooded_account_still_hears_a_new_address() {
        let now = 1_000_000_000;
        // the account failed 10 000 times, just now
        let name = Some((10_000, now - 1));
        // from the flooding address: wait
        assert!(
            wait_ms(
                now,
                [Some((10_000, now - 1)), name, Some((10_000, now - 1))]
            ) > 0
        );
        // from the owner's address, which never failed: heard at once
        assert_eq!(wait_ms(now, [None, name, None]), 0);
        // the owner mistyped once there: the account's delay applies
        assert!(wait_ms(now, [Some((1, now - 1)), name, Some((1, now - 1))]) > 0);
        // failures older than a day are forgotten
        let old = Some((10_000, now - FORGET_MS - 1));
        assert_eq!(wait_ms(now, [old, old, old]), 0);
    }
}
