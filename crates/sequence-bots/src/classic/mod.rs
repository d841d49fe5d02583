//! Bots for classic Sequence: the heuristic ([`heuristic`]), the greedy bot
//! ([`GreedyBot`]), the live search bot ([`FlatBot`]: flat root Monte Carlo
//! with inference, a playout policy and the learned value), the tree
//! search that is off by default ([`TreeBot`], `search:…:tree`);
//! [`sequence_classic::Game`] implements [`BotGame`] here. The random and
//! program bots are those of every game ([`crate::RandomBot`],
//! [`crate::protocol`]).

pub mod eval;
pub mod features;
pub mod flat;
pub mod greedy;
pub mod heuristic;
pub mod inference;
pub mod obvious;
pub mod playout;
pub mod policy;
pub mod tree;
pub mod value;

pub use crate::config::{DEFAULT_CUTOFF, HINT_ROOT_MOVES, ROOT_MOVES};
pub use flat::FlatBot;
pub use greedy::{greedy_choice, GreedyBot};
pub use heuristic::{
    best_declaration, greedy_scores, lines, score_moves, with_declaration, Heuristic, Lines,
    PlaceScorer,
};
pub use obvious::{obvious_move, winning_placement};
pub use tree::{tree_search, ClassicState, TreeBot};
pub use value::outcome;

use crate::bot::{Bot, BotGame};
use crate::config::SearchConfig;
use crate::config::SearchSpec;
use crate::search::{Budget, SearchReport};
use crate::shell::ShellBot;
use heuristic::board_game;
use sequence_classic::{Card, Game, Move, SeatView};
use sequence_common::rng::{game_rng, GameRng};
use serde_json::Value;

impl BotGame for Game {
    fn penalty_choice(view: &SeatView, seed: u64) -> Option<Card> {
        // a dead card costs nothing; else any card but a jack, at random
        let hand = view.hand();
        if let Some(&c) = hand.iter().find(|c| view.is_dead(**c)) {
            return Some(c);
        }
        let plain: Vec<_> = hand.iter().copied().filter(|c| !c.is_jack()).collect();
        let pool = if plain.is_empty() {
            hand.to_vec()
        } else {
            plain
        };
        let mut rng = game_rng(seed);
        rand::seq::IndexedRandom::choose(pool.as_slice(), &mut rng).copied()
    }

    fn find_puzzles(first_seed: u64, found: &mut dyn FnMut(&'static str, u8, Value, u64) -> bool) {
        use crate::puzzles::classic::{self_play, to_json};
        self_play(first_seed, |k, s, seed, at| {
            found(s.kind, s.grade, to_json("", k, s, seed, at), seed)
        });
    }

    fn greedy_choice(view: &SeatView, moves: &[Move], rng: &mut GameRng) -> Move {
        let game = board_game(view, rng);
        greedy::greedy_choice(&game, moves, rng)
    }

    fn search_bot(name: String, seed: u64, search: &SearchSpec) -> Box<dyn Bot<Game>> {
        let mut search = *search;
        search.config = search.settings();
        if search.config.classic.flat {
            let opts = flat::FlatOptions::from(&search.config.classic);
            let bot = FlatBot::new(search.budget, opts);
            return Box::new(ShellBot::new(name, seed, bot));
        }
        Box::new(ShellBot::new(name, seed, TreeBot::new(search)))
    }

    fn analyse(view: &SeatView, seed: u64, search: &SearchSpec) -> Option<SearchReport<Move>> {
        let config = search.settings();
        let mut report = analyse(view, search.budget, search.trees, seed, &config);
        // Placements declare as the bot would (C8a); the board is public,
        // so any determinization serves.
        let game = view.determinize(&mut game_rng(seed));
        for m in &mut report.moves {
            m.0 = with_declaration(&game, m.0);
        }
        Some(report)
    }
}

/// Searches the view's position as the bot does (the flat search of
/// [`flat`] or the tree of [`tree`], as `config` says) but over at
/// least the [`HINT_ROOT_MOVES`] moves the heuristic ranks highest: per move, visits
/// and the estimated chance of the view's team to win (for `sequence
/// hint`). The view must be on its seat's turn.
pub fn analyse(
    view: &SeatView,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
    config: &SearchConfig,
) -> SearchReport<Move> {
    let mut cfg = *config;
    cfg.classic.root_moves = cfg.classic.root_moves.max(HINT_ROOT_MOVES);
    let evidence = inference::Evidence::of_view(view, &cfg.classic);
    let mut report = if cfg.classic.flat {
        let mut opts = flat::FlatOptions::from(&cfg.classic);
        if opts.candidates > 0 {
            opts.candidates = opts.candidates.max(HINT_ROOT_MOVES);
        }
        flat::search(view, &opts, budget, seed, &evidence)
    } else {
        tree::search_view(view, budget, trees, seed, &cfg, &evidence)
    };
    // A placement that wins at once comes first: a free dead-card exchange
    // (C6) before it wins as surely in the search's eyes, but a later win
    // is no better and only the immediate one is certain.
    let game = board_game(view, &mut game_rng(seed));
    if let Some(w) = winning_placement(&game, &view.legal_moves()) {
        if let Some(i) = report.moves.iter().position(|m| m.0 == w) {
            let entry = report.moves.remove(i);
            report.moves.insert(0, entry);
        }
    }
    report
}

/// Positions for the classic bots' tests.
#[cfg(test)]
mod testing {
    use sequence_classic::{Card, Config, Game, Position, Seat, Space, Team};

