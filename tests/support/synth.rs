//! Synthetic campaigns for measuring sowbridge at scale: a valid campaign folder on the
//! Peninsular map (64 x 48 hexes, even columns down) with any number of top-level forces,
//! each a full order of battle down to battalions, cavalry regiments and batteries.
//!
//! Shared by `examples/gen_campaign.rs`, `examples/bench.rs` and the integration tests
//! (included with `#[path]`), so it is not part of the library's API.
//!
//! The layout is fixed so that the contacts are known in advance: the French stand in
//! columns 00-26, the Allies in columns 36-63, and the columns between are empty but for
//! the contacts. Each contact is a French hex and the Allied hex east of it, joined by an
//! east-west road; one French force there marches into the Allied hex (`moving_to`), so
//! `export hex` can tell the attacker. Contacts sit three rows apart on two lines (French
//! 29 / Allies 30 and French 32 / Allies 33), far enough apart to form separate groups.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rand::prelude::*;
use rand_chacha::ChaCha8Rng;
use sowbridge::formats::campaign::{CampaignFiles, names};
use sowbridge::model::{HexGrid, HexId, HexLayout};

/// Map extent: the Peninsular map.
pub const COLUMNS: u16 = 64;
/// Map extent: the Peninsular map.
pub const ROWS: u16 = 48;
/// Most contacts the layout has room for (16 rows on each of two lines).
pub const MAX_CONTACTS: usize = 32;

const FRENCH_COLS: std::ops::RangeInclusive<u16> = 0..=26;
const ALLIED_COLS: std::ops::RangeInclusive<u16> = 36..=63;
const CONTACT_LINES: [(u16, u16); 2] = [(29, 30), (32, 33)];

/// What to generate.
#[derive(Debug, Clone)]
pub struct SynthOptions {
    /// Top-level forces, both sides together (at least 2).
    pub forces: usize,
    /// Seed: the same options give the same bytes.
    pub seed: u64,
    /// Groups of forces in contact; `None` picks `forces / 20` within 2..=32.
    pub contacts: Option<usize>,
}

impl SynthOptions {
    /// Options for `forces` forces with the default contacts.
    pub fn new(forces: usize, seed: u64) -> Self {
        SynthOptions { forces, seed, contacts: None }
    }
}

/// A generated campaign and what is known of it.
#[derive(Debug, Clone)]
pub struct Synth {
    /// The campaign files, as `sowbridge` reads them.
    pub files: CampaignFiles,
    /// Top-level forces.
    pub forces: usize,
    /// Rows of `forces.csv` (formations and units).
    pub rows: usize,
    /// One hex of each contact (the French hex), north to south, first line first.
    pub contact_hexes: Vec<HexId>,
}

impl Synth {
    /// Writes the campaign into a folder (created if needed).
    pub fn write_to(&self, dir: &Path) -> std::io::Result<()> {
        for (name, bytes) in &self.files.files {
            let p = dir.join(name);
            if let Some(parent) = p.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(p, bytes)?;
        }
        Ok(())
    }
}

struct Csv(Vec<u8>);

impl Csv {
    fn new(header: &str) -> Csv {
        Csv(format!("{header}\n").into_bytes())
    }
    fn row(&mut self, fields: &[&str]) {
        self.0.extend_from_slice(fields.join(",").as_bytes());
        self.0.push(b'\n');
    }
}

fn grid() -> HexGrid {
    HexGrid { columns: COLUMNS, rows: ROWS, layout: HexLayout::EvenColumnsDown }
}

fn side_key(a: HexId, b: HexId) -> (HexId, HexId) {
    if a <= b { (a, b) } else { (b, a) }
}

/// Rows of the contacts on each line.
fn contact_rows() -> impl Iterator<Item = u16> {
    (0..16).map(|k| 1 + 3 * k)
}

