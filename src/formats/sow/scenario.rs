//! Writing the SoW files of one battle, in the layouts of the chosen profile
//! (sow-formats.md §1–§2): the OOB CSV, `scenario.ini`, `scenario.csv` (stand-alone
//! SANDBOXOOB form, or MASTER form referencing the OOB), `battlescript.csv`,
//! `maplocations.csv` and the intro text. ISO-8859-1, CRLF, no commas or quotes in fields.

use std::fmt::Write as _;

use crate::error::{Error, Result};
use crate::model::vocabulary::{SowLevel, VocabEntry, Vocabulary};

use super::super::profile::Profile;
use super::super::text::{encode_sow, sow_field};
use super::oob::SowRow;

/// A named objective on the battle map.
#[derive(Debug, Clone, PartialEq)]
pub struct Objective {
    /// Display name.
    pub name: String,
    /// Major (the battle's settlement) or minor.
    pub major: bool,
    /// Position.
    pub at: (f64, f64),
}

/// A joiner's rows to hide and show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrival {
    /// SoW ids of every row of the force.
    pub ids: Vec<String>,
    /// Minutes after the start.
    pub delay_minutes: u32,
}

/// Everything the scenario files need.
#[derive(Debug)]
pub struct ScenarioInput<'a> {
    /// Profile.
    pub profile: &'a Profile,
    /// Vocabulary.
    pub vocab: &'a Vocabulary,
    /// Battle id (file and folder names).
    pub battle: &'a str,
    /// Every row, side 1 first.
    pub rows: &'a [SowRow],
    /// SoW map id.
    pub map: &'a str,
    /// Start `HH:MM:SS`.
    pub start: &'a str,
    /// Length in minutes.
    pub length_minutes: u32,
    /// Minutes between periodic dumps (0: none).
    pub periodic_dump_minutes: u32,
    /// Late arrivals.
    pub arrivals: &'a [Arrival],
    /// Objectives.
    pub objectives: &'a [Objective],
    /// Intro text (both sides read it).
    pub intro: &'a str,
    /// Write the MASTER form of `scenario.csv`.
    pub master: bool,
    /// Further battlescript commands, each at seconds after the start (the calibration
    /// battle's `dumpoobscen`, `dumpscen` and early dumps); written after the joiners are
    /// hidden, in the order given.
    pub script: &'a [(u32, &'a str)],
    /// The names file already in the output folder (shown as, bytes), when the profile
    /// writes one and it is there: the tags of other battles in it are kept.
    pub existing_names: Option<(&'a str, &'a [u8])>,
}

/// One file to write, relative to the output folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// `/`-separated path below the output folder.
    pub path: String,
    /// Bytes (ISO-8859-1, CRLF).
    pub bytes: Vec<u8>,
}

/// Seconds of `HH:MM:SS`.
pub fn parse_time(t: &str) -> Option<u32> {
    let parts: Vec<u32> = t.split(':').map(|p| p.trim().parse().ok()).collect::<Option<_>>()?;
    match parts.as_slice() {
        [h, m, s] if *h < 24 && *m < 60 && *s < 60 => Some(h * 3600 + m * 60 + s),
        [h, m] if *h < 24 && *m < 60 => Some(h * 3600 + m * 60),
        _ => None,
    }
}

/// `HH:MM:SS` of seconds (wrapping at midnight).
pub fn format_time(secs: u32) -> String {
    let s = secs % 86_400;
    format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

fn vocab_for<'v>(v: &'v Vocabulary, r: &SowRow) -> Result<&'v VocabEntry> {
    v.lookup(r.nation, r.level, r.arm).ok_or_else(|| {
        Error::refused(format!(
            "{}: no vocabulary row for nation {} level {} arm {} (row {} {})",
            v.source,
            r.nation,
            r.level,
            r.arm.map(|a| a.to_string()).unwrap_or_else(|| "any".into()),
            r.chain.id(),
            r.name1
        ))
    })
}

fn attributes(v: &Vocabulary, r: &SowRow) -> Result<Vec<String>> {
    let q = v.quality(r.quality, r.level).ok_or_else(|| {
        Error::refused(format!("{}: no quality row for {} at level {}", v.source, r.quality, r.level))
    })?;
    Ok(q.values.iter().map(|x| x.map(|n| n.to_string()).unwrap_or_default()).collect())
}

/// The chain map of a battle's rows: each SoW hierarchy chain with the campaign unit it
/// stands for, what was written for it, and its ammunition (the join of a dump back to the
/// campaign).
pub fn chain_map(vocab: &Vocabulary, rows: &[SowRow]) -> Vec<crate::model::battle::ChainEntry> {
    rows.iter()
        .map(|r| crate::model::battle::ChainEntry {
            chain: r.chain,
            id: r.chain.id(),
            kind: r.kind,
            unit: r.unit.clone(),
            name: r.name1.clone(),
            men: r.men,
            gun: r.gun,
            ammo: row_ammo(vocab, r),
        })
        .collect()
}

