//! Everything an export decides before it writes: who fights (`rules::battle_plan`), the
//! map, each side's rows and where they deploy, the objectives and late arrivals, the SoW
//! files, the briefings, the pictures and the battle record.

use std::collections::BTreeSet;
use std::path::PathBuf;

use anyhow::Result;

use crate::error::Error;
use crate::formats::logistics::read_logistics;
use crate::formats::profile::Profile;
use crate::formats::sow::deploy::{deploy, point_at};
use crate::formats::sow::oob::{SideInput, SowRow, build_side};
use crate::formats::sow::scenario::{
    Arrival, Objective, ScenarioInput, chain_map, format_time, objective_points, parse_time, render,
};
use crate::formats::svg::battle::reach;
use crate::formats::svg::battle::{BattleScene, battle_picture};
use crate::formats::svg::map::{MapHeading, MapOptions, Window, campaign_map};
use crate::model::battle::{
    BattleRecord, BattleState, ExportedUnit, ObjectiveRecord, Participant, Role, RowKind,
};
use crate::model::vocabulary::Vocabulary;
use crate::model::{Campaign, HexId, Side, Unit};
use crate::rules::avoidance::{avoiding_at, line_of_retreat};
use crate::rules::battle::WhoFightsOptions;
use crate::rules::battle_plan::{Decision, PlanOptions, battle_map, decide};
use crate::rules::dice::{Dice, SeededDice};
use crate::rules::intel::Participants;
use crate::rules::intel::known::side_view_within;
use crate::rules::supply::SupplyReport;
use crate::rules::zoc::Contact;
use crate::store::profile::load_profile;
use crate::store::{CampaignDir, join_rel};

use super::layout::{anchors, edge_of, intro_text};
use super::{ExportOptions, ExportPlan, ExportSummary, JoinerSummary, catalogue, existing_names};

fn place_name(c: &Campaign, hex: HexId) -> String {
    c.map.settlements_in(hex).first().map_or_else(|| BattleRecord::hex_as_place(hex), |s| s.name.clone())
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

/// What the umpire asked of who fights: `--attacker`, `--delay`, `--exclude`, `--reserve`,
/// `--overrule`, `--replace`, and the side avoiding battle.
fn plan_options(c: &Campaign, contacts: &[Contact], hex: HexId, o: &ExportOptions) -> Result<PlanOptions> {
    // 8.1, 8.2: a side that declined the contact withdraws; no battle unless it was caught.
    if let Some(side) = crate::rules::decision::declined_at(c, contacts, hex) {
        return Err(Error::refused(format!(
            "the {side} decided to withdraw from the contact at {hex} (8.2, decisions.csv): order its retreat before battle \
             (`retreat` yes) and `move`, and export the battle only if the enemy catches it; \
             or `sowbridge contacts decide {hex} --{} fight`",
            side.slug()
        ))
        .into());
    }
    let mut opts = WhoFightsOptions { attacker: o.attacker, ..Default::default() };
    for d in &o.delay {
        let (f, m) = d
            .split_once('=')
            .ok_or_else(|| Error::refused(format!("--delay {d}: expected FORCE=MINUTES")))?;
        let m: u32 =
            m.trim().parse().map_err(|_| Error::refused(format!("--delay {d}: '{m}' is not minutes")))?;
        opts.delays.insert(f.trim().to_string(), m);
    }
    opts.exclude = o.exclude.iter().cloned().collect();
    Ok(PlanOptions {
        who: opts,
        reserves: o.reserve.clone(),
        // 8.2: told, or a retreat before battle that `move` recorded as caught — decided once.
        avoiding: avoiding_at(c, contacts, hex, o.avoiding),
        overrule: o.overrule.iter().map(|r| r.trim().to_string()).collect(),
        replace: o.replace,
    })
}

/// Each side's rows, French first.
fn side_rows(
    c: &Campaign,
    participants: &[Participant],
    d: &Decision,
    place: &str,
    profile: &Profile,
) -> Result<Vec<SowRow>> {
    let mut rows: Vec<SowRow> = Vec::new();
    for side in [Side::French, Side::Allies] {
        let forces: Vec<&Unit> =
            participants.iter().filter(|p| p.side == side).filter_map(|p| c.oob.get(&p.force)).collect();
        let input = SideInput {
            campaign: c,
            side,
            army_index: d.army_index[&side],
            forces,
            skip: &d.skip,
            place: place.to_string(),
            profile,
        };
        rows.extend(build_side(&input)?);
    }
    Ok(rows)
}

/// The objectives: the hex's first settlement (or the hex) at the centre, its other
/// settlements around it, and each principal force's own settlement toward its edge.
fn objectives(
    c: &Campaign,
    hex: HexId,
    participants: &[Participant],
    world: f64,
    orientation: u16,
) -> Vec<Objective> {
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
                at: point_at(world, (b + f64::from(orientation)) % 360.0, 0.6),
            });
        }
    }
    objectives
}

