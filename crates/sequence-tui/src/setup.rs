//! The table a terminal game starts with: game, players, teams, which seats
//! are people and which are bots, seed and rule options; and the start
//! screen where it is chosen.

use crate::game::{entry, rules};
use anyhow::{bail, Context};
use sequence_common::GameKind;

/// Who plays a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A person at the keyboard (hot seat).
    Human,
    /// A bot of this level, 1 (beginner) to 5 (very strong).
    Bot(u8),
}

/// Everything needed to deal a new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The game.
    pub game: GameKind,
    /// Players at the table (C3 / S1).
    pub players: u8,
    /// Classic teams (C3); `None` = the default for the player count.
    pub teams: Option<u8>,
    /// Who plays each seat, seat 0 first.
    pub seats: Vec<SeatKind>,
    /// Seed of the deal (ChaCha8).
    pub seed: u64,
    /// Rule options as JSON text (the record's `options` object).
    pub options: Option<String>,
}

/// Parses `--bots 3,3` into levels.
///
/// # Errors
/// An empty list or entry, or a level that is not a number 1–5 (`level:3`
/// and `L3` are accepted too).
pub fn parse_bots(text: &str) -> anyhow::Result<Vec<u8>> {
    if text.trim().is_empty() {
        bail!("--bots is empty: give one level (1 to 5) per bot seat, e.g. --bots 3,3");
    }
    let mut out = vec![];
    for (i, part) in text.split(',').map(str::trim).enumerate() {
        if part.is_empty() {
            bail!("--bots {text:?}: entry {} is empty (levels are separated by single commas, e.g. 3,3)", i + 1);
        }
        let digits = part
            .trim_start_matches("level:")
            .trim_start_matches(['L', 'l']);
        let level: u8 = digits.parse().map_err(|_| {
            anyhow::anyhow!(
                "--bots: {part:?} is not a bot level: `play` takes levels 1 (beginner) to 5 (very strong), e.g. --bots 3,5"
            )
        })?;
        if !(1..=5).contains(&level) {
            bail!("--bots: level {level} is out of range (1 to 5)");
        }
        out.push(level);
    }
    Ok(out)
}

/// The allowed values as words: `2, 3, 4, 6, 8, 9, 10 or 12`.
pub fn readable_list(values: &[u8]) -> String {
    match values {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(u8::to_string).collect();
            format!("{} or {last}", rest.join(", "))
        }
    }
}

/// Who plays each of `players` seats: the people first, then one bot per
/// level of `bots`, then level-1 bots for the seats left. `humans` (from
/// `--humans`) defaults to the seats `bots` leaves when `bots_given`, or 1.
///
/// # Errors
/// More bot levels than seats; more people than seats; people and bots
/// that add up to more than the table; a `--bots` list that fills every
/// seat although `--humans 0` was not given (nobody would play).
pub fn seats_for(
    players: u8,
    humans: Option<u8>,
    bots: &[u8],
    bots_given: bool,
) -> anyhow::Result<Vec<SeatKind>> {
    let n = players as usize;
    if bots.len() > n {
        bail!(
            "--bots lists {} bots for {players} players (one level per bot seat)",
            bots.len()
        );
    }
    let h = match humans {
        Some(h) => h as usize,
        None if bots_given => n - bots.len(),
        None => 1,
    };
    if h > n {
        bail!("--humans {h} is more than the {players} players");
    }
    if h + bots.len() > n {
        bail!(
            "--humans {h} and --bots ({} levels) make {} seats for {players} players",
            bots.len(),
            h + bots.len()
        );
    }
    if h == 0 && humans.is_none() {
        bail!(
            "--bots gives all {players} seats to bots and leaves none to a person: \
             list one level fewer, or add --humans 0 to watch bots play each other"
        );
    }
    let mut seats = vec![SeatKind::Human; h];
    seats.extend(bots.iter().map(|&l| SeatKind::Bot(l)));
    while seats.len() < n {
        seats.push(SeatKind::Bot(1));
    }
    Ok(seats)
}

