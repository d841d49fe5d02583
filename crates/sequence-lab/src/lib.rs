//! Bot experiments whose results are in docs/bots.md, apart from the live
//! bots of `sequence-bots` (not published):
//!
//! * [`vsearch`]: the classic tree search with the learned value at the
//!   cut-off and opponent models (`vmcts:…`), and [`vsearch::bot`], every
//!   classic bot by name, the experimental ones included (`tactical`,
//!   `value[:N]`, `vmcts:…`, `rmc:…`);
//! * [`rmc`]: the live flat search with its options by name, and belief
//!   ([`belief`]) over every other seat's moves;
//! * [`value_bot`]: the one-ply value bot;
//! * [`expert`]: expert iteration for the learned policy (self-play by
//!   the search, the policy fitted to its choices);
//! * [`deals`]: duplicate deals for bots built in code (`sequence arena
//!   --duplicate` is the tool for bots by name);
//! * [`line_eval`]: the earlier hand-tuned evaluation;
//! * `examples/`: the studies (training the value, its ceiling, speed,
//!   variants, the cost of hidden cards, jack luck, engine measurements).

pub mod belief;
pub mod deals;
pub mod expert;
pub mod line_eval;
pub mod rmc;
pub mod value_bot;
pub mod vsearch;