/// The objectives as the battle record keeps them, with their points.
fn objective_records(objectives: &[Objective]) -> Vec<ObjectiveRecord> {
    objectives
        .iter()
        .map(|o| ObjectiveRecord {
            name: o.name.clone(),
            major: o.major,
            at: o.at,
            points: objective_points(o.major),
        })
        .collect()
}

/// Late arrivals: every row of each joiner.
fn arrivals(participants: &[Participant], rows: &[SowRow]) -> Vec<Arrival> {
    participants
        .iter()
        .filter(|p| p.role == Role::Joiner || p.delay_minutes > 0)
        .map(|p| Arrival {
            ids: rows.iter().filter(|r| r.force == p.force).map(|r| r.chain.id()).collect(),
            delay_minutes: p.delay_minutes,
        })
        .filter(|a| !a.ids.is_empty())
        .collect()
}

/// Briefings (8.5), one per side, after the map's dice: the player's copy and the umpire's,
/// each with the side's own supply.
fn briefings(
    c: &Campaign,
    contacts: &[Contact],
    supply: &SupplyReport,
    id: &str,
    hex: HexId,
    part: &dyn Fn(Side) -> Participants,
    dice: &mut SeededDice,
) -> Vec<(Side, String, String)> {
    let mut briefings = Vec::new();
    // The advice each side was given on this contact (8.1), with its dice, tells the same.
    let rows: Vec<_> = contacts
        .iter()
        .find(|k| k.hexes.contains(&hex))
        .map(|k| crate::rules::decision::rows_of(c, k))
        .unwrap_or_default();
    for side in [Side::French, Side::Allies] {
        let recorded = rows.iter().copied().find(|r| r.side == side);
        let b = crate::rules::decision::briefing(
            c,
            id,
            hex,
            side,
            &part(side),
            &part(side.enemy()),
            recorded,
            dice,
        );
        let own_supply = crate::formats::report::supply::briefing_section(supply, &part(side).forces);
        briefings.push((side, b.to_markdown() + &own_supply, b.to_umpire_markdown() + &own_supply));
    }
    briefings
}

/// The battle's end time: the rules' start time and length.
fn end_time(c: &Campaign) -> Result<String> {
    let start = &c.rules.battle.start_time;
    let start_secs = parse_time(start)
        .ok_or_else(|| Error::refused(format!("rules.toml [battle] start_time '{start}' is not HH:MM:SS")))?;
    Ok(format_time(start_secs + c.rules.battle.length_minutes * 60))
}

/// The output folder: `--out`, else campaign.toml's `[paths] sow_work`, else `./out`.
fn out_folder(c: &Campaign, o: &ExportOptions) -> PathBuf {
    match &o.out {
        Some(o) => o.clone(),
        None if !c.config.paths.sow_work.is_empty() => PathBuf::from(&c.config.paths.sow_work),
        None => PathBuf::from("out"),
    }
}