    /// The space named `s` (`"f2"`).
    pub fn sp(s: &str) -> Space {
        s.parse().expect("space")
    }

    /// The cards of `codes` (`"7H"`).
    pub fn cards(codes: &[&str]) -> Vec<Card> {
        codes.iter().map(|c| c.parse().expect("card")).collect()
    }

    /// C8: blue's four b2–e2 (the gaps a2 and f2 make a sequence).
    pub fn blue_four() -> Vec<(Team, Space)> {
        ["b2", "c2", "d2", "e2"]
            .iter()
            .map(|s| (Team(0), sp(s)))
            .collect()
    }

    /// A hand of the card of the gap f2 of [`blue_four`] and six cards
    /// that are neither jacks nor the cards of its gaps f2 and a2.
    pub fn gap_hand(cfg: &Config) -> Vec<Card> {
        let layout = cfg.layout();
        let f2 = layout.card_at(sp("f2")).expect("not a corner");
        let a2 = layout.card_at(sp("a2")).expect("not a corner");
        let mut hand = vec![f2];
        hand.extend(
            Card::all()
                .filter(|c| !c.is_jack() && *c != f2 && *c != a2)
                .take(6),
        );
        hand
    }

    /// A game of the table `cfg` at `chips` (no sequences, no discards),
    /// seat `i` holding `hands[i]`, `turn` to move.
    pub fn game_at(
        cfg: &Config,
        chips: Vec<(Team, Space)>,
        hands: Vec<Vec<Card>>,
        turn: Seat,
    ) -> Game {
        let pos = Position {
            chips,
            sequences: vec![],
            hands,
            discards: vec![],
            draw_pile: None,
            turn,
        };
        Game::from_position(cfg.clone(), &pos).expect("position")
    }
}

#[cfg(test)]
mod tests {
    use super::heuristic::{greedy_scores, score_moves};
    use super::tree::root_candidates;
    use super::*;
    use sequence_classic::{Card, Config, Options, Seat};
    use sequence_classic::{Game, Move, Space, Team};
    use sequence_common::rng::game_rng;

    use super::testing::{cards, sp};

    /// A game of `players` at `chips` with these hands, seat 0 to move.
    fn game_at(players: u8, chips: Vec<(Team, Space)>, hands: Vec<Vec<Card>>) -> Game {
        let cfg = Config::new(players, None, Options::default()).expect("config");
        super::testing::game_at(&cfg, chips, hands, Seat(0))
    }

