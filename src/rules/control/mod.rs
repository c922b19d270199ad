//! Who each settlement is friendly to, computed from the garrisons standing in its hex
//! (rules 2.1, 2.1.3, 2.3, 2.5.3), and the supply production it gives (2.1.1, 2.1.2: adequate,
//! or good with double the garrison). The typed `control` column of `settlements.csv` is the
//! state the campaign was left in (civil unrest persists until a place is garrisoned); an
//! `overrule` on a row is the umpire's judgement and wins over the computation.

use serde::Serialize;

use crate::model::{Campaign, Control, HexId, Nation, Region, Settlement, Side};

mod garrisons;
mod requirement;
#[cfg(test)]
mod tests;

pub use garrisons::{Garrison, Garrisons, policing};
pub use requirement::{DIVISION_BRIGADES, Need, need};

/// A settlement's supply production (and tax income) as 2.1 grades it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Production {
    /// Not friendly to the side drawing on it: a supply line through it is cut (2.3).
    Hostile,
    /// Garrisoned as 2.1 requires.
    Adequate,
    /// Twice that garrison (2.1.1, 2.1.2: "Doubling these garrisons").
    Good,
}

impl Production {
    /// The word reports show.
    pub fn word(self) -> &'static str {
        match self {
            Production::Hostile => "hostile",
            Production::Adequate => "adequate",
            Production::Good => "good",
        }
    }
}

/// The Allied nation a settlement friendly to the Allies by default belongs to: the one it was
/// friendly to, else Portugal's, Gibraltar's or Spain's.
fn default_allied_nation(s: &Settlement) -> Nation {
    if let Control::Nation(n) = s.typed
        && n.side() == Side::Allies
    {
        return n;
    }
    match s.province.as_str() {
        "Portugal" => Nation::Po,
        "Gibraltar" => Nation::Br,
        _ => Nation::Sp,
    }
}

/// One settlement's computed control and production.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettlementControl {
    /// Name.
    pub name: String,
    /// Hex.
    pub hex: HexId,
    /// Control as computed (or overruled).
    pub control: Control,
    /// What the computation alone gives.
    pub computed: Control,
    /// The control typed in `settlements.csv` (the state before this computation).
    pub typed: Control,
    /// True when the umpire's overrule decided it.
    pub overruled: bool,
    /// Production for the side it is friendly to (hostile when it is friendly to none).
    pub production: Production,
    /// Why: the garrisons found and the rule.
    pub why: String,
}

fn garrison_text(g: Garrison) -> String {
    match (g.battalions, g.squadrons) {
        (0, 0) => "no garrison".to_string(),
        (b, 0) => format!("{b} bn"),
        (0, s) => format!("{s} dragoon sq"),
        (b, s) => format!("{b} bn + {s} dragoon sq"),
    }
}

fn need_text(n: Need) -> String {
    match (n.brigades, n.units) {
        (0, 0) => "no garrison".to_string(),
        (0, u) => format!("{u} unit{}", if u == 1 { "" } else { "s" }),
        (b, 0) => format!("{b} brigade{}", if b == 1 { "" } else { "s" }),
        (b, u) => format!(
            "{b} brigade{} + {u} unit{}",
            if b == 1 { "" } else { "s" },
            if u == 1 { "" } else { "s" }
        ),
    }
}

