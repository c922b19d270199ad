//! `export hex CC.RR`: the forces in contact at a hex become a complete SoW NapMod
//! multiplayer battle — OOB, scenario folder, briefings, the battle picture — and a battle
//! record in the campaign, deterministically.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::cli::ExportHexArgs;
use crate::commands::vocab::check_vocabulary;
use crate::error::Error;
use crate::formats::campaign::{names, write_battle_maps};
use crate::formats::logistics::read_logistics;
use crate::formats::maps::{BUILTIN_CATALOGUE, parse_catalogue};
use crate::formats::sow::deploy::{deploy, point_at};
use crate::formats::sow::oob::{SideInput, SowRow, build_side};
use crate::formats::sow::scenario::{
    Arrival, Objective, OutputFile, ScenarioInput, chain_map, format_time, objective_points, parse_time,
    render,
};
use crate::formats::svg::battle::reach;
use crate::formats::svg::battle::{BattleScene, battle_picture};
use crate::formats::svg::map::{MapHeading, MapOptions, Window, campaign_map};
use crate::model::battle::{
    BattleRecord, BattleState, ExportedUnit, ObjectiveRecord, Participant, Role, RowKind,
};
use crate::model::vocabulary::Vocabulary;
use crate::model::{BattleMapChoice, Campaign, HexId, Side, Unit};
use crate::rules::avoidance::{avoiding_at, line_of_retreat};
use crate::rules::battle::WhoFightsOptions;
use crate::rules::battle_plan::{Decision, PlanOptions, battle_map, decide};
use crate::rules::dice::{Dice, SeededDice};
use crate::rules::intel::known::side_view;
use crate::rules::intel::{Participants, brief_sides};
use crate::rules::map_choice::CatalogueMap;
use crate::rules::zoc::contacts;
use crate::store::battles::{briefing_path, picture_path, record_bytes, record_path, side_view_path};
use crate::store::profile::load_profile;
use crate::store::replace::check_paths_replaceable;
use crate::store::{CampaignDir, CampaignLock, Commit, atomic_write, join_rel};

mod layout;
mod show;

use layout::{anchors, edge_of, intro_text};
use show::print_plan;

/// What `--json` prints.
#[derive(Debug, Serialize)]
pub struct ExportSummary {
    /// Battle id.
    pub battle: String,
    /// Scenario folder written.
    pub scenario_dir: String,
    /// OOB file written.
    pub oob: String,
    /// Map id.
    pub map: String,
    /// Orientation.
    pub orientation: u16,
    /// Joiners with their delays.
    pub joiners: Vec<JoinerSummary>,
}

/// One joiner in the summary.
#[derive(Debug, Serialize)]
pub struct JoinerSummary {
    /// Force id.
    pub force: String,
    /// Side.
    pub side: Side,
    /// Entry delay, minutes.
    pub delay_minutes: u32,
    /// Map edge.
    pub edge: String,
}

/// The map catalogue: the campaign's own `sow-maps/catalogue.csv`, else the shipped one.
pub fn catalogue(dir: &CampaignDir) -> Result<Vec<CatalogueMap>> {
    let (label, bytes) = match dir.read("sow-maps/catalogue.csv")? {
        Some(b) => ("sow-maps/catalogue.csv (campaign)".to_string(), b),
        None => ("sow-maps/catalogue.csv".to_string(), BUILTIN_CATALOGUE.as_bytes().to_vec()),
    };
    Ok(parse_catalogue(&label, &bytes).map_err(Error::Rejected)?)
}

fn place_name(c: &Campaign, hex: HexId) -> String {
    c.map.settlements_in(hex).first().map_or_else(|| format!("hex {hex}"), |s| s.name.clone())
}

/// The part of a vocabulary that a battle's rows use (for `--check-vocab`).
fn used_vocabulary(v: &Vocabulary, rows: &[SowRow]) -> Vocabulary {
    let mut used = Vocabulary { source: v.source.clone(), ..Vocabulary::default() };
    for r in rows {
        if let Some(e) = v.lookup(r.nation, r.level, r.arm)
            && !used.entries.contains(e)
        {
            used.entries.push(e.clone());
        }
        if let Some(q) = v.quality(r.quality, r.level)
            && !used.qualities.contains(q)
        {
            used.qualities.push(q.clone());
        }
    }
    used.entries.sort_by_key(|e| e.line);
    used.qualities.sort_by_key(|q| q.line);
    used
}

