//! [`forward_rules!`](crate::forward_rules): an engine's [`Rules`](crate::Rules)
//! methods that only call its inherent methods of the same name, written
//! once for every engine; [`rules_types!`](crate::rules_types): the
//! associated types every engine names alike; and [`serde_as_text!`](crate::serde_as_text) for
//! the engines' cards and places.

/// Expands, inside an `impl Rules for Game` block, the [`Rules`](crate::Rules)
/// methods that call the engine's inherent methods of the same name and
/// signature: `fresh_deal`, `config`, `players`, `dealer`, `to_act`,
/// `outcome`, `legal_moves`, `random_move`, `move_key`, `check` and
/// `playout`; and those of the optional ones named in the call:
/// `is_over`, `ply`, `last_move`, `apply`, `play`, `view`,
/// `spectator_view` (e.g. `forward_rules!(apply, play)`).
///
/// The engine must have each of those as an inherent method (an inherent
/// associated item wins over the trait's in `Self::name` paths); a missing
/// one would make the trait method call itself, which the
/// `unconditional_recursion` lint reports.
#[macro_export]
macro_rules! forward_rules {
    (@is_over) => {
        #[inline]
        fn is_over(&self) -> bool {
            Self::is_over(self)
        }
    };
    (@ply) => {
        fn ply(&self) -> u32 {
            Self::ply(self)
        }
    };
    (@last_move) => {
        fn last_move(&self) -> Option<($crate::Seat, Self::Move)> {
            Self::last_move(self)
        }
    };
    (@apply) => {
        $crate::forward_rules!(@move apply #[inline]);
    };
    (@play) => {
        $crate::forward_rules!(@move play);
    };
    (@move $name:ident $(#[$attr:meta])*) => {
        $(#[$attr])*
        fn $name<S: $crate::Reshuffler<Self::Card> + ?Sized>(
            &mut self,
            seat: $crate::Seat,
            mv: Self::Move,
            reshuffler: &mut S,
        ) -> Result<Self::Effects, Self::Error> {
            Self::$name(self, seat, mv, reshuffler)
        }
    };
    (@view) => {
        fn view(&self, seat: $crate::Seat) -> Self::View {
            Self::view(self, seat)
        }
    };
    (@spectator_view) => {
        fn spectator_view(&self) -> Self::View {
            Self::spectator_view(self)
        }
    };
    ($($optional:ident),* $(,)?) => {
        fn fresh_deal<R: $crate::__rand::Rng + ?Sized>(&self, rng: &mut R) -> Self {
            Self::fresh_deal(self, rng)
        }

        fn config(&self) -> &Self::Config {
            Self::config(self)
        }

        #[inline]
        fn players(&self) -> u8 {
            Self::players(self)
        }

        fn dealer(&self) -> $crate::Seat {
            Self::dealer(self)
        }

        #[inline]
        fn to_act(&self) -> Option<$crate::Seat> {
            Self::to_act(self)
        }

        #[inline]
        fn outcome(&self) -> $crate::Outcome {
            Self::outcome(self)
        }

        #[inline]
        fn legal_moves<S: $crate::MoveSink<Self::Move> + ?Sized>(&self, out: &mut S) {
            Self::legal_moves(self, out)
        }

        #[inline]
        fn random_move<R: $crate::__rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Move> {
            Self::random_move(self, rng)
        }

        #[inline]
        fn move_key(mv: &Self::Move) -> usize {
            Self::move_key(mv)
        }

        fn check(&self, seat: $crate::Seat, mv: Self::Move) -> Result<(), Self::Error> {
            Self::check(self, seat, mv)
        }

        fn playout<R: $crate::__rand::Rng + ?Sized>(&mut self, rng: &mut R, max_moves: u32) -> u32 {
            Self::playout(self, rng, max_moves)
        }

        $($crate::forward_rules!(@$optional);)*
    };
}

/// Expands, inside an `impl Rules for Game` block, the associated items of
/// [`Rules`](crate::Rules) every engine names alike, written once: `KIND`
/// (the [`GameKind`](crate::GameKind) variant given), `MOVE_KEYS` (the
/// engine's inherent `Game::MOVE_KEYS`), and the types `Card`, `Options`,
/// `Config`, `SetupError` (C3, S1), `View` and `Effects` as the engine's
/// `Card`, `Options`, `Config`, `SetupError`, `SeatView` and `Effects` in
/// scope; the move and its refusal are given by name (e.g.
/// `rules_types!(Stacks, move: Decision, error: PlayError)`).
#[macro_export]
macro_rules! rules_types {
    ($kind:ident, move: $mv:ty, error: $error:ty $(,)?) => {
        const KIND: $crate::GameKind = $crate::GameKind::$kind;
        const MOVE_KEYS: usize = Game::MOVE_KEYS;
        type Card = Card;
        type Move = $mv;
        type Options = Options;
        type Config = Config;
        type SetupError = SetupError;
        type Error = $error;
        type View = SeatView;
        type Effects = Effects;
    };
}

/// Serializes `$t` as its text ([`std::fmt::Display`]) and reads it back with
/// [`std::str::FromStr`] (a bad code is a serde error with the parse error's text):
/// cards, spaces and places are codes in records (RECORD.md,
/// RECORD-STACKS.md).
#[macro_export]
macro_rules! serde_as_text {
    ($t:ty) => {
        impl $crate::__serde::Serialize for $t {
            fn serialize<S: $crate::__serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> $crate::__serde::Deserialize<'de> for $t {
            fn deserialize<D: $crate::__serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let s = <String as $crate::__serde::Deserialize>::deserialize(d)?;
                s.parse().map_err($crate::__serde::de::Error::custom)
            }
        }
    };
}
