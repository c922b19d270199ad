//! The game's battle dump, `sowgb_gamedb_*.csv` (sow-formats.md §3.1): per unit, its own
//! losses and the enemy units that inflicted them.

use std::collections::BTreeMap;

use crate::error::{Problem, Problems};
use crate::formats::text::decode;
use crate::model::Chain;

use super::{At, blank, engine_fields, finish, lines};

/// The dump's columns, by position (sow-formats.md §3.1, as GCM read the G1 file).
const DUMP_COLUMNS: [&str; 20] = [
    "Side",
    "Army",
    "Corp",
    "Div",
    "Brig",
    "Reg",
    "Our Name",
    "Ammo",
    "Status",
    "Deserted",
    "Killed",
    "Wounded",
    "R1",
    "R2",
    "R3",
    "R4",
    "R5",
    "R6",
    "Killer Name",
    "Casualties",
];

/// Fields a dump row must have: the chain, name, ammo, status and the three own losses.
const DUMP_MIN_FIELDS: usize = 12;

/// The row layouts the game writes: own losses only, or with one killer's data.
const DUMP_LAYOUTS: [usize; 2] = [DUMP_MIN_FIELDS, DUMP_COLUMNS.len()];

/// The layout, said in words for a refusal.
fn layout_words() -> String {
    format!(
        "the dump layout is {} ({} fields; the first {DUMP_MIN_FIELDS} when a row has no killer data)",
        DUMP_COLUMNS.join(","),
        DUMP_COLUMNS.len()
    )
}

/// A header label, compared without case or spaces.
fn label(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase()
}

/// True for a preamble line that names the dump's columns (its first field is `Side`).
fn is_header(fields: &[String]) -> bool {
    fields.len() >= 6 && label(&fields[0]) == "side"
}

/// Checks a header line against the layout read: as many labels as a layout has, each in
/// its place (the unit column may be called by name or by id). Says what differs first.
fn header_mismatch(fields: &[String]) -> Option<String> {
    let n = significant(fields);
    let misplaced = fields[..n.min(DUMP_COLUMNS.len())].iter().enumerate().find_map(|(i, l)| {
        let ok = match i {
            6 => ["ourname", "name", "id", "unit", "name1"].contains(&label(l).as_str()),
            _ => label(l) == label(DUMP_COLUMNS[i]),
        };
        (!ok).then(|| format!("the header's column {} is '{l}', not '{}'", i + 1, DUMP_COLUMNS[i]))
    });
    misplaced.or_else(|| (!DUMP_LAYOUTS.contains(&n)).then(|| format!("the header names {n} columns")))
}

/// The fields of a row without trailing blank ones past the own losses.
fn significant(fields: &[String]) -> usize {
    let mut n = fields.len();
    while n > DUMP_MIN_FIELDS && fields[n - 1].is_empty() {
        n -= 1;
    }
    n
}

/// One unit of the game's dump, with its own losses taken once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpUnit {
    /// The unit's SoW hierarchy chain (Side … Reg).
    pub chain: Chain,
    /// `Our Name` without a trailing `(…)`, which may be a player's name.
    pub name: String,
    /// The text in parentheses at the end of `Our Name`: a player's name for player-led
    /// commanders, or part of the unit's own name (`95th (Rifles)`). Which one is decided
    /// against the exported name, when the dump is matched to its battle.
    pub player: Option<String>,
    /// `Our Name` as written.
    pub written: String,
    /// The first line the unit appears on.
    pub line: u64,
    /// Ammunition left, as the game wrote it (blank: unknown).
    pub ammo: Option<u32>,
    /// The game's status text, unread.
    pub status: String,
    /// Men deserted (stragglers, routed, missing; the dump has no captured column).
    pub deserted: u32,
    /// Men killed.
    pub killed: u32,
    /// Men wounded.
    pub wounded: u32,
    /// The enemy units that inflicted losses on this one, one per row.
    pub hits: Vec<Hit>,
}

/// Losses one enemy unit inflicted on a dump unit (the R1..R6, Killer Name, Casualties columns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The row's line.
    pub line: u64,
    /// The chain of the unit that inflicted the losses.
    pub killer: Chain,
    /// Its name as the game wrote it.
    pub killer_name: String,
    /// Men it put out of action.
    pub casualties: u32,
}

/// A whole game dump.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameDump {
    /// The file's name as shown in messages.
    pub file: String,
    /// Every unit, by chain; commanders (Reg = 0) included.
    pub units: BTreeMap<Chain, DumpUnit>,
    /// The lines before the first unit row, as written.
    pub preamble: Vec<String>,
    /// Number of unit rows read (a unit hit by three enemies has three).
    pub rows: usize,
}

