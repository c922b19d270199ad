//! `startlocs.csv`, written by the battlescript command `dumplocs` (sow-formats.md §3.2):
//! each unit's place, formation, men, fatigue and morale when the battle ended.

use std::collections::BTreeMap;

use crate::error::{Problem, Problems};
use crate::formats::text::decode;

use super::{At, engine_fields, finish, lines};

/// One unit's state in `startlocs.csv` when `dumplocs` ran.
#[derive(Debug, Clone, PartialEq)]
pub struct EndLocation {
    /// The row's line.
    pub line: u64,
    /// Ammunition left (blank: unknown).
    pub ammo: Option<u32>,
    /// World position (`loc x`).
    pub x: f64,
    /// World position (`loc z`).
    pub z: f64,
    /// Formation id.
    pub formation: String,
    /// Men still with the unit.
    pub head_count: u32,
    /// Fatigue (blank: unknown).
    pub fatigue: Option<u32>,
    /// Morale (blank: unknown).
    pub morale: Option<u32>,
}

/// A whole `startlocs.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct StartLocs {
    /// The file's name as shown in messages.
    pub file: String,
    /// The game time in the header's last field (`10:03:30`), when it looks like a time.
    pub time: Option<String>,
    /// Rows by their first column, upper-cased: the unit's ID, or its display name (the
    /// editor's own code says both, sow-formats.md §7.2). Names repeat — every courier, every
    /// supply wagon — so a key may hold several rows, in file order.
    pub units: BTreeMap<String, Vec<EndLocation>>,
}

impl StartLocs {
    /// Every row with its key, in key order.
    pub fn rows(&self) -> impl Iterator<Item = (&str, &EndLocation)> {
        self.units.iter().flat_map(|(k, v)| v.iter().map(move |l| (k.as_str(), l)))
    }
}

/// The `startlocs.csv` columns, by position (sow-formats.md §3.2).
const LOCS_COLUMNS: [&str; 10] =
    ["Name", "Ammo", "dir x", "dir z", "loc x", "loc z", "Formation", "Head Count", "Fatigue", "Morale"];