/// Ammunition written for a row: the vocabulary's full load times the row's per cent.
pub fn row_ammo(v: &Vocabulary, r: &SowRow) -> u32 {
    v.lookup(r.nation, r.level, r.arm).map_or(0, |e| ammo(e, r))
}

/// Points of an objective (the `Points` column of `maplocations.csv`).
pub fn objective_points(major: bool) -> u32 {
    if major { 2000 } else { 500 }
}

fn ammo(e: &VocabEntry, r: &SowRow) -> u32 {
    e.ammo * r.ammo_pct / 100
}

fn coord(v: f64) -> String {
    format!("{:.0}", v)
}

fn facing(v: f64) -> String {
    format!("{v:.4}")
}

fn csv_line(out: &mut String, fields: &[String]) {
    out.push_str(&fields.join(","));
    out.push('\n');
}

const ATTR_HEADER: &str = "Ability,Command,Control,Leadership,Style,Experience,Fatigue,Morale,Close,Open,Edged,Firearm,Marksmanship,Horsemanship,Surgeon,Calisthenics";

/// The header line of the OOB CSV.
pub fn oob_header(p: &Profile) -> String {
    format!(
        "Name,ID,NAME1,NAME2,SIDE 1,ARMY 2,CORPS 3,DIV 4,BGDE 5,BTN 6,CLASS,{}PORTRAIT,Weapon,AMMO,FLAGS,FLAG2,Formation,Head Count,{ATTR_HEADER}",
        if p.oobmod_column { "OOBMOD," } else { "" }
    )
}

/// The header line of the stand-alone `scenario.csv`.
pub fn sandbox_header(p: &Profile) -> String {
    format!(
        "SANDBOXOOB,ARMY,CORPS,DIV,BGDE,REG,{}ID,NAME1,NAME2,CLASS,{}PICT,WEAP,AMMO,dir x,dir z,loc x,loc z,FLAGS,FLAG2,Formation,Head Count,{ATTR_HEADER}{}",
        if p.btn_column { "CMP," } else { "" },
        if p.oobmod_column { "OOBMOD," } else { "" },
        if p.skirmish_column { ",Skirmish" } else { "" }
    )
}

/// The header line of the MASTER-form `scenario.csv`.
pub fn master_header(p: &Profile) -> String {
    format!(
        "Name,ID,SIDE,ARMY,CORPS,DIV,BGDE,REG,{}AMMO,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale",
        if p.btn_column { "BTN," } else { "" }
    )
}

/// The header line of `battlescript.csv`.
pub fn battlescript_header(p: &Profile) -> &'static str {
    if p.battlescript_fromid {
        "Event,ToID,Command,FromID,X Coord,Z Coord,timevar"
    } else {
        "Event,ID,Command,X Coord,Z Coord,timevar"
    }
}

/// The header line of `maplocations.csv`.
pub const MAPLOCATIONS_HEADER: &str = "Name,ID,Priority,Type,AI,loc x,loc z,radius,Men,Points,Fatigue,Morale,Ammo,OccMod,Beg,End,Interval,Sprite,Army1,Army2,Army3";

fn chain_fields(r: &SowRow) -> Vec<String> {
    r.chain.0.iter().map(u8::to_string).collect()
}

/// The OOB CSV (`OOBs/<battle>.csv`).
pub fn oob_csv(p: &Profile, v: &Vocabulary, rows: &[SowRow]) -> Result<String> {
    let mut out = String::new();
    csv_line(&mut out, &[oob_header(p)]);
    for r in rows {
        let e = vocab_for(v, r)?;
        let name1 = sow_field(&r.name1);
        let mut f = vec![name1.clone(), r.chain.id(), name1, sow_field(&r.name2)];
        f.extend(chain_fields(r));
        f.push(e.class.clone());
        if p.oobmod_column {
            f.push(String::new());
        }
        f.extend([
            e.portrait.clone(),
            e.weapon.clone(),
            ammo(e, r).to_string(),
            e.flag.clone(),
            e.flag2.clone(),
            e.formation.clone(),
            r.men.to_string(),
        ]);
        f.extend(attributes(v, r)?);
        csv_line(&mut out, &f);
    }
    Ok(out)
}

