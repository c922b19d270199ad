//! `forces.csv`, the order of battle: by far the largest file of a campaign, read as it is parsed
//! (from its bytes, or from the file the store opens) and built into units on threads of its own.

use crate::model::limits::{MAX_UNIT_GUNS, MAX_UNIT_MEN, MAX_UNIT_SQUADRONS};
use std::sync::mpsc;

use compact_str::CompactString;

use crate::error::{Problem, Problems};
use crate::formats::table::{Col, Fields, RecordBatch, Records, RowSource, require_columns};
use crate::formats::text::decode;
use crate::model::dialect::Dialect;
use crate::model::kinds::parse_status_list;
use crate::model::{Arm, ArmClass, HexGrid, Level, Nation, Rare, Supply, Unit};

use super::map::hex_on_map;
use super::{FORCE_COLUMNS, names};

/// The rows of `forces.csv` as read, before the tree is checked.
#[derive(Debug, Default)]
pub(super) struct ForceRows {
    pub(super) units: Vec<Unit>,
    /// The line of each unit.
    pub(super) lines: Vec<u32>,
    pub(super) extra_cols: Vec<String>,
    /// How the file was saved.
    pub(super) dialect: Dialect,
}

/// One record of `forces.csv` with its known columns picked out, in [`FORCE_COLUMNS`] order
/// ("" where the file has no such column).
#[derive(Debug, Clone, Copy)]
pub(super) struct ForceRecord<'r> {
    pub(super) line: u64,
    pub(super) known: &'r [&'r str; FORCE_COLUMNS.len()],
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

