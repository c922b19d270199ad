//! The turn's reports, as Markdown: `turns/T<n>/report.md` for the umpire (every phase's
//! lines, every die with its purpose and rule, every change). The players' dispatches,
//! `french.md` and `allies.md` with their pages, are [`super::dispatch`]'s.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::model::Season;
use crate::model::battle::BattleRecord;
use crate::model::ledger::ReturnKind;
use crate::rules::turn::{PhaseOutcome, TurnChanges, TurnInfo, TurnRun};

/// What `turn advance` did (or, on a dry run, would do).
#[derive(Debug, Clone, Serialize)]
pub struct Advanced {
    /// The decided changes.
    #[serde(flatten)]
    pub changes: TurnChanges,
    /// Men returned per unit.
    pub returned_by_unit: BTreeMap<String, u32>,
    /// Men returned per kind.
    pub returned_by_kind: BTreeMap<ReturnKind, u32>,
    /// All men returned.
    pub men_returned: u32,
    /// The other phases: sieges, winter, occupation, Juntas, intelligence.
    pub phases: Vec<PhaseOutcome>,
    /// Men lost per unit over the turn.
    pub lost: Vec<(String, u32)>,
    /// Every die rolled.
    pub dice: Vec<crate::rules::dice::Roll>,
    /// The turn's reports (relative paths), written unless a dry run.
    pub reports: Vec<String>,
    /// Supply and control as the phase before the returns computed them (2.1, 3.1–3.5).
    pub supply: crate::rules::supply::SupplyPhase,
    /// Battles exported but still waiting for a result.
    pub pending_battles: Vec<String>,
    /// Nothing was written.
    pub dry_run: bool,
    /// Journal sequence number of the entry (0 on a dry run).
    pub journal_seq: u64,
}

fn heading(run: &TurnRun) -> String {
    format!("Turn {} — {}", run.returns.to.turn, run.returns.to.date)
}

/// The umpire's report. `returns` is the returns phase's own text.
pub fn umpire_report(run: &TurnRun, returns: &str, seed: u64, stream: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {} (umpire)\n", heading(run));
    let _ = writeln!(
        s,
        "Turn {} ({}) ends; turn {} ({}) begins. Dice: seed {seed}, stream `{stream}`.\n",
        run.returns.from.turn, run.returns.from.date, run.returns.to.turn, run.returns.to.date
    );
    let _ = writeln!(s, "## Returns, penalties and ammunition (3.1, 6.5.2)\n");
    for l in returns.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let _ = writeln!(s, "    {l}");
    }
    for p in &run.phases {
        let _ = writeln!(s, "\n## {}\n", p.section.title);
        for l in &p.section.umpire {
            let _ = writeln!(s, "- {l}");
        }
    }
    let _ = writeln!(s, "\n## Men lost\n");
    if run.lost.is_empty() {
        let _ = writeln!(s, "None.");
    }
    for (u, m) in &run.lost {
        let _ = writeln!(s, "- {u}: {m}");
    }
    let _ = writeln!(s, "\n## Dice\n");
    if run.dice.is_empty() {
        let _ = writeln!(s, "No die was rolled.");
    } else {
        let _ = writeln!(s, "| # | die | roll | for |\n|---|---|---|---|");
        for (i, r) in run.dice.iter().enumerate() {
            let _ = writeln!(s, "| {} | d{} | {} | {} |", i + 1, r.sides, r.value, r.purpose);
        }
    }
    s
}

/// The warning, said before anything changes, that a battle exported is still waiting for
/// its result as the turn advances.
pub fn pending_warning(b: &BattleRecord, dry_run: bool) -> String {
    format!(
        "WARNING: battle {} at {} of turn {} is still pending: no result has been applied to it. \
         The turn advances without it{}; apply its result first if it was fought.",
        b.id,
        b.site(),
        b.turn,
        if dry_run { " (dry run: nothing changes now)" } else { "" }
    )
}

/// The one line that says the turn began, with its journal entry and the folder of its
/// reports.
pub fn begun(r: &Advanced, reports_dir: &str) -> String {
    format!("turn {} begins (journal entry {}); reports in {reports_dir}/", r.changes.to.turn, r.journal_seq)
}

/// The journal entry's one line.
pub fn summary(r: &Advanced) -> String {
    let ch = &r.changes;
    format!(
        "turn {} → {} ({}): {} men returned to {} units, {} penalty entries ended, ammunition made good for {} units, {} men lost",
        ch.from.turn,
        ch.to.turn,
        ch.to.date,
        r.men_returned,
        r.returned_by_unit.len(),
        ch.penalties_ended.len(),
        ch.ammo_restored.len(),
        r.lost.iter().map(|(_, m)| u64::from(*m)).sum::<u64>()
    ) + &format!(
        "; {} settlements changed hands, {} forces went in or out of supply",
        r.supply.control.len(),
        r.supply.supply.len()
    )
}