/// True when the first six fields are integers: the mark of a dump's unit row.
fn is_unit_row(fields: &[String]) -> bool {
    fields.len() >= 6 && fields[..6].iter().all(|f| f.parse::<i64>().is_ok())
}

/// Splits `Our Name` into the name and a trailing `(player)`.
fn split_player(name: &str) -> (String, Option<String>) {
    if let Some(inner) = name.strip_suffix(')')
        && let Some(open) = inner.rfind('(')
    {
        let player = inner[open + 1..].trim();
        if !player.is_empty() {
            return (inner[..open].trim().to_string(), Some(player.to_string()));
        }
    }
    (name.to_string(), None)
}

/// Reads a game dump (sow-formats.md §3.1). Lines before the first row whose first six
/// fields are integers are the preamble. A unit may have several rows, one per enemy unit
/// that hit it: its own Deserted/Killed/Wounded are taken once, from its first row, and each
/// row with killer data adds a [`Hit`]. Commander rows (Reg = 0) are kept.
pub fn parse_gamedb(file: &str, bytes: &[u8]) -> Result<GameDump, Problems> {
    let (text, _) = decode(bytes);
    let mut problems = Problems::default();
    let mut dump = GameDump { file: file.to_string(), units: BTreeMap::new(), preamble: Vec::new(), rows: 0 };
    let mut header_len = None;
    let all = lines(&text);
    let last = all.len();
    for (i, line) in all.iter().enumerate() {
        let fields = engine_fields(line.text);
        if dump.rows == 0 && !is_unit_row(&fields) {
            if fields.len() >= DUMP_MIN_FIELDS {
                header_len = Some(fields.len());
            }
            if is_header(&fields)
                && let Some(what) = header_mismatch(&fields)
            {
                problems.push(Problem::at(
                    file,
                    line.number,
                    "",
                    format!("{what}; {}: not read, so that no column is read shifted", layout_words()),
                ));
            }
            dump.preamble.push(line.text.to_string());
            continue;
        }
        if blank(&fields) {
            continue;
        }
        let mut at = At { file, line: line.number, problems: &mut problems };
        if i + 1 == last && !line.ended {
            let shape = header_len.map_or(String::new(), |n| format!(" (the header has {n})"));
            at.problem(
                "",
                format!(
                    "truncated: the last line has no line ending and {} fields{shape}; \
                     the file was cut while being written",
                    fields.len()
                ),
            );
            dump.rows += 1;
            continue;
        }
        if !is_unit_row(&fields) {
            at.problem("", "not a unit row (its first six fields are not integers) after the unit rows");
            continue;
        }
        dump.rows += 1;
        if !DUMP_LAYOUTS.contains(&significant(&fields)) {
            at.problem("", format!("{} fields; {}", fields.len(), layout_words()));
            continue;
        }
        if let Some(unit) = dump_row(&mut at, &fields) {
            merge_unit(&mut dump.units, unit, &mut problems, file);
        }
    }
    if dump.rows == 0 {
        problems.push(Problem::in_file(file, "no unit rows: not a SoW battle dump"));
    }
    finish(dump, problems)
}

/// Reads one unit row of at least 12 fields; the unit carries this row's hit, if any.
fn dump_row(at: &mut At<'_>, fields: &[String]) -> Option<DumpUnit> {
    let chain = at.chain(&DUMP_COLUMNS[..6], fields);
    let ammo = at.opt_count("Ammo", &fields[7]);
    let deserted = at.count("Deserted", &fields[9]);
    let killed = at.count("Killed", &fields[10]);
    let wounded = at.count("Wounded", &fields[11]);
    let hit = killer(at, fields);
    let (name, player) = split_player(&fields[6]);
    Some(DumpUnit {
        chain: chain?,
        name,
        player,
        written: fields[6].clone(),
        line: at.line,
        ammo,
        status: fields[8].clone(),
        deserted: deserted?,
        killed: killed?,
        wounded: wounded?,
        hits: hit?.into_iter().collect(),
    })
}

/// The killer block (R1..R6, Killer Name, Casualties): `Some(None)` when the row has none
/// (absent, blank or R1 = 0), `None` when it is malformed (problems pushed).
fn killer(at: &mut At<'_>, fields: &[String]) -> Option<Option<Hit>> {
    let block = fields.get(DUMP_MIN_FIELDS..).unwrap_or_default();
    let r1 = block.first().map_or("", String::as_str);
    if blank(block) || r1 == "0" {
        return Some(None);
    }
    if block.len() < 8 {
        at.problem("", format!("{} fields; a row with killer data has 20", fields.len()));
        return None;
    }
    let killer = at.chain(&DUMP_COLUMNS[12..18], block);
    let casualties = at.count("Casualties", &block[7]);
    Some(Some(Hit { line: at.line, killer: killer?, killer_name: block[6].clone(), casualties: casualties? }))
}