/// Runs `export hex`.
pub fn run(dir: &CampaignDir, a: &ExportHexArgs) -> Result<()> {
    let hex: HexId = a.hex.parse().map_err(|e: crate::model::HexIdError| {
        // Typed, not saved by a spreadsheet: the row lost a digit, not necessarily a zero.
        match (e.fault, a.hex.split_once('.')) {
            (crate::model::HexIdFault::ShortRow, Some((col, row))) => Error::refused(format!(
                "export hex: '{}' — did you mean {col:0>2}.{row}0? A hex's row has two digits: {col:0>2}.0{row}, \
                 or one of {col:0>2}.{row}0 to {col:0>2}.{row}9",
                a.hex
            )),
            _ => Error::refused(format!("export hex: {e}")),
        }
    })?;
    let lock = if a.dry_run { None } else { Some(CampaignLock::acquire(dir, Duration::from_secs(60))?) };
    if let Some(l) = &lock {
        dir.recover(l)?;
    }
    // Who holds each place as the rules compute it (2.1): the defender, 7.1.4, the map.
    // The campaign as the rules see it now: who holds each place (the defender, 7.1.4, the
    // map) and each force's supply (its ammunition, its briefing) as `supply` shows them.
    let (c, supply) = crate::ops::campaign_now(dir)?;
    let plan = plan(dir, &c, &supply, hex, a)?;
    if a.dry_run {
        print_plan(&plan, a.json)?;
        crate::errln!(
            "dry run: nothing written; without --dry-run, battle {} and its SoW files would go to {}",
            plan.record.id,
            plan.out.display()
        );
        return Ok(());
    }
    let Some(lock) = lock else { return Ok(()) };
    let txn = dir.begin(&lock)?;
    write(dir, &c, &plan, txn)?;
    if a.json {
        crate::commands::print_json(&plan.summary)?;
    } else {
        print_plan(&plan, false)?;
        crate::errln!("exported battle {} into {}", plan.record.id, plan.out.display());
    }
    crate::commands::done_with(c);
    Ok(())
}

/// Everything export decided, ready to write.
#[derive(Debug)]
pub struct ExportPlan {
    /// The battle record.
    pub record: BattleRecord,
    /// SoW files, relative to `out`.
    pub files: Vec<OutputFile>,
    /// Briefings by side: the player's copy and the umpire's (with the dice faces).
    pub briefings: Vec<(Side, String, String)>,
    /// Output folder.
    pub out: PathBuf,
    /// A new map choice to store.
    pub new_map: Option<BattleMapChoice>,
    /// A pending battle this one replaces.
    pub replaces: Option<BattleRecord>,
    /// Each side's view of the battle's neighbourhood (`battles/<id>/briefings/<side>.svg`).
    pub side_views: Vec<(Side, Vec<u8>)>,
    /// The battle picture (`battles/<id>/battle.svg`).
    pub picture: Vec<u8>,
    /// Summary for `--json`.
    pub summary: ExportSummary,
}

