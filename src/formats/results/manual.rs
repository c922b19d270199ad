//! sowbridge's own result CSV, for a battle the umpire settles by hand.

use std::collections::BTreeMap;

use crate::error::{Problem, Problems};
use crate::formats::table::{Fields, Table};

use super::{ABSURD, finish};

/// One row of sowbridge's result CSV for a battle settled by hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManualRow {
    /// The row's line.
    pub line: u64,
    /// The campaign unit id.
    pub unit: String,
    /// Men killed.
    pub killed: u32,
    /// Men wounded.
    pub wounded: u32,
    /// Men missing (stragglers, routed).
    pub missing: u32,
    /// Men taken prisoner.
    pub captured: u32,
    /// Guns lost (blank or absent column: none).
    pub guns_lost: u32,
    /// Ammunition left, per cent (blank or absent column: unchanged).
    pub ammo: Option<u8>,
}

/// A result CSV for one battle settled by hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManualResult {
    /// The file's name as shown in messages.
    pub file: String,
    /// The battle id every row names.
    pub battle: String,
    /// The rows, in file order.
    pub rows: Vec<ManualRow>,
}

/// The result CSV's columns: `guns_lost` and `ammo` may be left out.
const MANUAL_COLUMNS: [&str; 8] =
    ["battle", "unit", "killed", "wounded", "missing", "captured", "guns_lost", "ammo"];

/// Columns that help the umpire fill the file in (`battle template` writes them); read past.
const INFO_COLUMNS: [&str; 5] = ["name", "side", "force", "men", "guns"];

/// One exported unit of a battle, as `battle template` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateRow {
    /// Campaign unit id.
    pub unit: String,
    /// Its name.
    pub name: String,
    /// Its side, as the campaign writes it.
    pub side: String,
    /// Its top-level force.
    pub force: String,
    /// Men exported.
    pub men: u32,
    /// Guns exported.
    pub guns: u32,
}

/// The hand-result CSV of a battle with every exported unit and no losses, ready to be filled
/// in (by [`parse_manual`]'s columns; the informational ones are read past), in the campaign's
/// dialect (as its `forces.csv` was saved), so that the umpire's spreadsheet opens it as it
/// opens the campaign.
pub fn write_template(
    dialect: crate::model::dialect::Dialect,
    battle: &str,
    rows: &[TemplateRow],
) -> Vec<u8> {
    let headers = [
        "battle",
        "unit",
        "name",
        "side",
        "force",
        "men",
        "guns",
        "killed",
        "wounded",
        "missing",
        "captured",
        "guns_lost",
        "ammo",
    ];
    let zero = || "0".to_string();
    crate::formats::table::write_csv(
        dialect,
        &headers,
        &[],
        rows.iter().map(|r| {
            [
                battle.to_string(),
                r.unit.clone(),
                r.name.clone(),
                r.side.clone(),
                r.force.clone(),
                r.men.to_string(),
                r.guns.to_string(),
                zero(),
                zero(),
                zero(),
                zero(),
                zero(),
                String::new(),
            ]
        }),
    )
}

/// The field count of the last line of a file that has no line ending after it: the file was
/// cut while being written. Even a last line with all its fields is cut, since a cut inside
/// its last number (`18` cut to `1`) cannot be told from a whole one.
fn cut_last_line(bytes: &[u8]) -> Option<usize> {
    if bytes.is_empty() || bytes.ends_with(b"\n") || bytes.ends_with(b"\r") {
        return None;
    }
    let (text, _) = crate::formats::text::decode(bytes);
    let last = text.rsplit('\n').next().unwrap_or("");
    let mut r = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(last.as_bytes());
    Some(r.records().next().and_then(Result::ok).map_or(0, |rec| rec.len()))
}

