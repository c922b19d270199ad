//! The supply-and-control phase of `turn advance` (rules 2.1, 3.1–3.5): what the turn changes
//! in the campaign, decided before anything is changed.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{SupplyRecord, SupplyReport, compute};
use crate::model::{Campaign, HexId, Supply};

/// A settlement whose control the turn changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ControlChange {
    /// Name.
    pub name: String,
    /// Hex.
    pub hex: HexId,
    /// The control typed before.
    pub from: String,
    /// The control computed (or overruled).
    pub to: String,
    /// Why.
    pub why: String,
}

/// A force whose supply state the turn changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SupplyChange {
    /// Top-level force id.
    pub force: String,
    /// State before.
    pub from: Supply,
    /// State now.
    pub to: Supply,
    /// Why, when out.
    pub reason: Option<String>,
}

/// The supply-and-control phase of `turn advance`: what it computes and what it changes in
/// the campaign (`settlements.csv`'s control, `forces.csv`'s supply, `supply.csv`), decided
/// before anything is changed, so that the later phases (ammunition made good, returns) see
/// the campaign as this one leaves it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SupplyPhase {
    /// The whole computation.
    #[serde(skip)]
    pub report: SupplyReport,
    /// Settlements changing hands.
    pub control: Vec<ControlChange>,
    /// Forces going in or out of supply.
    pub supply: Vec<SupplyChange>,
    /// Forces with orders from the rules (3.3, 3.4, 3.5): id and order.
    pub orders: Vec<(String, String)>,
    /// Depot news (3.2.1): force, depot and what happened.
    pub depots: Vec<(String, String, String)>,
    /// What `supply.csv` keeps for the next turn.
    #[serde(skip)]
    pub records: Vec<SupplyRecord>,
}

/// Decides the supply-and-control phase of the turn (rules 2.1, 2.3, 3.1–3.5).
pub fn phase(c: &Campaign, records: &[SupplyRecord]) -> SupplyPhase {
    let report = compute(c, records);
    let control = report
        .settlements
        .iter()
        .filter(|k| k.control != k.typed)
        .map(|k| ControlChange {
            name: k.name.clone(),
            hex: k.hex,
            from: k.typed.to_string(),
            to: k.control.to_string(),
            why: k.why.clone(),
        })
        .collect();
    // The first record of each force, looked up once per force (not a walk of the list).
    let mut kept: BTreeMap<&str, &SupplyRecord> = BTreeMap::new();
    for r in records {
        kept.entry(r.force.as_str()).or_insert(r);
    }
    let supply = report
        .forces
        .iter()
        .filter_map(|f| {
            // Its state at the last turn advance: `supply.csv` counts its turns out of supply
            // (the `supply` column, where no turn advance has seen the force yet).
            let was = match kept.get(f.force.as_str()) {
                Some(r) if r.turns_out > 0 => Supply::Out,
                Some(_) => Supply::In,
                None => c.oob.get(&f.force)?.supply_column,
            };
            (was != f.state).then(|| SupplyChange {
                force: f.force.to_string(),
                from: was,
                to: f.state,
                reason: f.reason.clone(),
            })
        })
        .collect();
    let orders = report
        .forces
        .iter()
        .flat_map(|f| f.orders.iter().map(|o| (f.force.to_string(), o.clone())))
        .collect();
    let depots = report
        .depots
        .iter()
        .filter_map(|d| d.note.as_ref().map(|n| (d.force.to_string(), d.depot.to_string(), n.clone())))
        .collect();
    let records = report.records();
    SupplyPhase { report, control, supply, orders, depots, records }
}

/// Carries the phase out on the campaign value: each settlement's control and each force's
/// supply as computed; the control computed becomes the state the campaign is left in.
pub fn apply_phase(c: &mut Campaign, p: &SupplyPhase) {
    apply_report(c, &p.report);
    for s in &mut c.map.settlements {
        s.typed = s.control;
    }
    for f in &p.report.forces {
        if let Some(u) = c.oob.get_mut(&f.force) {
            u.supply_column = f.state;
        }
    }
    c.supply = p.records.clone();
}

/// Each settlement's control and each top-level force's supply state as `report` computed.
fn apply_report(c: &mut Campaign, report: &SupplyReport) {
    for (s, k) in c.map.settlements.iter_mut().zip(&report.settlements) {
        s.control = k.control;
    }
    c.oob.set_supply(report.forces.iter().map(|f| (f.force.as_str(), f.state)));
}

/// The campaign as the rules see it now, and the working behind it: each settlement's control
/// computed from its garrisons or overruled (2.1, 2.3), each top-level force's supply state
/// from its line today (3.1-3.5). This is the one definition of both facts: `status`,
/// `supply`, `map`, the briefings, `export`, `apply` and every rule they call read the campaign
/// this returns, so that none of them sees a typed column where another sees the computation.
/// The state columns are only written by `turn advance`.
pub fn now(mut c: Campaign) -> (Campaign, SupplyReport) {
    let report = compute(&c, &c.supply);
    apply_report(&mut c, &report);
    (c, report)
}

/// [`now`], with `beside` worked out on a thread of its own while supply and control are, on
/// the campaign as it was read: for what asks nothing of either (the contacts of 8.1, which
/// ask where the forces stand and what men they have), so that it is the same on both. A test
/// holds its campaign and report equal to [`now`]'s.
pub fn now_beside<T: Send>(
    mut c: Campaign,
    beside: impl FnOnce(&Campaign) -> T + Send,
) -> (Campaign, SupplyReport, T) {
    let (report, other) = std::thread::scope(|s| {
        let other = s.spawn(|| beside(&c));
        let report = compute(&c, &c.supply);
        (report, other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    apply_report(&mut c, &report);
    (c, report, other)
}
