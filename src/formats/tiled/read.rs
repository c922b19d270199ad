//! Reading a Tiled map back, as sowbridge wrote it or as Tiled saved it after editing: the
//! grid checked against the campaign's, each hex's ground and forest from the tile layers,
//! and roads, rivers, settlements and notes from the objects, each fault named by its
//! object's id and name.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::error::{Problem, Problems};
use crate::model::{HexGrid, HexId, RoadClass, SettlementKind, Side2, Terrain};

use super::geometry::{HexSize, Pixels, Point};
use super::{layer, prop};

/// One settlement as the map file has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TiledSettlement {
    /// The object, for messages: `object 12 'Toledo'`.
    pub label: String,
    /// Its name.
    pub name: String,
    /// The hex its point lies in.
    pub hex: HexId,
    /// Its other columns of `settlements.csv`, by lower-cased name.
    pub fields: BTreeMap<String, String>,
}

/// The campaign's map as a Tiled map file gives it.
#[derive(Debug, Clone, Default)]
pub struct TiledMap {
    /// The campaign turn the file was written at, if it says.
    pub turn: Option<u32>,
    /// The ground of every hex of the grid.
    pub terrain: BTreeMap<HexId, Terrain>,
    /// Hexes of thick forest.
    pub forest: BTreeSet<HexId>,
    /// The umpire's notes by hex.
    pub notes: BTreeMap<HexId, String>,
    /// Roads by hex side.
    pub roads: BTreeMap<Side2, RoadClass>,
    /// Major rivers by hex side, with their names.
    pub rivers: BTreeMap<Side2, String>,
    /// Settlements in the file's order.
    pub settlements: Vec<TiledSettlement>,
    /// Objects and layers that are none of the above, left alone (described for people).
    pub ignored: Vec<String>,
}

/// What a tile of the file's tilesets stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tile {
    Ground(Terrain),
    Forest,
}

/// Tiled keeps a tile's flips in the top bits of its number.
const FLIP_BITS: u32 = 0xe000_0000;

struct Reader<'a> {
    file: &'a str,
    pixels: Pixels,
    columns: &'a [String],
    p: Problems,
    out: TiledMap,
}

/// Reads a map file against the campaign's grid; `columns` are `settlements.csv`'s (its
/// settlements' properties must be among them).
pub fn read_tmj(
    file: &str,
    bytes: &[u8],
    grid: HexGrid,
    campaign: &str,
    columns: &[String],
) -> Result<TiledMap, Problems> {
    let fail = |m: String| Err(Problems(vec![Problem::in_file(file, m)]));
    if bytes.trim_ascii_start().starts_with(b"<") {
        return fail(
            "is a Tiled map in XML (TMX): save it as JSON in Tiled (File > Save As, Tiled JSON map files, .tmj)".into(),
        );
    }
    let doc: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => return fail(format!("not a Tiled map in JSON: {e}")),
    };
    let size = match header(&doc, grid) {
        Ok(size) => size,
        Err(m) => return fail(m),
    };
    let mut r = Reader {
        file,
        pixels: Pixels { grid, size },
        columns,
        p: Problems::default(),
        out: TiledMap::default(),
    };
    let props = properties(&doc);
    r.out.turn = props.get(prop::TURN).and_then(|v| v.parse().ok());
    if let Some(name) = props.get(prop::CAMPAIGN)
        && name != campaign
    {
        return fail(format!(
            "was written for the campaign '{name}', not '{campaign}' (campaign.toml's name): export this campaign's map"
        ));
    }
    let tiles = r.tiles(&doc);
    // Without its tiles, every hex would be a fault of its own: the one cause is enough.
    if !r.p.0.is_empty() {
        return Err(r.p);
    }
    for h in (0..grid.rows).flat_map(|row| (0..grid.columns).map(move |c| HexId::new(c, row))) {
        r.out.terrain.insert(h, Terrain::Low);
    }
    let mut seen = BTreeSet::new();
    for (l, offset) in all_layers(&doc) {
        let name = str_of(l, "name");
        match str_of(l, "type") {
            "tilelayer" => {
                r.tile_layer(l, &tiles);
                seen.insert(("tilelayer", name.to_string()));
            }
            "objectgroup" => {
                for o in l.get("objects").and_then(Value::as_array).into_iter().flatten() {
                    r.object(o, name, offset);
                }
                seen.insert(("objectgroup", name.to_string()));
            }
            _ => {}
        }
    }
    // A layer deleted in Tiled would empty what it holds: refused, not taken for "none".
    for (kind, name, holds) in [
        ("tilelayer", layer::TERRAIN, "the ground of every hex"),
        ("tilelayer", layer::FOREST, "the forests"),
        ("objectgroup", layer::ROADS, "the roads"),
        ("objectgroup", layer::RIVERS, "the rivers"),
        ("objectgroup", layer::SETTLEMENTS, "the settlements"),
        ("objectgroup", layer::NOTES, "the hexes' notes"),
    ] {
        if !seen.contains(&(kind, name.to_string())) {
            let what = if kind == "tilelayer" { "tile layer" } else { "object layer" };
            r.p.push(Problem::in_file(
                file,
                format!("has no {what} named '{name}', which holds {holds}: put it back (empty, to remove them all)"),
            ));
        }
    }
    if r.p.0.is_empty() { Ok(r.out) } else { Err(r.p) }
}