fn plan(
    dir: &CampaignDir,
    c: &Campaign,
    supply: &crate::rules::supply::SupplyReport,
    hex: HexId,
    a: &ExportHexArgs,
) -> Result<ExportPlan> {
    let mut opts = WhoFightsOptions { attacker: a.attacker, ..Default::default() };
    for d in &a.delay {
        let (f, m) = d
            .split_once('=')
            .ok_or_else(|| Error::refused(format!("--delay {d}: expected FORCE=MINUTES")))?;
        let m: u32 =
            m.trim().parse().map_err(|_| Error::refused(format!("--delay {d}: '{m}' is not minutes")))?;
        opts.delays.insert(f.trim().to_string(), m);
    }
    opts.exclude = a.exclude.iter().cloned().collect();
    let existing = dir.battles()?;
    // 8.2: told, or a retreat before battle that `move` recorded as caught — decided once.
    let avoiding = avoiding_at(c, hex, a.avoiding);
    let options = PlanOptions {
        who: opts,
        reserves: a.reserve.clone(),
        avoiding,
        overrule: a.overrule.iter().map(|r| r.trim().to_string()).collect(),
        replace: a.replace,
    };
    let Decision { who, overruled, reserves, skip, unavailable, outside_walls, id, replaces, army_index } =
        decide(c, hex, &options, &existing)?;

    let profile_name = a.profile.clone().unwrap_or_else(|| c.config.profile.clone());
    let (profile, vocab) = load_profile(dir, &profile_name)?;
    let mut dice = SeededDice::new(c.config.seed, &id);

    // Map (8.4): stored choice reused; otherwise scored, with 7.1.4's town map.
    let cat = catalogue(dir)?;
    let (map, new_map) = battle_map(c, hex, &who, &cat, a.map.as_deref(), a.orientation, &id, &mut dice)?;
    let multiplier = cat.iter().find(|m| m.id.eq_ignore_ascii_case(&map.id)).map_or(32768, |m| m.multiplier);
    let world = f64::from(multiplier) * f64::from(profile.world_per_multiplier);

    // Participants with their map edges.
    let mut participants: Vec<Participant> = who.participants.clone();
    for p in &mut participants {
        p.edge = match p.bearing {
            Some(b) => edge_of((b + f64::from(map.orientation)) % 360.0),
            None => "centre".to_string(),
        };
    }

    // Rows per side.
    let place = place_name(c, hex);
    let mut rows: Vec<SowRow> = Vec::new();
    for side in [Side::French, Side::Allies] {
        let forces: Vec<&Unit> =
            participants.iter().filter(|p| p.side == side).filter_map(|p| c.oob.get(&p.force)).collect();
        let input = SideInput {
            campaign: c,
            side,
            army_index: army_index[&side],
            forces,
            skip: &skip,
            place: place.clone(),
            profile: &profile,
        };
        rows.extend(build_side(&input)?);
    }

    // Every SoW id this battle uses must exist in the umpire's install (`--check-vocab`).
    if !a.check_vocab.is_empty() {
        let (logistics, problems) = read_logistics(&a.check_vocab)?;
        problems.into_result()?;
        check_vocabulary(&used_vocabulary(&vocab, &rows), &logistics).into_result()?;
    }

    // Deployment.
    let line_of_retreat = avoiding.and_then(|av| line_of_retreat(c, hex, &participants, av));
    let anchors = anchors(
        &participants,
        who.attacker,
        avoiding,
        line_of_retreat.as_ref().map(|l| l.bearing),
        map.orientation,
        world,
    );
    deploy(&mut rows, &anchors, world, 30.0);

    // Objectives.
    let mut objectives = Vec::new();
    let here = c.map.settlements_in(hex);
    match here.first() {
        Some(s) => {
            objectives.push(Objective { name: s.name.clone(), major: true, at: (world / 2.0, world / 2.0) })
        }
        None => objectives.push(Objective {
            name: format!("Hex {hex}"),
            major: true,
            at: (world / 2.0, world / 2.0),
        }),
    }
    for (k, s) in here.iter().skip(1).enumerate() {
        objectives.push(Objective {
            name: s.name.clone(),
            major: false,
            at: point_at(world, 45.0 + 90.0 * k as f64, 0.3),
        });
    }
    let mut seen: BTreeSet<HexId> = BTreeSet::from([hex]);
    for p in participants.iter().filter(|p| p.role == Role::Principal) {
        if !seen.insert(p.hex) {
            continue;
        }
        if let (Some(s), Some(b)) = (c.map.settlements_in(p.hex).first(), p.bearing) {
            objectives.push(Objective {
                name: s.name.clone(),
                major: false,
                at: point_at(world, (b + f64::from(map.orientation)) % 360.0, 0.6),
            });
        }
    }

    // Late arrivals: every row of each joiner.
    let arrivals: Vec<Arrival> = participants
        .iter()
        .filter(|p| p.role == Role::Joiner || p.delay_minutes > 0)
        .map(|p| Arrival {
            ids: rows.iter().filter(|r| r.force == p.force).map(|r| r.chain.id()).collect(),
            delay_minutes: p.delay_minutes,
        })
        .filter(|a| !a.ids.is_empty())
        .collect();

    let start = c.rules.battle.start_time.clone();
    let start_secs = parse_time(&start)
        .ok_or_else(|| Error::refused(format!("rules.toml [battle] start_time '{start}' is not HH:MM:SS")))?;
    let end = format_time(start_secs + c.rules.battle.length_minutes * 60);
    let intro = intro_text(c, &id, &place, hex, &participants, &end);
    let out = match &a.out {
        Some(o) => o.clone(),
        None if !c.config.paths.sow_work.is_empty() => PathBuf::from(&c.config.paths.sow_work),
        None => PathBuf::from("out"),
    };
    let names = existing_names(&out, &profile.names_file)?;
    let input = ScenarioInput {
        profile: &profile,
        vocab: &vocab,
        battle: &id,
        rows: &rows,
        map: &map.id,
        start: &start,
        length_minutes: c.rules.battle.length_minutes,
        periodic_dump_minutes: c.rules.battle.periodic_dump_minutes,
        arrivals: &arrivals,
        objectives: &objectives,
        intro: &intro,
        master: a.master,
        script: &[],
        existing_names: names.as_ref().map(|(shown, b)| (shown.as_str(), b.as_slice())),
    };
    let files = render(&input)?;

    // Briefings (8.5), one per side, after the map's dice.
    let mut briefings = Vec::new();
    for side in [Side::French, Side::Allies] {
        let part = |s: Side| Participants {
            forces: participants.iter().filter(|p| p.side == s).map(|p| p.force.clone()).collect(),
            reserves: reserves.iter().filter(|r| r.side == s).map(|r| r.unit.clone()).collect(),
            outside: outside_walls.clone(),
        };
        let b = brief_sides(c, &id, hex, side, &part(side), &part(side.enemy()), &mut dice);
        let own_supply = crate::commands::supply::briefing_section(supply, &part(side).forces);
        briefings.push((side, b.to_markdown() + &own_supply, b.to_umpire_markdown() + &own_supply));
    }

    let scenario_dir = format!("Scenarios/{id}");
    let oob = format!("OOBs/{id}.csv");
    let chains = chain_map(&vocab, &rows);
    let units = exported_units(c, &rows);
    let record = BattleRecord {
        id: id.clone(),
        state: BattleState::Exported,
        turn: c.config.turn,
        hex,
        place,
        attacker: who.attacker,
        attacker_reason: who.attacker_reason.clone(),
        avoiding,
        line_of_retreat,
        participants: participants.clone(),
        excluded: who.excluded.clone(),
        unavailable,
        outside_walls,
        reserves,
        overruled,
        map: map.clone(),
        profile: profile.name.clone(),
        seed: c.config.seed,
        dice: dice.log().to_vec(),
        army_index,
        start_time: start,
        end_time: end,
        final_dumps: profile.final_dumps(),
        chains,
        units,
        objectives: objectives
            .iter()
            .map(|o| ObjectiveRecord {
                name: o.name.clone(),
                major: o.major,
                at: o.at,
                points: objective_points(o.major),
            })
            .collect(),
        scenario_dir: scenario_dir.clone(),
        oob: oob.clone(),
        files: files.iter().map(|f| (f.path.clone(), crate::store::journal::sha256_hex(&f.bytes))).collect(),
        result: None,
    };
    let summary = ExportSummary {
        battle: id,
        scenario_dir: join_rel(&out, &scenario_dir).display().to_string(),
        oob: join_rel(&out, &oob).display().to_string(),
        map: map.id.clone(),
        orientation: map.orientation,
        joiners: participants
            .iter()
            .filter(|p| p.role == Role::Joiner)
            .map(|p| JoinerSummary {
                force: p.force.clone(),
                side: p.side,
                delay_minutes: p.delay_minutes,
                edge: p.edge.clone(),
            })
            .collect(),
    };
    let picture = battle_picture(&BattleScene { record: &record, map: &c.map, world });
    let side_views = side_views(c, &record);
    Ok(ExportPlan { record, files, briefings, out, new_map, replaces, picture, side_views, summary })
}