/// `forces.csv` where it lies, read as it is parsed and never held whole (a large order of
/// battle is many megabytes): what the store hands [`parse_campaign_with`] for the file of
/// a campaign folder.
pub trait ForcesFile: Sync {
    /// Where it is, as a problem names it.
    fn place(&self) -> String;
    /// Opens it for reading, with its size in bytes.
    fn open(&self) -> std::io::Result<(Box<dyn std::io::Read + Send + '_>, u64)>;
    /// Reads it whole (when only the whole file can decide its encoding).
    fn read_all(&self) -> std::io::Result<Vec<u8>>;
    /// Its size in bytes, when it can be known without opening it.
    fn size(&self) -> Option<u64>;
}

/// Where `forces.csv` comes from.
#[derive(Clone, Copy)]
pub(super) enum ForcesSource<'f> {
    /// Its bytes.
    Bytes(&'f [u8]),
    /// The file, read as it is parsed.
    File(&'f dyn ForcesFile),
}

impl ForcesSource<'_> {
    /// True when the file is read on two threads of its own ([`THREADED_FROM`]).
    pub(super) fn read_threaded(&self) -> bool {
        let size = match self {
            ForcesSource::Bytes(bytes) => Some(bytes.len() as u64),
            ForcesSource::File(file) => file.size(),
        };
        size.is_some_and(|n| n >= THREADED_FROM)
    }
}

/// Reads `forces.csv` into units (row-level checks only).
pub(super) fn parse_forces(src: ForcesSource<'_>, grid: &HexGrid, p: &mut Problems) -> ForceRows {
    match src {
        ForcesSource::Bytes(bytes) => {
            let (text, encoding) = decode(bytes);
            let Some(records) = Records::open(names::FORCES, &text, encoding, p) else {
                return ForceRows::default();
            };
            // Decoded text is never undecidable.
            build_forces(records, bytes.len() as u64, grid, p).unwrap_or_default()
        }
        ForcesSource::File(forces) => {
            let cannot = |p: &mut Problems, e: std::io::Error| {
                p.push(Problem::in_file(names::FORCES, format!("cannot read {}: {e}", forces.place())));
                ForceRows::default()
            };
            let (file, size) = match forces.open() {
                Ok(opened) => opened,
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
                None => match forces.read_all() {
                    Ok(bytes) => parse_forces(ForcesSource::Bytes(&bytes), grid, p),
                    Err(e) => cannot(p, e),
                },
            }
        }
    }
}

/// About the fewest bytes a row of `forces.csv` takes as sowbridge writes it: room is made
/// for `size / ROW_BYTES` rows of a file of `size` bytes.
const ROW_BYTES: u64 = 72;
/// Room is made ahead for at most this many rows (the vectors grow beyond, if need be).
const MOST_ROWS_EXPECTED: u64 = 1 << 22;
/// Rows of `forces.csv` handed from the reading thread to the building one at a time.
pub(super) const BATCH_ROWS: usize = 256;
/// A file smaller than this (bytes) is read and built on one thread: handing batches
/// between threads costs more than it saves.
pub(super) const THREADED_FROM: u64 = 1 << 22;
/// Batches read ahead of the building thread at most.
pub(super) const BATCHES_AHEAD: usize = 4;
/// The reading thread builds every this many-th batch itself: building a row takes about
/// twice as long as reading it, so the two threads then share the work about evenly.
pub(super) const BUILT_BY_READER: usize = 4;

/// A batch handed from the reading thread to the building one: records to build, or rows
/// the reading thread built itself (with their problems, kept in file order).
enum Handed {
    Read(RecordBatch),
    Built(Built),
}

/// Rows built on the reading thread.
#[derive(Default)]
struct Built {
    rows: ForceRows,
    problems: Problems,
}

/// Builds the units of `forces.csv` from its records. A large order of battle has hundreds
/// of thousands of rows, so the work is split in two: one thread reads the CSV records into
/// batches (and builds a share of them) while this one builds units from the others, in file
/// order (a file of `size` bytes under [`THREADED_FROM`] is done on this thread alone).
/// `None` when the records turned out to be in an encoding only the whole file can decide.
pub(super) fn build_forces<R: std::io::Read + Send>(
    mut records: Records<'_, R>,
    size: u64,
    grid: &HexGrid,
    p: &mut Problems,
) -> Option<ForceRows> {
    let mut out = ForceRows { dialect: records.dialect(), ..ForceRows::default() };
    // Room for the rows the file's size promises, taken at once: growing the vectors by
    // doubling would copy the rows (and touch their memory) again at every step.
    let rows = usize::try_from((size / ROW_BYTES).min(MOST_ROWS_EXPECTED)).unwrap_or(0);
    out.units.reserve(rows);
    out.lines.reserve(rows);
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
    let build = UnitBuilder::new(&headers, grid);
    let build = &build;
    let undecidable = std::thread::scope(|s| {
        let (full_tx, full_rx) = mpsc::sync_channel::<Handed>(BATCHES_AHEAD);
        let (empty_tx, empty_rx) = mpsc::channel::<RecordBatch>();
        let reader = s.spawn(move || {
            let mut problems = Problems::default();
            let mut spare = None;
            for n in 1.. {
                let mut batch = spare.take().or_else(|| empty_rx.try_recv().ok()).unwrap_or_default();
                let more = records.fill_batch(&mut batch, BATCH_ROWS, &mut problems);
                // Reading is the lighter half: this thread builds a share of the batches too.
                let handed = if n % BUILT_BY_READER == 0 {
                    // Room for the whole batch at once, not grown row by row.
                    let mut built = Built::default();
                    built.rows.units.reserve(BATCH_ROWS);
                    built.rows.lines.reserve(BATCH_ROWS);
                    for (line, rec) in batch.iter() {
                        build.row(line, rec, &mut built.rows, &mut built.problems);
                    }
                    spare = Some(batch);
                    Handed::Built(built)
                } else {
                    Handed::Read(batch)
                };
                // The builder stops only by panicking; its panic is the one to report.
                if full_tx.send(handed).is_err() || !more {
                    break;
                }
            }
            (problems, records.undecidable(), records.dialect())
        });
        for handed in full_rx {
            match handed {
                Handed::Read(batch) => {
                    for (line, rec) in batch.iter() {
                        build.row(line, rec, &mut out, p);
                    }
                    // The reader may be done and gone; the batch is then simply dropped.
                    let _ = empty_tx.send(batch);
                }
                Handed::Built(built) => {
                    out.units.extend(built.rows.units);
                    out.lines.extend(built.rows.lines);
                    p.0.extend(built.problems.0);
                }
            }
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
    // The units are held for the whole command: at their own size, not at the last doubling
    // of their vector (a quarter of a large order of battle's memory).
    out.units.shrink_to_fit();
    out.lines.shrink_to_fit();
    (!undecidable).then_some(out)
}

/// Builds units from the rows of `forces.csv`, with the columns placed once.
pub(super) struct UnitBuilder<'g> {
    pub(super) grid: &'g HexGrid,
    /// For each field of a record: the known column it is (its first occurrence), if any.
    pub(super) slot: Vec<Option<usize>>,
    /// For each field of a record: whether it is one of the umpire's own columns.
    pub(super) is_extra: Vec<bool>,
    pub(super) extras: usize,
    /// Every field of a record is the known column of its place (the header is the first
    /// of `FORCE_COLUMNS`, in order, as sowbridge writes it): placed without looking up.
    pub(super) in_place: bool,
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
        let in_place = slot.iter().enumerate().all(|(i, &k)| k == Some(i));
        UnitBuilder { grid, slot, is_extra, extras, in_place }
    }

    /// A record's fields placed: the known columns by their place in `FORCE_COLUMNS`, trimmed,
    /// and the umpire's own columns in file order (padded to their number).
    fn split_record<'r>(&self, rec: &'r csv::StringRecord) -> ([&'r str; FORCE_COLUMNS.len()], Vec<String>) {
        let mut known = [""; FORCE_COLUMNS.len()];
        let mut extra = Vec::new();
        if self.in_place {
            for (k, field) in known.iter_mut().zip(rec.iter()) {
                *k = field.trim_ascii();
            }
            return (known, extra);
        }
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
        (known, extra)
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
        let (known, extra) = self.split_record(rec);
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
        check_arm_and_strength(&mut f, level, arm, [men, guns, squadrons], c_arm, c_men);
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
        let rare = Rare {
            commander: optional(f.text(c_commander)),
            depot: optional(f.text(c_depot)),
            status,
            extra,
        };
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
            supply_column: supply,
            quality,
            ammo: ammo.map(|a| a.min(100) as u8),
            rare: rare.boxed(),
        });
        // A file of more than 4 billion lines cannot be held in memory in the first place.
        out.lines.push(u32::try_from(line).unwrap_or(u32::MAX));
    }
}

