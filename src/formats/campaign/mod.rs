//! Reading and writing the campaign folder's files (design.md, "Campaign folder"), with
//! validation that collects every problem with its file, line and field. The order of battle
//! (`forces`), the map's files (`map`), the commanders (`commanders`), the order of battle's
//! tree (`tree`) and the writers (`write`) each have a file; this one reads the folder whole.

use std::collections::BTreeMap;

use compact_str::CompactString;

use crate::error::{Problem, Problems};
use crate::model::dialect::Dialect;
use crate::model::oob::IdSet;
use crate::model::{
    BattleMapChoice, Campaign, CampaignConfig, CampaignMap, Commander, HexGrid, HexId, HexInfo,
    OrderOfBattle, RoadClass, RulesConfig, Settlement, Side2,
};

use super::table::Table;
use super::text::decode;
pub(crate) use super::toml_words::toml_problem;

/// File names inside the campaign folder.
pub mod names {
    /// Campaign settings.
    pub const CAMPAIGN: &str = "campaign.toml";
    /// Rule numbers.
    pub const RULES: &str = "rules.toml";
    /// Terrain.
    pub const HEXES: &str = "map/hexes.csv";
    /// Roads.
    pub const ROADS: &str = "map/roads.csv";
    /// Rivers.
    pub const RIVERS: &str = "map/rivers.csv";
    /// Battle maps chosen per hex.
    pub const BATTLE_MAPS: &str = "map/battle-maps.csv";
    /// Settlements.
    pub const SETTLEMENTS: &str = "settlements.csv";
    /// Order of battle.
    pub const FORCES: &str = "forces.csv";
    /// Commanders.
    pub const COMMANDERS: &str = "commanders.csv";
    /// Men due back.
    pub const RETURNS: &str = "returns.csv";
    /// Campaign score.
    pub const SCORE: &str = "score.csv";
    /// What the supply rules remember from turn to turn (3.2.1, 3.3).
    pub const SUPPLY: &str = "supply.csv";
    /// The retreats before battle the enemy caught (8.2), as `move` recorded them.
    pub const AVOIDANCE: &str = "avoidance.csv";
    /// Each marched force's trail (3.2), written by `move`.
    pub const TRAILS: &str = "trails.csv";
    /// The hexes of secondary roads the French have passed through, written by `move`.
    pub const ROADS_SEEN: &str = "roads-seen.csv";
    /// Each side's advice of the enemy on contact and its decision to fight (8.1, 8.2, 8.5).
    pub const DECISIONS: &str = "decisions.csv";
    /// The messages and orders the enemy caught (6.3.1), written by `messages` and `move`.
    pub const MESSAGES: &str = "messages.csv";
    /// The standing orders (marches ordered beyond one turn), written by `move`.
    pub const STANDING: &str = "standing-orders.csv";
    /// The files of the map that `map import` changes.
    pub const MAP: [&str; 4] = [HEXES, ROADS, RIVERS, SETTLEMENTS];
    /// Every file of the campaign folder that sowbridge reads into a campaign.
    pub const ALL: [&str; 26] = [
        CAMPAIGN,
        RULES,
        HEXES,
        ROADS,
        RIVERS,
        BATTLE_MAPS,
        SETTLEMENTS,
        FORCES,
        COMMANDERS,
        RETURNS,
        SCORE,
        SUPPLY,
        AVOIDANCE,
        TRAILS,
        ROADS_SEEN,
        DECISIONS,
        MESSAGES,
        STANDING,
        // The turn's books (`formats::books`).
        "sieges.csv",
        "siege-trains.csv",
        "revolts.csv",
        "occupation.csv",
        "campaign-years.csv",
        "intelligence.csv",
        "juntas.csv",
        "junta-orders.csv",
    ];
}

/// Columns of `forces.csv`, in the order sowbridge writes them.
pub const FORCE_COLUMNS: [&str; 17] = [
    "id",
    "parent",
    "level",
    "name",
    "commander",
    "nation",
    "arm",
    "men",
    "squadrons",
    "guns",
    "hex",
    "moving_to",
    "depot",
    "supply",
    "quality",
    "ammo",
    "status",
];