/// The stand-alone (SANDBOXOOB) `scenario.csv`.
pub fn sandbox_csv(p: &Profile, v: &Vocabulary, rows: &[SowRow]) -> Result<String> {
    let mut out = String::new();
    csv_line(&mut out, &[sandbox_header(p)]);
    for r in rows {
        let e = vocab_for(v, r)?;
        let mut f = chain_fields(r);
        if p.btn_column {
            f.push("0".to_string());
        }
        f.extend([r.chain.id(), sow_field(&r.name1), sow_field(&r.name2), e.class.clone()]);
        if p.oobmod_column {
            f.push(String::new());
        }
        f.extend([
            e.portrait.clone(),
            e.weapon.clone(),
            ammo(e, r).to_string(),
            facing(r.dir.0),
            facing(r.dir.1),
            coord(r.loc.0),
            coord(r.loc.1),
            e.flag.clone(),
            e.flag2.clone(),
            e.formation.clone(),
            r.men.to_string(),
        ]);
        f.extend(attributes(v, r)?);
        if p.skirmish_column {
            f.push(String::new());
        }
        csv_line(&mut out, &f);
    }
    Ok(out)
}

/// The MASTER-form `scenario.csv`, placing the rows of `OOBs/<oob_file>`.
pub fn master_csv(p: &Profile, v: &Vocabulary, rows: &[SowRow], oob_file: &str) -> Result<String> {
    let mut out = String::new();
    let header = master_header(p);
    csv_line(&mut out, std::slice::from_ref(&header));
    let width = header.split(',').count();
    let mut master = vec!["MASTER".to_string(), oob_file.to_string()];
    master.resize(width, String::new());
    csv_line(&mut out, &master);
    for r in rows {
        let e = vocab_for(v, r)?;
        let attrs = attributes(v, r)?;
        let mut f = vec![sow_field(&r.name1), r.chain.id()];
        f.extend(chain_fields(r));
        if p.btn_column {
            f.push("0".to_string());
        }
        f.extend([
            ammo(e, r).to_string(),
            facing(r.dir.0),
            facing(r.dir.1),
            coord(r.loc.0),
            coord(r.loc.1),
            e.formation.clone(),
            r.men.to_string(),
            attrs[6].clone(),
            attrs[7].clone(),
        ]);
        csv_line(&mut out, &f);
    }
    Ok(out)
}

/// `battlescript.csv`: joiners hidden at the start and shown at start + delay; periodic
/// dumps; the final `dumplocs`, `dumpdead`, `dumpgamedb` at the profile's margins before
/// `endscenario`, in that order.
pub fn battlescript_csv(p: &Profile, input: &ScenarioInput<'_>) -> Result<String> {
    let start = parse_time(input.start).ok_or_else(|| {
        Error::refused(format!("rules.toml [battle] start_time '{}' is not HH:MM:SS", input.start))
    })?;
    let end = start + input.length_minutes * 60;
    let mut out = String::new();
    csv_line(&mut out, &[battlescript_header(p).to_string()]);
    let line = |out: &mut String, t: u32, id: &str, cmd: &str| {
        let mut f = vec![format_time(t), id.to_string(), cmd.to_string()];
        if p.battlescript_fromid {
            f.push(String::new());
        }
        f.extend([String::new(), String::new(), String::new()]);
        csv_line(out, &f);
    };
    for a in input.arrivals {
        for id in &a.ids {
            line(&mut out, start, id, "hideunit");
        }
    }
    for (after, command) in input.script {
        line(&mut out, start + after, "", command);
    }
    for a in input.arrivals {
        for id in &a.ids {
            line(&mut out, start + a.delay_minutes * 60, id, "showunit");
        }
    }
    let margins = p.final_dumps();
    let final_locs = end.checked_sub(margins.dumplocs).filter(|t| *t > start).ok_or_else(|| {
        Error::refused(format!(
            "the battle lasts {} minutes: too short for the profile's final dumplocs {} s before its end",
            input.length_minutes, margins.dumplocs
        ))
    })?;
    if input.periodic_dump_minutes > 0 {
        // A periodic (interim) dump stays a minute clear of the final dumplocs.
        let step = input.periodic_dump_minutes * 60;
        let mut t = start + step;
        while t + 60 < final_locs {
            line(&mut out, t, "", "dumpgamedb");
            t += step;
        }
    }
    line(&mut out, final_locs, "", "dumplocs");
    line(&mut out, end - margins.dumpdead, "", "dumpdead");
    line(&mut out, end - margins.dumpgamedb, "", "dumpgamedb");
    line(&mut out, end, "", "endscenario");
    Ok(out)
}