/// Computes one settlement's control (2.1.1, 2.1.2, 2.1.3): a side's claim is a garrison that
/// meets its need; where a side needs no garrison (villages; towns south of the Pyrenees for
/// the Allies; towns north of them for the French) the place is that side's unless the other
/// side holds it, or it is in civil unrest and not garrisoned. Both sides with a claim
/// (a place fought over) leave it as it was; neither makes it hostile to all (`-`, 2.4.8).
pub fn settlement_control(s: &Settlement, g: &Garrisons) -> SettlementControl {
    let fr = g.at(s.hex, Side::French);
    let al = g.at(s.hex, Side::Allies);
    let need_fr = need(Side::French, s.region, s.kind, s.port);
    let need_al = need(Side::Allies, s.region, s.kind, s.port);
    let was_unrest = s.typed == Control::Unrest;
    // The side whose ground it is when no one garrisons it (2.1.1 north, 2.1.2 south).
    let home = match s.region {
        Region::North => Side::French,
        Region::South => Side::Allies,
    };
    let claim = |side: Side, mine: Garrison, theirs: Garrison, n: Need| -> bool {
        if !mine.holds(n) {
            return false;
        }
        if !n.is_none() || mine.units() > 0 {
            return true;
        }
        // Needing no garrison, and having none: the home side's, unless the enemy stands in
        // it or the unrest goes on.
        side == home && theirs.units() == 0 && !was_unrest
    };
    let fr_claim = claim(Side::French, fr, al, need_fr);
    let al_claim = claim(Side::Allies, al, fr, need_al);
    let (computed, why) = match (fr_claim, al_claim) {
        (true, true) => (s.typed, "both sides hold it: unchanged".to_string()),
        (true, false) => (
            Control::Nation(Nation::Fr),
            format!("French {} (needs {})", garrison_text(fr), need_text(need_fr)),
        ),
        (false, true) => {
            let nation = g.allied_nation.get(&s.hex).copied().unwrap_or_else(|| default_allied_nation(s));
            let why = if al.units() > 0 {
                format!("Allied {} (needs {})", garrison_text(al), need_text(need_al))
            } else {
                "friendly to the Allies without a garrison (2.1.2)".to_string()
            };
            (Control::Nation(nation), why)
        }
        (false, false) => {
            let why =
                if was_unrest && (need_fr.is_none() && need_al.is_none() || fr.units() + al.units() == 0) {
                    "civil unrest goes on until it is garrisoned".to_string()
                } else {
                    format!(
                        "French {} (needs {}), Allied {} (needs {})",
                        garrison_text(fr),
                        need_text(need_fr),
                        garrison_text(al),
                        need_text(need_al)
                    )
                };
            (Control::Unrest, why)
        }
    };
    let control = s.overrule.unwrap_or(computed);
    let production = match control.side() {
        None => Production::Hostile,
        Some(side) => {
            let n = need(side, s.region, s.kind, s.port);
            if g.at(s.hex, side).holds(n.doubled()) { Production::Good } else { Production::Adequate }
        }
    };
    SettlementControl {
        name: s.name.clone(),
        hex: s.hex,
        control,
        computed,
        typed: s.typed,
        overruled: s.overrule.is_some(),
        production,
        why: if s.overrule.is_some() { format!("overruled by the umpire ({why})") } else { why },
    }
}

/// Every settlement's control, in `settlements.csv` order.
pub fn compute(c: &Campaign) -> Vec<SettlementControl> {
    let g = Garrisons::of(c);
    compute_with(c, &g)
}

/// Every settlement's control from garrisons already counted, on the campaign's turn.
pub fn compute_with(c: &Campaign, g: &Garrisons) -> Vec<SettlementControl> {
    compute_at(c, g, c.config.turn)
}

/// Every settlement's control from garrisons already counted, on `turn`: a place in revolt
/// that turn is hostile to all (4.0: the revolt "converts the settlement temporarily to
/// hostile status"), for control and so for supply, the line of communications and taxes.
pub fn compute_at(c: &Campaign, g: &Garrisons, turn: u32) -> Vec<SettlementControl> {
    let mut out: Vec<SettlementControl> =
        c.map.settlements.iter().map(|s| settlement_control(s, g)).collect();
    temporary_capital(c, g, &mut out);
    for k in &mut out {
        if let Some(r) = crate::rules::occupation::revolt_at(c, &k.name, turn) {
            in_revolt(k, r.until);
        }
    }
    out
}

/// The Spanish capital and its stand-ins (2.1.2): "the Spanish capital of Madrid is occupied
/// by the French, therefore ... Seville is regarded as their temporary capital. Should Seville
/// be captured, Cádiz is considered the temporary capital."
pub const SPANISH_CAPITALS: [&str; 3] = ["Madrid", "Seville", "Cádiz"];

/// The temporary Spanish capital (2.1.2), if any, by index in `settlements.csv`: Seville while
/// Madrid is not held by the Allies, Cádiz while Seville too is held by the French. Each is
/// decided from the control of the one before it, Madrid's as its garrisons give it.
fn temporary_capital(c: &Campaign, g: &Garrisons, out: &mut [SettlementControl]) {
    let find = |name: &str| {
        let f = crate::rules::siege::fold(name);
        c.map.settlements.iter().position(|s| crate::rules::siege::fold(&s.name) == f)
    };
    let Some(mut held) = find(SPANISH_CAPITALS[0]) else { return };
    for (i, name) in SPANISH_CAPITALS.iter().enumerate().skip(1) {
        let fallen = match i {
            1 => out[held].control.side() != Some(Side::Allies),
            _ => out[held].control.side() == Some(Side::French),
        };
        let Some(next) = find(name).filter(|_| fallen) else { return };
        let mut s = c.map.settlements[next].clone();
        s.kind = crate::model::SettlementKind::Capital;
        let mut k = settlement_control(&s, g);
        k.why = format!("{} (the temporary Spanish capital, 2.1.2)", k.why);
        out[next] = k;
        held = next;
    }
}

/// A place in revolt until `until` (4.0): hostile, unless the umpire overrules it.
fn in_revolt(k: &mut SettlementControl, until: u32) {
    k.computed = Control::Unrest;
    if k.overruled {
        return;
    }
    k.control = Control::Unrest;
    k.production = Production::Hostile;
    k.why = format!("in revolt until turn {until}: hostile to all (4.0)");
}