/// The hex size, once the file is a hexagonal map of the campaign's grid and layout.
fn header(doc: &Value, grid: HexGrid) -> Result<HexSize, String> {
    if str_of(doc, "orientation") != "hexagonal" || str_of(doc, "staggeraxis") != "x" {
        return Err(format!(
            "is a map of orientation '{}' staggered along '{}': the campaign's map is hexagonal with staggered columns (staggeraxis x)",
            str_of(doc, "orientation"),
            str_of(doc, "staggeraxis")
        ));
    }
    if doc.get("infinite").and_then(Value::as_bool) == Some(true) {
        return Err(
            "is an infinite map: the campaign's map has a fixed size (untick Infinite in Map Properties)"
                .into(),
        );
    }
    let want = Pixels::stagger_index(grid.layout);
    let (w, h) = (num(doc, "width"), num(doc, "height"));
    if (w, h) != (u32::from(grid.columns), u32::from(grid.rows)) || str_of(doc, "staggerindex") != want {
        return Err(format!(
            "is {w} x {h} hexes with the {} columns shifted down; campaign.toml's map is {} x {} with the {want} columns down (the map's size is changed in campaign.toml, not here)",
            str_of(doc, "staggerindex"),
            grid.columns,
            grid.rows
        ));
    }
    let size = HexSize {
        width: num(doc, "tilewidth"),
        height: num(doc, "tileheight"),
        side: num(doc, "hexsidelength"),
    };
    if size.width < 4 || size.height < 4 || size.side >= size.width {
        return Err(format!(
            "has hexes {} x {} pixels with sides of {}: not a hex grid sowbridge can read",
            size.width, size.height, size.side
        ));
    }
    Ok(size)
}

fn str_of<'v>(v: &'v Value, key: &str) -> &'v str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn num(v: &Value, key: &str) -> u32 {
    v.get(key).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok()).unwrap_or(0)
}

fn coord(v: &Value, key: &str) -> f64 {
    v.get(key).and_then(Value::as_f64).unwrap_or(0.0)
}

/// Every layer, those inside group layers included, in the file's order, each with its offset
/// in pixels (a group's offset added to its layers').
fn all_layers(doc: &Value) -> Vec<(&Value, Point)> {
    let offset = |l: &Value, (x, y): Point| (x + coord(l, "offsetx"), y + coord(l, "offsety"));
    let mut out = Vec::new();
    let mut stack: Vec<(&Value, Point)> = doc
        .get("layers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .rev()
        .map(|l| (l, offset(l, (0.0, 0.0))))
        .collect();
    while let Some((l, at)) = stack.pop() {
        if str_of(l, "type") == "group" {
            let inner = l.get("layers").and_then(Value::as_array).into_iter().flatten().rev();
            stack.extend(inner.map(|k| (k, offset(k, at))));
        } else {
            out.push((l, at));
        }
    }
    out
}

/// A value's custom properties as text (a true flag as `yes`, a false one empty).
fn properties(v: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for p in v.get("properties").and_then(Value::as_array).into_iter().flatten() {
        let text = match p.get("value") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Bool(true)) => "yes".to_string(),
            Some(Value::Bool(false)) | Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        out.insert(str_of(p, "name").trim().to_ascii_lowercase(), text);
    }
    out
}

