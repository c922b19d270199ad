//! Reading and writing the campaign folder's files (design.md, "Campaign folder"), with
//! validation that collects every problem with its file, line and field.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::mpsc;

use compact_str::CompactString;

use crate::error::{Problem, Problems};
use crate::model::dialect::Dialect;
use crate::model::kinds::parse_status_list;
use crate::model::oob::IdMap;
use crate::model::{
    Arm, ArmClass, BattleMapChoice, Campaign, CampaignConfig, CampaignMap, Commander, Control, HexGrid,
    HexId, HexInfo, Level, Nation, OrderOfBattle, Quality, Rare, Region, RoadClass, RulesConfig, Settlement,
    Side, Side2, Supply, Terrain, Unit,
};

use super::table::{
    Col, ColumnRef, Fields, RecordBatch, Records, RowSource, Table, require_columns, write_csv,
};
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
    /// Every file of the campaign folder that sowbridge reads into a campaign.
    pub const ALL: [&str; 18] = [
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
        // The turn's books (`formats::books`).
        "sieges.csv",
        "siege-trains.csv",
        "revolts.csv",
        "occupation.csv",
        "campaign-years.csv",
        "intelligence.csv",
        "juntas.csv",
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
pub const COMMANDER_COLUMNS: [&str; 5] = ["name", "side", "battles_fought", "battles_won", "status"];

/// Columns of `map/battle-maps.csv`.
pub const BATTLE_MAP_COLUMNS: [&str; 4] = ["hex", "map", "orientation", "battle"];

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

use crate::model::limits::{MAX_TURN, MAX_UNIT_GUNS, MAX_UNIT_MEN, MAX_UNIT_SQUADRONS};

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

fn hex_on_map<'a, S: RowSource<'a>>(
    f: &mut Fields<'a, S>,
    name: impl ColumnRef,
    grid: &HexGrid,
    required: bool,
) -> Option<HexId> {
    let t = f.text(name);
    if t.is_empty() {
        if required {
            f.problem(name.label(), "is empty");
        }
        return None;
    }
    let h = match t.parse::<HexId>() {
        Ok(h) => h,
        Err(e) => {
            f.problem(name.label(), e.in_spreadsheet());
            return None;
        }
    };
    if !grid.contains(h) {
        f.problem(
            name.label(),
            format!("hex {h} is outside the map ({} columns, {} rows)", grid.columns, grid.rows),
        );
        return None;
    }
    Some(h)
}

fn parse_hexes(t: &Table, grid: &HexGrid, p: &mut Problems) -> BTreeMap<HexId, HexInfo> {
    let mut out = BTreeMap::new();
    if !t.require(&["hex", "terrain"], p) {
        return out;
    }
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let hex = hex_on_map(&mut f, "hex", grid, true);
        let terrain = match f.text("terrain").to_ascii_lowercase().as_str() {
            "" | "low" => Terrain::Low,
            "high" => Terrain::High,
            other => {
                f.problem("terrain", format!("'{other}' is not low or high"));
                Terrain::Low
            }
        };
        let forest = f.flag("forest");
        let notes = f.text("notes").to_string();
        if let Some(h) = hex
            && out.insert(h, HexInfo { terrain, forest, notes }).is_some()
        {
            f.problem("hex", format!("hex {h} is listed twice"));
        }
    }
    out
}

fn parse_sides<V>(
    t: &Table,
    grid: &HexGrid,
    value_col: &str,
    p: &mut Problems,
    mut value: impl FnMut(&mut Fields<'_>) -> Option<V>,
) -> BTreeMap<Side2, V> {
    let mut out = BTreeMap::new();
    if !t.require(&["from", "to", value_col], p) {
        return out;
    }
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let a = hex_on_map(&mut f, "from", grid, true);
        let b = hex_on_map(&mut f, "to", grid, true);
        let v = value(&mut f);
        if let (Some(a), Some(b)) = (a, b) {
            if !grid.adjacent(a, b) {
                f.problem("to", format!("{a} and {b} are not adjacent hexes"));
                continue;
            }
            if let Some(v) = v
                && out.insert(Side2::new(a, b), v).is_some()
            {
                f.problem("to", format!("the side {a}-{b} is listed twice"));
            }
        }
    }
    out
}