/// Adds a row to its unit: a new unit, or a further hit on one already read, whose own
/// losses must agree with its first row.
fn merge_unit(units: &mut BTreeMap<Chain, DumpUnit>, row: DumpUnit, problems: &mut Problems, file: &str) {
    let Some(first) = units.get_mut(&row.chain) else {
        units.insert(row.chain, row);
        return;
    };
    let pairs = [
        ("Deserted", first.deserted, row.deserted),
        ("Killed", first.killed, row.killed),
        ("Wounded", first.wounded, row.wounded),
    ];
    for (field, was, now) in pairs {
        if was != now {
            problems.push(Problem::at(
                file,
                row.line,
                field,
                format!("{now} here but {was} on line {} for the same unit {}", first.line, row.chain),
            ));
        }
    }
    if (&first.name, &first.player) != (&row.name, &row.player) {
        problems.push(Problem::at(
            file,
            row.line,
            "Our Name",
            format!(
                "'{}' here but '{}' on line {} for the same chain {}",
                row.name, first.name, first.line, row.chain
            ),
        ));
    }
    first.hits.extend(row.hits);
}

#[cfg(test)]
mod tests {
    use super::super::SAMPLE_DUMP;
    use super::*;
    use crate::error::Problem;
    use crate::formats::text::encode_sow;

    fn chain(s: &str) -> Chain {
        s.parse().unwrap()
    }

    /// The sample with one line replaced (1-based).
    fn with_line(n: usize, text: &str) -> String {
        let mut lines: Vec<&str> = SAMPLE_DUMP.lines().collect();
        lines[n - 1] = text;
        lines.join("\n") + "\n"
    }

    fn problems(text: &str) -> Vec<Problem> {
        parse_gamedb("sowgb_gamedb_1.csv", text.as_bytes()).unwrap_err().0
    }

    #[test]
    fn a_real_dump_in_crlf_windows_1252_reads_each_unit_once_with_its_hits() {
        let bytes = encode_sow(SAMPLE_DUMP);
        assert!(bytes.windows(2).any(|w| w == b"\r\n") && bytes.contains(&0xE9), "CRLF, é as one byte");
        let dump = parse_gamedb("sowgb_gamedb_1.csv", &bytes).unwrap();
        assert_eq!(dump.preamble.len(), 3);
        assert!(dump.preamble[2].starts_with("Side,Army,Corp"));
        assert_eq!(dump.rows, 6);
        assert_eq!(dump.units.len(), 5, "the 29th's two rows are one unit");

        let foot = &dump.units[&chain("1_1_1_1_1_1")];
        assert_eq!((foot.deserted, foot.killed, foot.wounded), (12, 40, 85), "own losses taken once");
        assert_eq!((foot.line, foot.ammo, foot.status.as_str()), (6, Some(27), "Steady"));
        let hits: Vec<_> =
            foot.hits.iter().map(|h| (h.line, h.killer, h.killer_name.as_str(), h.casualties)).collect();
        assert_eq!(
            hits,
            [
                (6, chain("2_1_1_1_2_3"), "9e Léger 1er Bn", 80),
                (7, chain("2_1_1_1_3_1"), "24e Ligne 2e Bn", 57)
            ]
        );

        let hill = &dump.units[&chain("1_1_1_0_0_0")];
        assert_eq!(
            (hill.name.as_str(), hill.player.as_deref(), hill.killed),
            ("Lt-Gen Hill", Some("hawkeye"), 1)
        );
        let chief = &dump.units[&chain("1_1_0_0_0_0")];
        assert_eq!(
            (chief.name.as_str(), chief.player.as_deref(), chief.hits.len()),
            ("Sir Arthur Wellesley", None, 0)
        );
        assert_eq!(dump.units[&chain("2_1_1_1_2_3")].name, "9e Léger 1er Bn");
        assert!(dump.units[&chain("2_1_1_1_3_1")].hits.is_empty(), "R1 = 0 is no killer");

        let utf8 = parse_gamedb("sowgb_gamedb_1.csv", SAMPLE_DUMP.as_bytes()).unwrap();
        assert_eq!(utf8, dump, "the same dump in UTF-8 with LF reads the same");
    }