/// The game of `--game`: `classic` (or `sequence`) or `stacks`.
///
/// # Errors
/// Any other name, quoted.
pub fn parse_game(name: &str) -> anyhow::Result<GameKind> {
    name.parse()
        .map_err(|e: String| anyhow::anyhow!("--game: {e}"))
}

/// `--options` as a JSON object (`None`: `{}`, the official rules).
///
/// # Errors
/// Text that is not JSON, or not an object, quoting the text.
pub fn options_json(text: Option<&str>) -> anyhow::Result<serde_json::Value> {
    let value: serde_json::Value = match text {
        Some(t) => {
            serde_json::from_str(t).with_context(|| format!("--options {t:?} is not JSON"))?
        }
        None => serde_json::json!({}),
    };
    if !value.is_object() {
        bail!(
            "--options {:?}: expected a JSON object such as {{\"sequence_length\":4}}",
            text.unwrap_or_default()
        );
    }
    Ok(value)
}

/// Checks the rule options of `game` given as JSON text (`None` = the
/// official rules) and returns them as a record writes them, so that two
/// spellings of the same options compare equal.
///
/// # Errors
/// Text that is not a JSON object, or an unknown option or bad value,
/// quoting the text.
pub fn parse_options(game: GameKind, text: Option<&str>) -> anyhow::Result<serde_json::Value> {
    (rules(game).options)(text)
}

/// The player counts `game` allows (C3, S1).
pub fn player_counts(game: GameKind) -> Vec<u8> {
    (rules(game).player_counts)()
}

/// Refuses `--teams` for a game without teams (Stacks, S1) whatever the
/// player count, in the engine's words (`--teams 2: Sequence Stacks has
/// no teams (S1); every player plays alone`).
///
/// # Errors
/// Teams given for a game where every player plays alone.
pub fn check_teams(game: GameKind, teams: Option<u8>) -> anyhow::Result<()> {
    let e = rules(game);
    match ((e.player_counts)().first(), teams) {
        (Some(&players), Some(t)) if !e.teams => (e.check_table)(players, Some(t), None),
        _ => Ok(()),
    }
}

impl Setup {
    /// The table from the command line: `humans` people first (default:
    /// the seats `bots` leaves, or 1), then `bots` (one level per bot seat),
    /// then level-1 bots. Without `--players`, the people plus the bots (at
    /// least 2 players). The table and the options are checked against the
    /// rules here, so that a bad argument is reported before any screen.
    ///
    /// # Errors
    /// A bad game name, player count, teams, bot list, seat split or rule
    /// options, naming the argument.
    pub fn from_args(
        game: &str,
        players: Option<u8>,
        teams: Option<u8>,
        bots: Option<&str>,
        humans: Option<u8>,
        seed: Option<u64>,
        options: Option<String>,
    ) -> anyhow::Result<Setup> {
        let game = parse_game(game)?;
        let rules = rules(game);
        let levels = match bots {
            Some(b) => parse_bots(b)?,
            None => vec![],
        };
        let players = match players {
            Some(p) => p,
            None => (humans.unwrap_or(1) as usize + levels.len()).clamp(2, u8::MAX as usize) as u8,
        };
        let counts = (rules.player_counts)();
        if !counts.contains(&players) {
            bail!(
                "--players {players}: {players} players is not allowed in {}: {} ({})",
                game.name(),
                readable_list(&counts),
                (rules.players_rule)()
            );
        }
        let seats = seats_for(players, humans, &levels, bots.is_some())?;
        (rules.check_table)(players, teams, options.as_deref())?;
        let seed = seed.unwrap_or_else(clock_seed);
        Ok(Setup {
            game,
            players,
            teams,
            seats,
            seed,
            options,
        })
    }

    /// Number of human seats.
    pub fn humans(&self) -> usize {
        self.seats.iter().filter(|s| **s == SeatKind::Human).count()
    }
}

/// A seed from the clock, for games started without `--seed`.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}