fn parse_settlements(t: &Table, grid: &HexGrid, p: &mut Problems) -> Vec<Settlement> {
    let mut out: Vec<Settlement> = Vec::new();
    if !t.require(&["name", "hex", "kind", "control"], p) {
        return out;
    }
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let name = f.text("name").to_string();
        if name.is_empty() {
            f.problem("name", "is empty");
        }
        let hex = hex_on_map(&mut f, "hex", grid, true);
        let kind = f.req("kind");
        let port = f.flag("port");
        let depot = f.flag("depot");
        let control = match f.text("control") {
            "-" => Some(Control::Unrest),
            "" => {
                f.problem("control", "is empty (Fr, Sp, Po, Br or -)");
                None
            }
            other => match other.parse::<Nation>() {
                Ok(n) => Some(Control::Nation(n)),
                Err(e) => {
                    f.problem("control", e);
                    None
                }
            },
        };
        let invested_by = f.opt::<Nation>("invested_by");
        let citadel = f.flag("citadel");
        let overrule = match f.text("overrule") {
            "" => None,
            "-" => Some(Control::Unrest),
            other => match other.parse::<Nation>() {
                Ok(n) => Some(Control::Nation(n)),
                Err(e) => {
                    f.problem("overrule", e);
                    None
                }
            },
        };
        // Without a region column, France's places are north of the Pyrenees (2.1.1).
        let region = match f.text("region") {
            "" if f.text("province").eq_ignore_ascii_case("France") => Some(Region::North),
            "" => Some(Region::South),
            _ => f.req::<Region>("region"),
        };
        if let (Some(hex), Some(kind), Some(control), Some(region)) = (hex, kind, control, region) {
            if out.iter().any(|s| s.name == name && s.hex == hex) {
                f.problem("name", format!("{name} at {hex} is listed twice"));
                continue;
            }
            out.push(Settlement {
                name,
                hex,
                kind,
                port,
                depot,
                province: f.text("province").to_string(),
                control,
                invested_by,
                citadel,
                region,
                overrule,
            });
        }
    }
    out
}

fn parse_commanders(t: &Table, p: &mut Problems) -> (Vec<Commander>, Vec<String>) {
    let mut out: Vec<Commander> = Vec::with_capacity(t.rows.len());
    // Names already read, so that a duplicate is found without a walk over every row.
    let mut seen: IdMap<&str, ()> = IdMap::with_capacity_and_hasher(t.rows.len(), Default::default());
    let extra_cols = t.extra_columns(&COMMANDER_COLUMNS);
    if !t.require(&["name", "side"], p) {
        return (out, extra_cols);
    }
    let [c_name, c_side, c_fought, c_won, c_status] = COMMANDER_COLUMNS.map(|n| t.column(n));
    for row in &t.rows {
        let name = t.text(row, c_name);
        let mut f = Fields::new(t, row, p);
        if name.is_empty() {
            f.problem("name", "is empty");
            continue;
        }
        let side: Option<Side> = f.req(c_side);
        let fought = f.count(c_fought).unwrap_or(0);
        let won = f.count(c_won).unwrap_or(0);
        if won > fought {
            f.problem("battles_won", format!("{won} battles won but only {fought} fought"));
        }
        if seen.insert(name, ()).is_some() {
            f.problem("name", format!("commander '{name}' is listed twice"));
            continue;
        }
        let extra = if extra_cols.is_empty() { Vec::new() } else { f.texts(&extra_cols) };
        if let Some(side) = side {
            out.push(Commander {
                name: name.to_string(),
                side,
                battles_fought: fought,
                battles_won: won,
                status: f.text(c_status).to_string(),
                extra,
            });
        }
    }
    (out, extra_cols)
}

fn parse_battle_maps(t: &Table, grid: &HexGrid, p: &mut Problems) -> BTreeMap<HexId, BattleMapChoice> {
    let mut out = BTreeMap::new();
    if !t.require(&["hex", "map", "orientation"], p) {
        return out;
    }
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let hex = hex_on_map(&mut f, "hex", grid, true);
        let map = f.text("map").to_string();
        if map.is_empty() {
            f.problem("map", "is empty");
        }
        let orientation = f.req_count("orientation").and_then(|o| match u16::try_from(o) {
            Ok(o @ (0 | 90 | 180 | 270)) => Some(o),
            _ => {
                f.problem("orientation", format!("{o} is not 0, 90, 180 or 270"));
                None
            }
        });
        if let (Some(hex), Some(orientation)) = (hex, orientation) {
            out.insert(hex, BattleMapChoice { map, orientation, battle: f.text("battle").to_string() });
        }
    }
    out
}

/// The rows of `forces.csv` as read, before the tree is checked.
#[derive(Debug, Default)]
struct ForceRows {
    units: Vec<Unit>,
    /// The line of each unit.
    lines: Vec<u32>,
    extra_cols: Vec<String>,
    /// How the file was saved.
    dialect: Dialect,
}

