//! Features of a full (determinized) classic Sequence position, per team,
//! for the learned value ([`super::value`]).
//!
//! Everything is read from the board's live windows ([`Threats`]: windows
//! of the sequence length holding no opponent chip, by spaces missing,
//! C8), the hands of the team's seats (every hand is known in a
//! determinization) and the order of play. A team's features describe it
//! alone; the value model sees them next to its opponents' ([`context`]).

use super::playout::Threats;
use sequence_classic::{Game, Seat, Team, BOARD, CORNERS};

/// Features per team.
pub const FEATURES: usize = 30;

/// Feature names, in order.
pub const NAMES: [&str; FEATURES] = [
    "sequences",
    "one sequence from the win",
    "live windows missing 1",
    "live windows missing 2",
    "live windows missing 3",
    "live windows missing 4",
    "spaces completing a window",
    "spaces making a four",
    "spaces making a three",
    "completing spaces its natural cards reach",
    "four-making spaces its natural cards reach",
    "three-making spaces its natural cards reach",
    "two-eyed jacks held",
    "one-eyed jacks held",
    "can complete a window (card or two-eyed jack)",
    "seats to move before it (share of a round)",
    "moves now",
    "moves now and can complete a window",
    "moves now and can win",
    "opponents' completing spaces its natural cards reach",
    "a one-eyed jack and an opponent four to break",
    "its next seat can complete a window",
    "its next seat can block every opponent four",
    "chips on the board",
    "chips in its sequences",
    "dead cards held",
    "natural cards that fill one of its windows",
    "completing spaces (2 or more)",
    "draw pile left (share of the deck)",
    "one sequence from the win and can complete",
];

/// What is shared by every team's features: the threats and each team's
/// natural reach and jacks.
pub struct Shared {
    /// The board's threats.
    pub th: Threats,
    /// Per team: empty spaces its natural cards reach (all its seats).
    pub natural: [u128; 3],
    /// Per team: two-eyed and one-eyed jacks held (all its seats).
    pub jacks: [(u32, u32); 3],
    /// Per team: dead cards held.
    pub dead: [u32; 3],
    /// Per team: natural cards held that fill one of its live windows
    /// missing 1 to 3.
    pub useful: [u32; 3],
    /// Per team: the seats to move before its next seat does.
    pub wait: [u8; 3],
    /// Per team: what its next seat to move reaches (natural spaces, and
    /// whether it holds a two-eyed / one-eyed jack).
    pub next: [(u128, bool, bool); 3],
}

impl Shared {
    /// Reads `game` (not over).
    pub fn of(game: &Game) -> Shared {
        let th = Threats::of(game);
        let players = game.players();
        let layout = game.layout();
        let empty = BOARD.0 & !game.occupied().0 & !CORNERS.0;
        let mut s = Shared {
            th,
            natural: [0; 3],
            jacks: [(0, 0); 3],
            dead: [0; 3],
            useful: [0; 3],
            wait: [0; 3],
            next: [(0, false, false); 3],
        };
        let turn = game.turn().0;
        let mut seen = [false; 3];
        for k in 0..players {
            let seat = Seat((turn + k) % players);
            let t = game.team_of(seat).index();
            if t >= 3 {
                continue;
            }
            let fills = th.fill[t][0] | th.fill[t][1] | th.fill[t][2];
            let mut nat = 0u128;
            let (mut two, mut one) = (false, false);
            for &c in game.hand(seat) {
                if c.is_two_eyed_jack() {
                    s.jacks[t].0 += 1;
                    two = true;
                } else if c.is_one_eyed_jack() {
                    s.jacks[t].1 += 1;
                    one = true;
                } else {
                    let m = layout.spaces_of(c).0 & empty;
                    if m == 0 {
                        s.dead[t] += 1;
                    }
                    if m & fills != 0 {
                        s.useful[t] += 1;
                    }
                    nat |= m;
                }
            }
            s.natural[t] |= nat;
            if !seen[t] {
                seen[t] = true;
                s.wait[t] = k;
                s.next[t] = (nat, two, one);
            }
        }
        s
    }
}