/// Reads sowbridge's result CSV for a battle settled by hand:
/// `battle,unit,killed,wounded,missing,captured[,guns_lost][,ammo]`. Every row names the same
/// battle, each unit once; figures are whole numbers, ammo a percentage 0–100.
pub fn parse_manual(file: &str, bytes: &[u8]) -> Result<ManualResult, Problems> {
    let mut problems = Problems::default();
    let table = Table::parse(file, bytes, &mut problems);
    let mut result = ManualResult { file: file.to_string(), battle: String::new(), rows: Vec::new() };
    if !table.require(&MANUAL_COLUMNS[..6], &mut problems) {
        return finish(result, problems);
    }
    let known: Vec<&str> = MANUAL_COLUMNS.iter().chain(INFO_COLUMNS.iter()).copied().collect();
    for extra in table.extra_columns(&known) {
        problems.push(Problem::at(
            file,
            1,
            &extra,
            "unknown column (expected battle,unit,killed,wounded,missing,captured,guns_lost,ammo; \
             name,side,force,men,guns are read past)",
        ));
    }
    let cut = cut_last_line(bytes);
    let last_line = table.rows.last().map(|r| Fields::new(&table, r, &mut Problems::default()).line());
    let mut seen: BTreeMap<String, u64> = BTreeMap::new();
    let mut first_battle: Option<(String, u64)> = None;
    for row in &table.rows {
        let mut f = Fields::new(&table, row, &mut problems);
        if let (Some(n), Some(last)) = (cut, last_line)
            && f.line() == last
        {
            let msg = format!(
                "truncated: the last line has no line ending ({n} of the header's {} fields); the file \
                 may have been cut while being written, even inside its last number: check the line \
                 and end it with a line break (Enter) before saving",
                table.headers.len()
            );
            f.problem("", msg);
            continue;
        }
        let battle = f.text("battle").to_string();
        if battle.is_empty() {
            f.problem("battle", "is empty");
        } else if let Some((first, line)) = &first_battle {
            if *first != battle {
                let msg = format!("'{battle}' but line {line} names battle '{first}'; one battle per file");
                f.problem("battle", msg);
            }
        } else {
            first_battle = Some((battle, f.line()));
        }
        let unit = f.id("unit").to_string();
        if unit.is_empty() {
            f.problem("unit", "is empty");
        } else if let Some(line) = seen.get(&unit) {
            f.problem("unit", format!("'{unit}' is listed twice (also on line {line})"));
        } else {
            seen.insert(unit.clone(), f.line());
        }
        let (killed, wounded) = (required_count(&mut f, "killed"), required_count(&mut f, "wounded"));
        let (missing, captured) = (required_count(&mut f, "missing"), required_count(&mut f, "captured"));
        let guns_lost = count(&mut f, "guns_lost").unwrap_or(0);
        let ammo = count(&mut f, "ammo").and_then(|a| match u8::try_from(a) {
            Ok(a) if a <= 100 => Some(a),
            _ => {
                f.problem("ammo", format!("{a} is not a percentage 0-100"));
                None
            }
        });
        if let (Some(killed), Some(wounded), Some(missing), Some(captured)) =
            (killed, wounded, missing, captured)
        {
            let line = f.line();
            result.rows.push(ManualRow { line, unit, killed, wounded, missing, captured, guns_lost, ammo });
        }
    }
    if let Some((battle, _)) = first_battle {
        result.battle = battle;
    }
    if table.rows.is_empty() {
        problems.push(Problem::in_file(file, "no result rows"));
    }
    finish(result, problems)
}

/// A whole number that must be written, 0 for none.
fn required_count(f: &mut Fields<'_>, name: &str) -> Option<u32> {
    if f.text(name).is_empty() {
        f.problem(name, "is empty (write 0 for none)");
    }
    count(f, name)
}