/// One record of `forces.csv` with its known columns picked out, in [`FORCE_COLUMNS`] order
/// ("" where the file has no such column).
#[derive(Debug, Clone, Copy)]
struct ForceRecord<'r> {
    line: u64,
    known: &'r [&'r str; FORCE_COLUMNS.len()],
}

impl<'r> RowSource<'r> for ForceRecord<'r> {
    fn file(&self) -> &'r str {
        names::FORCES
    }
    fn line(&self) -> u64 {
        self.line
    }
    fn column(&self, name: &str) -> Option<usize> {
        FORCE_COLUMNS.iter().position(|c| *c == name)
    }
    fn field(&self, i: usize) -> &'r str {
        self.known.get(i).copied().unwrap_or("")
    }
}

/// Where `forces.csv` comes from.
#[derive(Debug, Clone, Copy)]
enum ForcesSource<'f> {
    /// Its bytes.
    Bytes(&'f [u8]),
    /// The file, read as it is parsed.
    File(&'f std::path::Path),
}

/// Reads `forces.csv` into units (row-level checks only).
fn parse_forces(src: ForcesSource<'_>, grid: &HexGrid, p: &mut Problems) -> ForceRows {
    match src {
        ForcesSource::Bytes(bytes) => {
            let (text, encoding) = decode(bytes);
            let Some(records) = Records::open(names::FORCES, &text, encoding, p) else {
                return ForceRows::default();
            };
            // Decoded text is never undecidable.
            build_forces(records, bytes.len() as u64, grid, p).unwrap_or_default()
        }
        ForcesSource::File(path) => {
            let cannot = |p: &mut Problems, e: std::io::Error| {
                p.push(Problem::in_file(names::FORCES, format!("cannot read {}: {e}", path.display())));
                ForceRows::default()
            };
            let (file, size) = match std::fs::File::open(path).and_then(|f| Ok((f.metadata()?.len(), f))) {
                Ok((size, f)) => (f, size),
                Err(e) => return cannot(p, e),
            };
            // Problems are kept apart until the file's encoding is settled.
            let mut fp = Problems::default();
            let Some(records) = Records::stream(names::FORCES, file, &mut fp) else {
                p.0.extend(fp.0);
                return ForceRows::default();
            };
            let rows = if records.undecidable() { None } else { build_forces(records, size, grid, &mut fp) };
            match rows {
                Some(rows) => {
                    p.0.extend(fp.0);
                    rows
                }
                // Records in UTF-8, then one that is not: the whole file decides, as it does
                // for every other file.
                None => match std::fs::read(path) {
                    Ok(bytes) => parse_forces(ForcesSource::Bytes(&bytes), grid, p),
                    Err(e) => cannot(p, e),
                },
            }
        }
    }
}

/// Rows of `forces.csv` handed from the reading thread to the building one at a time.
const BATCH_ROWS: usize = 256;
/// A file smaller than this (bytes) is read and built on one thread: handing batches
/// between threads costs more than it saves.
const THREADED_FROM: u64 = 1 << 22;
/// Batches read ahead of the building thread at most.
const BATCHES_AHEAD: usize = 4;

/// Builds the units of `forces.csv` from its records. A large order of battle has hundreds
/// of thousands of rows, so the work is split in two: one thread reads the CSV records into
/// batches while this one builds units from them, in file order (a file of `size` bytes
/// under [`THREADED_FROM`] is done on this thread alone). `None` when the records
/// turned out to be in an encoding only the whole file can decide.
fn build_forces<R: std::io::Read + Send>(
    mut records: Records<'_, R>,
    size: u64,
    grid: &HexGrid,
    p: &mut Problems,
) -> Option<ForceRows> {
    let mut out = ForceRows { dialect: records.dialect(), ..ForceRows::default() };
    let headers = records.headers.clone();
    out.extra_cols = headers.iter().filter(|h| !FORCE_COLUMNS.contains(&h.as_str())).cloned().collect();
    let sep = out.dialect.separator;
    if !require_columns(names::FORCES, &headers, sep, &["id", "parent", "level", "name", "nation", "men"], p)
    {
        return Some(out);
    }
    if size < THREADED_FROM {
        let build = UnitBuilder::new(&headers, grid);
        while let Some((line, rec)) = records.next_record(p) {
            build.row(line, rec, &mut out, p);
        }
        out.dialect = records.dialect();
        return (!records.undecidable()).then_some(out);
    }
    let undecidable = std::thread::scope(|s| {
        let (full_tx, full_rx) = mpsc::sync_channel::<RecordBatch>(BATCHES_AHEAD);
        let (empty_tx, empty_rx) = mpsc::channel::<RecordBatch>();
        let reader = s.spawn(move || {
            let mut problems = Problems::default();
            loop {
                let mut batch = empty_rx.try_recv().unwrap_or_default();
                let more = records.fill_batch(&mut batch, BATCH_ROWS, &mut problems);
                // The builder stops only by panicking; its panic is the one to report.
                if full_tx.send(batch).is_err() || !more {
                    break;
                }
            }
            (problems, records.undecidable(), records.dialect())
        });
        let build = UnitBuilder::new(&headers, grid);
        for batch in full_rx {
            for (line, rec) in batch.iter() {
                build.row(line, rec, &mut out, p);
            }
            // The reader may be done and gone; the batch is then simply dropped.
            let _ = empty_tx.send(batch);
        }
        match reader.join() {
            Ok((problems, undecidable, dialect)) => {
                p.0.extend(problems.0);
                out.dialect = dialect;
                undecidable
            }
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    (!undecidable).then_some(out)
}

/// Builds units from the rows of `forces.csv`, with the columns placed once.
struct UnitBuilder<'g> {
    grid: &'g HexGrid,
    /// For each field of a record: the known column it is (its first occurrence), if any.
    slot: Vec<Option<usize>>,
    /// For each field of a record: whether it is one of the umpire's own columns.
    is_extra: Vec<bool>,
    extras: usize,
}

impl<'g> UnitBuilder<'g> {
    fn new(headers: &[String], grid: &'g HexGrid) -> Self {
        let mut slot: Vec<Option<usize>> = vec![None; headers.len()];
        for (k, name) in FORCE_COLUMNS.iter().enumerate() {
            if let Some(i) = headers.iter().position(|h| h == name) {
                slot[i] = Some(k);
            }
        }
        let is_extra: Vec<bool> = headers.iter().map(|h| !FORCE_COLUMNS.contains(&h.as_str())).collect();
        let extras = is_extra.iter().filter(|&&x| x).count();
        UnitBuilder { grid, slot, is_extra, extras }
    }

    /// Reads one row: a unit, or problems.
    fn row(&self, line: u64, rec: &csv::StringRecord, out: &mut ForceRows, p: &mut Problems) {
        let grid = self.grid;
        let [
            c_id,
            c_parent,
            c_level,
            c_name,
            c_commander,
            c_nation,
            c_arm,
            c_men,
            c_squadrons,
            c_guns,
            c_hex,
            c_moving_to,
            c_depot,
            c_supply,
            c_quality,
            c_ammo,
            c_status,
        ] = std::array::from_fn(|k| Col { idx: Some(k), name: FORCE_COLUMNS[k] });
        let mut known = [""; FORCE_COLUMNS.len()];
        let mut extra = Vec::new();
        for (i, field) in rec.iter().map(str::trim_ascii).enumerate() {
            if let Some(&Some(k)) = self.slot.get(i) {
                known[k] = field;
            } else if self.is_extra.get(i) == Some(&true) {
                extra.push(field.to_string());
            }
        }
        if extra.len() < self.extras {
            extra.resize(self.extras, String::new());
        }
        let mut f = Fields::over(ForceRecord { line, known: &known }, p);
        let id = f.id(c_id);
        if id.is_empty() {
            f.problem("id", "is empty");
            return;
        }
        if id.bytes().any(|b| b.is_ascii_whitespace() || b == b';')
            || (!id.is_ascii() && id.contains(char::is_whitespace))
        {
            f.problem("id", format!("'{id}' contains a space or ';'"));
        }
        let parent = f.id(c_parent);
        let level: Option<Level> = f.req(c_level);
        let nation: Option<Nation> = f.req(c_nation);
        let arm: Option<Arm> = f.opt(c_arm);
        let men = f.count_at_most(c_men, MAX_UNIT_MEN, "one row's men");
        let squadrons = f.count_at_most(c_squadrons, MAX_UNIT_SQUADRONS, "one row's squadrons");
        let guns = f.count_at_most(c_guns, MAX_UNIT_GUNS, "one row's guns");
        let hex = hex_on_map(&mut f, c_hex, grid, false);
        let moving_to = hex_on_map(&mut f, c_moving_to, grid, false);
        let supply = f.opt::<Supply>(c_supply).unwrap_or(Supply::In);
        let quality = f.opt(c_quality);
        let ammo = f.count(c_ammo);
        if let Some(a) = ammo
            && a > 100
        {
            f.problem("ammo", format!("{a} is above 100 (per cent of a full load)"));
        }
        let status = match parse_status_list(f.text(c_status)) {
            Ok(s) => s,
            Err(e) => {
                f.problem("status", e);
                Vec::new()
            }
        };
        let (Some(level), Some(nation)) = (level, nation) else { return };
        if level.is_formation() {
            if arm.is_some() {
                f.problem("arm", format!("a {level} is a formation and has no arm of its own"));
            }
            if men.unwrap_or(0) > 0 || guns.unwrap_or(0) > 0 {
                f.problem(
                    "men",
                    format!("a {level} counts the men and guns of its units; leave men and guns empty"),
                );
            }
        } else {
            match arm {
                None if f.text(c_arm).is_empty() => f.problem("arm", format!("a {level} needs an arm")),
                Some(a) => {
                    let ok = match level {
                        Level::Battalion => a.class() == ArmClass::Infantry,
                        Level::Regiment | Level::Squadron => a.class() == ArmClass::Cavalry,
                        Level::Battery => a.class() == ArmClass::Artillery,
                        _ => true,
                    };
                    if !ok {
                        f.problem("arm", format!("a {level} cannot be {a}"));
                    }
                    if a.class() != ArmClass::Artillery && guns.unwrap_or(0) > 0 {
                        f.problem("guns", format!("guns on a {a} unit: only artillery has guns"));
                    }
                    if a.class() == ArmClass::Cavalry
                        && squadrons.unwrap_or(0) == 0
                        && level != Level::Squadron
                    {
                        f.problem("squadrons", "cavalry needs its number of squadrons");
                    }
                    if a.class() != ArmClass::Cavalry && squadrons.unwrap_or(0) > 0 {
                        f.problem(
                            "squadrons",
                            format!("squadrons on a {a} unit: only cavalry has squadrons"),
                        );
                    }
                }
                None => {}
            }
            if men.is_some_and(|m| m == 0) || (men.is_none() && f.text(c_men).is_empty()) {
                f.problem("men", format!("a {level} without men"));
            }
        }
        if !parent.is_empty() {
            for col in [c_hex, c_moving_to, c_depot] {
                if !f.text(col).is_empty() {
                    f.problem(col.name, "only a top-level force (no parent) stands on the map");
                }
            }
        }
        let squadrons = match (level, arm.map(Arm::class)) {
            (Level::Squadron, Some(ArmClass::Cavalry)) => squadrons.unwrap_or(1),
            _ => squadrons.unwrap_or(0),
        };
        let optional = |s: &str| (!s.is_empty()).then(|| CompactString::from(s));
        let given = |s: &str| (!s.is_empty()).then(|| s.to_string());
        let rare =
            Rare { commander: given(f.text(c_commander)), depot: given(f.text(c_depot)), status, extra };
        out.units.push(Unit {
            id: CompactString::from(id),
            parent: optional(parent),
            level,
            name: CompactString::from(f.text(c_name)),
            nation,
            arm,
            men: men.unwrap_or(0),
            squadrons,
            guns: guns.unwrap_or(0),
            hex,
            moving_to,
            supply,
            quality,
            ammo: ammo.map(|a| a.min(100) as u8),
            rare: rare.boxed(),
        });
        // A file of more than 4 billion lines cannot be held in memory in the first place.
        out.lines.push(u32::try_from(line).unwrap_or(u32::MAX));
    }
}

/// What the order of battle may refer to in the other files. A file that was not read
/// whole (see [`Table::whole`]) is `None` and references into it are not checked, since its
/// own problems say why; a name listed on a row refused for another reason is not reported
/// unknown either. One cause, one message.
#[derive(Debug, Default)]
struct Listed {
    /// Every name on a row of `settlements.csv`.
    settlements: Option<BTreeSet<String>>,
    /// Every name on a row of `commanders.csv`.
    commanders: Option<BTreeSet<String>>,
}

/// Checks the tree: duplicate ids, unknown parents, cycles, sides, levels, hexes, commanders.
/// It walks the order of battle's own indexes (by id, first row of an id winning).
fn validate_tree(
    oob: &OrderOfBattle,
    lines: &[u32],
    map: &CampaignMap,
    commanders: &[Commander],
    listed: &Listed,
    p: &mut Problems,
) {
    let file = names::FORCES;
    let rows = oob.units();
    for &(row, first) in oob.duplicates() {
        p.push(Problem::at(
            file,
            u64::from(lines[row]),
            "id",
            format!("duplicate id '{}' (first on line {})", rows[row].id, lines[first]),
        ));
    }
    let endless = endless_ancestry(oob);
    let hex_refused: BTreeSet<u64> =
        p.0.iter()
            .filter(|x| x.file == file && x.field.as_deref() == Some("hex"))
            .filter_map(|x| x.line)
            .collect();
    // Ids made of digits, by their number: built at the first unknown parent, if any.
    let mut lost_zeros: Option<IdMap<&str, &str>> = None;
    // Commanders and settlements by name: one lookup per row, not a walk over the list.
    let mut commander_by_name: IdMap<&str, &Commander> =
        IdMap::with_capacity_and_hasher(commanders.len(), Default::default());
    for c in commanders {
        commander_by_name.entry(c.name.as_str()).or_insert(c);
    }
    for (i, u) in rows.iter().enumerate() {
        let line = u64::from(lines[i]);
        match &u.parent {
            Some(pid) => match oob.parent_row(i).map(|k| &rows[k]) {
                None => {
                    let zeros = lost_zeros.get_or_insert_with(|| ids_by_number(oob));
                    let hint = match zeros.get(pid.trim_start_matches('0')) {
                        Some(id) if pid.bytes().all(|b| b.is_ascii_digit()) => format!(
                            " (there is a row '{id}': Excel drops the leading zeros of ids that look like \
                             numbers; format the id and parent columns as Text)"
                        ),
                        _ => String::new(),
                    };
                    p.push(Problem::at(file, line, "parent", format!("unknown parent '{pid}'{hint}")));
                }
                Some(parent) => {
                    if !parent.level.is_formation() {
                        p.push(Problem::at(
                            file,
                            line,
                            "parent",
                            format!("parent '{pid}' is a {}, which cannot command other rows", parent.level),
                        ));
                    } else if u.level.is_formation() && u.level.rank() <= parent.level.rank() {
                        p.push(Problem::at(
                            file,
                            line,
                            "level",
                            format!("a {} cannot stand under a {} ('{pid}')", u.level, parent.level),
                        ));
                    }
                    if parent.side() != u.side() {
                        p.push(Problem::at(
                            file,
                            line,
                            "nation",
                            format!("{} ({}) is under '{pid}' of the other side", u.id, u.nation),
                        ));
                    }
                }
            },
            None => {
                // A hex refused as written already has its problem.
                if u.hex.is_none() && !hex_refused.contains(&line) {
                    p.push(Problem::at(file, line, "hex", format!("force '{}' has no hex", u.id)));
                }
                // A march off road halts with its next hex as `moving_to` too (`move`).
                if let (Some(h), Some(m)) = (u.hex, u.moving_to)
                    && !map.grid.adjacent(h, m)
                {
                    p.push(Problem::at(file, line, "moving_to", format!("{m} is not adjacent to {h}")));
                }
                if let Some(d) = u.depot()
                    && listed.settlements.as_ref().is_some_and(|names| !names.contains(d))
                {
                    p.push(Problem::at(file, line, "depot", format!("unknown settlement '{d}'")));
                }
            }
        }
        if let Some(c) = u.commander() {
            match commander_by_name.get(c) {
                None if listed.commanders.as_ref().is_none_or(|names| names.contains(c)) => {}
                None => {
                    p.push(Problem::at(file, line, "commander", format!("'{c}' is not in commanders.csv")))
                }
                Some(cm) if cm.side != u.side() => p.push(Problem::at(
                    file,
                    line,
                    "commander",
                    format!("'{c}' fights for the {} but commands a unit of the {}", cm.side, u.side()),
                )),
                Some(_) => {}
            }
            if u.is_unit() {
                p.push(Problem::at(
                    file,
                    line,
                    "commander",
                    "units have no commanding general; leave it empty",
                ));
            }
        }
        if endless[i] {
            p.push(Problem::at(file, line, "parent", format!("'{}' is its own ancestor (a cycle)", u.id)));
        }
    }
}

/// The ids made only of digits, by their digits without leading zeros: where a parent that
/// Excel shortened (`101` for `0101`) most likely points.
fn ids_by_number(oob: &OrderOfBattle) -> IdMap<&str, &str> {
    oob.units()
        .iter()
        .map(|u| u.id.as_str())
        .filter(|id| id.bytes().all(|b| b.is_ascii_digit()))
        .map(|id| (id.trim_start_matches('0'), id))
        .collect()
}

/// For each row, whether its walk up through the parents never ends (it is on a cycle or
/// leads into one). Each row is walked once: a walk stops at a row already judged.
fn endless_ancestry(oob: &OrderOfBattle) -> Vec<bool> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Unseen,
        OnWalk,
        Ends,
        Endless,
    }
    let n = oob.units().len();
    let mut state = vec![State::Unseen; n];
    let mut walk = Vec::new();
    for start in 0..n {
        let mut cur = start;
        let verdict = loop {
            match state[cur] {
                State::Ends => break State::Ends,
                State::Endless | State::OnWalk => break State::Endless,
                State::Unseen => {}
            }
            state[cur] = State::OnWalk;
            walk.push(cur);
            match oob.parent_row(cur) {
                Some(next) => cur = next,
                None => break State::Ends,
            }
        };
        for i in walk.drain(..) {
            state[i] = verdict;
        }
    }
    state.into_iter().map(|s| s == State::Endless).collect()
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
    let roads =
        parse_sides(&roads_t, grid, "class", p, |f| match f.text("class").to_ascii_lowercase().as_str() {
            "major" | "" => Some(RoadClass::Major),
            "secondary" | "minor" => Some(RoadClass::Secondary),
            other => {
                f.problem("class", format!("'{other}' is not major or secondary"));
                None
            }
        });
    let rivers =
        parse_sides(&table(names::RIVERS, p, true), grid, "name", p, |f| Some(f.text("name").to_string()));
    let settlements_t = table(names::SETTLEMENTS, p, true);
    let settlements = parse_settlements(&settlements_t, grid, p);
    let commanders_t = table(names::COMMANDERS, p, true);
    let (commanders, commander_columns) = parse_commanders(&commanders_t, p);
    let names_in = |t: &Table| -> Option<BTreeSet<String>> {
        t.whole(&["name"]).then(|| t.rows.iter().map(|r| t.text(r, "name").to_string()).collect())
    };
    let listed = Listed { settlements: names_in(&settlements_t), commanders: names_in(&commanders_t) };
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

/// Parses and validates a whole campaign. Every problem is collected.
pub fn parse_campaign(files: &CampaignFiles) -> Result<Campaign, Problems> {
    let mut p = Problems::default();
    let config = required(files, names::CAMPAIGN, &mut p).and_then(|b| parse_config(b, &mut p));
    let rules = parse_rules(files.get(names::RULES), &mut p);
    let Some(config) = config else { return Err(p) };
    let grid = config.map.grid();
    // The order of battle is by far the largest file: it is read and indexed on threads of
    // its own while this one reads the rest.
    let forces_src = match (files.get(names::FORCES), &files.forces_path) {
        (Some(b), _) => Some(ForcesSource::Bytes(b)),
        (None, Some(path)) => Some(ForcesSource::File(path)),
        (None, None) => required(files, names::FORCES, &mut p).map(ForcesSource::Bytes),
    };
    let (rest, oob, lines) = std::thread::scope(|s| {
        let forces = s.spawn(|| {
            let mut fp = Problems::default();
            let (oob, lines, dialect) = match forces_src.map(|src| parse_forces(src, &grid, &mut fp)) {
                Some(f) => (OrderOfBattle::new(f.units, f.extra_cols), f.lines, Some(f.dialect)),
                None => (OrderOfBattle::default(), Vec::new(), None),
            };
            (oob, lines, dialect, fp)
        });
        let rest = parse_rest(files, &grid, &mut p);
        let (oob, lines, dialect, fp) =
            forces.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        p.0.extend(fp.0);
        let mut rest = rest;
        if let Some(d) = dialect {
            rest.dialects.insert(names::FORCES, d);
        }
        (rest, oob, lines)
    });
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
    let map = CampaignMap { grid, hexes, roads, rivers, settlements };
    validate_tree(&oob, &lines, &map, &commanders, &listed, &mut p);
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
    let total: u64 = oob.units().iter().map(|u| u64::from(u.men)).sum();
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
        dialects,
    })
}

