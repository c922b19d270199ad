//! The battle report (`battles/<id>/report.md`), the diff `apply --dry-run` prints, and what
//! `apply` says when it is done.

use std::fmt::Write as _;

use crate::formats::svg::aftermath::{AftermathScene, Retreat, SideLosses};
use crate::model::battle::BattleRecord;
use crate::model::{ArmClass, Campaign, Side, Unit};
use crate::rules::aftermath::Withdrawal;
use crate::rules::carryover::{RiverPenalties, UnitCarryover};
use crate::rules::dice::Roll;
use crate::rules::verdict::Verdict;

/// The evidence of a result settled by hand.
pub const MANUAL: &str = "settled by hand";

/// What applying did (or would do).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Applied {
    /// The battle.
    pub battle: String,
    /// The winner (None: draw).
    pub winner: Option<Side>,
    /// Journal sequence number (on a dry run, the one the real run would write).
    pub journal_seq: u64,
    /// True when an entry recording manual edits of the state files comes (or would come)
    /// just before it.
    pub manual_edit_first: bool,
    /// The report (markdown).
    pub report: String,
    /// Every change to the state files, as a diff for people.
    pub diff: String,
    /// The SHA-256 of the `startlocs.csv` read with the result, when one was.
    pub startlocs_sha256: Option<String>,
    /// Which evidence made the result final, in words (the report's `Result:` line).
    pub evidence: String,
}

/// A state file's change, as the dry run shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileDiff {
    /// Lines changed in place: each line before and after.
    Lines {
        /// The file.
        file: String,
        /// Each changed line, before and after.
        lines: Vec<(String, String)>,
    },
    /// The whole file rewritten: its text after, when it is text.
    Whole {
        /// The file.
        file: String,
        /// The text after (None: removed, or not text).
        text: Option<String>,
    },
}

/// What the report says.
#[derive(Debug)]
pub struct ReportInput<'a> {
    /// Verdict.
    pub verdict: &'a Verdict,
    /// Pursuit and rearguard (8.7).
    pub pursuit: &'a str,
    /// Every unit's carry-over.
    pub carryover: &'a [UnitCarryover],
    /// The loser's withdrawals.
    pub withdrawals: &'a [Withdrawal],
    /// River penalties.
    pub river: &'a RiverPenalties,
    /// Forces with a river at their back.
    pub river_forces: &'a [String],
    /// Dice.
    pub dice: &'a [Roll],
    /// Commanders hit: name, killed.
    pub commanders: &'a [(String, bool)],
    /// Exported rows missing from the result.
    pub missing: &'a [String],
    /// Result file name.
    pub file: &'a str,
    /// Its hash.
    pub hash: &'a str,
    /// Journal entry.
    pub seq: u64,
    /// Which evidence made the result final (or that it was settled by hand).
    pub evidence: &'a str,
}

#[derive(Default)]
struct Tot {
    before: u64,
    after: u64,
    killed: u64,
    wounded: u64,
    stragglers: u64,
    returning: u64,
    captured: u64,
    lost: u64,
    drowned: u64,
    guns_lost: u64,
}

impl Tot {
    fn add(&mut self, c: &UnitCarryover) {
        self.before += u64::from(c.men_before);
        self.after += u64::from(c.men_after);
        self.killed += u64::from(c.killed);
        self.wounded += u64::from(c.wounded_returning + c.wounded_captured + c.wounded_lost);
        // Stragglers taken prisoner are counted under captured, never twice.
        self.stragglers += u64::from(c.stragglers_returning + c.stragglers_lost + c.stragglers_drowned);
        self.returning += u64::from(c.wounded_returning + c.stragglers_returning);
        self.captured += u64::from(c.wounded_captured + c.stragglers_captured);
        self.lost += u64::from(c.wounded_lost + c.stragglers_lost);
        self.drowned += u64::from(c.stragglers_drowned);
        self.guns_lost += u64::from(c.guns_before - c.guns_after);
    }
}

/// Renders the report.
pub fn render(c: &Campaign, b: &BattleRecord, r: &ReportInput<'_>) -> String {
    let mut s = String::new();
    verdict(b, r, &mut s);
    losses(c, b, r, &mut s);
    returns(r, &mut s);
    withdrawals(c, r, &mut s);
    penalties_and_dice(r, &mut s);
    s
}