    /// Row 3 reads `7C AS 2D 3D 4D 5D 6D 7D 9H QS` (C2). Blue holds c3, d3,
    /// e3 and g3; the opponent chip on f3 is the only one in c3–g3; `others`
    /// hold b3 and h3. Blue to move holds a one-eyed jack and the 5♦ that
    /// fills f3.
    fn reopen_position(players: u8, others: [Team; 3]) -> Game {
        let mut chips: Vec<(Team, Space)> = ["c3", "d3", "e3", "g3"]
            .iter()
            .map(|s| (Team(0), sp(s)))
            .collect();
        chips.extend(
            others
                .iter()
                .zip(["f3", "b3", "h3"])
                .map(|(&t, s)| (t, sp(s))),
        );
        let mut hands = vec![
            cards(&["JS", "5D", "2S", "3S", "4S", "6S"]),
            cards(&["2H", "3H", "4H", "5H", "6H", "7H"]),
            cards(&["2C", "3C", "4C", "5C", "6C", "7C"]),
        ];
        hands.truncate(players as usize);
        if players == 2 {
            hands[0].push("8S".parse().expect("card"));
            hands[1].push("8H".parse().expect("card"));
        }
        game_at(players, chips, hands)
    }

    /// The search's playout policy and root ordering race as greedy does
    /// with 3 teams (C9): the policy clears the last space of its four
    /// with the one-eyed jack (but for its share of random moves), and the
    /// root candidates hold that removal first.
    #[test]
    fn with_three_teams_the_search_races_like_greedy() {
        let game = reopen_position(3, [Team(1), Team(2), Team(2)]);
        let clears = (0..40u64)
            .filter(|&seed| {
                let mut rng = sequence_common::rng::playout_rng(seed);
                matches!(playout::tactical_move(&game, &mut rng), Move::Remove { at, .. } if at == sp("f3"))
            })
            .count();
        assert!(clears >= 32, "the policy cleared f3 {clears} times of 40");
        let view = game.view(Seat(0));
        let root = root_candidates(&view, 1, ROOT_MOVES);
        assert!(
            matches!(root.first(), Some(Move::Remove { at, .. }) if *at == sp("f3")),
            "root candidates {root:?}"
        );
    }

    #[test]
    fn with_three_teams_greedy_clears_the_last_space_of_its_four() {
        // C9: with 3 teams one sequence wins; removing f3 (C6, one-eyed
        // jack) leaves c3–g3 lacking only f3, which the 5♦ fills next turn.
        let game = reopen_position(3, [Team(1), Team(2), Team(2)]);
        let moves = game.view(Seat(0)).legal_moves();
        let mut rng = game_rng(3);
        let mv = greedy_choice(&game, &moves, &mut rng);
        assert!(
            matches!(mv, Move::Remove { at, .. } if at == sp("f3")),
            "greedy played {mv:?}"
        );
        // With 2 teams (two sequences win) the heuristic alone decides:
        // clearing f3 is worth little there.
        let game = reopen_position(2, [Team(1); 3]);
        let moves = game.view(Seat(0)).legal_moves();
        let mv = greedy_choice(&game, &moves, &mut rng);
        assert!(!matches!(mv, Move::Remove { .. }), "greedy played {mv:?}");
    }

    #[test]
    fn with_three_teams_greedy_keeps_a_two_eyed_jack_unless_it_decides() {
        // Blue holds b2, c2 and d2 and a two-eyed jack (C6): the jack on a2
        // or e2 makes a four, which the shared heuristic pays it for; with
        // 3 teams greedy keeps it to win or block a four (C9).
        let chips = ["b2", "c2", "d2"]
            .iter()
            .map(|s| (Team(0), sp(s)))
            .collect();
        let hands = vec![
            cards(&["JD", "2S", "3S", "4S", "6S", "7S"]),
            cards(&["2H", "3H", "4H", "5H", "6H", "7H"]),
            cards(&["2C", "3C", "4C", "5C", "6C", "7C"]),
        ];
        let game = game_at(3, chips, hands);
        let moves = game.view(Seat(0)).legal_moves();
        let before = score_moves(&game, &moves);
        let after = greedy_scores(&game, &moves);
        let best = |v: &[f64]| {
            (0..v.len())
                .max_by(|&a, &b| v[a].total_cmp(&v[b]))
                .map(|i| moves[i])
                .expect("moves")
        };
        assert!(
            matches!(best(&before), Move::Place { card, .. } if card.is_jack()),
            "the shared heuristic spends the wild: {:?}",
            best(&before)
        );
        assert!(
            matches!(best(&after), Move::Place { card, .. } if !card.is_jack()),
            "greedy keeps it: {:?}",
            best(&after)
        );
    }
}