/// An optional whole number, refusing the absurd.
fn count(f: &mut Fields<'_>, name: &str) -> Option<u32> {
    let n = f.count(name)?;
    if u64::from(n) > ABSURD {
        f.problem(name, format!("{n} is absurd (more than {ABSURD})"));
        return None;
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
battle,unit,killed,wounded,missing,captured,guns_lost,ammo
T20-18.28,fr-9leger-1,40,110,85,30,0,35
T20-18.28,fr-art-3,2,5,0,0,2,
T20-18.28,br-29,12,40,8,0,,60
";

    fn shown(bytes: &[u8]) -> Vec<String> {
        parse_manual("result.csv", bytes).unwrap_err().0.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_hand_settled_battle_reads_every_row() {
        let r = parse_manual("result.csv", GOOD.as_bytes()).unwrap();
        assert_eq!(r.battle, "T20-18.28");
        assert_eq!(r.rows.len(), 3);
        assert_eq!(
            r.rows[0],
            ManualRow {
                line: 2,
                unit: "fr-9leger-1".into(),
                killed: 40,
                wounded: 110,
                missing: 85,
                captured: 30,
                guns_lost: 0,
                ammo: Some(35)
            }
        );
        assert_eq!((r.rows[1].guns_lost, r.rows[1].ammo), (2, None), "blank ammo leaves it unchanged");
        assert_eq!((r.rows[2].line, r.rows[2].guns_lost), (4, 0));
    }

    #[test]
    fn guns_lost_and_ammo_columns_may_be_left_out() {
        let text = "Battle,Unit,Killed,Wounded,Missing,Captured\r\nT20-18.28,br-29,1,2,3,4\r\n";
        let r = parse_manual("result.csv", text.as_bytes()).unwrap();
        assert_eq!((r.rows[0].captured, r.rows[0].guns_lost, r.rows[0].ammo), (4, 0, None));
    }

    #[test]
    fn every_mistake_in_a_hand_written_result_is_reported_at_once() {
        let text = "\
battle,unit,killed,wounded,missing,captured,guns_lost,ammo
T20-18.28,fr-9leger-1,40,110,85,30,0,35
T20-18.28,fr-9leger-1,1,1,1,1,0,35
T21-18.28,br-29,12,-40,8,0,,60
T20-18.28,br-48,12,,8,0,1,120
";
        assert_eq!(
            shown(text.as_bytes()),
            [
                "result.csv:3: unit: 'fr-9leger-1' is listed twice (also on line 2)",
                "result.csv:4: battle: 'T21-18.28' but line 2 names battle 'T20-18.28'; one battle per file",
                "result.csv:4: wounded: '-40' is negative",
                "result.csv:5: ammo: 120 is not a percentage 0-100",
                "result.csv:5: wounded: is empty (write 0 for none)",
            ]
        );
    }

    #[test]
    fn the_template_is_read_back_as_a_result_of_no_losses() {
        let rows = [TemplateRow {
            unit: "fr-9leger-1".to_string(),
            name: "9e Léger, 1er Bn".to_string(),
            side: "French".to_string(),
            force: "FR-I".to_string(),
            men: 500,
            guns: 0,
        }];
        let bytes = write_template(crate::model::dialect::Dialect::default(), "T20-18.28", &rows);
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.starts_with(
            "battle,unit,name,side,force,men,guns,killed,wounded,missing,captured,guns_lost,ammo\n"
        ));
        assert!(text.contains("\"9e Léger, 1er Bn\""), "a name with a comma is quoted: {text}");
        let r = parse_manual("t.csv", &bytes).unwrap();
        assert_eq!(r.battle, "T20-18.28");
        assert_eq!(
            r.rows,
            [ManualRow {
                line: 2,
                unit: "fr-9leger-1".to_string(),
                killed: 0,
                wounded: 0,
                missing: 0,
                captured: 0,
                guns_lost: 0,
                ammo: None
            }]
        );
    }

    #[test]
    fn a_result_cut_mid_line_says_it_was_cut() {
        let cut = &GOOD.as_bytes()[..GOOD.len() - 8];
        assert_eq!(
            shown(cut),
            [
                "result.csv:4: truncated: the last line has no line ending (5 of the header's 8 fields); the file may have been cut while being written, even inside its last number: check the line and end it with a line break (Enter) before saving"
            ]
        );
        // A last row with all its fields but no line ending may be cut inside its last number.
        let whole = shown(GOOD.trim_end().as_bytes());
        assert_eq!(whole.len(), 1, "{whole:?}");
        assert!(
            whole[0].contains("truncated: the last line has no line ending (8 of the header's 8"),
            "{whole:?}"
        );
    }

    #[test]
    fn missing_and_unknown_columns_and_empty_files_are_refused() {
        assert_eq!(
            shown(b"battle,unit,killed,wounded,missing,captured,gun_lost\nT1,u,1,1,1,1,3\n"),
            [
                "result.csv:1: gun_lost: unknown column (expected battle,unit,killed,wounded,missing,captured,guns_lost,ammo; name,side,force,men,guns are read past)"
            ]
        );
        assert_eq!(
            shown(b"battle,unit,killed,wounded\nT1,u,1,1\n"),
            [
                "result.csv:1: captured: required column is missing from the header",
                "result.csv:1: missing: required column is missing from the header",
            ]
        );
        assert_eq!(shown(b"battle,unit,killed,wounded,missing,captured\n"), ["result.csv: no result rows"]);
    }
}