/// Generates a campaign.
pub fn generate(opts: &SynthOptions) -> Synth {
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let g = grid();
    let n = opts.forces.max(2);
    let contacts =
        opts.contacts.unwrap_or((n / 20).clamp(2, MAX_CONTACTS)).min(MAX_CONTACTS).min(n / 2).max(1);
    let contact_pairs: Vec<(HexId, HexId)> = CONTACT_LINES
        .iter()
        .flat_map(|&(fc, ac)| contact_rows().map(move |r| (HexId::new(fc, r), HexId::new(ac, r))))
        .take(contacts)
        .collect();

    // Roads: east-west every sixth row and on every contact row, north-south every sixth
    // column on each side's ground; every road row crosses every road column.
    let mut roads: BTreeMap<(HexId, HexId), &str> = BTreeMap::new();
    let road_rows: BTreeSet<u16> =
        (0..ROWS).step_by(6).chain(contact_pairs.iter().map(|p| p.0.row)).collect();
    for &r in &road_rows {
        let class = if r.is_multiple_of(12) { "major" } else { "secondary" };
        for c in 0..COLUMNS - 1 {
            roads.insert(side_key(HexId::new(c, r), HexId::new(c + 1, r)), class);
        }
    }
    let road_cols: Vec<u16> = (0..COLUMNS).step_by(6).filter(|c| !(27..36).contains(c)).collect();
    for &c in &road_cols {
        for r in 0..ROWS - 1 {
            roads.insert(side_key(HexId::new(c, r), HexId::new(c, r + 1)), "major");
        }
    }

    // Rivers: the borders between regions of the map, as lines of hex sides. Roads crossing
    // them make bridges.
    type Region = fn(HexId) -> bool;
    let river_defs: [(&str, Region); 3] =
        [("Rio Norte", |h| h.row <= 15), ("Rio Sur", |h| h.row <= 33), ("Rio Oeste", |h| h.col <= 9)];
    let mut rivers: BTreeMap<(HexId, HexId), &str> = BTreeMap::new();
    for (name, north) in river_defs {
        for c in 0..COLUMNS {
            for r in 0..ROWS {
                let h = HexId::new(c, r);
                for nb in g.neighbours(h) {
                    if h < nb && north(h) != north(nb) {
                        rivers.entry((h, nb)).or_insert(name);
                    }
                }
            }
        }
    }

    // Settlements at road crossings, friendly to the side whose ground they are on.
    let mut settlements = Csv::new("name,hex,kind,port,depot,province,control,invested_by,citadel");
    let mut french_depots = Vec::new();
    let mut allied_depots = Vec::new();
    let kinds = ["capital", "city", "fortress-city", "fortress-town", "town", "village"];
    for &r in road_rows.iter().filter(|r| r.is_multiple_of(6)) {
        for &c in &road_cols {
            let h = HexId::new(c, r);
            let name = format!("Villa {c:02}-{r:02}");
            let kind = kinds[rng.random_range(1..kinds.len())];
            let depot = rng.random_bool(0.4) || (c == 0 || c == 60);
            let control = if c <= 26 { "Fr" } else { ["Sp", "Po", "Br"][rng.random_range(0..3)] };
            if depot {
                if c <= 26 { french_depots.push(name.clone()) } else { allied_depots.push(name.clone()) }
            }
            let port = if c == 0 || c == 60 { "yes" } else { "" };
            settlements.row(&[
                &name,
                &h.to_string(),
                kind,
                port,
                if depot { "yes" } else { "" },
                &format!("Provincia {}", r / 12),
                control,
                "",
                "",
            ]);
        }
    }

    // Terrain: a sierra on every fifth column, some of it wooded.
    let mut hexes = Csv::new("hex,terrain,forest,notes");
    for c in (2..COLUMNS).step_by(5) {
        for r in 0..ROWS {
            if rng.random_bool(0.5) {
                let forest = if rng.random_bool(0.3) { "yes" } else { "" };
                hexes.row(&[&HexId::new(c, r).to_string(), "high", forest, &format!("Sierra {c}")]);
            }
        }
    }

    // Forces.
    let mut b = OobBuilder {
        rng: &mut rng,
        forces: Csv::new(&sowbridge::formats::campaign::FORCE_COLUMNS.join(",")),
        commanders: Csv::new("name,side,battles_fought,battles_won,status"),
        rows: 0,
        generals: 0,
        men_divisor: men_divisor(n),
    };
    let mut made = 0usize;
    let mut contact_hexes = Vec::new();
    for (k, &(fh, ah)) in contact_pairs.iter().enumerate() {
        contact_hexes.push(fh);
        let per_side = if n >= 6 * contacts { 1 + k % 3 } else { 1 };
        for i in 0..per_side {
            let moving = (i == 0).then_some(ah);
            b.force(made, true, fh, moving, &french_depots);
            made += 1;
        }
        for _ in 0..per_side {
            b.force(made, false, ah, None, &allied_depots);
            made += 1;
        }
    }
    // Everyone else on his own side's ground, a third of them sharing a hex already held.
    let mut held: [Vec<HexId>; 2] = [Vec::new(), Vec::new()];
    while made < n {
        let french = made.is_multiple_of(2);
        let s = usize::from(!french);
        let h = if !held[s].is_empty() && b.rng.random_bool(0.33) {
            held[s][b.rng.random_range(0..held[s].len())]
        } else {
            let cols = if french { FRENCH_COLS } else { ALLIED_COLS };
            HexId::new(b.rng.random_range(cols), b.rng.random_range(0..ROWS))
        };
        held[s].push(h);
        // Some march along a road towards their own rear, never towards the enemy.
        let rear = if french {
            h.col.checked_sub(1).map(|c| HexId::new(c, h.row))
        } else {
            Some(HexId::new(h.col + 1, h.row)).filter(|x| x.col < COLUMNS)
        };
        let moving = rear.filter(|&m| roads.contains_key(&side_key(h, m)) && b.rng.random_bool(0.3));
        b.force(made, french, h, moving, if french { &french_depots } else { &allied_depots });
        made += 1;
    }

    let mut road_csv = Csv::new("from,to,class");
    for ((a, c), class) in &roads {
        road_csv.row(&[&a.to_string(), &c.to_string(), class]);
    }
    let mut river_csv = Csv::new("from,to,name");
    for ((a, c), name) in &rivers {
        river_csv.row(&[&a.to_string(), &c.to_string(), name]);
    }
    let toml = format!(
        "# Synthetic campaign: {n} forces, {contacts} contacts, seed {seed}.\nname = \"Synthetic campaign {n}\"\nseed = {seed}\nturn = 20\nprofile = \"napmod-g1\"\n\n[map]\ncolumns = {COLUMNS}\nrows = {ROWS}\nlayout = \"even-columns-down\"\n\n[paths]\nsow_work = \"\"\ninbox = \"\"\n",
        seed = opts.seed
    );
    let rows = b.rows;
    let mut files = CampaignFiles::default();
    files.files.insert(names::CAMPAIGN, toml.into_bytes());
    files.files.insert(names::HEXES, hexes.0);
    files.files.insert(names::ROADS, road_csv.0);
    files.files.insert(names::RIVERS, river_csv.0);
    files.files.insert(names::SETTLEMENTS, settlements.0);
    files.files.insert(names::FORCES, b.forces.0);
    files.files.insert(names::COMMANDERS, b.commanders.0);
    Synth { files, forces: n, rows, contact_hexes }
}

