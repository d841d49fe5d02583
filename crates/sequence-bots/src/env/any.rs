//! The environment encodings of a live game of either kind behind one
//! type: [`AnyEnv`], an [`AnyGame`] with its action space, mask and
//! observation, implemented once for [`Match<G>`] of every registered
//! game ([`EnvGame`]); and what reads a game's view or move back without
//! naming the game ([`view_from_json`], [`determinize`],
//! [`move_fields`]). The Python package holds its games as
//! `Box<dyn AnyEnv>`.

use super::{action_mask, legal_move_of, reward, ActionError, EnvGame, MoveFields, ObsPart};
use crate::games::{with_game, ForGame};
use sequence_common::record::Match;
use sequence_common::rng::game_rng;
use sequence_common::trail::Origin;
use sequence_common::{any_view_at, AnyGame, AnyMove, AnyView, GameKind, Seat, SeatView};
use serde_json::Value;
use std::sync::Arc;

/// A live game of either kind ([`AnyGame`]) as an environment for
/// learning agents: [`Match<G>`] of a game with [`EnvGame`].
pub trait AnyEnv: AnyGame {
    /// A copy (the same generator state: the copy reshuffles as the
    /// original would).
    fn clone_env(&self) -> Box<dyn AnyEnv>;
    /// Actions in the action space ([`EnvGame::ACTIONS`]).
    fn actions(&self) -> usize;
    /// The observation's parts.
    fn obs_layout(&self) -> Vec<ObsPart>;
    /// The observation's length.
    fn obs_len(&self) -> usize;
    /// Each observation entry's largest value.
    fn obs_high(&self) -> Vec<u8>;
    /// What `seat` (at the table) may see, encoded into `out` (of length
    /// [`AnyEnv::obs_len`]).
    fn observe(&self, seat: Seat, out: &mut [u8]);
    /// The mask of the seat to act into `out` (all zeros once over); the
    /// number of legal actions.
    fn action_mask(&self, out: &mut [u8]) -> usize;
    /// The action index of `mv` by `seat`; `None` for another game's move.
    fn action_of(&self, seat: Seat, mv: &AnyMove) -> Option<usize>;
    /// The legal move of the seat to act an action stands for, and the
    /// seat.
    ///
    /// # Errors
    /// Outside the mask ([`legal_move_of`]).
    fn move_of_action(&self, action: i64) -> Result<(Seat, AnyMove), ActionError>;
    /// Makes the legal move an action stands for.
    ///
    /// # Errors
    /// Outside the mask; nothing changes then.
    fn play_action(&mut self, action: i64) -> Result<(), ActionError>;
    /// What an action index means ([`EnvGame::action_text`]).
    fn action_text(&self, action: usize) -> String;
    /// The public state as text ([`EnvGame::render`]).
    fn render(&self) -> String;
    /// +1 / −1 / 0 for `seat` (its side won, lost, or neither).
    fn reward(&self, seat: Seat) -> f32;
}

impl Clone for Box<dyn AnyEnv> {
    fn clone(&self) -> Self {
        self.clone_env()
    }
}

impl<G: EnvGame> AnyEnv for Match<G> {
    fn clone_env(&self) -> Box<dyn AnyEnv> {
        Box::new(self.clone())
    }

    fn actions(&self) -> usize {
        G::ACTIONS
    }

    fn obs_layout(&self) -> Vec<ObsPart> {
        G::obs_layout(self.game().config())
    }

    fn obs_len(&self) -> usize {
        G::obs_len(self.game().config())
    }

    fn obs_high(&self) -> Vec<u8> {
        G::obs_high(self.game().config())
    }

    fn observe(&self, seat: Seat, out: &mut [u8]) {
        self.game().observe(seat, out);
    }

    fn action_mask(&self, out: &mut [u8]) -> usize {
        action_mask(self.game(), out)
    }

    fn action_of(&self, seat: Seat, mv: &AnyMove) -> Option<usize> {
        Some(self.game().action_of(seat, &mv.get::<G>()?))
    }

    fn move_of_action(&self, action: i64) -> Result<(Seat, AnyMove), ActionError> {
        let (seat, m) = legal_move_of(self.game(), action)?;
        Ok((seat, at::<G>(m, self.game().config())))
    }

    fn play_action(&mut self, action: i64) -> Result<(), ActionError> {
        let (seat, m) = legal_move_of(self.game(), action)?;
        self.play(seat, m).map(|_| ()).map_err(|e| ActionError {
            action,
            code: sequence_common::RuleError::code(&e),
            why: e.to_string(),
        })
    }