/// The report's title, its result file and the verdict.
fn verdict(b: &BattleRecord, r: &ReportInput<'_>, s: &mut String) {
    let _ = writeln!(s, "# Battle {} at {}\n", b.id, b.site());
    let _ = writeln!(
        s,
        "Turn {} ({}). Result file `{}` (sha256 {}), journal entry {}.\n",
        b.turn,
        crate::model::Turn(b.turn).date(),
        r.file,
        &r.hash[..16.min(r.hash.len())],
        r.seq
    );
    let _ = writeln!(s, "Result: {}.\n", r.evidence);
    let _ = writeln!(s, "## Verdict\n");
    let _ = writeln!(
        s,
        "**{}.** {}\n",
        r.verdict.winner.map_or("Draw".to_string(), |w| format!("{w} victory")),
        r.verdict.explanation
    );
    let _ = writeln!(s, "Pursuit: {}\n", r.pursuit);
    for o in &b.overruled {
        let _ = writeln!(s, "Overruled by the umpire at export (rule {}): {}.\n", o.rule, o.refusal);
    }
    if !r.missing.is_empty() {
        let _ = writeln!(
            s,
            "Accepted with --allow-missing: {} exported rows had no result (no losses).\n",
            r.missing.len()
        );
    }
}

/// Each side's losses, then each brigade's.
fn losses(c: &Campaign, b: &BattleRecord, r: &ReportInput<'_>, s: &mut String) {
    let _ = writeln!(s, "## Losses\n");
    let _ = writeln!(
        s,
        "| side | men before | after | killed | wounded | stragglers | returning | captured | lost | drowned | guns lost |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for side in [Side::French, Side::Allies] {
        let t = side_totals(c, b, r, side);
        let _ = writeln!(
            s,
            "| {side} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            t.before,
            t.after,
            t.killed,
            t.wounded,
            t.stragglers,
            t.returning,
            t.captured,
            t.lost,
            t.drowned,
            t.guns_lost
        );
    }
    let _ = writeln!(
        s,
        "\nWounded counts every wounded man, those captured too; stragglers are the missing not taken \
         prisoner; captured are the wounded and stragglers the enemy took; lost are men who will not return; guns \
         lost include those tipped into the river (6.5.2.4).\n"
    );
    let _ = writeln!(s, "### By brigade\n");
    let _ = writeln!(
        s,
        "| brigade | men before | after | killed | wounded | stragglers | returning | captured |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut groups: Vec<(String, Tot)> = Vec::new();
    for co in r.carryover {
        // A battery stands on its own row under its own name: a division's (or a corps')
        // battery is no brigade of that division.
        let unit = c.oob.get(&co.unit);
        let battery = unit.is_some_and(|u| u.arm.is_some_and(|a| a.class() == ArmClass::Artillery));
        let parent = match unit {
            Some(u) if battery => format!("{} ({}), battery", u.name, u.id),
            _ => unit
                .and_then(|u| u.parent.clone())
                .and_then(|p| c.oob.get(&p).map(|f| format!("{} ({})", f.name, f.id)))
                .unwrap_or_else(|| co.unit.clone()),
        };
        match groups.iter_mut().find(|(n, _)| *n == parent) {
            Some((_, t)) => t.add(co),
            None => {
                let mut t = Tot::default();
                t.add(co);
                groups.push((parent, t));
            }
        }
    }
    for (n, t) in &groups {
        let _ = writeln!(
            s,
            "| {n} | {} | {} | {} | {} | {} | {} | {} |",
            t.before, t.after, t.killed, t.wounded, t.stragglers, t.returning, t.captured
        );
    }
}

/// The men due back, by turn.
fn returns(r: &ReportInput<'_>, s: &mut String) {
    let _ = writeln!(s, "\n## Returns scheduled\n");
    let mut returns: std::collections::BTreeMap<(u32, &str), u64> = std::collections::BTreeMap::new();
    for co in r.carryover {
        *returns.entry((co.stragglers_return_turn, "stragglers")).or_default() +=
            u64::from(co.stragglers_returning);
        *returns.entry((co.wounded_return_turn, "wounded")).or_default() += u64::from(co.wounded_returning);
    }
    for ((turn, kind), men) in returns.iter().filter(|(_, m)| **m > 0) {
        let _ = writeln!(s, "- turn {turn}, {}: {men} {kind}", crate::model::Turn(*turn).date());
    }
}

/// The loser's withdrawals (8.4).
fn withdrawals(c: &Campaign, r: &ReportInput<'_>, s: &mut String) {
    let _ = writeln!(s, "\n## Withdrawal (8.4)\n");
    if r.withdrawals.is_empty() {
        let _ = writeln!(s, "No withdrawal: the battle was drawn.");
    }
    for w in r.withdrawals {
        let p = &w.plan;
        match (&w.to, p.chosen.as_ref()) {
            (Some(to), _) if *to == p.from => {
                let _ = writeln!(
                    s,
                    "- {} stays in {}{}: beaten inside a friendly city or fortress, it may fall back into it \
                     and stop (8.4) ({} legal destinations)",
                    p.force,
                    place(c, *to),
                    if w.chosen_by_umpire { " (--withdraw-to)" } else { "" },
                    p.destinations.len()
                );
            }
            (Some(to), _) => {
                let dest = p.destinations.iter().find(|d| d.hex == *to);
                let path: Vec<String> =
                    dest.map(|d| d.path.iter().map(ToString::to_string).collect()).unwrap_or_default();
                let _ = writeln!(
                    s,
                    "- {} withdraws from {} to {}{} along {} (allowance {} hexes, at least {}; {} legal destinations){}",
                    p.force,
                    place(c, p.from),
                    place(c, *to),
                    if w.chosen_by_umpire { " (--withdraw-to)" } else { "" },
                    path.join(" - "),
                    p.allowance,
                    p.minimum,
                    p.destinations.len(),
                    w.river.as_ref().map(|r| format!("; crosses the {r}")).unwrap_or_default()
                );
            }
            (None, _) => {
                let _ = writeln!(
                    s,
                    "- {} is trapped at {} (6.5.1): no legal destination{}{}",
                    p.force,
                    place(c, p.from),
                    p.note.as_ref().map(|n| format!(" ({n})")).unwrap_or_default(),
                    w.river.as_ref().map(|r| format!("; the {r} at its back")).unwrap_or_default()
                );
            }
        }
    }
}

/// The river's penalties (6.5.2), the commanders to replace and the dice.
fn penalties_and_dice(r: &ReportInput<'_>, s: &mut String) {
    let _ = writeln!(s, "\n## Penalties (6.5.2)\n");
    if r.river_forces.is_empty() {
        let _ = writeln!(s, "No river at the loser's back.");
    } else {
        let _ = writeln!(
            s,
            "River at the back of {}: ammunition wagons lost and ammunition halved until turn {}.",
            r.river_forces.join(", "),
            r.river.until
        );
        for u in &r.river.unavailable_brigades {
            let _ = writeln!(s, "- brigade {u} unavailable until turn {}", r.river.until);
        }
        for (bty, g) in &r.river.battery_guns_lost {
            let _ = writeln!(s, "- battery {bty} tips {g} guns into the river");
        }
    }
    if !r.commanders.is_empty() {
        let _ = writeln!(s, "\n## Commanders to replace\n");
        for (n, killed) in r.commanders {
            let _ = writeln!(s, "- {n}: {}", if *killed { "killed" } else { "wounded" });
        }
    }
    let _ = writeln!(s, "\n## Dice\n");
    if r.dice.is_empty() {
        let _ = writeln!(s, "None rolled.");
    }
    for d in r.dice {
        let _ = writeln!(s, "- {}: d{} = {}", d.purpose, d.sides, d.value);
    }
}

/// What the aftermath picture is drawn from: the verdict, each side's losses as the report
/// counts them, each withdrawal and the river's penalties.
pub fn aftermath_scene<'a>(c: &'a Campaign, b: &'a BattleRecord, r: &ReportInput<'_>) -> AftermathScene<'a> {
    let losses = [Side::French, Side::Allies]
        .into_iter()
        .map(|side| {
            let t = side_totals(c, b, r, side);
            let l = SideLosses {
                before: t.before,
                after: t.after,
                killed: t.killed,
                wounded: t.wounded,
                captured: t.captured,
                guns_lost: t.guns_lost,
            };
            (side, l)
        })
        .collect();
    let retreats = r
        .withdrawals
        .iter()
        .map(|w| {
            let p = &w.plan;
            let path =
                w.to.and_then(|to| p.destinations.iter().find(|d| d.hex == to))
                    .map(|d| d.path.clone())
                    .unwrap_or_default();
            let unit = c.oob.get(&p.force);
            Retreat {
                force: p.force.clone(),
                name: unit.map_or_else(String::new, |u| u.name.to_string()),
                side: unit.map_or_else(|| r.verdict.winner.map_or(Side::French, Side::enemy), Unit::side),
                from: p.from,
                to: w.to,
                path,
                river: w.river.clone(),
                chosen_by_umpire: w.chosen_by_umpire,
            }
        })
        .collect();
    let mut penalties = Vec::new();
    if !r.river_forces.is_empty() {
        penalties.push(format!(
            "A river at the back of {}: ammunition wagons lost and ammunition halved until turn {}.",
            r.river_forces.join(", "),
            r.river.until
        ));
        for u in &r.river.unavailable_brigades {
            penalties.push(format!("Brigade {u} unavailable until turn {}.", r.river.until));
        }
        for (bty, g) in &r.river.battery_guns_lost {
            penalties.push(format!("Battery {bty} tips {g} guns into the river."));
        }
    }
    AftermathScene {
        record: b,
        map: &c.map,
        winner: r.verdict.winner,
        verdict: r.verdict.explanation.clone(),
        retreats,
        losses,
        penalties,
    }
}

