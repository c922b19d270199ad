//! Writing the campaign's map as a Tiled map (JSON, `.tmj`): the terrain and forest as tile
//! layers over a small tileset of sowbridge's own, roads along hex centres and rivers along hex
//! sides as polylines, settlements (every column of `settlements.csv`) and the hexes' notes as
//! points, and the umpire's own map image beneath.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::formats::table::Sheet;
use crate::model::{CampaignMap, HexId, RoadClass, Side2, Terrain};

use super::geometry::{Pixels, Point};
use super::{FOREST_TILE, HIGH_TILE, LOW_TILE, SEA_TILE, layer, prop};

/// What goes into the map file besides the campaign's map.
#[derive(Debug, Clone)]
pub struct TiledExport<'a> {
    /// The map and its grid laid out in pixels.
    pub map: &'a CampaignMap,
    /// The grid in pixels.
    pub pixels: Pixels,
    /// `settlements.csv` as written: every column becomes a property of its settlement.
    pub settlements: &'a Sheet,
    /// The campaign's name and turn, kept as the map's properties.
    pub name: &'a str,
    /// The campaign's turn.
    pub turn: u32,
    /// The tileset's image, relative to the map file.
    pub tileset_image: &'a str,
    /// The umpire's own map image, relative to the map file.
    pub image: Option<&'a str>,
}

/// The map file's bytes: pretty-printed JSON, keys in order, ending with a line end.
pub fn write_tmj(x: &TiledExport<'_>) -> Vec<u8> {
    let g = x.pixels.grid;
    let mut ids = Ids::default();
    let mut layers = Vec::new();
    if let Some(image) = x.image {
        layers.push(json!({
            "id": ids.layer(), "name": layer::IMAGE, "type": "imagelayer", "image": image,
            "x": 0, "y": 0, "offsetx": 0, "offsety": 0, "opacity": 1, "visible": true,
        }));
    }
    let cells = || (0..g.rows).flat_map(move |r| (0..g.columns).map(move |c| HexId::new(c, r)));
    let terrain: Vec<u32> = cells()
        .map(|h| match x.map.terrain(h) {
            Terrain::Low => LOW_TILE,
            Terrain::High => HIGH_TILE,
            Terrain::Sea => SEA_TILE,
        })
        .collect();
    let forest: Vec<u32> = cells().map(|h| if x.map.hex(h).forest { FOREST_TILE } else { 0 }).collect();
    for (name, data) in [(layer::TERRAIN, terrain), (layer::FOREST, forest)] {
        layers.push(json!({
            "id": ids.layer(), "name": name, "type": "tilelayer", "width": g.columns, "height": g.rows,
            "x": 0, "y": 0, "opacity": 1, "visible": true, "data": data,
        }));
    }
    let groups = [
        (layer::RIVERS, rivers(x, &mut ids)),
        (layer::ROADS, roads(x, &mut ids)),
        (layer::SETTLEMENTS, settlements(x, &mut ids)),
        (layer::NOTES, notes(x, &mut ids)),
    ];
    for (name, objects) in groups {
        layers.push(json!({
            "id": ids.layer(), "name": name, "type": "objectgroup", "draworder": "topdown",
            "x": 0, "y": 0, "opacity": 1, "visible": true, "objects": objects,
        }));
    }
    let s = x.pixels.size;
    let doc = json!({
        "type": "map", "version": "1.8", "tiledversion": "1.8.2",
        "orientation": "hexagonal", "renderorder": "right-down",
        "staggeraxis": "x", "staggerindex": Pixels::stagger_index(g.layout),
        "width": g.columns, "height": g.rows,
        "tilewidth": s.width, "tileheight": s.height, "hexsidelength": s.side,
        "infinite": false, "compressionlevel": -1,
        "nextlayerid": ids.layers + 1, "nextobjectid": ids.objects + 1,
        "properties": [
            prop_int(prop::TURN, x.turn),
            prop_str(prop::CAMPAIGN, x.name),
        ],
        "layers": layers,
        "tilesets": [tileset(x)],
    });
    let pretty = serde_json::to_string_pretty(&doc).unwrap_or_default();
    let mut out = tidy(&pretty, usize::from(g.columns));
    out.push('\n');
    out.into_bytes()
}