fn season_word(s: Season) -> &'static str {
    match s {
        Season::Summer => "campaigning season",
        Season::Winter => "winter (6.2)",
    }
}

fn turn_text(t: &TurnInfo) -> String {
    format!("turn {} ({}, {}, campaign year {})", t.turn, t.date, season_word(t.season), t.campaign_year)
}

/// The report for people: the returns, then each phase's lines for the umpire.
pub fn render(r: &Advanced) -> String {
    let mut s = render_returns(r);
    for p in &r.phases {
        let _ = writeln!(s, "\n{}:", p.section.title);
        for l in &p.section.umpire {
            let _ = writeln!(s, "  {l}");
        }
    }
    if !r.dry_run {
        let _ = writeln!(s, "\nReports: {}", r.reports.join(", "));
    }
    s
}

/// The returns phase's part of the report.
pub fn render_returns(r: &Advanced) -> String {
    let ch = &r.changes;
    let mut s = String::new();
    let _ = writeln!(s, "{} → {}", turn_text(&ch.from), turn_text(&ch.to));
    if r.dry_run {
        let _ = writeln!(s, "(dry run: nothing written)");
    }
    let _ = writeln!(s);
    returns_lines(&mut s, r);
    penalty_and_ammunition_lines(&mut s, ch);
    s.push_str(&super::supply::render_phase(&r.supply));
    if !r.pending_battles.is_empty() {
        let _ = writeln!(
            s,
            "\nNote: still waiting for a result: {} (its returns will be counted from turn {})",
            r.pending_battles.join(", "),
            ch.to.turn
        );
    }
    s
}

/// The men returning, those that cannot, and those still to come.
fn returns_lines(s: &mut String, r: &Advanced) {
    let ch = &r.changes;
    let by_kind: Vec<String> = r.returned_by_kind.iter().map(|(k, m)| format!("{m} {}", k.word())).collect();
    if ch.returns.is_empty() {
        let _ = writeln!(s, "No men return this turn.");
    } else {
        let _ = writeln!(
            s,
            "Men returning: {} to {} units ({})",
            r.men_returned,
            r.returned_by_unit.len(),
            by_kind.join(", ")
        );
        for (unit, men) in &r.returned_by_unit {
            let parts: Vec<String> = ch
                .returns
                .iter()
                .filter(|x| &x.unit == unit)
                .map(|x| format!("{} {} from {}", x.men, x.kind.word(), x.battle))
                .collect();
            let _ = writeln!(s, "  {unit:<20} +{men:<6} {}", parts.join(", "));
        }
    }
    if !ch.not_applied.is_empty() {
        let _ = writeln!(
            s,
            "\nNot applied — the unit is no longer in forces.csv; the rows stay in returns.csv \
             (point them at another unit by hand):"
        );
        for x in &ch.not_applied {
            let _ = writeln!(
                s,
                "  {:<20} {} {} from {}, due turn {}",
                x.unit,
                x.men,
                x.kind.word(),
                x.battle,
                x.turn
            );
        }
    }
    if ch.later > 0 {
        let _ = writeln!(s, "\nStill to come on later turns: {} rows of returns.csv", ch.later);
    }
}

/// The penalties ended, the ammunition made good and the marches ended with the turn.
fn penalty_and_ammunition_lines(s: &mut String, ch: &TurnChanges) {
    let mut ended: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for p in &ch.penalties_ended {
        ended.entry(format!("{}:{}", p.kind, p.until)).or_default().push(&p.unit);
    }
    if ended.is_empty() {
        let _ = writeln!(s, "\nNo penalty ends this turn.");
    } else {
        let _ = writeln!(s, "\nPenalties ended (6.5.2):");
        for (what, units) in &ended {
            let rows = if units.len() == 1 { "row" } else { "rows" };
            let _ = writeln!(s, "  {what} on {} {rows}: {}", units.len(), units.join(", "));
        }
    }
    if ch.ammo_restored.is_empty() {
        let _ = writeln!(s, "\nNo ammunition to make good.");
    } else {
        let _ = writeln!(s, "\nAmmunition made good, in supply (3.1, 6.5.2):");
        for a in &ch.ammo_restored {
            let _ = writeln!(s, "  {:<20} {}% → full", a.unit, a.was);
        }
    }
    if !ch.marches_ended.is_empty() {
        let _ = writeln!(s, "\nMarch orders ended with the turn (6.1), moving_to cleared:");
        for (force, hex) in &ch.marches_ended {
            let _ = writeln!(s, "  {force:<20} was moving to {hex}");
        }
    }
}