/// `maplocations.csv`: the major objective and the minor ones, held from start to end.
pub fn maplocations_csv(input: &ScenarioInput<'_>, start: &str, end: &str) -> String {
    let mut out = String::new();
    csv_line(&mut out, &[MAPLOCATIONS_HEADER.to_string()]);
    for (i, o) in input.objectives.iter().enumerate() {
        let points = objective_points(o.major);
        let (prio, men, radius, sprites) = if o.major {
            ("Major", 500, 400, ["GFX_Obj_Major", "GFX_Obj_UMajor", "GFX_Obj_CMajor"])
        } else {
            ("minor", 100, 200, ["GFX_Obj_Minor", "GFX_Obj_UMinor", "GFX_Obj_CMinor"])
        };
        let f: Vec<String> = [
            sow_field(&o.name),
            format!("OBJ_{}", i + 1),
            prio.to_string(),
            "hold".to_string(),
            "100".to_string(),
            coord(o.at.0),
            coord(o.at.1),
            radius.to_string(),
            men.to_string(),
            points.to_string(),
            "0".to_string(),
            "0".to_string(),
            "0".to_string(),
            "2".to_string(),
            start.to_string(),
            end.to_string(),
            "00:15:00".to_string(),
            sprites[0].to_string(),
            sprites[1].to_string(),
            sprites[2].to_string(),
            String::new(),
        ]
        .into();
        csv_line(&mut out, &f);
    }
    out
}

/// `scenario.ini`.
pub fn scenario_ini(p: &Profile, input: &ScenarioInput<'_>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "[init]");
    let _ = writeln!(s, "map={}", input.map);
    let _ = writeln!(s, "starttime={}", input.start);
    let _ = writeln!(s, "weather=0");
    let _ = writeln!(s, "carryover=0");
    let _ = writeln!(s, "strategicai=0");
    if !input.master {
        let _ = writeln!(s, "sandbox=5");
        let _ = writeln!(s, "sandboxsize=1");
    }
    let _ = writeln!(s, "\n[rank]");
    for l in 1..=6 {
        let _ = writeln!(s, "cmdlvl{l}=0");
    }
    let _ = writeln!(s, "\n[MenPerSprite]");
    let _ = writeln!(s, "Inf={}", p.men_per_sprite_infantry);
    let _ = writeln!(s, "Cav={}", p.men_per_sprite_cavalry);
    let _ = writeln!(s, "Art={}", p.men_per_sprite_artillery);
    s
}

/// Every file of the battle, paths relative to the output folder: the OOB, the scenario
/// folder, and the names file when the profile has one.
pub fn render(input: &ScenarioInput<'_>) -> Result<Vec<OutputFile>> {
    let p = input.profile;
    let v = input.vocab;
    let start = parse_time(input.start).ok_or_else(|| {
        Error::refused(format!("rules.toml [battle] start_time '{}' is not HH:MM:SS", input.start))
    })?;
    let end = format_time(start + input.length_minutes * 60);
    let oob_name = format!("{}.csv", input.battle);
    let dir = format!("Scenarios/{}", input.battle);
    let scenario =
        if input.master { master_csv(p, v, input.rows, &oob_name)? } else { sandbox_csv(p, v, input.rows)? };
    let mut files = vec![
        OutputFile { path: format!("OOBs/{oob_name}"), bytes: encode_sow(&oob_csv(p, v, input.rows)?) },
        OutputFile { path: format!("{dir}/scenario.ini"), bytes: encode_sow(&scenario_ini(p, input)) },
        OutputFile { path: format!("{dir}/scenario.csv"), bytes: encode_sow(&scenario) },
        OutputFile {
            path: format!("{dir}/battlescript.csv"),
            bytes: encode_sow(&battlescript_csv(p, input)?),
        },
        OutputFile {
            path: format!("{dir}/maplocations.csv"),
            bytes: encode_sow(&maplocations_csv(input, input.start, &end)),
        },
        OutputFile { path: format!("{dir}/{}", p.intro_file), bytes: encode_sow(input.intro) },
    ];
    if !p.names_file.is_empty() {
        let tags = super::names::tags_for(p, input.rows);
        files.push(OutputFile {
            path: p.names_file.clone(),
            bytes: super::names::merged(input.existing_names, &tags)?,
        });
    }
    Ok(files)
}

/// Vocabulary levels used by a set of rows (for `vocab` checks of what export will write).
pub fn levels_used(rows: &[SowRow]) -> Vec<SowLevel> {
    let mut v: Vec<SowLevel> = rows.iter().map(|r| r.level).collect();
    v.sort();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_and_print() {
        assert_eq!(parse_time("10:00:00"), Some(36_000));
        assert_eq!(format_time(36_000 + 300 * 60 - 3), "14:59:57");
        assert_eq!(parse_time("25:00:00"), None);
        assert_eq!(parse_time("ten"), None);
    }
}
