//! `calibrate`: a tiny battle that settles, on the umpire's own install, what no public file
//! shows (sow-formats.md §7): a brigade and a battery a side, in the campaign's profile and
//! vocabulary, close enough to fight at once, ten game minutes long. Its battlescript dumps what
//! the engine loaded (`dumpoobscen`, `dumpscen`) at the start, the game DB at two and at five
//! minutes, and at the end the final `dumplocs`, `dumpdead` and `dumpgamedb` before
//! `endscenario`, exactly as an exported battle ends. Beside it, the umpire's one-page
//! instruction and the record `inspect` matches the game's files against.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::error::Error;
use crate::formats::campaign::{names, parse_campaign};
use crate::formats::profile::Profile;
use crate::formats::sow::deploy::{Anchor, deploy};
use crate::formats::sow::oob::{SideInput, SowRow, build_side};
use crate::formats::sow::scenario::{Objective, ScenarioInput, chain_map, format_time, parse_time, render};
use crate::model::{Campaign, Side, Unit};
use crate::store::profile::load_profile;
use crate::store::{CampaignDir, atomic_write, journal::sha256_hex};

/// The calibration battle's record, written beside its scenario.
pub const RECORD: &str = "sowbridge-calibration.json";
/// The umpire's instruction, written beside it.
pub const INSTRUCTIONS: &str = "CALIBRATION.txt";
pub use crate::formats::report::calibrate::Calibration;
pub use crate::model::calibration::CalibrationRecord;

/// Game minutes the calibration battle lasts.
const LENGTH_MINUTES: u32 = 10;

/// The calibration order of battle: one division a side with a brigade of two battalions
/// and a battery, French against Spanish (the nation whose SoW ids are least known).
fn calibration_forces() -> String {
    let mut s = String::from(
        "id,parent,level,name,commander,nation,arm,men,squadrons,guns,hex,moving_to,depot,supply,quality,ammo,status\n",
    );
    for (side, nation, hex, word) in [("FR", "Fr", "00.00", "French"), ("SP", "Sp", "00.01", "Spanish")] {
        s.push_str(&format!("CAL-{side},,division,Calibration {word} division,,{nation},,,,,{hex},,,,,,\n"));
        s.push_str(&format!(
            "CAL-{side}-B,CAL-{side},brigade,Calibration {word} brigade,,{nation},,,,,,,,,,,\n"
        ));
        for (n, word_n) in [(1, "1st"), (2, "2nd")] {
            s.push_str(&format!(
                "CAL-{side}-B-{n},CAL-{side}-B,battalion,Calibration {word} {word_n} Bn,,{nation},line,500,,,,,,,,,\n"
            ));
        }
        s.push_str(&format!(
            "CAL-{side}-BTY,CAL-{side},battery,Calibration {word} battery,,{nation},foot-artillery,120,,4,,,,,,,\n"
        ));
    }
    s
}

/// `calibrate`: where to write, and in which profile.
#[derive(Debug, Clone, Default)]
pub struct CalibrateRequest {
    /// Output folder (default: `[paths] sow_work` of campaign.toml, else ./calibration).
    pub out: Option<PathBuf>,
    /// SoW profile (default: the campaign's).
    pub profile: Option<String>,
}

/// Both sides' rows, 300 yards apart across the middle of the map, facing each other.
fn calibration_rows(c: &Campaign, profile: &Profile, world: f64) -> Result<Vec<SowRow>> {
    let mut rows = Vec::new();
    let skip = Default::default();
    for (side, force) in [(Side::French, "CAL-FR"), (Side::Allies, "CAL-SP")] {
        let forces: Vec<&Unit> = c.oob.get(force).into_iter().collect();
        let input = SideInput {
            campaign: c,
            side,
            army_index: 1,
            forces,
            skip: &skip,
            place: "the calibration ground".to_string(),
            profile,
        };
        rows.extend(build_side(&input)?);
    }
    let yd = 30.0;
    let centre = world / 2.0;
    let anchors = BTreeMap::from([
        ("CAL-FR".to_string(), Anchor { at: (centre - 150.0 * yd, centre), facing: 180.0, second: None }),
        ("CAL-SP".to_string(), Anchor { at: (centre + 150.0 * yd, centre), facing: 0.0, second: None }),
    ]);
    deploy(&mut rows, &anchors, world, yd);
    Ok(rows)
}

