//! What a side knows of the forces on the map, the one view every side-facing picture is
//! drawn from. The umpire sees every force with its strength and every contact. A side sees
//! its own forces whole, and of the enemy only the forces in contact with one of its own
//! (rule 8.1): where they stand and what they are called, never their strength (which only
//! a battle's briefing estimates, 8.5) nor their orders. An enemy force out of contact is
//! not in the view at all, so nothing drawn from it can show it — unless the side has learnt
//! of it through the turn's intelligence (9.0, `intelligence.csv`): then it is in the view
//! where it was last reported seen, with the approximate strength reported, from the turn
//! after the turn advance that reported it.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use crate::model::{Campaign, HexId, Nation, Side, Strength};
use crate::rules::zoc::{Contact, ContactRule, zone_of_control};

/// One force as the viewer knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownForce {
    /// Id in `forces.csv`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Nation.
    pub nation: Nation,
    /// Hex it stands on.
    pub hex: HexId,
    /// Men and guns; `None` for an enemy force, whose strength the viewer does not know.
    pub strength: Option<Strength>,
    /// For an enemy force, the latest report of it the viewer has had (9.0), if any.
    pub reported: Option<Reported>,
    /// The hexes of its zone of control (8.1) that the viewer can know of: the whole zone of
    /// a force it commands (with a cavalry force's road hex, 8.3), the six hexes around an
    /// enemy force (its march orders are not known). Empty unless the view was asked for
    /// zones.
    pub zone: Vec<HexId>,
    /// Its line of supply: only ever for a force of the viewer's side (an enemy's supply is
    /// not known), and only once [`ForcesView::with_supply`] has given it.
    pub supply: Option<KnownSupply>,
    /// The hexes its standing order still has to march (`standing-orders.csv`): only ever
    /// for a force of the viewer's side.
    pub standing: Vec<HexId>,
}

/// A force's line of supply (3.1–3.3), as its own side knows it: where the line runs and
/// to which source, or where it is cut and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownSupply {
    /// In supply.
    pub in_supply: bool,
    /// The source the line runs to.
    pub source: Option<String>,
    /// The line, hex by hex, from the force's hex.
    pub path: Vec<HexId>,
    /// Where a cut line is cut.
    pub break_hex: Option<HexId>,
    /// Why it is out of supply.
    pub reason: Option<String>,
}

impl KnownForce {
    /// The side it fights on.
    pub fn side(&self) -> Side {
        self.nation.side()
    }
}

/// What the viewer was last told of an enemy force (9.0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reported {
    /// Where it was seen.
    pub hex: HexId,
    /// The turn it was seen there.
    pub turn: u32,
    /// Approximate men.
    pub men: u32,
    /// Approximate guns.
    pub guns: u32,
}

/// The latest report of each enemy force a side has had by the campaign's turn: the
/// sightings of `intelligence.csv` known before it. A force destroyed (no men left) or
/// captured (no longer in `forces.csv`) has left the picture.
pub fn reports(c: &Campaign, side: Side) -> std::collections::BTreeMap<&str, Reported> {
    let mut latest: std::collections::BTreeMap<&str, &crate::model::books::Sighting> = Default::default();
    let standing = |id: &str| c.oob.get(id).is_some() && c.oob.has_men(id);
    for s in c.books.intelligence.iter().filter(|s| s.side == side && s.known < c.config.turn) {
        if !standing(&s.force) {
            continue;
        }
        let e = latest.entry(s.force.as_str()).or_insert(s);
        if (s.moved, s.known) >= (e.moved, e.known) {
            *e = s;
        }
    }
    latest
        .into_iter()
        .map(|(f, s)| (f, Reported { hex: s.hex, turn: s.moved, men: s.men, guns: s.guns }))
        .collect()
}

/// Two forces of the view in contact.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct KnownContact {
    /// The French force's id.
    pub french: String,
    /// The Allied force's id.
    pub allies: String,
    /// Why they are in contact.
    pub rule: ContactRule,
}

/// The forces and contacts a viewer knows of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForcesView {
    /// The side whose view it is; `None` for the umpire's, which holds everything.
    pub viewer: Option<Side>,
    /// Forces on the map, in `forces.csv` order.
    pub forces: Vec<KnownForce>,
    /// Pairs in contact, sorted.
    pub contacts: Vec<KnownContact>,
}

/// The umpire's view: every top-level force on the map with its strength (and, `with_zones`,
/// its whole zone of control), and every pair in contact.
pub fn umpire_view(c: &Campaign, contacts: &[Contact], with_zones: bool) -> ForcesView {
    view(c, contacts, None, with_zones, |_| true)
}