/// Pretty JSON made readable: a tile layer's numbers one map row to a line, and each point of
/// a polyline (`{"x": .., "y": ..}`) on one line.
fn tidy(pretty: &str, columns: usize) -> String {
    let mut out = String::with_capacity(pretty.len() / 2);
    let mut lines = pretty.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if trimmed == "\"data\": [" {
            let mut numbers = Vec::new();
            while let Some(n) = lines.next_if(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())) {
                numbers.push(n.trim().trim_end_matches(','));
            }
            out.push_str(line);
            out.push('\n');
            let rows: Vec<&[&str]> = numbers.chunks(columns.max(1)).collect();
            for (i, row) in rows.iter().enumerate() {
                let comma = if i + 1 < rows.len() { "," } else { "" };
                out.push_str(&format!("{indent}  {}{comma}\n", row.join(",")));
            }
            continue;
        }
        if trimmed == "{" || trimmed == "}," || trimmed == "}" {
            // A point: `{`, `"x": ..,`, `"y": ..`, `}` on four lines.
            let mut look = lines.clone();
            if trimmed == "{"
                && let (Some(x), Some(y), Some(end)) = (look.next(), look.next(), look.next())
                && x.trim_start().starts_with("\"x\":")
                && y.trim_start().starts_with("\"y\":")
                && end.trim_start().starts_with('}')
            {
                out.push_str(&format!("{indent}{{ {} {} {}\n", x.trim(), y.trim(), end.trim()));
                lines = look;
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out.pop();
    out
}

#[derive(Default)]
struct Ids {
    layers: u32,
    objects: u32,
}

impl Ids {
    fn layer(&mut self) -> u32 {
        self.layers += 1;
        self.layers
    }
    fn object(&mut self) -> u32 {
        self.objects += 1;
        self.objects
    }
}

fn prop_str(name: &str, value: &str) -> Value {
    json!({ "name": name, "type": "string", "value": value })
}

fn prop_int(name: &str, value: u32) -> Value {
    json!({ "name": name, "type": "int", "value": value })
}

fn tileset(x: &TiledExport<'_>) -> Value {
    let s = x.pixels.size;
    json!({
        "firstgid": 1, "name": "sowbridge terrain", "image": x.tileset_image,
        "tilewidth": s.width, "tileheight": s.height, "imagewidth": s.width * 4, "imageheight": s.height,
        "tilecount": 4, "columns": 4, "margin": 0, "spacing": 0,
        "tiles": [
            { "id": LOW_TILE - 1, "type": "terrain", "properties": [prop_str(prop::TERRAIN, "low")] },
            { "id": HIGH_TILE - 1, "type": "terrain", "properties": [prop_str(prop::TERRAIN, "high")] },
            { "id": FOREST_TILE - 1, "type": "forest",
              "properties": [{ "name": prop::FOREST, "type": "bool", "value": true }] },
            { "id": SEA_TILE - 1, "type": "terrain", "properties": [prop_str(prop::TERRAIN, "sea")] },
        ],
    })
}

fn point(p: Point) -> Value {
    json!({ "x": p.0, "y": p.1 })
}

/// A polyline object through `points` (the first is the object's position).
fn polyline(ids: &mut Ids, name: &str, class: &str, points: &[Point], properties: Vec<Value>) -> Value {
    let (x0, y0) = points[0];
    let rel: Vec<Value> = points.iter().map(|&(x, y)| point((x - x0, y - y0))).collect();
    json!({
        "id": ids.object(), "name": name, "type": class, "x": x0, "y": y0, "width": 0, "height": 0,
        "rotation": 0, "visible": true, "polyline": rel, "properties": properties,
    })
}

/// Joins edges into as few paths as a greedy walk finds: each path starts at the smallest
/// node of odd degree left (else the smallest node) and takes the smallest edge on.
fn paths<N: Ord + Copy>(edges: &BTreeSet<(N, N)>) -> Vec<Vec<N>> {
    let mut adj: BTreeMap<N, BTreeSet<N>> = BTreeMap::new();
    for &(a, b) in edges {
        adj.entry(a).or_default().insert(b);
        adj.entry(b).or_default().insert(a);
    }
    let mut out = Vec::new();
    loop {
        let start = adj
            .iter()
            .find(|(_, n)| n.len() % 2 == 1)
            .or_else(|| adj.iter().find(|(_, n)| !n.is_empty()))
            .map(|(&k, _)| k);
        let Some(mut at) = start else { break };
        let mut path = vec![at];
        while let Some(&next) = adj.get(&at).and_then(|n| n.iter().next()) {
            adj.get_mut(&at).map(|n| n.remove(&next));
            adj.get_mut(&next).map(|n| n.remove(&at));
            path.push(next);
            at = next;
        }
        adj.retain(|_, n| !n.is_empty());
        out.push(path);
    }
    out
}

fn roads(x: &TiledExport<'_>, ids: &mut Ids) -> Vec<Value> {
    let mut out = Vec::new();
    for class in [RoadClass::Major, RoadClass::Secondary] {
        let edges: BTreeSet<(HexId, HexId)> =
            x.map.roads.iter().filter(|&(_, &c)| c == class).map(|(s, _)| s.hexes()).collect();
        let word = match class {
            RoadClass::Major => "major",
            RoadClass::Secondary => "secondary",
        };
        for path in paths(&edges) {
            let points: Vec<Point> = path.iter().map(|&h| x.pixels.centre(h)).collect();
            out.push(polyline(ids, "", "road", &points, vec![prop_str(prop::CLASS, word)]));
        }
    }
    out
}

/// A corner in half pixels, exact for every hex size sowbridge writes.
fn corner_key(p: Point) -> (i64, i64) {
    ((p.0 * 2.0).round() as i64, (p.1 * 2.0).round() as i64)
}

fn rivers(x: &TiledExport<'_>, ids: &mut Ids) -> Vec<Value> {
    let mut by_name: BTreeMap<&str, BTreeSet<Side2>> = BTreeMap::new();
    for (side, name) in &x.map.rivers {
        by_name.entry(name).or_default().insert(*side);
    }
    let mut out = Vec::new();
    for (name, sides) in by_name {
        let edges: BTreeSet<((i64, i64), (i64, i64))> = sides
            .iter()
            .filter_map(|s| {
                let (a, b) = s.hexes();
                let d = x.pixels.grid.direction_to_neighbour(a, b)?;
                let (p, q) = x.pixels.side_corners(a, d);
                let (p, q) = (corner_key(p), corner_key(q));
                Some(if p <= q { (p, q) } else { (q, p) })
            })
            .collect();
        for path in paths(&edges) {
            let points: Vec<Point> = path.iter().map(|&(a, b)| (a as f64 / 2.0, b as f64 / 2.0)).collect();
            out.push(polyline(ids, name, "river", &points, Vec::new()));
        }
    }
    out
}

/// Where the `k`th settlement of a hex is drawn: the first at the centre, the others around
/// it, all inside the hex.
fn spot(x: &TiledExport<'_>, h: HexId, k: usize) -> Point {
    let (cx, cy) = x.pixels.centre(h);
    let r = f64::from(x.pixels.size.height) / 4.0;
    const AROUND: [(f64, f64); 7] =
        [(0.0, 0.0), (0.0, 1.0), (0.0, -1.0), (-1.0, 0.5), (1.0, 0.5), (-1.0, -0.5), (1.0, -0.5)];
    let (dx, dy) = AROUND[k % AROUND.len()];
    (cx + dx * r, cy + dy * r)
}

fn settlements(x: &TiledExport<'_>, ids: &mut Ids) -> Vec<Value> {
    let mut placed: BTreeMap<HexId, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for row in &x.settlements.rows {
        let field = |c: &str| row.get(c).map_or("", String::as_str);
        let Ok(h) = field("hex").parse::<HexId>() else { continue };
        let k = placed.entry(h).or_default();
        let p = spot(x, h, *k);
        *k += 1;
        let properties: Vec<Value> = x
            .settlements
            .columns
            .iter()
            .filter(|c| !matches!(c.as_str(), "name" | "hex"))
            .map(|c| prop_str(c, field(c)))
            .collect();
        out.push(json!({
            "id": ids.object(), "name": field("name"), "type": "settlement", "point": true,
            "x": p.0, "y": p.1, "width": 0, "height": 0, "rotation": 0, "visible": true,
            "properties": properties,
        }));
    }
    out
}

fn notes(x: &TiledExport<'_>, ids: &mut Ids) -> Vec<Value> {
    let mut out = Vec::new();
    for (h, info) in &x.map.hexes {
        if info.notes.is_empty() {
            continue;
        }
        let (cx, cy) = x.pixels.centre(*h);
        // Above the centre, clear of a settlement drawn there.
        let p = (cx, cy - f64::from(x.pixels.size.height) / 3.0);
        out.push(json!({
            "id": ids.object(), "name": info.notes, "type": "note", "point": true,
            "x": p.0, "y": p.1, "width": 0, "height": 0, "rotation": 0, "visible": true,
        }));
    }
    out
}
