//! The row-by-row plumbing of [`super::VecCore`]: the output buffers cut
//! into each game's rows, the check of a batch of actions against the
//! masks, one run of steps, and the seeds and draws of the vector.

use super::{Out, Row, Shared, Slot, Tally};
use crate::dynamic::{Failure, FailureKind};
use crate::env::{self, EnvGame};
use rand::RngCore;
use sequence_common::rng::PlayoutRng;
use sequence_common::Seat;

/// The output buffers as one [`Row`] per game.
pub(super) fn rows<'a>(
    out: &'a mut Out<'_>,
    obs_len: usize,
    actions: usize,
    width: usize,
) -> impl Iterator<Item = Row<'a>> {
    // Groups of one game: each slice of `to_act` and `done` has one entry.
    split_out(out, 1, obs_len, actions, width).map(|o| Row {
        obs: o.obs,
        mask: o.mask,
        to_act: &mut o.to_act[0],
        rewards: o.rewards,
        done: &mut o.done[0],
    })
}

/// The move of each game's action, each in the mask its game's caller
/// was given.
///
/// # Errors
/// The first game whose action is not in its mask, naming the game and
/// the engine's reason when it has one.
#[inline(always)]
pub(super) fn check_all<G: EnvGame>(
    slots: &[Slot<G>],
    actions: &[i64],
) -> Result<Vec<(Seat, G::Move)>, Failure> {
    let mut moves = Vec::with_capacity(slots.len());
    for (i, (slot, &a)) in slots.iter().zip(actions).enumerate() {
        let listed = a >= 0 && slot.legal.contains(a as usize);
        let checked = match slot.game.to_act() {
            Some(seat) if listed => slot
                .game
                .move_of(seat, a as usize)
                .map(|m| (seat, m))
                .ok_or_else(|| not_in_mask::<G>(a)),
            // Not in the mask: the engine's reason when it has one.
            _ => Err(env::legal_move_of(&slot.game, a).map_or_else(|e| e, |_| not_in_mask::<G>(a))),
        };
        debug_assert!(checked
            .as_ref()
            .map_or(true, |&(seat, m)| slot.game.check(seat, m).is_ok()));
        match checked {
            Ok(m) => moves.push(m),
            Err(e) => {
                return Err(Failure::new(
                    FailureKind::Action,
                    e.code,
                    format!("game {i}: {e}"),
                ))
            }
        }
    }
    Ok(moves)
}

/// Steps each slot with its checked move and writes its rows of `out`
/// (which holds exactly these slots' rows); returns the results.
pub(super) fn step_run<G: EnvGame>(
    slots: &mut [Slot<G>],
    out: &mut Out<'_>,
    moves: &[(Seat, G::Move)],
    sh: &Shared<'_, G>,
) -> Tally {
    crate::isa::with_v3(
        #[inline(always)]
        || {
            let mut t = Tally {
                wins: vec![0; sh.template.sides() as usize],
                ..Tally::default()
            };
            let rows = rows(out, sh.obs_len, G::ACTIONS, sh.width);
            for ((slot, mut row), &(seat, mv)) in slots.iter_mut().zip(rows).zip(moves) {
                slot.step(sh, seat, mv, &mut row, &mut t);
            }
            t
        },
    )
}

/// Splits `out` into the rows of consecutive groups of `per` games.
pub(super) fn split_out<'a>(
    out: &'a mut Out<'_>,
    per: usize,
    obs_len: usize,
    actions: usize,
    width: usize,
) -> impl Iterator<Item = Out<'a>> {
    let per = per.max(1);
    out.obs
        .chunks_mut(per * obs_len.max(1))
        .zip(out.mask.chunks_mut(per * actions.max(1)))
        .zip(out.to_act.chunks_mut(per))
        .zip(out.rewards.chunks_mut(per * width.max(1)))
        .zip(out.done.chunks_mut(per))
        .map(|((((obs, mask), to_act), rewards), done)| Out {
            obs,
            mask,
            to_act,
            rewards,
            done,
        })
}

/// The refusal of an action the caller's mask does not list.
pub(super) fn not_in_mask<G: EnvGame>(a: i64) -> env::ActionError {
    env::ActionError {
        action: a,
        code: "env.not_legal",
        why: format!("{} is not in the mask", G::action_text(a as usize)),
    }
}

/// A uniformly random number in `0..n` (`n` ≥ 1, below 2³²): Lemire's
/// multiply-and-shift, redrawing the few draws that would favour some
/// numbers, so every number is exactly as likely.
#[inline(always)]
pub(super) fn below(rng: &mut PlayoutRng, n: usize) -> usize {
    let n = n.clamp(1, u32::MAX as usize) as u64;
    let mut m = u64::from(rng.next_u32()) * n;
    if (m as u32 as u64) < n {
        // The draws below 2³² mod n would land on some numbers once more.
        let floor = (1u64 << 32) % n;
        while (m as u32 as u64) < floor {
            m = u64::from(rng.next_u32()) * n;
        }
    }
    (m >> 32) as usize
}

/// The seed of the deals after those of `seed`, for a `reset()` that
/// names none: a fixed sequence, so runs repeat, that does not deal the
/// same games twice.
pub fn next_seed(seed: u64) -> u64 {
    mix(seed ^ 0x5EED_5EED_5EED_5EED)
}

/// SplitMix64 finaliser: per-game seeds from one seed.
pub(super) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
