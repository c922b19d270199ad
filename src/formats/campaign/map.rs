//! The map's files: `map/hexes.csv`, `settlements.csv` and `map/battle-maps.csv`, each row's
//! hex checked against the map's grid.

use std::collections::BTreeMap;

use crate::error::Problems;
use crate::formats::table::{ColumnRef, Fields, RowSource, Table};
use crate::model::{
    BattleMapChoice, Control, HexGrid, HexId, HexInfo, Nation, Region, Settlement, Side2, Terrain,
};

pub(super) fn hex_on_map<'a, S: RowSource<'a>>(
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

pub(super) fn parse_hexes(t: &Table, grid: &HexGrid, p: &mut Problems) -> BTreeMap<HexId, HexInfo> {
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
            "sea" => Terrain::Sea,
            other => {
                f.problem("terrain", format!("'{other}' is not low, high or sea"));
                Terrain::Low
            }
        };
        let forest = f.flag("forest");
        let notes = f.text("notes").to_string();
        let province = f.text("province").to_string();
        if terrain == Terrain::Sea && forest {
            f.problem("forest", "a sea hex has no forest");
        }
        if terrain == Terrain::Sea && !province.is_empty() {
            f.problem("province", format!("a sea hex lies in no province, not in {province}"));
        }
        if let Some(h) = hex
            && out.insert(h, HexInfo { terrain, forest, notes, province }).is_some()
        {
            f.problem("hex", format!("hex {h} is listed twice"));
        }
    }
    out
}

/// The problem with a sea hex holding what lies on land only (1.2: only land is traversable
/// by military forces), if `h` is one.
pub(super) fn at_sea(hexes: &BTreeMap<HexId, HexInfo>, h: HexId, what: &str) -> Option<String> {
    hexes.get(&h).is_some_and(|i| i.terrain == Terrain::Sea).then(|| {
        format!(
            "{h} is a sea hex (map/hexes.csv), and {what} lies on land only (1.2): make the hex land, or move {what}"
        )
    })
}

pub(super) fn parse_sides<V>(
    t: &Table,
    grid: &HexGrid,
    hexes: &BTreeMap<HexId, HexInfo>,
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
            let what = if value_col == "class" { "a road" } else { "a river" };
            let sea = [("from", a), ("to", b)].map(|(col, h)| (col, at_sea(hexes, h, what)));
            if sea.iter().any(|(_, m)| m.is_some()) {
                for (col, m) in sea {
                    if let Some(m) = m {
                        f.problem(col, m);
                    }
                }
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

pub(super) fn parse_settlements(
    t: &Table,
    grid: &HexGrid,
    hexes: &BTreeMap<HexId, HexInfo>,
    p: &mut Problems,
) -> Vec<Settlement> {
    let mut out: Vec<Settlement> = Vec::new();
    if !t.require(&["name", "hex", "kind", "control"], p) {
        return out;
    }
    // The provinces of the places in each hex: the map's province of a hex is one of them.
    let mut provinces: BTreeMap<HexId, Vec<&str>> = BTreeMap::new();
    for row in &t.rows {
        if let Ok(h) = t.text(row, "hex").parse::<HexId>() {
            provinces.entry(h).or_default().push(t.text(row, "province"));
        }
    }
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let name = f.text("name").to_string();
        if name.is_empty() {
            f.problem("name", "is empty");
        }
        let hex = hex_on_map(&mut f, "hex", grid, true);
        if let Some(m) = hex.and_then(|h| at_sea(hexes, h, "a settlement")) {
            f.problem("hex", format!("{m} (a port lies on the coast)"));
        }
        let mapped =
            hex.and_then(|h| Some((h, hexes.get(&h)?.province.as_str()))).filter(|(_, p)| !p.is_empty());
        if let Some((h, mapped)) = mapped
            && !f.text("province").is_empty()
            && !provinces.get(&h).is_some_and(|v| v.iter().any(|p| p.trim().eq_ignore_ascii_case(mapped)))
        {
            f.problem(
                "province",
                format!(
                    "{name} is in {}, but map/hexes.csv puts its hex {h} in {mapped}: a province is one fact, give the hex or the place the other's",
                    f.text("province")
                ),
            );
        }
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
                typed: control,
                invested_by,
                citadel,
                region,
                overrule,
            });
        }
    }
    out
}

pub(super) fn parse_battle_maps(
    t: &Table,
    grid: &HexGrid,
    p: &mut Problems,
) -> BTreeMap<HexId, BattleMapChoice> {
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