impl ForcesView {
    /// The view with the lines of supply of the viewer's own forces (every force's, for the
    /// umpire) as `line` gives them by force id; the enemy's stay unknown.
    pub fn with_supply(mut self, line: impl Fn(&str) -> Option<KnownSupply>) -> ForcesView {
        let viewer = self.viewer;
        for f in &mut self.forces {
            if viewer.is_none_or(|s| s == f.side()) {
                f.supply = line(&f.id);
            }
        }
        self
    }

    /// The part of the view on the hexes `keep` holds: the forces standing there and the
    /// contacts whose both forces do. It holds less than the view, never more; the view
    /// itself when it all stands there (a side's map drawn round all it knows).
    pub fn within(&self, keep: impl Fn(HexId) -> bool) -> Cow<'_, ForcesView> {
        let kept = |ids: &BTreeSet<&str>, k: &KnownContact| {
            ids.contains(k.french.as_str()) && ids.contains(k.allies.as_str())
        };
        if self.forces.iter().all(|f| keep(f.hex)) {
            let ids: BTreeSet<&str> = self.forces.iter().map(|f| f.id.as_str()).collect();
            if self.contacts.iter().all(|k| kept(&ids, k)) {
                return Cow::Borrowed(self);
            }
        }
        let forces: Vec<KnownForce> = self.forces.iter().filter(|f| keep(f.hex)).cloned().collect();
        let ids: BTreeSet<&str> = forces.iter().map(|f| f.id.as_str()).collect();
        let contacts = self.contacts.iter().filter(|k| kept(&ids, k)).cloned().collect();
        Cow::Owned(ForcesView { viewer: self.viewer, forces, contacts })
    }
}

/// What `side` knows (8.1): its own forces with their strength (and zones), the enemy
/// forces in contact with one of them by name and hex only, and those contacts.
pub fn side_view(c: &Campaign, contacts: &[Contact], side: Side, with_zones: bool) -> ForcesView {
    view(c, contacts, Some(side), with_zones, |_| true)
}

/// [`side_view`] on the hexes `keep` holds, as [`ForcesView::within`] leaves it: the forces
/// it shows elsewhere are passed over before anything is worked out for them (a battle's
/// picture shows a few hexes of a campaign of thousands of forces).
pub fn side_view_within(
    c: &Campaign,
    contacts: &[Contact],
    side: Side,
    with_zones: bool,
    keep: impl Fn(HexId) -> bool,
) -> ForcesView {
    let v = view(c, contacts, Some(side), with_zones, &keep);
    match v.within(&keep) {
        Cow::Borrowed(_) => v,
        Cow::Owned(kept) => kept,
    }
}