/// True for `10:03:30` or `9:05`.
fn looks_like_time(s: &str) -> bool {
    let parts: Vec<&str> = s.split(':').collect();
    (2..=3).contains(&parts.len())
        && parts.iter().all(|p| (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Reads `startlocs.csv` written by `dumplocs` (sow-formats.md §3.2): line 1 is the header,
/// whose last field is the game time; each row is one unit's state, keyed by its ID or its
/// name (a name may repeat).
pub fn parse_startlocs(file: &str, bytes: &[u8]) -> Result<StartLocs, Problems> {
    let (text, _) = decode(bytes);
    let mut problems = Problems::default();
    let all = lines(&text);
    let mut locs = StartLocs { file: file.to_string(), time: None, units: BTreeMap::new() };
    let Some((header, body)) = all.split_first() else {
        problems.push(Problem::in_file(file, "empty file: not a SoW startlocs dump"));
        return finish(locs, problems);
    };
    let head = engine_fields(header.text);
    locs.time = head.last().filter(|t| looks_like_time(t)).cloned();
    // Columns are read by their place; a label named twice is a file of another layout.
    let labels = if locs.time.is_some() { &head[..head.len() - 1] } else { &head[..] };
    for (i, label) in labels.iter().enumerate() {
        let name = label.trim();
        if let Some(first) = labels[..i].iter().position(|l| l.trim().eq_ignore_ascii_case(name))
            && !name.is_empty()
        {
            problems.push(Problem::at(
                file,
                header.number,
                name,
                format!(
                    "the column is named twice in the header (columns {} and {i_1}): not the layout \
                     dumplocs writes (Name,Ammo,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale)",
                    first + 1,
                    i_1 = i + 1
                ),
            ));
        }
    }
    for (i, line) in body.iter().enumerate() {
        // The engine skips empty lines and lines starting with a comma (§1.1).
        if line.text.trim().is_empty() || line.text.starts_with(',') {
            continue;
        }
        let fields = engine_fields(line.text);
        let mut at = At { file, line: line.number, problems: &mut problems };
        if i + 1 == body.len() && !line.ended {
            at.problem(
                "",
                "truncated: the last line has no line ending; the file was cut while being written",
            );
            continue;
        }
        if fields.len() < 8 {
            at.problem("", format!("{} fields; a unit row has at least 8", fields.len()));
            continue;
        }
        let get = |i: usize| fields.get(i).map_or("", String::as_str);
        let ammo = at.opt_count("Ammo", get(1));
        let coord = |at: &mut At<'_>, i: usize| match get(i).parse::<f64>() {
            Ok(v) if v.is_finite() => Some(v),
            _ => {
                at.problem(LOCS_COLUMNS[i], format!("'{}' is not a number", get(i)));
                None
            }
        };
        let (x, z) = (coord(&mut at, 4), coord(&mut at, 5));
        let head_count = at.count("Head Count", get(7));
        let (fatigue, morale) = (at.opt_count("Fatigue", get(8)), at.opt_count("Morale", get(9)));
        let id = get(0).to_uppercase();
        if id.is_empty() {
            at.problem("Name", "is empty");
            continue;
        }
        if let (Some(x), Some(z), Some(head_count)) = (x, z, head_count) {
            let formation = get(6).to_string();
            let loc = EndLocation { line: line.number, ammo, x, z, formation, head_count, fatigue, morale };
            locs.units.entry(id).or_default().push(loc);
        }
    }
    if locs.units.is_empty() && problems.is_empty() {
        problems.push(Problem::in_file(file, "no unit rows: not a SoW startlocs dump"));
    }
    finish(locs, problems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::text::encode_sow;

    const LOCS: &str = "\
Name,Ammo,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale,10:03:30
OOB_1_1_1_1_1_1,27,0.71,-0.71,10234.5,8832.1,DRIL_Lvl6_Inf_Line,563,120,900

oob_2_1_1_1_2_3,15,-1,0,11000,9010.25,DRIL_Lvl6_Inf_Column,402,,
,documentation rows start with a comma and are skipped by the engine
";

    fn shown(text: &str) -> Vec<String> {
        parse_startlocs("startlocs.csv", text.as_bytes())
            .unwrap_err()
            .0
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn end_positions_are_keyed_by_upper_cased_id_with_the_game_time() {
        let locs = parse_startlocs("startlocs.csv", &encode_sow(LOCS)).unwrap();
        assert_eq!(locs.time.as_deref(), Some("10:03:30"));
        assert_eq!(locs.units.keys().collect::<Vec<_>>(), ["OOB_1_1_1_1_1_1", "OOB_2_1_1_1_2_3"]);
        let foot = &locs.units["OOB_1_1_1_1_1_1"][0];
        assert_eq!(
            (foot.line, foot.ammo, foot.x, foot.z, foot.formation.as_str()),
            (2, Some(27), 10234.5, 8832.1, "DRIL_Lvl6_Inf_Line")
        );
        assert_eq!((foot.head_count, foot.fatigue, foot.morale), (563, Some(120), Some(900)));
        let leger = &locs.units["OOB_2_1_1_1_2_3"][0];
        assert_eq!((leger.line, leger.head_count, leger.fatigue, leger.morale), (4, 402, None, None));
    }

    #[test]
    fn a_header_without_a_time_gives_none() {
        let text = LOCS.replace(",10:03:30", "");
        assert_eq!(parse_startlocs("startlocs.csv", text.as_bytes()).unwrap().time, None);
    }

    #[test]
    fn rows_keyed_by_names_that_repeat_are_all_kept() {
        let text = "Name,Ammo,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale,14:59:57\n\
                    Courier,0,1,0,100,100,DRIL_SupplyWagon,10,0,0\n\
                    1/29th Foot,27,1,0,200,200,DRIL_Lvl6_Inf_Line,420,4,10\n\
                    Courier,0,1,0,900,900,DRIL_SupplyWagon,10,0,0\n";
        let locs = parse_startlocs("startlocs.csv", text.as_bytes()).unwrap();
        assert_eq!(locs.units["COURIER"].iter().map(|l| l.line).collect::<Vec<_>>(), [2, 4]);
        assert_eq!(locs.rows().count(), 3);
    }

    #[test]
    fn bad_rows_and_a_torn_end_are_all_reported() {
        let text = LOCS.to_string()
            + "OOB_1_1_1_1_1_1,27,0,0,1,2,DRIL,10,0,0\n"
            + "OOB_1_1_1_1_2_1,27,0,0,east,2,DRIL,-3,0,0\n"
            + "OOB_1_1_1_1_3_1,20,0,0,5,5,DRIL,3";
        assert_eq!(
            shown(&text),
            [
                "startlocs.csv:7: Head Count: '-3' is negative",
                "startlocs.csv:7: loc x: 'east' is not a number",
                "startlocs.csv:8: truncated: the last line has no line ending; the file was cut while being written",
            ]
        );
    }

    #[test]
    fn empty_and_header_only_files_are_refused() {
        assert_eq!(shown(""), ["startlocs.csv: empty file: not a SoW startlocs dump"]);
        assert_eq!(shown("Name,Ammo\n"), ["startlocs.csv: no unit rows: not a SoW startlocs dump"]);
    }
}