/// One side's losses as the report's table counts them.
fn side_totals(c: &Campaign, b: &BattleRecord, r: &ReportInput<'_>, side: Side) -> Tot {
    let side_of = |unit: &str| b.units.iter().find(|u| u.unit == unit).map(|u| u.side);
    let mut t = Tot::default();
    for co in r.carryover.iter().filter(|co| side_of(&co.unit) == Some(side)) {
        t.add(co);
    }
    // Guns tipped into the river (6.5.2.4) are lost too.
    t.guns_lost += r
        .river
        .battery_guns_lost
        .iter()
        .filter(|(bty, _)| c.oob.get(bty).map(crate::model::Unit::side) == Some(side))
        .map(|(_, g)| u64::from(*g))
        .sum::<u64>();
    t
}

/// A hex as the umpire names it: `Badajoz (13.29)`, or the hex alone where no place stands.
fn place(c: &Campaign, hex: crate::model::HexId) -> String {
    match c.map.settlements_in(hex).first() {
        Some(s) => format!("{} ({hex})", s.name),
        None => hex.to_string(),
    }
}

/// A line diff of the state files for people (`--dry-run`).
pub fn state_diff(diffs: &[FileDiff]) -> String {
    let mut s = String::new();
    for d in diffs {
        match d {
            FileDiff::Lines { file, lines } => {
                let _ = writeln!(s, "--- {file}");
                for (before, after) in lines {
                    let _ = writeln!(s, "-{}", before.trim_end());
                    let _ = writeln!(s, "+{}", after.trim_end());
                }
            }
            FileDiff::Whole { file, text } => {
                let _ = writeln!(s, "--- {file} (rewritten)");
                for l in text.iter().flat_map(|t| t.lines()) {
                    let _ = writeln!(s, "+{l}");
                }
            }
        }
    }
    s
}

/// The note `apply` gives on stderr when the result's finality was not shown by the files
/// (`file` as the umpire named it).
pub fn evidence_note(file: &str, a: &Applied) -> Option<String> {
    (!a.evidence.starts_with("final") && a.evidence != MANUAL)
        .then(|| format!("note: {file}: {}", a.evidence))
}

/// What `apply --dry-run` prints after the report: the changes it would make.
pub fn dry_run_changes(a: &Applied) -> String {
    format!("\n## Changes (dry run: nothing written)\n\n{}", a.diff)
}

/// The line `apply` ends with on stderr: what was applied (or, on a dry run, would be).
pub fn applied_line(file: &str, a: &Applied, dry_run: bool) -> String {
    if !dry_run {
        return format!("applied {file} to battle {} (journal entry {})", a.battle, a.journal_seq);
    }
    let edits = if a.manual_edit_first {
        format!(", after entry {} recording the manual edits of the state files found", a.journal_seq - 1)
    } else {
        String::new()
    };
    format!(
        "dry run: nothing written; without --dry-run, {file} would be applied to battle {} as journal entry {}{edits}",
        a.battle, a.journal_seq
    )
}