/// `calibrate`: writes the calibration battle, its record and the umpire's instruction into
/// the output folder. Nothing of the campaign changes.
pub fn calibrate(dir: &CampaignDir, req: &CalibrateRequest) -> Result<Calibration> {
    let mut files = dir.read_files()?;
    let real = parse_campaign(&files).map_err(Error::Rejected)?;
    files.forces_path = None;
    files.files.insert(names::FORCES, calibration_forces().into_bytes());
    let c = parse_campaign(&files).map_err(Error::Rejected)?;
    let profile_name = req.profile.clone().unwrap_or_else(|| real.config.profile.clone());
    let (profile, vocab) = load_profile(dir, &profile_name)?;
    let id = format!("CAL-{profile_name}");
    // The smallest stock map of the catalogue (ties by id): little to walk before the fight.
    let cat = crate::ops::export::catalogue(dir)?;
    let map = cat
        .iter()
        .filter(|m| m.source.eq_ignore_ascii_case("stock"))
        .min_by_key(|m| (m.multiplier, m.id.clone()))
        .or_else(|| cat.first())
        .ok_or_else(|| Error::refused("the map catalogue is empty"))?;
    let world = f64::from(map.multiplier) * f64::from(profile.world_per_multiplier);
    let centre = world / 2.0;
    let rows = calibration_rows(&c, &profile, world)?;
    let start = real.rules.battle.start_time.clone();
    let start_secs = parse_time(&start)
        .ok_or_else(|| Error::refused(format!("rules.toml [battle] start_time '{start}' is not HH:MM:SS")))?;
    let end = format_time(start_secs + LENGTH_MINUTES * 60);
    let objectives =
        [Objective { name: "Calibration ground".to_string(), major: true, at: (centre, centre) }];
    let intro = format!(
        "sowbridge calibration battle {id}.\nA French and a Spanish brigade with a battery each, 300 yards apart.\n\
         Let them fight (or order them forward) until the battle ends at {end}.\n"
    );
    let script: [(u32, &str); 4] =
        [(0, "dumpoobscen"), (0, "dumpscen"), (120, "dumpgamedb"), (300, "dumpgamedb")];
    let out: PathBuf = match &req.out {
        Some(o) => o.clone(),
        None if !real.config.paths.sow_work.is_empty() => PathBuf::from(&real.config.paths.sow_work),
        None => PathBuf::from("calibration"),
    };
    let names = crate::ops::export::existing_names(&out, &profile.names_file)?;
    let input = ScenarioInput {
        profile: &profile,
        vocab: &vocab,
        battle: &id,
        rows: &rows,
        map: &map.id,
        start: &start,
        length_minutes: LENGTH_MINUTES,
        periodic_dump_minutes: 0,
        arrivals: &[],
        objectives: &objectives,
        intro: &intro,
        master: false,
        script: &script,
        existing_names: names.as_ref().map(|(shown, b)| (shown.as_str(), b.as_slice())),
    };
    let rendered = render(&input)?;
    let mut record = CalibrationRecord {
        battle: id.clone(),
        profile: profile_name.clone(),
        map: map.id.clone(),
        start_time: start.clone(),
        end_time: end.clone(),
        final_dumps: profile.final_dumps(),
        chains: chain_map(&vocab, &rows),
        oob: format!("OOBs/{id}.csv"),
        scenario_dir: format!("Scenarios/{id}"),
        files: BTreeMap::new(),
    };
    for f in &rendered {
        record.files.insert(f.path.clone(), sha256_hex(&f.bytes));
        atomic_write(&out.join(Path::new(&f.path)), &f.bytes)?;
    }
    let names = (!profile.names_file.is_empty()).then(|| crate::store::join_rel(&out, &profile.names_file));
    let instructions = write_beside(&record, &out, names.as_deref())?;
    Ok(Calibration { record, rows: rows.len(), out, instructions, names })
}

/// Writes the record and the umpire's instruction into the scenario folder; the
/// instruction's path.
fn write_beside(record: &CalibrationRecord, out: &Path, names: Option<&Path>) -> Result<PathBuf> {
    let scenario = out.join(Path::new(&record.scenario_dir));
    let json = serde_json::to_vec_pretty(record)?;
    atomic_write(&scenario.join(RECORD), &json)?;
    let oob = crate::store::join_rel(out, &record.oob);
    let scen = crate::store::join_rel(out, &record.scenario_dir);
    let text = crate::formats::report::calibrate::instructions(record, out, &oob, &scen, names);
    atomic_write(&scenario.join(INSTRUCTIONS), text.as_bytes())?;
    Ok(scenario.join(INSTRUCTIONS))
}