/// Columns of `commanders.csv`.
pub const COMMANDER_COLUMNS: [&str; 6] =
    ["name", "side", "battles_fought", "battles_won", "status", "player"];

/// Columns of `map/battle-maps.csv`.
pub const BATTLE_MAP_COLUMNS: [&str; 4] = ["hex", "map", "orientation", "battle"];

/// Reading a campaign whose `forces.csv` lies in its folder is the store's
/// ([`crate::store::forces`]); kept under this path for the code that reads it from here.
pub use crate::store::forces::parse_campaign;

mod turn_line;
pub use turn_line::set_turn;
mod commanders;
mod forces;
mod map;
mod tree;
mod write;

use self::commanders::parse_commanders;
pub use self::commanders::write_commanders;
pub use self::forces::ForcesFile;
use self::forces::{ForcesSource, parse_forces};
use self::map::{parse_battle_maps, parse_hexes, parse_settlements, parse_sides};
use self::tree::{Listed, validate_tree};
pub use self::write::{write_battle_maps, write_forces};

/// The raw bytes of a campaign folder's files (`None` where a file is absent).
#[derive(Debug, Default, Clone)]
pub struct CampaignFiles {
    /// Raw contents by file name (see [`names`]).
    pub files: BTreeMap<&'static str, Vec<u8>>,
    /// Where to read `forces.csv` from when `files` does not hold it: the order of battle
    /// is read straight from the file, never held whole (a large one is many megabytes).
    pub forces_path: Option<std::path::PathBuf>,
}

impl CampaignFiles {
    pub(crate) fn get(&self, name: &str) -> Option<&[u8]> {
        self.files.get(name).map(Vec::as_slice)
    }
}

fn required<'a>(files: &'a CampaignFiles, name: &str, problems: &mut Problems) -> Option<&'a [u8]> {
    let f = files.get(name);
    if f.is_none() {
        problems.push(Problem::in_file(name, "file is missing"));
    }
    f
}

use crate::model::limits::MAX_TURN;

/// Parses `campaign.toml`.
pub fn parse_config(bytes: &[u8], problems: &mut Problems) -> Option<CampaignConfig> {
    let (text, _) = decode(bytes);
    match toml::from_str::<CampaignConfig>(&text) {
        Ok(c) => {
            let mut bad = |field: &str, message: &str| {
                problems.push(Problem {
                    field: Some(field.to_string()),
                    ..Problem::in_file(names::CAMPAIGN, message)
                })
            };
            if c.turn == 0 || c.turn > MAX_TURN {
                bad("turn", &format!("must be from 1 to {MAX_TURN} (1 = early June 1808)"));
            }
            for (field, n) in [("map.columns", c.map.columns), ("map.rows", c.map.rows)] {
                if n == 0 || n > 100 {
                    bad(field, "must be a whole number from 1 to 100");
                }
            }
            Some(c)
        }
        Err(e) => {
            problems.push(toml_problem(names::CAMPAIGN, &text, &e));
            None
        }
    }
}

/// Parses `rules.toml`.
pub fn parse_rules(bytes: Option<&[u8]>, problems: &mut Problems) -> RulesConfig {
    let Some(bytes) = bytes else { return RulesConfig::default() };
    let (text, _) = decode(bytes);
    let rules: RulesConfig = toml::from_str(&text).unwrap_or_else(|e| {
        problems.push(toml_problem(names::RULES, &text, &e));
        RulesConfig::default()
    });
    check_rules(&rules, problems);
    rules
}

