//! From an edited Tiled map to the map's files: `map/hexes.csv`, `map/roads.csv`,
//! `map/rivers.csv` and `settlements.csv` changed only where the map changed. A row that did
//! not change keeps its place and fields, a removed one goes, a new one comes last, and a
//! file with no change is not written: a map exported and imported unedited changes nothing.

use std::collections::BTreeMap;

use crate::error::{Problem, Problems};
use crate::formats::supply::STATE_COLUMNS;
use crate::formats::table::Sheet;
use crate::model::dialect::{Dialect, Encoding};
use crate::model::{CampaignMap, HexId, HexInfo, RoadClass, Side2, Terrain};

use super::read::{TiledMap, TiledSettlement};

/// The map's files as they are now (`None` for one that is absent).
#[derive(Debug, Clone, Copy)]
pub struct CurrentFiles<'a> {
    /// `map/hexes.csv`.
    pub hexes: Option<&'a [u8]>,
    /// `map/roads.csv`.
    pub roads: Option<&'a [u8]>,
    /// `map/rivers.csv`.
    pub rivers: Option<&'a [u8]>,
    /// `settlements.csv`.
    pub settlements: Option<&'a [u8]>,
}

/// The new bytes of each file that changes (`None`: unchanged).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapFiles {
    /// `map/hexes.csv`.
    pub hexes: Option<Vec<u8>>,
    /// `map/roads.csv`.
    pub roads: Option<Vec<u8>>,
    /// `map/rivers.csv`.
    pub rivers: Option<Vec<u8>>,
    /// `settlements.csv`.
    pub settlements: Option<Vec<u8>>,
    /// The map file's object behind each row of the new `settlements.csv`, for messages.
    pub settlement_objects: Vec<String>,
}

/// One settlement's changed fields: (column, before, after).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SettlementChange {
    /// Its name.
    pub name: String,
    /// Each changed column with its value before and after.
    pub fields: Vec<(String, String, String)>,
}

/// What an import changes, for people.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct MapChanges {
    /// Hexes whose ground, forest or notes change: (hex, before, after) in words.
    pub hexes: Vec<(String, String, String)>,
    /// Roads added: `from-to` and class.
    pub roads_added: Vec<(String, String)>,
    /// Roads removed.
    pub roads_removed: Vec<(String, String)>,
    /// Roads whose class changes: side, before, after.
    pub roads_changed: Vec<(String, String, String)>,
    /// River sides added, with the river's name.
    pub rivers_added: Vec<(String, String)>,
    /// River sides removed.
    pub rivers_removed: Vec<(String, String)>,
    /// River sides renamed: side, before, after.
    pub rivers_renamed: Vec<(String, String, String)>,
    /// Settlements added (name and hex).
    pub settlements_added: Vec<(String, String)>,
    /// Settlements removed (name and hex).
    pub settlements_removed: Vec<(String, String)>,
    /// Settlements changed.
    pub settlements_changed: Vec<SettlementChange>,
    /// Settlements whose state columns in the file differ from the campaign's but were kept
    /// (the file was written at an earlier turn): name, column, the file's value.
    pub state_kept: Vec<(String, String, String)>,
    /// Settlements whose `invested_by` in the file differs from the campaign's, kept: an
    /// investment begins and ends in the turn's siege phase (7.1), not on the map. Name and
    /// the file's value.
    pub investments_kept: Vec<(String, String)>,
}

impl MapChanges {
    /// True when nothing changes.
    pub fn is_empty(&self) -> bool {
        self.hexes.is_empty()
            && self.roads_added.is_empty()
            && self.roads_removed.is_empty()
            && self.roads_changed.is_empty()
            && self.rivers_added.is_empty()
            && self.rivers_removed.is_empty()
            && self.rivers_renamed.is_empty()
            && self.settlements_added.is_empty()
            && self.settlements_removed.is_empty()
            && self.settlements_changed.is_empty()
    }
}

/// A sheet being changed, with whether it was.
struct Edit {
    sheet: Sheet,
    changed: bool,
}

impl Edit {
    fn open(file: &str, bytes: Option<&[u8]>, columns: &[&str], dialect: Dialect) -> Edit {
        let sheet = match bytes {
            // A file all ASCII could be either encoding: it takes the campaign's, so that a new
            // name with an accent is written as its neighbours in the campaign are.
            Some(b) if b.is_ascii() && dialect.encoding == Encoding::Windows1252 => {
                let mut sheet = Sheet::read(file, b);
                sheet.dialect.encoding = Encoding::Windows1252;
                sheet
            }
            Some(b) => Sheet::read(file, b),
            None => Sheet {
                names: columns.iter().map(|c| c.to_string()).collect(),
                columns: columns.iter().map(|c| c.to_string()).collect(),
                rows: Vec::new(),
                dialect,
            },
        };
        Edit { sheet, changed: false }
    }