impl Reader<'_> {
    fn problem(&mut self, m: String) {
        self.p.push(Problem::in_file(self.file, m));
    }

    /// What each tile number stands for, from the tiles' `terrain` and `forest` properties.
    fn tiles(&mut self, doc: &Value) -> BTreeMap<u32, Tile> {
        let mut out = BTreeMap::new();
        for ts in doc.get("tilesets").and_then(Value::as_array).into_iter().flatten() {
            let first = num(ts, "firstgid");
            if ts.get("source").is_some() {
                self.problem(format!(
                    "uses the tileset {} from a file of its own: embed it in the map (Map > Embed Tileset) and save again",
                    str_of(ts, "source")
                ));
                continue;
            }
            for t in ts.get("tiles").and_then(Value::as_array).into_iter().flatten() {
                let props = properties(t);
                let gid = first + num(t, "id");
                let tile = match props.get(prop::TERRAIN).map(|s| s.to_ascii_lowercase()).as_deref() {
                    Some("low") => Some(Tile::Ground(Terrain::Low)),
                    Some("high") => Some(Tile::Ground(Terrain::High)),
                    Some("sea") => Some(Tile::Ground(Terrain::Sea)),
                    _ if props.get(prop::FOREST).is_some_and(|f| f == "yes") => Some(Tile::Forest),
                    _ => None,
                };
                if let Some(tile) = tile {
                    out.insert(gid, tile);
                }
            }
        }
        out
    }

    fn tile_layer(&mut self, l: &Value, tiles: &BTreeMap<u32, Tile>) {
        let name = str_of(l, "name").to_string();
        // The ground is the terrain layer's and the forest the forest layer's; a tile layer of
        // the umpire's own is his.
        if name != layer::TERRAIN && name != layer::FOREST {
            self.out.ignored.push(format!("tile layer '{name}'"));
            return;
        }
        if l.get("encoding").and_then(Value::as_str).is_some_and(|e| e != "csv") || l.get("chunks").is_some()
        {
            self.problem(format!(
                "tile layer '{name}' is stored as {}: set the map's Tile Layer Format to CSV (Map Properties) and save again",
                str_of(l, "encoding")
            ));
            return;
        }
        let data: Vec<u32> = l
            .get("data")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|v| v.as_u64().and_then(|n| u32::try_from(n).ok()).unwrap_or(u32::MAX) & !FLIP_BITS)
            .collect();
        let g = self.pixels.grid;
        if data.len() != g.cells() {
            self.problem(format!("tile layer '{name}' has {} tiles for {} hexes", data.len(), g.cells()));
            return;
        }
        let forest_layer = name == layer::FOREST;
        for (i, &gid) in data.iter().enumerate() {
            let h = HexId::new((i % usize::from(g.columns)) as u16, (i / usize::from(g.columns)) as u16);
            match (gid, tiles.get(&gid)) {
                (0, _) if name == layer::TERRAIN => {
                    self.problem(format!(
                        "tile layer '{name}', hex {h}: no ground; paint it low, high or sea"
                    ));
                }
                (0, _) => {}
                (_, Some(Tile::Ground(t))) if !forest_layer => {
                    self.out.terrain.insert(h, *t);
                }
                (_, Some(Tile::Forest)) if forest_layer => {
                    self.out.forest.insert(h);
                }
                (_, Some(tile)) => self.problem(format!(
                    "tile layer '{name}', hex {h}: a {} tile belongs on the '{}' layer",
                    if *tile == Tile::Forest { "forest" } else { "ground" },
                    if *tile == Tile::Forest { layer::FOREST } else { layer::TERRAIN }
                )),
                (_, None) => self.problem(format!(
                    "tile layer '{name}', hex {h}: tile {gid} is none of sowbridge's (low, high, forest, sea)"
                )),
            }
        }
    }

    /// An object by what it is: its class (`road`, `river`, `settlement`, `note`), else the
    /// layer it is on.
    fn object(&mut self, o: &Value, layer_name: &str, (dx, dy): Point) {
        let class = o.get("class").or_else(|| o.get("type")).and_then(Value::as_str).unwrap_or("");
        let kind = if class.is_empty() {
            match layer_name {
                layer::ROADS => "road",
                layer::RIVERS => "river",
                layer::SETTLEMENTS => "settlement",
                layer::NOTES => "note",
                _ => "",
            }
        } else {
            class
        };
        let label = label(o, kind);
        let origin = (coord(o, "x") + dx, coord(o, "y") + dy);
        if matches!(kind, "road" | "river") && coord(o, "rotation") != 0.0 {
            return self.problem(format!(
                "{label}: it is rotated ({} degrees); undo the rotation, or redraw it",
                coord(o, "rotation")
            ));
        }
        let line: Option<Vec<Point>> = o
            .get("polyline")
            .and_then(Value::as_array)
            .map(|pts| pts.iter().map(|p| (origin.0 + coord(p, "x"), origin.1 + coord(p, "y"))).collect());
        match (kind, line) {
            ("road", Some(points)) => self.road(&label, o, &points),
            ("river", Some(points)) => self.river(&label, o, &points),
            ("road" | "river", None) => self
                .problem(format!("{label}: draw it as a polyline (a line of points), not a point or shape")),
            ("settlement", _) => self.settlement(&label, o, origin),
            ("note", _) => self.note(&label, o, origin),
            _ => self.out.ignored.push(format!("{label} on layer '{layer_name}'")),
        }
    }

    fn road(&mut self, label: &str, o: &Value, points: &[Point]) {
        let class = match properties(o).get(prop::CLASS).map(|s| s.trim().to_ascii_lowercase()).as_deref() {
            Some("major") => RoadClass::Major,
            Some("secondary") => RoadClass::Secondary,
            other => {
                return self.problem(format!(
                    "{label}: its property '{}' is {}: major or secondary",
                    prop::CLASS,
                    other.map_or("missing".to_string(), |c| format!("'{c}'"))
                ));
            }
        };
        let mut hexes: Vec<HexId> = Vec::new();
        for (i, &pt) in points.iter().enumerate() {
            let Some(h) = self.pixels.hex_at(pt) else {
                return self.problem(format!(
                    "{label}: point {} ({:.0}, {:.0}) is off the map",
                    i + 1,
                    pt.0,
                    pt.1
                ));
            };
            if hexes.last() != Some(&h) {
                hexes.push(h);
            }
        }
        if hexes.len() < 2 {
            return self.problem(format!(
                "{label}: it stays in one hex; a road joins the centres of neighbouring hexes"
            ));
        }
        for w in hexes.windows(2) {
            if !self.pixels.grid.adjacent(w[0], w[1]) {
                return self.problem(format!(
                    "{label}: it goes from {} to {}, hexes that do not touch; put a point in every hex along the road",
                    w[0], w[1]
                ));
            }
            let side = Side2::new(w[0], w[1]);
            if let Some(old) = self.out.roads.insert(side, class)
                && old != class
            {
                return self.problem(format!(
                    "{label}: the road {}-{} is drawn both major and secondary",
                    w[0], w[1]
                ));
            }
        }
    }

    fn river(&mut self, label: &str, o: &Value, points: &[Point]) {
        let name = str_of(o, "name").trim().to_string();
        if name.is_empty() {
            return self.problem(format!("{label}: a river needs its name (the object's name)"));
        }
        let mut corners: Vec<Point> = Vec::new();
        for (i, &pt) in points.iter().enumerate() {
            let Some(c) = self.pixels.corner_at(pt) else {
                return self.problem(format!(
                    "{label}: point {} ({:.0}, {:.0}) is not on a hex corner; a river runs along hex sides, corner to corner",
                    i + 1,
                    pt.0,
                    pt.1
                ));
            };
            if corners.last() != Some(&c) {
                corners.push(c);
            }
        }
        if corners.len() < 2 {
            return self.problem(format!(
                "{label}: it has no hex side; a river runs along hex sides, corner to corner"
            ));
        }
        for (i, w) in corners.windows(2).enumerate() {
            let Some((a, b)) = self.pixels.side_between(w[0], w[1]) else {
                return self.problem(format!(
                    "{label}: points {} and {} are not the two ends of one hex side between two hexes of the map",
                    i + 1,
                    i + 2
                ));
            };
            let side = Side2::new(a, b);
            if let Some(old) = self.out.rivers.insert(side, name.clone())
                && old != name
            {
                return self.problem(format!("{label}: the side {a}-{b} is also on the river '{old}'"));
            }
        }
    }

    fn settlement(&mut self, label: &str, o: &Value, at: Point) {
        let name = str_of(o, "name").trim().to_string();
        if name.is_empty() {
            return self.problem(format!("{label}: a settlement needs its name (the object's name)"));
        }
        let Some(hex) = self.pixels.hex_at(at) else {
            return self.problem(format!("{label}: it lies off the map at ({:.0}, {:.0})", at.0, at.1));
        };
        let mut fields = properties(o);
        for k in fields.keys() {
            if !self.columns.contains(k) || k == "name" || k == "hex" {
                let why = if k == "hex" {
                    "the hex is where the point lies"
                } else {
                    "not a column of settlements.csv"
                };
                self.problem(format!("{label}: property '{k}': {why}"));
            }
        }
        fields.retain(|k, _| self.columns.contains(k) && k != "name" && k != "hex");
        let kind = fields.get("kind").map_or("", String::as_str);
        if let Err(e) = kind.parse::<SettlementKind>() {
            return self.problem(format!("{label}: property 'kind': {e}"));
        }
        self.out.settlements.push(TiledSettlement { label: label.to_string(), name, hex, fields });
    }

    fn note(&mut self, label: &str, o: &Value, at: Point) {
        let text = str_of(o, "name").trim().to_string();
        let Some(hex) = self.pixels.hex_at(at) else {
            return self.problem(format!("{label}: it lies off the map"));
        };
        if text.is_empty() {
            return;
        }
        if let Some(old) = self.out.notes.insert(hex, text) {
            self.problem(format!("{label}: hex {hex} has another note ('{old}'); a hex has one"));
        }
    }
}

/// An object for people: `object 12 'Rio Tajo' (river)`.
fn label(o: &Value, kind: &str) -> String {
    let name = str_of(o, "name");
    let kind = if kind.is_empty() { String::new() } else { format!(" ({kind})") };
    if name.is_empty() {
        format!("object {}{kind}", num(o, "id"))
    } else {
        format!("object {} '{name}'{kind}", num(o, "id"))
    }
}