/// The values of `rules.toml` that read but that no command could use: refused by `check` as
/// `export` and `apply` would refuse (or misuse) them.
fn check_rules(r: &RulesConfig, problems: &mut Problems) {
    let mut bad = |field: &str, message: String| {
        problems.push(Problem { field: Some(field.to_string()), ..Problem::in_file(names::RULES, message) })
    };
    let b = &r.battle;
    if super::sow::scenario::parse_time(&b.start_time).is_none() {
        bad(
            "battle.start_time",
            format!("'{}' is not a time of day HH:MM:SS (00:00:00 to 23:59:59)", b.start_time),
        );
    }
    if b.length_minutes == 0 || b.length_minutes > 1440 {
        bad(
            "battle.length_minutes",
            format!("{} is not a battle's length: 1 to 1440 minutes", b.length_minutes),
        );
    }
    if r.verdict.win_ratio < rust_decimal::Decimal::ONE {
        bad(
            "verdict.win_ratio",
            format!(
                "{} is below 1: a side would win with less than the other's score (1.25 is the default)",
                r.verdict.win_ratio
            ),
        );
    }
}

/// Every file of the campaign but the order of battle.
#[derive(Debug)]
struct Rest {
    hexes: BTreeMap<HexId, HexInfo>,
    roads: BTreeMap<Side2, RoadClass>,
    rivers: BTreeMap<Side2, String>,
    settlements: Vec<Settlement>,
    commanders: Vec<Commander>,
    commander_columns: Vec<String>,
    battle_maps: BTreeMap<HexId, BattleMapChoice>,
    returns: Vec<(u64, crate::model::ledger::Return)>,
    score: Vec<crate::model::ledger::ScoreRow>,
    /// How each file read was saved.
    dialects: BTreeMap<&'static str, Dialect>,
    /// What the order of battle may refer to.
    listed: Listed,
}

fn parse_rest(files: &CampaignFiles, grid: &HexGrid, p: &mut Problems) -> Rest {
    let mut dialects = BTreeMap::new();
    let mut table = |name: &'static str, p: &mut Problems, req: bool| -> Table {
        let bytes = if req { required(files, name, p) } else { files.get(name) };
        // A missing file reads as an empty table under its own name, whose columns are not
        // asked for: the missing file is the one problem.
        let t = bytes.map_or_else(|| Table::absent(name), |b| Table::parse(name, b, p));
        if t.present {
            dialects.insert(name, t.dialect);
        }
        t
    };
    let hexes = parse_hexes(&table(names::HEXES, p, true), grid, p);
    let roads_t = table(names::ROADS, p, true);
    let roads = parse_sides(&roads_t, grid, &hexes, "class", p, |f| {
        match f.text("class").to_ascii_lowercase().as_str() {
            "major" | "" => Some(RoadClass::Major),
            "secondary" | "minor" => Some(RoadClass::Secondary),
            other => {
                f.problem("class", format!("'{other}' is not major or secondary"));
                None
            }
        }
    });
    let rivers = parse_sides(&table(names::RIVERS, p, true), grid, &hexes, "name", p, |f| {
        Some(f.text("name").to_string())
    });
    let settlements_t = table(names::SETTLEMENTS, p, true);
    let settlements = parse_settlements(&settlements_t, grid, &hexes, p);
    let commanders_t = table(names::COMMANDERS, p, true);
    let (commanders, commander_columns, named) = parse_commanders(&commanders_t, p);
    let names_in = |t: &Table| -> Option<IdSet<CompactString>> {
        t.whole(&["name"]).then(|| t.rows.iter().map(|r| CompactString::from(t.text(r, "name"))).collect())
    };
    let listed = Listed {
        settlements: names_in(&settlements_t),
        commanders: named,
        commanders_whole: commanders_t.whole(&["name"]),
    };
    let battle_maps = match files.get(names::BATTLE_MAPS) {
        Some(_) => parse_battle_maps(&table(names::BATTLE_MAPS, p, false), grid, p),
        None => BTreeMap::new(),
    };
    let returns = super::ledger::parse_returns_lines(&table(names::RETURNS, p, false), p);
    let score = super::ledger::parse_score(&table(names::SCORE, p, false), p);
    Rest {
        hexes,
        roads,
        rivers,
        settlements,
        commanders,
        commander_columns,
        battle_maps,
        returns,
        score,
        dialects,
        listed,
    }
}