/// The fields of the start screen, top to bottom.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// Classic or Stacks.
    Game,
    /// Player count.
    Players,
    /// Teams (classic only).
    Teams,
    /// People at the keyboard.
    Humans,
    /// Level of the bots.
    Level,
}

/// The start screen's state: the table being chosen.
#[derive(Clone, Debug)]
pub struct StartScreen {
    /// The table as chosen so far.
    pub setup: Setup,
    /// The field being changed.
    pub field: Field,
    /// The level given to every bot seat.
    pub level: u8,
    /// A message about the last change (e.g. why a value was refused).
    pub message: String,
}

impl StartScreen {
    /// The start screen with the command line's table.
    pub fn new(setup: Setup) -> StartScreen {
        let level = setup
            .seats
            .iter()
            .find_map(|s| match s {
                SeatKind::Bot(l) => Some(*l),
                SeatKind::Human => None,
            })
            .unwrap_or(1);
        StartScreen {
            setup,
            field: Field::Game,
            level,
            message: String::new(),
        }
    }

    /// The visible fields (teams only for classic).
    pub fn fields(&self) -> Vec<Field> {
        let mut v = vec![Field::Game, Field::Players];
        if rules(self.setup.game).teams {
            v.push(Field::Teams);
        }
        v.extend([Field::Humans, Field::Level]);
        v
    }

    /// Moves the selection up (`-1`) or down (`+1`).
    pub fn select(&mut self, delta: i32) {
        let f = self.fields();
        let i = f.iter().position(|x| *x == self.field).unwrap_or(0) as i32;
        let n = f.len() as i32;
        self.field = f[((i + delta).rem_euclid(n)) as usize];
    }

    /// Changes the selected field by one step (`-1` or `+1`).
    pub fn change(&mut self, delta: i32) {
        self.message.clear();
        let s = &mut self.setup;
        let humans = s.humans();
        match self.field {
            Field::Game => {
                let all = GameKind::ALL;
                let i = all.iter().position(|k| *k == s.game).unwrap_or(0) as i32;
                s.game = all[(i + delta.signum()).rem_euclid(all.len() as i32) as usize];
                if !player_counts(s.game).contains(&s.players) {
                    s.players = 2;
                }
                s.teams = None;
                s.options = None;
            }
            Field::Players => {
                let counts = player_counts(s.game);
                let i = counts.iter().position(|p| *p == s.players).unwrap_or(0) as i32;
                s.players = counts[((i + delta).clamp(0, counts.len() as i32 - 1)) as usize];
                s.teams = None;
            }
            Field::Teams => {
                let rules = rules(s.game);
                let options: Vec<u8> = [2u8, 3]
                    .into_iter()
                    .filter(|t| (rules.check_table)(s.players, Some(*t), None).is_ok())
                    .collect();
                if options.len() < 2 {
                    self.message = format!(
                        "{} players: the teams are fixed ({})",
                        s.players,
                        (rules.players_rule)()
                    );
                } else {
                    let cur = s.teams.unwrap_or((rules.default_teams)(s.players));
                    s.teams = Some(if cur == 2 { 3 } else { 2 });
                }
            }
            Field::Humans => {
                let h = (humans as i32 + delta).clamp(0, s.players as i32) as usize;
                self.rebuild(h);
                return;
            }
            Field::Level => {
                self.level = (self.level as i32 + delta).clamp(1, 5) as u8;
            }
        }
        let h = self.setup.humans().min(self.setup.players as usize);
        self.rebuild(h);
    }

    fn rebuild(&mut self, humans: usize) {
        let n = self.setup.players as usize;
        let humans = humans.min(n);
        let mut seats = vec![SeatKind::Human; humans];
        seats.extend(std::iter::repeat_n(SeatKind::Bot(self.level), n - humans));
        self.setup.seats = seats;
    }

