//! Detaching and attaching (the umpire's order of battle on the march): an order whose force is
//! a part of a force (a brigade, battalion, squadron or battery) detaches it as a force of its
//! own where its force stands, before anything marches; an order with an `attach` column joins
//! its force to a formation standing in the same hex once the march is done. Ids never change
//! (a detached unit keeps its id; its `parent` and `hex` do), so the journal's entries and the
//! battles' records keep their meaning.

use std::collections::BTreeMap;

use super::{Order, Refusal, refusal};
use crate::model::orders::Route;
use crate::model::{Campaign, HexId, OrderOfBattle};

/// A part of a force made a force of its own.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Detached {
    /// The part, now a force.
    pub force: String,
    /// The force it was part of.
    pub from: String,
    /// Where it stands.
    pub hex: HexId,
}

/// A force ordered to join a formation, and whether it did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Attached {
    /// The force.
    pub force: String,
    /// The formation it was ordered to join.
    pub to: String,
    /// It joined.
    pub joined: bool,
    /// Why not, when it did not.
    pub why: Option<String>,
}

/// Detaches every part of a force that an order names (not a top-level force, not a
/// cancellation), in the orders' order: it stands where its force stands, with its force's
/// depot and supply state and its own quality. The refusals of the parts that cannot be.
pub fn detach(c: &mut Campaign, orders: &[Order]) -> (Vec<Detached>, Vec<Refusal>) {
    let mut out = Vec::new();
    let mut refusals = Vec::new();
    let mut changes: BTreeMap<String, (HexId, Option<String>, crate::model::Supply, crate::model::Quality)> =
        BTreeMap::new();
    for o in orders.iter().filter(|o| !matches!(o.route, Route::Cancel)) {
        let Some(u) = c.oob.get(&o.force).filter(|u| u.parent.is_some()) else { continue };
        let Some(top) = c.oob.force_of(&o.force) else { continue };
        let Some(hex) = top.hex else {
            refusals.push(*refusal(
                o,
                "force",
                None,
                "",
                format!("'{}' is part of '{}', which is not on the map: it cannot be detached", u.id, top.id),
            ));
            continue;
        };
        let quality = c.oob.quality_of(&o.force);
        changes.insert(o.force.clone(), (hex, top.depot().map(str::to_string), top.supply_column, quality));
        out.push(Detached { force: o.force.clone(), from: top.id.to_string(), hex });
    }
    if changes.is_empty() {
        return (out, refusals);
    }
    let mut units = c.oob.units().to_vec();
    for u in &mut units {
        let Some((hex, depot, supply, quality)) = changes.remove(u.id.as_str()) else { continue };
        u.parent = None;
        u.hex = Some(hex);
        u.moving_to = None;
        u.supply = supply;
        u.supply_column = supply;
        u.quality = Some(quality);
        if depot.is_some() {
            u.rare.get_or_insert_with(Box::default).depot = depot.map(Into::into);
        }
    }
    c.oob = OrderOfBattle::new(units, c.oob.extra_columns.clone());
    (out, refusals)
}

/// The `attach` orders that can never be carried out, judged before the march: an unknown
/// formation, a unit (which commands nothing), the other side's, a formation of the same
/// level or below, or the force itself or a part of it.
pub fn attach_refusals(c: &Campaign, orders: &[Order]) -> Vec<Refusal> {
    let mut out = Vec::new();
    for o in orders {
        let (Some(to), Some(f)) = (o.attach.as_deref(), c.oob.get(&o.force)) else { continue };
        let why = match c.oob.get(to) {
            None => Some(format!("unknown force '{to}'")),
            Some(t) if !t.level.is_formation() => {
                Some(format!("'{to}' is a {}, which cannot command other rows", t.level))
            }
            Some(t) if t.side() != f.side() => Some(format!("'{to}' is of the other side")),
            Some(t) if f.level.is_formation() && f.level.rank() <= t.level.rank() => {
                Some(format!("a {} cannot stand under a {} ('{to}')", f.level, t.level))
            }
            Some(t) if t.id == f.id || c.oob.ancestors(to).iter().any(|a| a.id == f.id) => {
                Some(format!("'{to}' is '{}' itself or a part of it", f.id))
            }
            Some(_) if c.oob.force_of(to).and_then(|t| t.hex).is_none() => {
                Some(format!("'{to}' is not with a force on the map"))
            }
            Some(_) => None,
        };
        if let Some(why) = why {
            out.push(*refusal(o, "attach", None, "", why));
        }
    }
    out
}

/// Joins each force ordered to attach to its formation, when the march left it in the same
/// hex as the formation's force: it is no longer a force on the map (no hex, no depot).
pub fn attach(c: &mut Campaign, orders: &[Order]) -> Vec<Attached> {
    let mut out = Vec::new();
    let mut joins: BTreeMap<String, String> = BTreeMap::new();
    for o in orders {
        let Some(to) = o.attach.as_deref() else { continue };
        let here = c.oob.get(&o.force).and_then(|f| f.hex);
        let there = c.oob.force_of(to).filter(|t| t.id != o.force).and_then(|t| t.hex);
        let why = match (here, there) {
            (Some(h), Some(t)) if h == t => None,
            (Some(h), Some(t)) => Some(format!("it stands at {h}, and '{to}' at {t}: not attached")),
            _ => Some(format!("'{to}' is not with a force on the map: not attached")),
        };
        if why.is_none() {
            joins.insert(o.force.clone(), to.to_string());
        }
        out.push(Attached { force: o.force.clone(), to: to.to_string(), joined: why.is_none(), why });
    }
    if joins.is_empty() {
        return out;
    }
    let mut units = c.oob.units().to_vec();
    for u in &mut units {
        let Some(to) = joins.remove(u.id.as_str()) else { continue };
        u.parent = Some(to.as_str().into());
        u.hex = None;
        u.moving_to = None;
        u.supply = crate::model::Supply::In;
        u.supply_column = crate::model::Supply::In;
        if let Some(r) = u.rare.as_mut() {
            r.depot = None;
        }
    }
    c.oob = OrderOfBattle::new(units, c.oob.extra_columns.clone());
    out
}