/// The features of `team` (see [`NAMES`]).
pub fn team_features(game: &Game, sh: &Shared, team: usize) -> [f32; FEATURES] {
    let th = &sh.th;
    let teams = game.teams().min(3) as usize;
    let t = Team(team as u8);
    let seqs = game.sequence_count(t);
    let one_away = seqs + 1 >= game.win_sequences();
    let nat = sh.natural[team];
    let (two, one) = sh.jacks[team];
    let fill = th.fill[team];
    let can_complete = fill[0] != 0 && (fill[0] & nat != 0 || two > 0);
    let (next_nat, next_two, next_one) = sh.next[team];
    let next_complete = fill[0] != 0 && (fill[0] & next_nat != 0 || next_two);
    let moves_now = sh.wait[team] == 0;
    let mut opp_fill = 0u128;
    let mut opp_four_chips = 0u128;
    for u in (0..teams).filter(|&u| u != team) {
        opp_fill |= th.fill[u][0];
        opp_four_chips |= th.four_chips[u];
    }
    // Its next seat blocks every opponent four: a natural card on each
    // completing space, or a jack that places or removes.
    let next_blocks = opp_fill == 0
        || opp_fill & !next_nat == 0
        || next_two
        || (next_one && opp_four_chips != 0 && opp_fill.count_ones() <= 1);
    let chips = game.chips(t).0;
    let locked = game.locked().0 & chips;
    [
        seqs as f32,
        one_away as u8 as f32,
        (th.windows[team][0] as f32).min(12.0),
        (th.windows[team][1] as f32).min(30.0),
        (th.windows[team][2] as f32).min(60.0),
        (th.windows[team][3] as f32).min(100.0),
        (fill[0].count_ones() as f32).min(8.0),
        (fill[1].count_ones() as f32).min(20.0),
        (fill[2].count_ones() as f32).min(40.0),
        (fill[0] & nat).count_ones() as f32,
        (fill[1] & nat).count_ones() as f32,
        (fill[2] & nat).count_ones() as f32,
        two as f32,
        one as f32,
        can_complete as u8 as f32,
        sh.wait[team] as f32 / game.players() as f32,
        moves_now as u8 as f32,
        (moves_now && can_complete) as u8 as f32,
        (moves_now && can_complete && one_away) as u8 as f32,
        (opp_fill & nat).count_ones() as f32,
        (one > 0 && opp_four_chips != 0) as u8 as f32,
        next_complete as u8 as f32,
        next_blocks as u8 as f32,
        chips.count_ones() as f32 / 10.0,
        locked.count_ones() as f32 / 5.0,
        sh.dead[team] as f32,
        sh.useful[team] as f32,
        (fill[0].count_ones() >= 2) as u8 as f32,
        game.draw_pile_len() as f32 / 104.0,
        (one_away && can_complete) as u8 as f32,
    ]
}

/// The features of every team of `game` (not over), team by team.
pub fn all_features(game: &Game) -> ([[f32; FEATURES]; 3], usize) {
    let sh = Shared::of(game);
    let teams = game.teams().min(3) as usize;
    let mut out = [[0f32; FEATURES]; 3];
    for (t, o) in out.iter_mut().enumerate().take(teams) {
        *o = team_features(game, &sh, t);
    }
    (out, teams)
}

/// The opponents of `team` seen together: per feature the largest value
/// among them (with 2 teams, the other team's features).
pub fn context(f: &[[f32; FEATURES]; 3], teams: usize, team: usize) -> [f32; FEATURES] {
    let mut c = [f32::MIN; FEATURES];
    for (u, fu) in f.iter().enumerate().take(teams) {
        if u == team {
            continue;
        }
        for (x, y) in c.iter_mut().zip(fu) {
            *x = x.max(*y);
        }
    }
    if teams < 2 {
        c = [0.0; FEATURES];
    }
    c
}