/// Writes the order of battle row by row.
struct OobBuilder<'r> {
    rng: &'r mut ChaCha8Rng,
    forces: Csv,
    commanders: Csv,
    rows: usize,
    generals: usize,
    /// What every unit's men are divided by, so that the whole order of battle stays within
    /// the plausibility limit of men ([`sowbridge::model::limits::MAX_TOTAL_MEN`]).
    men_divisor: u32,
}

/// About 6,500 men a force at most (a corps of twenty rows): beyond what the limit of men
/// allows, every unit is made smaller by the same whole factor. The rows, the dice drawn and
/// every other figure stay as they are.
fn men_divisor(forces: usize) -> u32 {
    let most = forces as u64 * 6_500;
    most.div_ceil(sowbridge::model::limits::MAX_TOTAL_MEN).max(1) as u32
}

/// One row of `forces.csv` before it is written.
#[derive(Default)]
struct Row<'a> {
    id: &'a str,
    parent: &'a str,
    level: &'a str,
    name: String,
    commander: String,
    nation: &'a str,
    arm: &'a str,
    men: u32,
    squadrons: u32,
    guns: u32,
    hex: String,
    moving_to: String,
    depot: &'a str,
    supply: &'a str,
    quality: &'a str,
}

fn num(v: u32) -> String {
    if v == 0 { String::new() } else { v.to_string() }
}

