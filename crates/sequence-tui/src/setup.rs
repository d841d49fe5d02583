//! The table a terminal game starts with: game, players, teams, which seats
//! are people and which are bots, seed and rule options; and the start
//! screen where it is chosen.

use anyhow::{bail, Context};

/// Which game is played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// Classic Sequence (RULES.md Part 1).
    Classic,
    /// Sequence Stacks (RULES.md Part 2).
    Stacks,
}

impl GameKind {
    /// `"classic"` or `"stacks"`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Classic => "classic",
            GameKind::Stacks => "stacks",
        }
    }

    /// Parses `classic` or `stacks`.
    ///
    /// # Errors
    /// Any other name.
    pub fn parse(s: &str) -> anyhow::Result<GameKind> {
        match s.to_ascii_lowercase().as_str() {
            "classic" | "sequence" => Ok(GameKind::Classic),
            "stacks" | "sequence-stacks" => Ok(GameKind::Stacks),
            _ => bail!("unknown game {s:?}: `classic` or `stacks`"),
        }
    }

    /// The allowed player counts: C3 for classic, S1 (2–6) for Stacks.
    pub fn player_counts(self) -> &'static [u8] {
        match self {
            GameKind::Classic => &sequence_classic::Config::PLAYER_COUNTS,
            GameKind::Stacks => &[2, 3, 4, 5, 6],
        }
    }
}

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
/// A level that is not a number 1–5 (`level:3` and `L3` are accepted too).
pub fn parse_bots(text: &str) -> anyhow::Result<Vec<u8>> {
    let mut out = vec![];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let digits = part
            .trim_start_matches("level:")
            .trim_start_matches(['L', 'l']);
        let level: u8 = digits
            .parse()
            .with_context(|| format!("--bots: {part:?} is not a bot level (1 to 5)"))?;
        if !(1..=5).contains(&level) {
            bail!("--bots: level {level} is out of range (1 to 5)");
        }
        out.push(level);
    }
    Ok(out)
}

impl Setup {
    /// The table from the command line: humans first, then `bots` (one level
    /// per bot seat). Without `--players`, one human plus the bots (at least
    /// 2 players); without `--bots`, one human and level-1 bots.
    ///
    /// # Errors
    /// A bad game name, player count, bot list or more bots than seats.
    pub fn from_args(
        game: &str,
        players: Option<u8>,
        teams: Option<u8>,
        bots: Option<&str>,
        seed: Option<u64>,
        options: Option<String>,
    ) -> anyhow::Result<Setup> {
        let game = GameKind::parse(game)?;
        let bots = match bots {
            Some(b) => parse_bots(b)?,
            None => vec![],
        };
        let players = match players {
            Some(p) => p,
            None => (bots.len() as u8 + 1).max(2),
        };
        if !game.player_counts().contains(&players) {
            bail!(
                "{players} players is not allowed in {}: {:?} ({})",
                game.name(),
                game.player_counts(),
                match game {
                    GameKind::Classic => "C3",
                    GameKind::Stacks => "S1",
                }
            );
        }
        if bots.len() > players as usize {
            bail!("--bots lists {} bots for {players} players", bots.len());
        }
        let humans = if bots.is_empty() && players > 0 {
            1
        } else {
            players as usize - bots.len()
        };
        let mut seats = vec![SeatKind::Human; humans];
        seats.extend(bots.iter().map(|&l| SeatKind::Bot(l)));
        // Without --bots: the other seats are level-1 bots.
        while seats.len() < players as usize {
            seats.push(SeatKind::Bot(1));
        }
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
        if self.setup.game == GameKind::Classic {
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
                s.game = if s.game == GameKind::Classic {
                    GameKind::Stacks
                } else {
                    GameKind::Classic
                };
                if !s.game.player_counts().contains(&s.players) {
                    s.players = 2;
                }
                s.teams = None;
                s.options = None;
            }
            Field::Players => {
                let counts = s.game.player_counts();
                let i = counts.iter().position(|p| *p == s.players).unwrap_or(0) as i32;
                s.players = counts[((i + delta).clamp(0, counts.len() as i32 - 1)) as usize];
                s.teams = None;
            }
            Field::Teams => {
                let options: Vec<u8> = [2u8, 3]
                    .into_iter()
                    .filter(|t| {
                        sequence_classic::Config::new(s.players, Some(*t), Default::default())
                            .is_ok()
                    })
                    .collect();
                if options.len() < 2 {
                    self.message = format!("{} players: the teams are fixed (C3)", s.players);
                } else {
                    let cur = s
                        .teams
                        .unwrap_or(sequence_classic::Config::default_teams(s.players));
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
            Field::Game => match s.game {
                GameKind::Classic => "Sequence (classic)".into(),
                GameKind::Stacks => "Sequence Stacks".into(),
            },
            Field::Players => s.players.to_string(),
            Field::Teams => {
                let t = s
                    .teams
                    .unwrap_or(sequence_classic::Config::default_teams(s.players));
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
                    format!(
                        "level {} for {bots} bot{}",
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
        assert!(parse_bots("6")
            .unwrap_err()
            .to_string()
            .contains("out of range"));
        assert!(parse_bots("strong")
            .unwrap_err()
            .to_string()
            .contains("not a bot level"));
    }

    #[test]
    fn tables_follow_c3_and_s1() {
        let s = Setup::from_args("classic", Some(4), None, Some("2,2,2"), Some(1), None).unwrap();
        assert_eq!(
            s.seats,
            vec![
                SeatKind::Human,
                SeatKind::Bot(2),
                SeatKind::Bot(2),
                SeatKind::Bot(2)
            ]
        );
        let e = Setup::from_args("classic", Some(5), None, None, Some(1), None).unwrap_err();
        assert!(e.to_string().contains("C3"), "{e}");
        let e = Setup::from_args("stacks", Some(7), None, None, Some(1), None).unwrap_err();
        assert!(e.to_string().contains("S1"), "{e}");
        assert!(Setup::from_args("chess", None, None, None, None, None).is_err());
        let e =
            Setup::from_args("stacks", Some(2), None, Some("1,1,1"), Some(1), None).unwrap_err();
        assert!(e.to_string().contains("3 bots for 2 players"), "{e}");
        // Without --players: one person plus the bots.
        let s = Setup::from_args("stacks", None, None, Some("1,4"), Some(1), None).unwrap();
        assert_eq!(s.players, 3);
    }

    #[test]
    fn start_screen_steps_through_allowed_values() {
        let mut st =
            StartScreen::new(Setup::from_args("classic", None, None, None, Some(1), None).unwrap());
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