/// Writes `forces.csv` (known columns, then the umpire's own). Each field is formatted
/// into a buffer kept from row to row: a large order of battle has hundreds of thousands of
/// rows, and a string per field would be millions of allocations. Written in the dialect
/// given (the one the file was read in).
pub fn write_forces(oob: &OrderOfBattle, dialect: Dialect) -> Vec<u8> {
    /// A whole number, without the formatting machinery (millions of them).
    fn push_u32(buf: &mut String, mut n: u32) {
        let mut digits = [0u8; 10];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &d in &digits[at..] {
            buf.push(char::from(d));
        }
    }
    fn push_hex(buf: &mut String, h: Option<HexId>) {
        if let Some(h) = h {
            // Writing into a String cannot fail.
            let _ = write!(buf, "{h}");
        }
    }
    let mut w = dialect.writer().from_writer(Vec::with_capacity(oob.units().len() * 64));
    let head: Vec<&str> =
        FORCE_COLUMNS.iter().copied().chain(oob.extra_columns.iter().map(String::as_str)).collect();
    // Writing into a Vec<u8> cannot fail.
    let _ = w.write_record(&head);
    let mut f: [String; FORCE_COLUMNS.len()] = Default::default();
    for u in oob.units() {
        for b in &mut f {
            b.clear();
        }
        f[0].push_str(&u.id);
        f[1].push_str(u.parent.as_deref().unwrap_or(""));
        f[2].push_str(u.level.word());
        f[3].push_str(&u.name);
        f[4].push_str(u.commander().unwrap_or(""));
        f[5].push_str(u.nation.word());
        f[6].push_str(u.arm.map_or("", Arm::word));
        if u.is_unit() {
            push_u32(&mut f[7], u.men);
        }
        if u.squadrons != 0 {
            push_u32(&mut f[8], u.squadrons);
        }
        if u.guns != 0 {
            push_u32(&mut f[9], u.guns);
        }
        push_hex(&mut f[10], u.hex);
        push_hex(&mut f[11], u.moving_to);
        f[12].push_str(u.depot().unwrap_or(""));
        if u.parent.is_none() {
            f[13].push_str(u.supply.word());
        }
        f[14].push_str(u.quality.map_or("", Quality::word));
        if let Some(a) = u.ammo {
            push_u32(&mut f[15], u32::from(a));
        }
        for (k, st) in u.status().iter().enumerate() {
            if k > 0 {
                f[16].push(';');
            }
            let _ = write!(f[16], "{st}");
        }
        let _ = w.write_record(f.iter().map(String::as_bytes).chain(u.extra().iter().map(String::as_bytes)));
    }
    dialect.encode(w.into_inner().unwrap_or_default())
}