/// A row's arm, men, guns and squadrons checked against its level: a formation has none of
/// its own; a unit needs an arm that fits its level, its men (0 when it has lost every man),
/// guns only if artillery and squadrons only (and always) if cavalry.
fn check_arm_and_strength<'r>(
    f: &mut Fields<'r, ForceRecord<'r>>,
    level: Level,
    arm: Option<Arm>,
    [men, guns, squadrons]: [Option<u32>; 3],
    c_arm: Col<'static>,
    c_men: Col<'static>,
) {
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
                if a.class() == ArmClass::Cavalry && squadrons.unwrap_or(0) == 0 && level != Level::Squadron {
                    f.problem("squadrons", "cavalry needs its number of squadrons");
                }
                if a.class() != ArmClass::Cavalry && squadrons.unwrap_or(0) > 0 {
                    f.problem("squadrons", format!("squadrons on a {a} unit: only cavalry has squadrons"));
                }
            }
            None => {}
        }
        // An explicit 0 is a unit that lost every man: it stays in the order of battle, with
        // no men present, until its returns refill it (`Unit::has_men`). Only an empty
        // field is a unit without men.
        if men.is_none() && f.text(c_men).is_empty() {
            f.problem("men", format!("a {level} without men"));
        }
    }
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
    fn a_unit_of_0_men_is_read_and_one_without_men_is_refused() {
        let head = FORCE_COLUMNS.join(",");
        let text = format!(
            "{head}\nF,,division,D,,Fr,,,,,10.10,,,,,,\nF-1,F,battalion,B1,,Fr,line,0,,,,,,,,,\nF-2,F,battalion,B2,,Fr,line,,,,,,,,,,\n"
        );
        let (rows, problems) = read(&text, 0);
        let rows = rows.unwrap();
        assert_eq!(rows.units.iter().map(|u| u.id.as_str()).collect::<Vec<_>>(), ["F", "F-1", "F-2"]);
        assert_eq!(rows.units[1].men, 0, "every man lost: kept, with no men present");
        assert_eq!(problems, ["forces.csv:4: men: a battalion without men"]);
    }

    #[test]
    fn columns_in_their_own_order_or_another_give_the_same_units() {
        // The header as sowbridge writes it (every field read in place) and the same columns
        // in another order (each field placed by its column).
        let head = FORCE_COLUMNS.join(",");
        let rows = [
            "F,,division,Division F,General A,Fr,,,,, 10.10 ,10.11,Villa,out,veteran,,",
            "F-1,F,battalion,1er léger,,Fr,light,612,,,,,,,,80,",
            "F-2,F,regiment,2e hussards,,Fr,light-cavalry,300,3,,,,,,elite,,",
            "F-3,F,battery,Foot battery,,Fr,foot-artillery,120,,6,,,,,,,",
        ];
        let in_place = format!("{head}\n{}\n", rows.join("\n"));
        let order: Vec<usize> = vec![3, 0, 7, 1, 2, 6, 8, 9, 10, 4, 5, 13, 14, 15, 12, 11, 16];
        let shuffle = |line: &str| {
            let f: Vec<&str> = line.split(',').collect();
            order.iter().map(|&i| f[i]).collect::<Vec<_>>().join(",")
        };
        let shuffled = format!(
            "{}\n{}\n",
            shuffle(&head),
            rows.iter().map(|r| shuffle(r)).collect::<Vec<_>>().join("\n")
        );
        let (a, a_problems) = read(&in_place, 0);
        let (b, b_problems) = read(&shuffled, 0);
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!((a_problems, b_problems), (Vec::<String>::new(), Vec::<String>::new()));
        assert_eq!(a.units.len(), 4);
        assert_eq!(a.units, b.units);
        let f = &a.units[0];
        assert_eq!(
            (f.hex.map(|h| h.to_string()), f.commander(), f.depot()),
            (Some("10.10".into()), Some("General A"), Some("Villa"))
        );
        assert_eq!(
            (a.units[1].men, a.units[1].ammo, a.units[2].squadrons, a.units[3].guns),
            (612, Some(80), 3, 6)
        );
        assert!(a.units[1].rare.is_none(), "nothing rare on a battalion's row: no box");
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
        // Held for the whole command at its own size, not at its vector's last doubling.
        assert_eq!(two.units.capacity(), two.units.len());
        assert_eq!(one.extra_cols, ["note"]);
        assert_eq!(one.units[0].extra(), ["kept 0"]);
        assert_eq!(one_problems.len(), 16);
        assert!(one_problems[0].contains("'many' is not a whole number"), "{one_problems:?}");
        assert_eq!(one_problems, two_problems);
    }
}