/// The names file already in the output folder, shown as its path, when the profile writes
/// one and it is there (its other battles' names are kept).
pub fn existing_names(out: &std::path::Path, names_file: &str) -> Result<Option<(String, Vec<u8>)>> {
    if names_file.is_empty() {
        return Ok(None);
    }
    let path = join_rel(out, names_file);
    Ok(crate::store::read_optional(&path)?.map(|b| (path.display().to_string(), b)))
}

/// Each side's view of the battle's neighbourhood (rule 8.1), to hand out with its briefing:
/// its own forces and zones, the enemy forces in contact with them, nothing else.
fn side_views(c: &Campaign, record: &BattleRecord) -> Vec<(Side, Vec<u8>)> {
    let k = contacts(c);
    let window = Window::around(c.map.grid, record.hex, reach(record) + 1);
    let heading = MapHeading {
        title: format!("Battle {} at {} ({})", record.id, record.place, record.hex),
        turn: c.config.turn,
        date: c.turn().date(),
    };
    [Side::French, Side::Allies]
        .into_iter()
        .map(|side| {
            let view = side_view(c, &k, side, true);
            (
                side,
                campaign_map(
                    &c.map,
                    &view,
                    &heading,
                    MapOptions { zoc: true, supply: false, window: Some(window) },
                ),
            )
        })
        .collect()
}