    /// The value shown for a field.
    pub fn value(&self, field: Field) -> String {
        let s = &self.setup;
        match field {
            Field::Game => entry(s.game).menu_name.into(),
            Field::Players => s.players.to_string(),
            Field::Teams => {
                let t = s.teams.unwrap_or((rules(s.game).default_teams)(s.players));
                if t == s.players {
                    format!("{t} (each plays alone)")
                } else {
                    format!("{t} teams of {}", s.players / t)
                }
            }
            Field::Humans => format!("{} at this keyboard", s.humans()),
            Field::Level => {
                let bots = s.players as usize - s.humans();
                if bots == 0 {
                    "no bots".into()
                } else {
                    // The level's measured strength (docs/bots.md).
                    let elo = sequence_bots::level_elo(self.level)
                        .map(|e| format!(" — about {e}"))
                        .unwrap_or_default();
                    format!(
                        "level {}{elo} for {bots} bot{}",
                        self.level,
                        if bots == 1 { "" } else { "s" }
                    )
                }
            }
        }
    }

    /// The label of a field.
    pub fn label(field: Field) -> &'static str {
        match field {
            Field::Game => "Game",
            Field::Players => "Players",
            Field::Teams => "Teams",
            Field::Humans => "People",
            Field::Level => "Bots",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_levels_parse_and_refuse_garbage() {
        assert_eq!(parse_bots("3,3").unwrap(), vec![3, 3]);
        assert_eq!(parse_bots("level:5, L1").unwrap(), vec![5, 1]);
        // Regression (fresh-user test): empty lists and entries were dropped
        // silently; a bot name leaked the parser's "invalid digit".
        let refusal = |text| format!("{:#}", parse_bots(text).unwrap_err());
        assert!(refusal("").contains("--bots is empty"));
        assert!(refusal("1,,2").contains("entry 2 is empty"));
        let e = refusal("random");
        assert!(
            e.contains("levels 1 (beginner) to 5") && !e.contains("digit"),
            "{e}"
        );
        assert!(refusal("6").contains("out of range"));
        assert!(refusal("strong").contains("not a bot level"));
    }

    /// The level picker names each level's measured Elo (docs/bots.md).
    #[test]
    fn the_level_picker_shows_the_measured_elo() {
        let setup =
            Setup::from_args("classic", Some(2), None, Some("3"), None, Some(1), None).unwrap();
        let screen = StartScreen::new(setup);
        let elo = sequence_bots::level_elo(3).expect("level 3 is rated");
        assert_eq!(
            screen.value(Field::Level),
            format!("level 3 — about {elo} for 1 bot")
        );
    }

    #[test]
    fn tables_follow_c3_and_s1() {
        let s =
            Setup::from_args("classic", Some(4), None, Some("2,2,2"), None, Some(1), None).unwrap();
        assert_eq!(
            s.seats,
            vec![
                SeatKind::Human,
                SeatKind::Bot(2),
                SeatKind::Bot(2),
                SeatKind::Bot(2)
            ]
        );
        let e = Setup::from_args("classic", Some(5), None, None, None, Some(1), None).unwrap_err();
        assert!(e.to_string().contains("C3"), "{e}");
        let e = Setup::from_args("stacks", Some(7), None, None, None, Some(1), None).unwrap_err();
        assert!(e.to_string().contains("S1"), "{e}");
        assert!(Setup::from_args("chess", None, None, None, None, None, None).is_err());
        let e = Setup::from_args("stacks", Some(2), None, Some("1,1,1"), None, Some(1), None)
            .unwrap_err();
        assert!(e.to_string().contains("3 bots for 2 players"), "{e}");
        // Without --players: one person plus the bots.
        let s = Setup::from_args("stacks", None, None, Some("1,4"), None, Some(1), None).unwrap();
        assert_eq!(s.players, 3);
    }

    /// Regressions from a fresh user's test: bad `--options`, Stacks
    /// teams and the player-count message were only found on the start
    /// screen, or read as a debug list.
    #[test]
    fn arguments_are_checked_before_any_screen() {
        let args = |game, players, teams, options: Option<&str>| {
            Setup::from_args(
                game,
                players,
                teams,
                None,
                None,
                Some(1),
                options.map(String::from),
            )
        };
        let e = args("classic", Some(5), None, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("2, 3, 4, 6, 8, 9, 10 or 12 (C3)"), "{e}");
        assert!(!e.contains('['), "{e}");
        let e = args("stacks", Some(7), None, None).unwrap_err().to_string();
        assert!(e.contains("2, 3, 4, 5 or 6 (S1)"), "{e}");
        let e = args("classic", None, None, Some("{x")).unwrap_err();
        assert!(
            format!("{e:#}").contains("--options \"{x\" is not JSON"),
            "{e:#}"
        );
        let e = args("classic", None, None, Some(r#"{"bogus":1}"#)).unwrap_err();
        assert!(format!("{e:#}").contains("bogus"), "{e:#}");
        let e = args("stacks", None, None, Some(r#"{"bogus":1}"#)).unwrap_err();
        assert!(format!("{e:#}").contains("bogus"), "{e:#}");
        let e = args("classic", None, None, Some("[]")).unwrap_err();
        assert!(e.to_string().contains("JSON object"), "{e}");
        let e = args("classic", None, None, Some(r#"{"win_sequences":9}"#)).unwrap_err();
        assert!(e.to_string().contains("win_sequences"), "{e}");
        let e = args("stacks", Some(2), Some(2), None).unwrap_err();
        assert!(e.to_string().contains("--teams"), "{e}");
        let e = args("classic", Some(4), Some(3), None).unwrap_err();
        assert!(e.to_string().contains("--teams 3"), "{e}");
        assert!(args(
            "classic",
            Some(6),
            Some(3),
            Some(r#"{"sequence_length":4}"#)
        )
        .is_ok());
    }

    /// `--bots` gives one level per bot seat after the people; a list that
    /// takes every seat (or more) is refused unless `--humans 0` says so.
    #[test]
    fn bots_and_humans_share_the_seats() {
        use SeatKind::{Bot, Human};
        assert_eq!(seats_for(2, None, &[], false).unwrap(), vec![Human, Bot(1)]);
        assert_eq!(
            seats_for(4, None, &[3], true).unwrap(),
            vec![Human, Human, Human, Bot(3)]
        );
        assert_eq!(
            seats_for(4, Some(1), &[3], true).unwrap(),
            vec![Human, Bot(3), Bot(1), Bot(1)]
        );
        assert_eq!(
            seats_for(2, Some(0), &[5, 5], true).unwrap(),
            vec![Bot(5), Bot(5)]
        );
        let e = seats_for(2, None, &[5, 5], true).unwrap_err().to_string();
        assert!(
            e.contains("leaves none to a person") && e.contains("--humans 0"),
            "{e}"
        );
        let e = seats_for(2, None, &[5, 5, 5], true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("3 bots for 2 players"), "{e}");
        let e = seats_for(4, Some(2), &[3, 3, 3], true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("make 5 seats for 4 players"), "{e}");
        // Without --players the table is the people plus the bots.
        let s = Setup::from_args("classic", None, None, Some("2"), Some(2), Some(1), None).unwrap();
        assert_eq!(s.seats, vec![Human, Human, Bot(2)]);
    }

    #[test]
    fn start_screen_steps_through_allowed_values() {
        let mut st = StartScreen::new(
            Setup::from_args("classic", None, None, None, None, Some(1), None).unwrap(),
        );
        st.field = Field::Players;
        let mut seen = vec![st.setup.players];
        for _ in 0..10 {
            st.change(1);
            seen.push(st.setup.players);
        }
        assert_eq!(seen[..8], [2, 3, 4, 6, 8, 9, 10, 12]);
        assert_eq!(st.setup.seats.len(), 12);
        st.field = Field::Teams;
        st.change(1);
        assert_eq!(st.setup.teams, Some(3), "12 players may form 3 teams (C3)");
        st.field = Field::Humans;
        st.change(1);
        assert_eq!(st.setup.humans(), 2);
        st.field = Field::Game;
        st.change(1);
        assert_eq!(st.setup.game, GameKind::Stacks);
        assert_eq!(st.setup.players, 2, "12 players is not a Stacks table");
    }
}