    fn set(&mut self, row: usize, column: &str, value: &str) {
        if !self.sheet.columns.iter().any(|c| c == column) {
            self.sheet.columns.push(column.to_string());
            self.sheet.names.push(column.to_string());
        }
        let old = self.sheet.rows[row].insert(column.to_string(), value.to_string());
        if old.as_deref().unwrap_or("") != value {
            self.changed = true;
        }
    }

    fn push(&mut self, fields: &[(&str, &str)]) {
        self.sheet.rows.push(BTreeMap::new());
        let row = self.sheet.rows.len() - 1;
        for (c, v) in fields {
            self.set(row, c, v);
        }
        self.changed = true;
    }

    fn bytes(self) -> Option<Vec<u8>> {
        self.changed.then(|| self.sheet.write())
    }
}

fn hex_of(row: &BTreeMap<String, String>, column: &str) -> Option<HexId> {
    row.get(column).and_then(|v| v.trim().parse().ok())
}

fn side_of(row: &BTreeMap<String, String>) -> Option<Side2> {
    Some(Side2::new(hex_of(row, "from")?, hex_of(row, "to")?))
}

fn class_word(c: RoadClass) -> &'static str {
    match c {
        RoadClass::Major => "major",
        RoadClass::Secondary => "secondary",
    }
}

fn hex_words(i: &HexInfo) -> String {
    let mut s = i.terrain.word().to_string();
    if i.forest {
        s.push_str(", forest");
    }
    if !i.notes.is_empty() {
        s.push_str(&format!(", \"{}\"", i.notes));
    }
    s
}

fn side_words(s: &Side2) -> String {
    let (a, b) = s.hexes();
    format!("{a}-{b}")
}

/// The map's files as the edited map `t` (read from `file`) has them, against the campaign's
/// map `now` read from `files`. The settlements' control and overrule are taken from the file
/// only when `state_current` (it was written at the campaign's turn); else the campaign's are
/// kept and the differences listed. An investment is never taken from the map, and a place
/// under investment is not moved; a new settlement may not take a name another already has.
pub fn map_files(
    file: &str,
    t: &TiledMap,
    now: &CampaignMap,
    files: CurrentFiles<'_>,
    dialect: Dialect,
    state_current: bool,
) -> Result<(MapFiles, MapChanges), Problems> {
    let mut ch = MapChanges::default();
    let mut p = Problems::default();
    let hexes = hexes_file(t, now, files.hexes, dialect, &mut ch);
    let roads = roads_file(t, files.roads, dialect, &mut ch);
    let rivers = rivers_file(t, files.rivers, dialect, &mut ch);
    let s = SettlementsEdit { file, t, state_current };
    let (settlements, settlement_objects) = s.file(files.settlements, dialect, &mut ch, &mut p);
    if p.0.is_empty() {
        Ok((MapFiles { hexes, roads, rivers, settlements, settlement_objects }, ch))
    } else {
        Err(p)
    }
}

fn hexes_file(
    t: &TiledMap,
    now: &CampaignMap,
    bytes: Option<&[u8]>,
    d: Dialect,
    ch: &mut MapChanges,
) -> Option<Vec<u8>> {
    let mut e = Edit::open("map/hexes.csv", bytes, &["hex", "terrain", "forest", "notes"], d);
    for (&h, &terrain) in &t.terrain {
        let before = now.hex(h);
        // The province is not drawn in Tiled: it stays as map/hexes.csv has it, but for a hex
        // painted sea, which lies in none.
        let province = if terrain == Terrain::Sea { String::new() } else { before.province.clone() };
        let after = HexInfo {
            terrain,
            forest: t.forest.contains(&h),
            notes: t.notes.get(&h).cloned().unwrap_or_default(),
            province,
        };
        if before == after {
            continue;
        }
        ch.hexes.push((h.to_string(), hex_words(&before), hex_words(&after)));
        let mut fields = vec![
            ("terrain", after.terrain.word()),
            ("forest", if after.forest { "yes" } else { "" }),
            ("notes", after.notes.as_str()),
        ];
        if after.province != before.province {
            fields.push(("province", after.province.as_str()));
        }
        match e.sheet.rows.iter().position(|r| hex_of(r, "hex") == Some(h)) {
            Some(row) => {
                for (c, v) in fields {
                    e.set(row, c, v);
                }
            }
            None => {
                let hex = h.to_string();
                e.push(&[[("hex", hex.as_str())].as_slice(), fields.as_slice()].concat());
            }
        }
    }
    e.bytes()
}