fn exported_units(c: &Campaign, rows: &[SowRow]) -> Vec<ExportedUnit> {
    let mut out: Vec<ExportedUnit> = Vec::new();
    for r in rows.iter().filter(|r| matches!(r.kind, RowKind::Unit | RowKind::Battery)) {
        let Some(u) = r.unit.as_deref().and_then(|id| c.oob.get(id)) else { continue };
        let ammo = rows
            .iter()
            .find(|x| x.unit.as_deref() == Some(&u.id) && matches!(x.kind, RowKind::Unit | RowKind::Gun))
            .map_or(100, |x| x.ammo_pct);
        out.push(ExportedUnit {
            unit: u.id.to_string(),
            force: r.force.clone(),
            side: u.side(),
            men: u.men,
            guns: u.guns,
            squadrons: u.squadrons,
            ammo,
        });
    }
    out
}

/// Writes the SoW files, then commits the battle record, briefings, picture and map choice (with any
/// manual edit found, journalled first).
fn write(
    dir: &CampaignDir,
    c: &Campaign,
    plan: &ExportPlan,
    txn: crate::store::state::StateTxn<'_>,
) -> Result<()> {
    let commit = campaign_commit(c, plan)?;
    // A file held open (Excel, the game) stops the export before anything is written.
    dir.check_can_commit(&commit)?;
    let paths: Vec<PathBuf> = plan.files.iter().map(|f| join_rel(&plan.out, &f.path)).collect();
    check_paths_replaceable(&paths)?;
    for (f, path) in plan.files.iter().zip(&paths) {
        atomic_write(path, &f.bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    // Export changes no state file; the commit carries only a manual edit it found.
    txn.finish(crate::store::journal::StateFiles::new(), None, commit)?;
    Ok(())
}

/// What an export commits to the campaign: the battle record, briefings, picture and map choice.
fn campaign_commit(c: &Campaign, plan: &ExportPlan) -> Result<Commit> {
    let mut commit = Commit::default();
    if let Some(old) = &plan.replaces
        && old.id != plan.record.id
    {
        let mut old = old.clone();
        old.state = BattleState::Replaced;
        commit.write(record_path(&old.id), record_bytes(&old)?);
    }
    commit.write(record_path(&plan.record.id), record_bytes(&plan.record)?);
    commit.write(picture_path(&plan.record.id), plan.picture.clone());
    for (side, svg) in &plan.side_views {
        commit.write(side_view_path(&plan.record.id, side.slug()), svg.clone());
    }
    for (side, player, umpire) in &plan.briefings {
        commit.write(briefing_path(&plan.record.id, side.slug()), player.clone().into_bytes());
        commit.write(
            briefing_path(&plan.record.id, &format!("{}-umpire", side.slug())),
            umpire.clone().into_bytes(),
        );
    }
    if let Some(m) = &plan.new_map {
        let mut maps = c.battle_maps.clone();
        maps.insert(plan.record.hex, m.clone());
        commit.write(names::BATTLE_MAPS, write_battle_maps(&maps, c.dialect(names::BATTLE_MAPS)));
    }
    Ok(commit)
}