/// Plans the battle at `hex`.
pub(super) fn plan(
    dir: &CampaignDir,
    c: &Campaign,
    supply: &SupplyReport,
    contacts: &[Contact],
    hex: HexId,
    o: &ExportOptions,
) -> Result<ExportPlan> {
    // The contacts, found once for the avoiding side, a declined contact, who fights,
    // briefings and views.
    let options = plan_options(c, contacts, hex, o)?;
    let existing = dir.battles()?;
    let avoiding = options.avoiding;
    let d = decide(c, contacts, hex, &options, &existing)?;
    let id = d.id.clone();

    let profile_name = o.profile.clone().unwrap_or_else(|| c.config.profile.clone());
    let (profile, vocab) = load_profile(dir, &profile_name)?;
    let mut dice = SeededDice::new(c.config.seed, &id);

    // Map (8.4): stored choice reused; otherwise scored, with 7.1.4's town map.
    let cat = catalogue(dir)?;
    let (map, new_map) = battle_map(c, hex, &d.who, &cat, o.map.as_deref(), o.orientation, &id, &mut dice)?;
    let multiplier = cat.iter().find(|m| m.id.eq_ignore_ascii_case(&map.id)).map_or(32768, |m| m.multiplier);
    let world = f64::from(multiplier) * f64::from(profile.world_per_multiplier);

    let participants = with_edges(&d.who.participants, map.orientation);

    let place = place_name(c, hex);
    let mut rows = side_rows(c, &participants, &d, &place, &profile)?;

    // Every SoW id this battle uses must exist in the umpire's install (`--check-vocab`).
    if !o.check_vocab.is_empty() {
        let (logistics, problems) = read_logistics(&o.check_vocab)?;
        problems.into_result()?;
        crate::ops::vocab::check_vocabulary(&used_vocabulary(&vocab, &rows), &logistics).into_result()?;
    }

    // Deployment.
    let line_of_retreat = avoiding.and_then(|av| line_of_retreat(c, hex, &participants, av));
    let bearing = line_of_retreat.as_ref().map(|l| l.bearing);
    let anchors = anchors(&participants, d.who.attacker, avoiding, bearing, map.orientation, world);
    deploy(&mut rows, &anchors, world, 30.0);

    let objectives = objectives(c, hex, &participants, world, map.orientation);
    let arrivals = arrivals(&participants, &rows);
    let start = c.rules.battle.start_time.clone();
    let end = end_time(c)?;
    let intro = intro_text(c, &id, &place, hex, &participants, &end);
    let out = out_folder(c, o);
    let names = existing_names(&out, &profile.names_file)?;
    let files = render(&ScenarioInput {
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
        master: o.master,
        script: &[],
        existing_names: names.as_ref().map(|(shown, b)| (shown.as_str(), b.as_slice())),
    })?;

    let part = |s: Side| Participants {
        forces: participants.iter().filter(|p| p.side == s).map(|p| p.force.clone()).collect(),
        reserves: d.reserves.iter().filter(|r| r.side == s).map(|r| r.unit.clone()).collect(),
        outside: d.outside_walls.clone(),
    };
    let briefings = briefings(c, contacts, supply, &id, hex, &part, &mut dice);

    let Decision {
        who, overruled, reserves, unavailable, no_men, outside_walls, replaces, army_index, ..
    } = d;
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
        no_men,
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
        chains: chain_map(&vocab, &rows),
        units: exported_units(c, &rows),
        objectives: objective_records(&objectives),
        scenario_dir: format!("Scenarios/{id}"),
        oob: format!("OOBs/{id}.csv"),
        files: files.iter().map(|f| (f.path.clone(), crate::store::journal::sha256_hex(&f.bytes))).collect(),
        result: None,
    };
    let summary = summary(&record, &out);
    let picture = battle_picture(&BattleScene { record: &record, map: &c.map, world });
    let side_views = side_views(c, contacts, &record);
    Ok(ExportPlan { record, files, briefings, out, new_map, replaces, picture, side_views, summary })
}

/// The participants, each with the edge of the battle map it enters by.
fn with_edges(participants: &[Participant], orientation: u16) -> Vec<Participant> {
    let mut participants = participants.to_vec();
    for p in &mut participants {
        p.edge = match p.bearing {
            Some(b) => edge_of((b + f64::from(orientation)) % 360.0),
            None => "centre".to_string(),
        };
    }
    participants
}

/// What `--json` prints of a battle exported into `out`.
fn summary(record: &BattleRecord, out: &std::path::Path) -> ExportSummary {
    ExportSummary {
        battle: record.id.clone(),
        scenario_dir: join_rel(out, &record.scenario_dir).display().to_string(),
        oob: join_rel(out, &record.oob).display().to_string(),
        map: record.map.id.clone(),
        orientation: record.map.orientation,
        joiners: record
            .participants
            .iter()
            .filter(|p| p.role == Role::Joiner)
            .map(|p| JoinerSummary {
                force: p.force.clone(),
                side: p.side,
                delay_minutes: p.delay_minutes,
                edge: p.edge.clone(),
            })
            .collect(),
    }
}
/// Each side's view of the battle's neighbourhood (rule 8.1), to hand out with its briefing:
/// its own forces and zones, the enemy forces in contact with them, nothing else.
fn side_views(c: &Campaign, k: &[Contact], record: &BattleRecord) -> Vec<(Side, Vec<u8>)> {
    let window = Window::around(c.map.grid, record.hex, reach(record) + 1);
    let heading = MapHeading {
        title: format!("Battle {} at {}", record.id, record.site()),
        turn: c.config.turn,
        date: c.turn().date(),
    };
    let picture = |side: Side| {
        let view = side_view_within(c, k, side, true, |h| window.contains(h));
        // The roads the side knows (13 July 2014).
        let known = crate::rules::roads::map_known_to(c, side);
        campaign_map(&known, &view, &heading, MapOptions { zoc: true, supply: false, window: Some(window) })
    };
    // Each side's view is its own alone: the two are drawn side by side.
    std::thread::scope(|s| {
        let french = s.spawn(|| picture(Side::French));
        let allies = picture(Side::Allies);
        let french = french.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        vec![(Side::French, french), (Side::Allies, allies)]
    })
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