    fn action_text(&self, action: usize) -> String {
        G::action_text(action)
    }

    fn render(&self) -> String {
        self.game().render()
    }

    fn reward(&self, seat: Seat) -> f32 {
        reward(self.game(), seat)
    }
}

/// A move of `G` at the table `config`.
fn at<G: EnvGame>(m: G::Move, config: &G::Config) -> AnyMove {
    AnyMove::at::<G>(m, Arc::new(config.clone()))
}

/// A move's parts by name ([`EnvGame::move_fields`]; empty for a move
/// made at no known table).
pub fn move_fields(mv: &AnyMove) -> MoveFields {
    struct Fields<'a>(&'a AnyMove);
    impl ForGame for Fields<'_> {
        type Out = MoveFields;
        fn call<G: EnvGame>(self) -> MoveFields {
            match (self.0.get::<G>(), self.0.table::<G>()) {
                (Some(m), Some(c)) => G::move_fields(&m, c),
                _ => MoveFields::default(),
            }
        }
    }
    with_game(mv.kind(), Fields(mv))
}

/// The view a seat's JSON (`view.to_json()`) describes, of game `kind`,
/// with its table ([`EnvGame::view_from_json`]).
///
/// # Errors
/// A message naming the field that is missing or wrong.
pub fn view_from_json(kind: GameKind, v: &Value) -> Result<Box<dyn AnyView>, String> {
    struct Read<'a>(&'a Value);
    impl ForGame for Read<'_> {
        type Out = Result<Box<dyn AnyView>, String>;
        fn call<G: EnvGame>(self) -> Self::Out {
            let (view, config) = G::view_from_json(self.0)?;
            Ok(any_view_at(view, Arc::new(config)))
        }
    }
    with_game(kind, Read(v))
}

/// Why a view does not determinize.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the view does not add up to the game's cards")]
pub struct Inconsistent;

/// A whole game consistent with `view` ([`SeatView::determinize`]), the
/// unseen cards dealt from ChaCha8 seeded with `seed`; it reshuffles from
/// the same seed and keeps no record. A game whose views read back
/// ([`EnvGame::VIEW_READS_BACK`]) keeps the view and the seed as its
/// trail's origin, so that it can be rebuilt.
///
/// # Errors
/// A view that does not add up (never for a view an engine made).
pub fn determinize(view: &dyn AnyView, seed: u64) -> Result<Box<dyn AnyEnv>, Inconsistent> {
    struct Deal<'a>(&'a dyn AnyView, u64);
    impl ForGame for Deal<'_> {
        type Out = Result<Box<dyn AnyEnv>, Inconsistent>;
        fn call<G: EnvGame>(self) -> Self::Out {
            let Deal(view, seed) = self;
            let v = view
                .as_any()
                .downcast_ref::<G::View>()
                .ok_or(Inconsistent)?;
            let g = v.determinize(&mut game_rng(seed)).ok_or(Inconsistent)?;
            if G::VIEW_READS_BACK {
                let origin = Origin::View {
                    view: v.to_json(),
                    seed,
                };
                return Ok(Box::new(Match::with_origin(g, seed, origin)));
            }
            Ok(Box::new(Match::unrecorded(g, seed)))
        }
    }
    with_game(view.kind(), Deal(view, seed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_common::TableConfig;

    #[test]
    fn a_determinized_stacks_view_keeps_its_origin_and_a_classic_one_none() {
        for kind in GameKind::ALL {
            struct New;
            impl ForGame for New {
                type Out = Box<dyn AnyEnv>;
                fn call<G: EnvGame>(self) -> Self::Out {
                    let config = G::table(2, None, Default::default()).expect("a table");
                    assert_eq!(config.players(), 2);
                    Box::new(Match::<G>::new(config, 7))
                }
            }
            let g = with_game(kind, New);
            let view = g.view(g.to_act());
            let d = determinize(view.as_ref(), 3).expect("adds up");
            assert_eq!(d.kind(), kind);
            assert_eq!(d.ply(), g.ply());
            assert!(d.record_json().is_none(), "{kind}: no record");
            let reads_back = kind == GameKind::Stacks;
            assert_eq!(d.trail_json().is_some(), reads_back, "{kind}");
            // the moves of a view from a game carry the table: they write
            // their record entries
            let seat = g.to_act().expect("someone acts");
            assert!(view.legal_moves().iter().all(|m| m.entry(seat).is_some()));
        }
    }
}