/// The order of battle (from `forces_src`) and the rest of the campaign's files. The order of
/// battle is by far the largest file: it is read and indexed on threads of its own, beside
/// this one reading the rest.
fn read_beside(
    files: &CampaignFiles,
    forces_src: Option<ForcesSource<'_>>,
    grid: &HexGrid,
    p: &mut Problems,
) -> (Rest, OrderOfBattle) {
    // A large one is read on two threads of its own: the rest is read once it is read, while
    // its index is built on one thread (a third thread beside its reading would only take a
    // processor from it, where the index's building leaves one idle).
    let (read, wait_read) = std::sync::mpsc::channel::<std::convert::Infallible>();
    let threaded = forces_src.is_some_and(|s| s.read_threaded());
    std::thread::scope(|s| {
        let forces = s.spawn(move || {
            let mut fp = Problems::default();
            let rows = forces_src.map(|src| parse_forces(src, grid, &mut fp));
            drop(read);
            let (oob, dialect) = match rows {
                Some(f) => (OrderOfBattle::new(f.units, f.extra_cols).with_lines(f.lines), Some(f.dialect)),
                None => (OrderOfBattle::default(), None),
            };
            // Each force's men and strength, which the rules ask of every force: summed while
            // the index was built, else worked out here while the rest is still being read.
            oob.total_men();
            (oob, dialect, fp)
        });
        if threaded {
            // Ends when the reading thread lets go of `read`, whether it read or panicked.
            let _ = wait_read.recv();
        }
        let mut rest = parse_rest(files, grid, p);
        let (oob, dialect, fp) = forces.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        p.0.extend(fp.0);
        if let Some(d) = dialect {
            rest.dialects.insert(names::FORCES, d);
        }
        (rest, oob)
    })
}

/// Parses and validates a whole campaign: `forces.csv` from its bytes in `files`, else from
/// `forces` where it lies. Every problem is collected.
pub fn parse_campaign_with(
    files: &CampaignFiles,
    forces: Option<&dyn ForcesFile>,
) -> Result<Campaign, Problems> {
    let mut p = Problems::default();
    let config = required(files, names::CAMPAIGN, &mut p).and_then(|b| parse_config(b, &mut p));
    let rules = parse_rules(files.get(names::RULES), &mut p);
    let Some(config) = config else { return Err(p) };
    let grid = config.map.grid();
    let forces_src = match (files.get(names::FORCES), forces) {
        (Some(b), _) => Some(ForcesSource::Bytes(b)),
        (None, Some(f)) => Some(ForcesSource::File(f)),
        (None, None) => required(files, names::FORCES, &mut p).map(ForcesSource::Bytes),
    };
    let (rest, oob) = read_beside(files, forces_src, &grid, &mut p);
    let Rest {
        hexes,
        roads,
        rivers,
        settlements,
        commanders,
        commander_columns,
        battle_maps,
        returns,
        score,
        mut dialects,
        listed,
    } = rest;
    let books = super::books::parse_books(files, &grid, &mut p, &mut dialects);
    let (supply, avoidance, trails) = parse_memory(files, &mut p, &mut dialects);
    let (roads_seen, messages) = parse_seen(files, &mut p, &mut dialects);
    let decisions = parse_decisions(files, &mut p, &mut dialects);
    let standing = parse_standing(files, &mut p, &mut dialects);
    let map = CampaignMap { grid, hexes, roads, rivers, settlements };
    validate_tree(&oob, oob.source_lines(), &map, &listed, &mut p);
    // Men due back to a unit that is not there would never return: a unit renamed in
    // forces.csv must be renamed in returns.csv too.
    for (line, r) in &returns {
        if !r.unit.is_empty() && oob.get(&r.unit).is_none() {
            p.push(Problem::at(
                names::RETURNS,
                *line,
                "unit",
                format!(
                    "'{}' is not in forces.csv, so its {} men due back on turn {} would never return \
                     (renamed in forces.csv? rename it here too)",
                    r.unit, r.men, r.turn
                ),
            ));
        }
    }
    let returns: Vec<crate::model::ledger::Return> = returns.into_iter().map(|(_, r)| r).collect();
    let total = oob.total_men();
    if total > crate::model::limits::MAX_TOTAL_MEN {
        p.push(Problem {
            field: Some("men".to_string()),
            ..Problem::in_file(
                names::FORCES,
                format!(
                    "the order of battle counts {total} men, more than any campaign can hold (at most {})",
                    crate::model::limits::MAX_TOTAL_MEN
                ),
            )
        });
    }
    if !p.is_empty() {
        p.0.sort();
        p.0.dedup();
        // A whole file's problem (missing, unreadable) is the likely cause of the rest:
        // it comes first.
        p.0.sort_by_key(|x| x.line.is_some());
        return Err(p);
    }
    Ok(Campaign {
        config,
        rules,
        map,
        oob,
        commanders,
        commander_columns,
        battle_maps,
        returns,
        score,
        books,
        supply,
        avoidance,
        trails,
        roads_seen,
        decisions,
        messages,
        standing,
        dialects,
    })
}