impl OobBuilder<'_> {
    fn write(&mut self, r: Row<'_>) {
        let fields = [
            r.id.to_string(),
            r.parent.to_string(),
            r.level.to_string(),
            r.name,
            r.commander,
            r.nation.to_string(),
            r.arm.to_string(),
            num(r.men / self.men_divisor),
            num(r.squadrons),
            num(r.guns),
            r.hex,
            r.moving_to,
            r.depot.to_string(),
            r.supply.to_string(),
            r.quality.to_string(),
            String::new(),
            String::new(),
        ];
        let refs: Vec<&str> = fields.iter().map(String::as_str).collect();
        self.forces.row(&refs);
        self.rows += 1;
    }

    /// A new general for a formation, written to `commanders.csv`.
    fn general(&mut self, french: bool) -> String {
        self.generals += 1;
        let name = format!("General {:06}", self.generals);
        let fought = self.rng.random_range(0..8u32);
        let won = self.rng.random_range(0..=fought);
        self.commanders.row(&[
            &name,
            if french { "French" } else { "Allies" },
            &fought.to_string(),
            &won.to_string(),
            "",
        ]);
        name
    }

    /// A top-level force: a corps, an infantry or cavalry division, or a brigade.
    fn force(&mut self, i: usize, french: bool, hex: HexId, moving: Option<HexId>, depots: &[String]) {
        let nation = if french { "Fr" } else { ["Sp", "Po", "Br"][i % 3] };
        let id = format!("{}{i:06}", if french { "F" } else { "A" });
        let roll = self.rng.random_range(0..100u32);
        let level = match roll {
            0..33 => "corps",
            33..70 => "division",
            70..90 => "cavalry",
            _ => "brigade",
        };
        let top = Row {
            id: &id,
            level: if level == "cavalry" { "division" } else { level },
            name: format!("{} {i}", level_name(level)),
            commander: self.general(french),
            nation,
            hex: hex.to_string(),
            moving_to: moving.map(|m| m.to_string()).unwrap_or_default(),
            depot: depots.get(i % depots.len().max(1)).map_or("", String::as_str),
            supply: if self.rng.random_bool(0.1) { "out" } else { "in" },
            quality: ["militia", "conscript", "trained", "veteran", "elite"][self.rng.random_range(0..5)],
            ..Row::default()
        };
        self.write(top);
        match level {
            "corps" => {
                for d in 1..=self.rng.random_range(2..=3) {
                    let did = format!("{id}-D{d}");
                    self.division(&did, &id, nation, french);
                }
                let cid = format!("{id}-C");
                self.cavalry_brigade(&cid, &id, nation, french);
                self.battery(&format!("{id}-ART"), &id, nation, "foot-artillery");
            }
            "division" => {
                for k in 1..=self.rng.random_range(2..=4) {
                    self.infantry_brigade(&format!("{id}-{k}"), &id, nation, french);
                }
                self.battery(&format!("{id}-BTY"), &id, nation, "foot-artillery");
            }
            "cavalry" => {
                for k in 1..=self.rng.random_range(2..=3) {
                    self.cavalry_brigade(&format!("{id}-{k}"), &id, nation, french);
                }
                self.battery(&format!("{id}-BTY"), &id, nation, "horse-artillery");
            }
            _ => {
                for k in 1..=self.rng.random_range(3..=5) {
                    self.battalion(&format!("{id}-{k}"), &id, nation);
                }
            }
        }
    }

    fn division(&mut self, id: &str, parent: &str, nation: &str, french: bool) {
        let commander = self.general(french);
        self.write(Row {
            id,
            parent,
            level: "division",
            name: format!("Division {id}"),
            commander,
            nation,
            ..Row::default()
        });
        for k in 1..=self.rng.random_range(2..=3) {
            self.infantry_brigade(&format!("{id}-{k}"), id, nation, false);
        }
        self.battery(&format!("{id}-BTY"), id, nation, "foot-artillery");
    }

    fn infantry_brigade(&mut self, id: &str, parent: &str, nation: &str, named: bool) {
        let commander = if named { self.general(nation == "Fr") } else { String::new() };
        self.write(Row {
            id,
            parent,
            level: "brigade",
            name: format!("Brigade {id}"),
            commander,
            nation,
            ..Row::default()
        });
        for k in 1..=self.rng.random_range(2..=4) {
            self.battalion(&format!("{id}-{k}"), id, nation);
        }
    }

    fn battalion(&mut self, id: &str, parent: &str, nation: &str) {
        let arm = ["line", "line", "light", "grenadier"][self.rng.random_range(0..4)];
        let men = self.rng.random_range(300..=800);
        self.write(Row {
            id,
            parent,
            level: "battalion",
            name: format!("Battalion {id}"),
            nation,
            arm,
            men,
            ..Row::default()
        });
    }

    fn cavalry_brigade(&mut self, id: &str, parent: &str, nation: &str, french: bool) {
        let commander = self.general(french);
        self.write(Row {
            id,
            parent,
            level: "brigade",
            name: format!("Cavalry {id}"),
            commander,
            nation,
            ..Row::default()
        });
        for k in 1..=self.rng.random_range(2..=3) {
            let arm = ["dragoon", "light-cavalry", "heavy-cavalry"][self.rng.random_range(0..3)];
            let squadrons = self.rng.random_range(2..=4);
            let men = squadrons * self.rng.random_range(100..=150);
            self.write(Row {
                id: &format!("{id}-R{k}"),
                parent: id,
                level: "regiment",
                name: format!("Regiment {id}-{k}"),
                nation,
                arm,
                men,
                squadrons,
                ..Row::default()
            });
        }
        if self.rng.random_bool(0.2) {
            self.write(Row {
                id: &format!("{id}-S"),
                parent: id,
                level: "squadron",
                name: format!("Escort squadron {id}"),
                nation,
                arm: "light-cavalry",
                men: 120,
                ..Row::default()
            });
        }
    }

    fn battery(&mut self, id: &str, parent: &str, nation: &str, arm: &str) {
        let guns = [6, 8][self.rng.random_range(0..2)];
        self.write(Row {
            id,
            parent,
            level: "battery",
            name: format!("Battery {id}"),
            nation,
            arm,
            men: guns * 18,
            guns,
            ..Row::default()
        });
    }
}

fn level_name(level: &str) -> &'static str {
    match level {
        "corps" => "Corps",
        "division" => "Division",
        "cavalry" => "Cavalry Division",
        _ => "Brigade",
    }
}
