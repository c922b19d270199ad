//! What `map export` and `map import` say: the files written; the hexes, roads, rivers and
//! settlements an import changes, each named, and what it left alone.

use std::fmt::Write as _;

use crate::formats::tiled::MapChanges;

/// One line for the journal: how many of each thing changed.
pub fn summary(c: &MapChanges) -> String {
    let parts = [
        (c.hexes.len(), "hex", "hexes"),
        (c.roads_added.len() + c.roads_removed.len() + c.roads_changed.len(), "road side", "road sides"),
        (c.rivers_added.len() + c.rivers_removed.len() + c.rivers_renamed.len(), "river side", "river sides"),
        (
            c.settlements_added.len() + c.settlements_removed.len() + c.settlements_changed.len(),
            "settlement",
            "settlements",
        ),
    ];
    let said: Vec<String> = parts
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| format!("{n} {}", if *n == 1 { one } else { many }))
        .collect();
    if said.is_empty() { "no change".to_string() } else { said.join(", ") }
}

/// The changes, one line each, as `map import` prints them.
pub fn changes_text(c: &MapChanges) -> String {
    let mut s = String::new();
    for (h, before, after) in &c.hexes {
        let _ = writeln!(s, "  hex {h}: {before} -> {after}");
    }
    for (side, class) in &c.roads_added {
        let _ = writeln!(s, "  road {side}: new, {class}");
    }
    for (side, class) in &c.roads_removed {
        let _ = writeln!(s, "  road {side}: removed (was {class})");
    }
    for (side, before, after) in &c.roads_changed {
        let _ = writeln!(s, "  road {side}: {before} -> {after}");
    }
    for (side, name) in &c.rivers_added {
        let _ = writeln!(s, "  river {side}: new, {name}");
    }
    for (side, name) in &c.rivers_removed {
        let _ = writeln!(s, "  river {side}: removed (was {name})");
    }
    for (side, before, after) in &c.rivers_renamed {
        let _ = writeln!(s, "  river {side}: {before} -> {after}");
    }
    for (name, hex) in &c.settlements_added {
        let _ = writeln!(s, "  settlement {name}: new, at {hex}");
    }
    for (name, hex) in &c.settlements_removed {
        let _ = writeln!(s, "  settlement {name}: removed (was at {hex})");
    }
    for ch in &c.settlements_changed {
        let fields: Vec<String> = ch.fields.iter().map(|(f, b, a)| format!("{f} '{b}' -> '{a}'")).collect();
        let _ = writeln!(s, "  settlement {}: {}", ch.name, fields.join(", "));
    }
    s
}

/// What `map import` prints: the changes, what was kept or left alone, and what was done.
pub fn import_text(
    file: &str,
    c: &MapChanges,
    turns: (Option<u32>, u32),
    ignored: &[String],
    done: Option<u64>,
    dry_run: bool,
) -> String {
    let mut s = String::new();
    if c.is_empty() {
        let _ = writeln!(s, "{file}: the map is as the campaign has it; nothing changed");
    } else {
        let verb = if dry_run { "would change" } else { "changes" };
        let _ = writeln!(s, "{file} {verb} the map: {}", summary(c));
        s.push_str(&changes_text(c));
    }
    if !c.state_kept.is_empty() {
        let (at, now) = turns;
        let of = at
            .map_or("the file does not say its turn (map property sowbridge-turn)".to_string(), |at| {
                format!("the file has those of turn {at}")
            });
        let _ = writeln!(s, "kept the campaign's control and overrule of turn {now}; {of}:");
        for (name, column, value) in &c.state_kept {
            let _ = writeln!(s, "  settlement {name}: {column} '{value}' in the file, not taken");
        }
    }
    if !c.investments_kept.is_empty() {
        let _ = writeln!(
            s,
            "kept the campaign's investments: a siege begins and ends in the turn's siege phase (7.1):"
        );
        for (name, value) in &c.investments_kept {
            let _ = writeln!(s, "  settlement {name}: invested_by '{value}' in the file, not taken");
        }
    }
    for i in ignored {
        let _ = writeln!(
            s,
            "left alone: {i} (not sowbridge's: no road, river, settlement, note, ground or forest)"
        );
    }
    match (done, dry_run) {
        (_, true) if !c.is_empty() => s.push_str("dry run: nothing changed\n"),
        (Some(seq), _) => {
            let _ = writeln!(s, "committed as journal entry {seq} (undo with `sowbridge undo map`)");
        }
        _ => {}
    }
    s
}

/// What `map export` prints.
pub fn exported_text(map: &str, tileset: &str, counts: [usize; 4], hex: (u32, u32)) -> String {
    let [hexes, roads, rivers, settlements] = counts;
    format!(
        "wrote {map}: {hexes} hexes of {}x{} pixels, {roads} road sides, {rivers} river sides, {settlements} settlements (tileset picture {tileset})\nopen it in Tiled, edit, save, then: sowbridge map import {map} --dry-run\n",
        hex.0, hex.1
    )
}