    #[test]
    fn a_torn_last_line_is_refused_as_truncated() {
        let cut = &SAMPLE_DUMP[..SAMPLE_DUMP.len() - 20];
        let p = problems(cut);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].line, Some(9));
        assert!(p[0].message.starts_with("truncated"), "{}", p[0]);
        assert!(p[0].message.contains("the header has 20"), "{}", p[0]);
        // Cut inside the last number: every field is there, but 0 may have been 0-something.
        let p = problems(SAMPLE_DUMP.trim_end());
        assert!(p[0].message.starts_with("truncated"), "{}", p[0]);
    }

    #[test]
    fn a_dump_cut_exactly_at_a_line_end_cannot_be_told_from_a_smaller_battle() {
        let cut: String = SAMPLE_DUMP.lines().take(6).map(|l| format!("{l}\r\n")).collect();
        let dump = parse_gamedb("f.csv", cut.as_bytes()).unwrap();
        assert_eq!((dump.rows, dump.units.len()), (3, 3));
    }

    #[test]
    fn garbage_and_empty_files_are_not_battle_dumps() {
        for bytes in [&b""[..], b"\x00\xff\xfe\x89PNG\r\n\x1a\n\x00\x00garbage,1,2", b"\n\n\r\n"] {
            let p = parse_gamedb("f.csv", bytes).unwrap_err();
            assert_eq!(p.0, [Problem::in_file("f.csv", "no unit rows: not a SoW battle dump")]);
        }
    }

    #[test]
    fn a_non_numeric_killed_names_its_line_and_field() {
        let p = problems(&with_line(
            7,
            "1,1,1,1,1,1,1/29th Foot,27,Steady,12,forty,85,2,1,1,1,3,1,24e Ligne 2e Bn,57",
        ));
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].to_string(), "sowgb_gamedb_1.csv:7: Killed: 'forty' is not a whole number");
    }

    #[test]
    fn negative_and_absurd_figures_are_refused_together() {
        let text =
            with_line(8, "2,1,1,1,2,3,9e Léger 1er Bn,15,Wavering,30,22,-61,1,1,1,1,1,1,1/29th Foot,113");
        let text = text.replace("Routed,105,9,30", "Routed,105,9,3000000");
        let p = problems(&text);
        let shown: Vec<_> = p.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "sowgb_gamedb_1.csv:8: Wounded: '-61' is negative",
                "sowgb_gamedb_1.csv:9: Wounded: '3000000' is absurd (more than 1000000)",
            ]
        );
    }

    #[test]
    fn repeated_rows_that_disagree_on_own_losses_name_both_lines() {
        let p = problems(&with_line(
            7,
            "1,1,1,1,1,1,1/29th Foot,27,Steady,12,41,85,2,1,1,1,3,1,24e Ligne 2e Bn,57",
        ));
        assert_eq!(p.len(), 1);
        assert_eq!(
            p[0].to_string(),
            "sowgb_gamedb_1.csv:7: Killed: 41 here but 40 on line 6 for the same unit 1_1_1_1_1_1"
        );
    }

    #[test]
    fn rows_that_are_short_garbage_or_bad_killers_are_each_reported() {
        let text = SAMPLE_DUMP.to_string()
            + "1,1,1,1,2,1,2/48th Foot,30\n"
            + "Total,,,,,\n"
            + "1,1,1,1,2,2,1/40th Foot,30,Steady,0,0,0,2,1,x,1,2,3,9e Léger 1er Bn,5\n";
        let p = problems(&text);
        let shown: Vec<_> = p.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "sowgb_gamedb_1.csv:10: 8 fields; the dump layout is Side,Army,Corp,Div,Brig,Reg,Our Name,Ammo,Status,Deserted,Killed,Wounded,R1,R2,R3,R4,R5,R6,Killer Name,Casualties (20 fields; the first 12 when a row has no killer data)",
                "sowgb_gamedb_1.csv:11: not a unit row (its first six fields are not integers) after the unit rows",
                "sowgb_gamedb_1.csv:12: R3: 'x' is not a hierarchy index 0-99",
            ]
        );
    }

    #[test]
    fn two_units_under_one_chain_are_refused() {
        let p = problems(&with_line(
            7,
            "1,1,1,1,1,1,1/40th Foot,27,Steady,12,40,85,2,1,1,1,3,1,24e Ligne 2e Bn,57",
        ));
        assert_eq!(p[0].field.as_deref(), Some("Our Name"));
        assert!(p[0].message.contains("on line 6"), "{}", p[0]);
    }
}