/// `decisions.csv` (8.1, 8.2, 8.5), when there is one, with its dialect.
fn parse_decisions(
    files: &CampaignFiles,
    p: &mut Problems,
    dialects: &mut BTreeMap<&'static str, Dialect>,
) -> Vec<crate::model::decisions::ContactDecision> {
    let Some(b) = files.get(names::DECISIONS) else { return Vec::new() };
    let (rows, d) = super::decisions::parse_decisions_into(b, p);
    dialects.insert(names::DECISIONS, d);
    rows
}

/// `roads-seen.csv` and `messages.csv`: what the French have seen of the roads, and the
/// messages the enemy caught (each file optional), with their dialects.
fn parse_seen(
    files: &CampaignFiles,
    p: &mut Problems,
    dialects: &mut BTreeMap<&'static str, Dialect>,
) -> (Vec<crate::model::supply::RoadSeen>, Vec<crate::model::orders::Intercepted>) {
    let roads_seen = files
        .get(names::ROADS_SEEN)
        .map(|b| {
            let (rows, d) = super::orders::parse_roads_seen_into(b, p);
            dialects.insert(names::ROADS_SEEN, d);
            rows
        })
        .unwrap_or_default();
    let messages = files
        .get(names::MESSAGES)
        .map(|b| {
            let (rows, d) = super::messages::parse_intercepted_into(b, p);
            dialects.insert(names::MESSAGES, d);
            rows
        })
        .unwrap_or_default();
    (roads_seen, messages)
}

/// `standing-orders.csv`: the marches ordered beyond one turn, still to go (optional), with
/// its dialect.
fn parse_standing(
    files: &CampaignFiles,
    p: &mut Problems,
    dialects: &mut BTreeMap<&'static str, Dialect>,
) -> Vec<crate::model::standing::StandingOrder> {
    let Some(b) = files.get(names::STANDING) else { return Vec::new() };
    let (rows, d) = super::standing::parse_standing_into(b, p);
    dialects.insert(names::STANDING, d);
    rows
}

/// `supply.csv` and `avoidance.csv`: what `turn advance` and `move` remember for the commands
/// after them (each file optional), with their dialects.
fn parse_memory(
    files: &CampaignFiles,
    p: &mut Problems,
    dialects: &mut BTreeMap<&'static str, Dialect>,
) -> (
    Vec<crate::model::supply::SupplyRecord>,
    Vec<crate::model::supply::Avoidance>,
    Vec<crate::model::supply::Trail>,
) {
    let supply = files.get(names::SUPPLY).map(|b| {
        let (rows, d) = super::supply::parse_records_into(b, p);
        dialects.insert(names::SUPPLY, d);
        rows
    });
    let avoidance = files.get(names::AVOIDANCE).map(|b| {
        let (rows, d) = super::orders::parse_avoidance_into(b, p);
        dialects.insert(names::AVOIDANCE, d);
        rows
    });
    let trails = files.get(names::TRAILS).map(|b| {
        let (rows, d) = super::supply::parse_trails_into(b, p);
        dialects.insert(names::TRAILS, d);
        rows
    });
    (supply.unwrap_or_default(), avoidance.unwrap_or_default(), trails.unwrap_or_default())
}