/// What `viewer` (every force: the umpire) knows of the forces it shows on the hexes `keep`
/// holds.
fn view(
    c: &Campaign,
    contacts: &[Contact],
    viewer: Option<Side>,
    with_zones: bool,
    keep: impl Fn(HexId) -> bool,
) -> ForcesView {
    let pairs: Vec<KnownContact> = contacts
        .iter()
        .flat_map(|k| &k.pairs)
        .map(|p| KnownContact { french: p.french.clone(), allies: p.allies.clone(), rule: p.rule })
        .collect();
    // Every pair has a force of each side, so each pair touches one of the viewer's forces.
    let enemies_in_contact: BTreeSet<&str> = match viewer {
        None => BTreeSet::new(),
        Some(Side::French) => pairs.iter().map(|p| p.allies.as_str()).collect(),
        Some(Side::Allies) => pairs.iter().map(|p| p.french.as_str()).collect(),
    };
    let reported = viewer.map(|s| reports(c, s)).unwrap_or_default();
    let standing: BTreeMap<&str, &[HexId]> =
        c.standing.iter().map(|s| (s.force.as_str(), s.route.as_slice())).collect();
    let mut forces = Vec::new();
    for f in c.oob.forces() {
        let Some(hex) = f.hex else { continue };
        let own = viewer.is_none_or(|s| s == f.side());
        let report = if own { None } else { reported.get(f.id.as_str()).cloned() };
        let in_contact = enemies_in_contact.contains(f.id.as_str());
        if !own && !in_contact && report.is_none() {
            continue;
        }
        // An enemy out of contact stands where it was last reported seen.
        let hex = match (&report, in_contact) {
            (Some(r), false) => r.hex,
            _ => hex,
        };
        if !keep(hex) {
            continue;
        }
        let zone: Vec<HexId> = match (with_zones, own) {
            (false, _) => Vec::new(),
            (true, true) => zone_of_control(c, f).into_keys().collect(),
            (true, false) => c.map.grid.neighbours(hex).collect(),
        };
        forces.push(KnownForce {
            id: f.id.to_string(),
            name: f.name.to_string(),
            nation: f.nation,
            hex,
            strength: own.then(|| c.oob.strength(f)),
            reported: report,
            zone,
            supply: None,
            standing: standing.get(f.id.as_str()).filter(|_| own).map(|r| r.to_vec()).unwrap_or_default(),
        });
    }
    let mut contacts = pairs;
    contacts.sort();
    contacts.dedup();
    ForcesView { viewer, forces, contacts }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movement::testing::{Builder, h};
    use crate::rules::zoc::contacts;

    fn campaign() -> Campaign {
        Builder::default()
            .force("fr-a", "division", "Fr", "10.10", &["line", "foot-artillery"])
            .force("fr-far", "division", "Fr", "20.20", &["line"])
            .force("sp-a", "division", "Sp", "10.11", &["line"])
            .force("sp-far", "division", "Sp", "02.02", &["line"])
            .build()
    }

    fn ids(v: &ForcesView) -> Vec<&str> {
        v.forces.iter().map(|f| f.id.as_str()).collect()
    }

    #[test]
    fn a_window_keeps_the_forces_in_it_and_the_contacts_of_both_and_is_the_view_when_it_holds_all() {
        let c = campaign();
        let v = umpire_view(&c, &contacts(&c), true);
        let all = v.within(|_| true);
        assert!(matches!(all, Cow::Borrowed(_)), "nothing to leave out: the view itself");
        assert_eq!(*all, v);
        // Round fr-a alone: sp-a next door is outside, and with it their contact.
        let near = v.within(|hex| hex == h("10.10"));
        assert_eq!(ids(&near), ["fr-a"]);
        assert!(near.contacts.is_empty());
        // Round both: the contact stays.
        let both = v.within(|hex| hex == h("10.10") || hex == h("10.11"));
        assert_eq!(ids(&both), ["fr-a", "sp-a"]);
        assert_eq!(both.contacts, v.contacts);
    }

    #[test]
    fn a_side_s_view_within_a_window_is_its_whole_view_cut_to_the_window() {
        let c = campaign();
        let k = contacts(&c);
        for side in [Side::French, Side::Allies] {
            let whole = side_view(&c, &k, side, true);
            let windows: [&dyn Fn(HexId) -> bool; 4] = [
                &|_| true,
                &|hex| hex == h("10.10"),
                &|hex| hex == h("10.10") || hex == h("10.11"),
                &|hex| hex.col >= 20,
            ];
            for keep in windows {
                let cut = side_view_within(&c, &k, side, true, keep);
                assert_eq!(cut, *whole.within(keep), "{side:?}");
            }
        }
        // Round fr-a alone, the French see it and not the contact with sp-a outside.
        let near = side_view_within(&c, &k, Side::French, true, |hex| hex == h("10.10"));
        assert_eq!((ids(&near), near.contacts.len()), (vec!["fr-a"], 0));
    }

    #[test]
    fn the_umpire_sees_every_force_with_its_strength() {
        let c = campaign();
        let v = umpire_view(&c, &contacts(&c), true);
        assert_eq!(ids(&v), ["fr-a", "fr-far", "sp-a", "sp-far"]);
        assert!(v.forces.iter().all(|f| f.strength.is_some()));
        assert_eq!(v.forces[0].strength.map(|s| (s.men(), s.guns)), Some((600, 6)));
        assert_eq!(v.contacts.len(), 1);
    }

    #[test]
    fn a_side_sees_its_own_forces_and_the_enemy_in_contact_without_its_strength() {
        // Rule 8.1: fr-a and sp-a stand adjacent; fr-far and sp-far touch no one.
        let c = campaign();
        let k = contacts(&c);
        let fr = side_view(&c, &k, Side::French, true);
        assert_eq!(ids(&fr), ["fr-a", "fr-far", "sp-a"], "sp-far is out of contact: absent");
        let sp = fr.forces.iter().find(|f| f.id == "sp-a").unwrap();
        assert_eq!(sp.strength, None, "an enemy's strength is not known");
        assert_eq!(sp.zone.len(), 6);
        assert_eq!(
            fr.contacts,
            [KnownContact { french: "fr-a".into(), allies: "sp-a".into(), rule: ContactRule::Adjacent }]
        );
        let al = side_view(&c, &k, Side::Allies, true);
        assert_eq!(ids(&al), ["fr-a", "sp-a", "sp-far"]);
        assert!(!al.forces.iter().any(|f| f.id == "fr-far"));
        assert_eq!(al.forces[0].hex, h("10.10"));
    }
}