/// Writes `commanders.csv` in the dialect given.
pub fn write_commanders(commanders: &[Commander], extra_cols: &[String], dialect: Dialect) -> Vec<u8> {
    write_csv(
        dialect,
        &COMMANDER_COLUMNS,
        extra_cols,
        commanders.iter().map(|c| {
            let mut r = vec![
                c.name.clone(),
                c.side.to_string(),
                c.battles_fought.to_string(),
                c.battles_won.to_string(),
                c.status.clone(),
            ];
            r.extend(c.extra.iter().cloned());
            r
        }),
    )
}

/// Writes `map/battle-maps.csv` in the dialect given.
pub fn write_battle_maps(maps: &BTreeMap<HexId, BattleMapChoice>, dialect: Dialect) -> Vec<u8> {
    write_csv(
        dialect,
        &BATTLE_MAP_COLUMNS,
        &[],
        maps.iter()
            .map(|(h, c)| vec![h.to_string(), c.map.clone(), c.orientation.to_string(), c.battle.clone()]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `forces.csv` of many batches, with a bad row now and then.
    fn many_rows() -> String {
        let mut s = FORCE_COLUMNS.join(",") + ",note\n";
        for i in 0..1500 {
            s.push_str(&format!("F{i},,division,Division {i},,Fr,,,,,10.10,,,in,,,,kept {i}\n"));
            let men = if i % 97 == 0 { "many".to_string() } else { (300 + i % 400).to_string() };
            s.push_str(&format!("F{i}-1,F{i},battalion,Battalion {i},,Fr,line,{men},,,,,,,,,\n"));
            if i % 211 == 0 {
                s.push('\n');
            }
        }
        s
    }

    fn read(text: &str, size: u64) -> (Option<ForceRows>, Vec<String>) {
        let grid = HexGrid { columns: 64, rows: 48, layout: Default::default() };
        let mut p = Problems::default();
        let records =
            Records::open(names::FORCES, text, crate::formats::text::Encoding::Utf8, &mut p).unwrap();
        let rows = build_forces(records, size, &grid, &mut p);
        let mut problems: Vec<String> = p.0.iter().map(ToString::to_string).collect();
        problems.sort();
        (rows, problems)
    }

    #[test]
    fn the_threaded_reader_builds_what_one_thread_builds() {
        let text = many_rows();
        let (one, one_problems) = read(&text, 0);
        let (two, two_problems) = read(&text, u64::MAX);
        let (one, two) = (one.unwrap(), two.unwrap());
        assert_eq!(one.units.len(), 3000);
        assert_eq!(one.units, two.units);
        assert_eq!(one.lines, two.lines);
        assert_eq!(one.extra_cols, ["note"]);
        assert_eq!(one.units[0].extra(), ["kept 0"]);
        assert_eq!(one_problems.len(), 16);
        assert!(one_problems[0].contains("'many' is not a whole number"), "{one_problems:?}");
        assert_eq!(one_problems, two_problems);
    }
}