/// Changes to a file of hex sides in words: (side, value, value after), added, removed and
/// changed.
type SideChanges = [Vec<(String, String, String)>; 3];

/// A file of hex sides (`roads.csv`, `rivers.csv`): each row's value set to the map's, rows of
/// sides the map no longer has removed, new sides appended. Returns the changes as
/// (added, removed, changed) in words.
fn sides_file(
    file: &str,
    bytes: Option<&[u8]>,
    column: &str,
    want: &BTreeMap<Side2, String>,
    d: Dialect,
) -> (Option<Vec<u8>>, SideChanges) {
    let mut e = Edit::open(file, bytes, &["from", "to", column], d);
    let (mut added, mut removed, mut changed) = (Vec::new(), Vec::new(), Vec::new());
    let mut seen = BTreeMap::new();
    let mut keep = Vec::new();
    for row in 0..e.sheet.rows.len() {
        let side = side_of(&e.sheet.rows[row]);
        let old = e.sheet.rows[row].get(column).cloned().unwrap_or_default();
        match side.and_then(|s| want.get(&s).map(|v| (s, v))) {
            Some((s, v)) if seen.insert(s, ()).is_none() => {
                if !old.trim().eq_ignore_ascii_case(v) {
                    changed.push((side_words(&s), old.trim().to_string(), v.clone()));
                    e.set(row, column, v);
                }
                keep.push(true);
            }
            _ => {
                if let Some(s) = side {
                    removed.push((side_words(&s), old.trim().to_string(), String::new()));
                }
                keep.push(false);
            }
        }
    }
    if keep.contains(&false) {
        let mut k = keep.into_iter();
        e.sheet.rows.retain(|_| k.next().unwrap_or(true));
        e.changed = true;
    }
    for (s, v) in want {
        if !seen.contains_key(s) {
            let (a, b) = s.hexes();
            let (a, b) = (a.to_string(), b.to_string());
            e.push(&[("from", a.as_str()), ("to", b.as_str()), (column, v.as_str())]);
            added.push((side_words(s), v.clone(), String::new()));
        }
    }
    (e.bytes(), [added, removed, changed])
}

fn roads_file(t: &TiledMap, bytes: Option<&[u8]>, d: Dialect, ch: &mut MapChanges) -> Option<Vec<u8>> {
    let want = t.roads.iter().map(|(s, c)| (*s, class_word(*c).to_string())).collect();
    let (out, [added, removed, changed]) = sides_file("map/roads.csv", bytes, "class", &want, d);
    ch.roads_added = added.into_iter().map(|(s, v, _)| (s, v)).collect();
    ch.roads_removed = removed.into_iter().map(|(s, v, _)| (s, v)).collect();
    ch.roads_changed = changed;
    out
}

fn rivers_file(t: &TiledMap, bytes: Option<&[u8]>, d: Dialect, ch: &mut MapChanges) -> Option<Vec<u8>> {
    let (out, [added, removed, changed]) = sides_file("map/rivers.csv", bytes, "name", &t.rivers, d);
    ch.rivers_added = added.into_iter().map(|(s, v, _)| (s, v)).collect();
    ch.rivers_removed = removed.into_iter().map(|(s, v, _)| (s, v)).collect();
    ch.rivers_renamed = changed;
    out
}

/// Which of the file's settlements a row is: by name when the names are all different on
/// both sides, else by name and hex.
fn matching(t: &[TiledSettlement], row: &BTreeMap<String, String>, by_name: bool) -> Option<usize> {
    let name = row.get("name").map_or("", |n| n.trim());
    t.iter().position(|s| s.name == name && (by_name || Some(s.hex) == hex_of(row, "hex")))
}

/// The settlements of the edited map, written into `settlements.csv`.
struct SettlementsEdit<'a> {
    file: &'a str,
    t: &'a TiledMap,
    state_current: bool,
}

impl SettlementsEdit<'_> {
    /// The new file (`None`: unchanged) and the object behind each of its rows.
    fn file(
        &self,
        bytes: Option<&[u8]>,
        d: Dialect,
        ch: &mut MapChanges,
        p: &mut Problems,
    ) -> (Option<Vec<u8>>, Vec<String>) {
        let t = self.t;
        let mut e = Edit::open("settlements.csv", bytes, &["name", "hex", "kind", "control"], d);
        let names = |rows: Vec<&str>| {
            let mut n: BTreeMap<String, usize> = BTreeMap::new();
            for r in rows {
                *n.entry(r.to_string()).or_default() += 1;
            }
            n
        };
        let before = names(e.sheet.rows.iter().map(|r| r.get("name").map_or("", |n| n.trim())).collect());
        let after = names(t.settlements.iter().map(|s| s.name.as_str()).collect());
        for (name, &n) in
            after.iter().filter(|&(name, &n)| n > 1 && n > before.get(name).copied().unwrap_or(0))
        {
            let objects: Vec<&str> =
                t.settlements.iter().filter(|s| &s.name == name).map(|s| s.label.as_str()).collect();
            p.push(Problem::in_file(
                self.file,
                format!("{n} settlements are named '{name}' ({}): rename the copy", objects.join(", ")),
            ));
        }
        let by_name = after.values().all(|&n| n == 1) && before.values().all(|&n| n == 1);
        let mut used = vec![false; t.settlements.len()];
        let mut keep = Vec::new();
        let mut objects = Vec::new();
        for row in 0..e.sheet.rows.len() {
            let name = e.sheet.rows[row].get("name").map_or("", |n| n.trim()).to_string();
            let Some(i) = matching(&t.settlements, &e.sheet.rows[row], by_name).filter(|&i| !used[i]) else {
                let hex = e.sheet.rows[row].get("hex").cloned().unwrap_or_default();
                ch.settlements_removed.push((name, hex));
                keep.push(false);
                continue;
            };
            used[i] = true;
            keep.push(true);
            objects.push(t.settlements[i].label.clone());
            self.row(&mut e, row, &t.settlements[i], ch, p);
        }
        if keep.contains(&false) {
            let mut k = keep.into_iter();
            e.sheet.rows.retain(|_| k.next().unwrap_or(true));
            e.changed = true;
        }
        for (s, _) in t.settlements.iter().zip(&used).filter(|(_, u)| !**u) {
            let hex = s.hex.to_string();
            let mut fields: Vec<(&str, &str)> = vec![("name", &s.name), ("hex", &hex)];
            fields.extend(s.fields.iter().map(|(c, v)| (c.as_str(), v.as_str())));
            e.push(&fields);
            objects.push(s.label.clone());
            ch.settlements_added.push((s.name.clone(), hex.clone()));
        }
        (e.bytes(), objects)
    }

    /// A row of `settlements.csv` set to its object's hex and properties.
    fn row(&self, e: &mut Edit, row: usize, s: &TiledSettlement, ch: &mut MapChanges, p: &mut Problems) {
        let name = s.name.clone();
        let mut fields = Vec::new();
        let invested = e.sheet.rows[row].get("invested_by").map_or("", |v| v.trim()).to_string();
        if hex_of(&e.sheet.rows[row], "hex") != Some(s.hex) {
            let before = e.sheet.rows[row].get("hex").cloned().unwrap_or_default();
            if !invested.is_empty() {
                p.push(Problem::in_file(
                    self.file,
                    format!(
                        "{}: it is invested ({invested}, its siege in sieges.csv): a place under siege is not moved (7.1)",
                        s.label
                    ),
                ));
            }
            fields.push(("hex".to_string(), before, s.hex.to_string()));
        }
        for c in e.sheet.columns.clone() {
            if c == "name" || c == "hex" {
                continue;
            }
            let before = e.sheet.rows[row].get(&c).cloned().unwrap_or_default();
            let after = s.fields.get(&c).cloned().unwrap_or_default();
            if before.trim() == after.trim() {
                continue;
            }
            if c == "invested_by" {
                ch.investments_kept.push((name.clone(), after));
                continue;
            }
            if !self.state_current && STATE_COLUMNS.contains(&c.as_str()) {
                ch.state_kept.push((name.clone(), c, after));
                continue;
            }
            fields.push((c, before, after));
        }
        for (c, _, after) in &fields {
            e.set(row, c, after);
        }
        if !fields.is_empty() {
            ch.settlements_changed.push(SettlementChange { name, fields });
        }
    }
}
