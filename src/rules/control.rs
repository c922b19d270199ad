//! Who each settlement is friendly to, computed from the garrisons standing in its hex
//! (rules 2.1, 2.1.3, 2.3, 2.5.3), and the supply production it gives (2.1.1, 2.1.2: adequate,
//! or good with double the garrison). The typed `control` column of `settlements.csv` is the
//! state the campaign was left in (civil unrest persists until a place is garrisoned); an
//! `overrule` on a row is the umpire's judgement and wins over the computation.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::{
    Arm, ArmClass, Campaign, Control, HexId, Nation, Region, Settlement, SettlementKind, Side, StatusKind,
    Unit,
};

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

/// The garrison a side keeps in one hex, in the units 2.1.1 counts: "A unit is 1 infantry
/// battalion or 1 dragoon cavalry squadron ... Other cavalry are not able to garrison".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Garrison {
    /// Infantry battalions (one row of infantry is one battalion).
    pub battalions: u32,
    /// Dragoon squadrons.
    pub squadrons: u32,
    /// Forces of the side in the hex, of any arm (a unit "of any type" at the junction of a
    /// secondary road, 13 July 2014).
    pub forces: u32,
}

impl Garrison {
    /// Units: battalions and dragoon squadrons.
    pub fn units(&self) -> u32 {
        self.battalions + self.squadrons
    }

    /// True when the garrison holds `brigades` brigades (3 battalions, or 2 dragoon regiments
    /// of 4 squadrons, each) and `units` units besides.
    pub fn holds(&self, need: Need) -> bool {
        let Need { brigades, units } = need;
        (0..=units).any(|from_bns| {
            let from_sq = units - from_bns;
            from_bns <= self.battalions
                && from_sq <= self.squadrons
                && (self.battalions - from_bns) / 3 + (self.squadrons - from_sq) / 4 >= brigades
        })
    }
}

/// A garrison requirement: brigades and single units (2.1.1, 2.1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Need {
    /// Brigades.
    pub brigades: u32,
    /// Units besides the brigades.
    pub units: u32,
}

impl Need {
    const NONE: Need = Need { brigades: 0, units: 0 };
    fn units(n: u32) -> Need {
        Need { brigades: 0, units: n }
    }
    fn brigades(n: u32) -> Need {
        Need { brigades: n, units: 0 }
    }
    /// Nothing needed.
    pub fn is_none(self) -> bool {
        self == Need::NONE
    }
    /// The garrison for 'good' production: twice this one; where none is needed, one unit
    /// (2.1.2: "for 'good' supply status each town must be garrisoned by 1 unit").
    pub fn doubled(self) -> Need {
        if self.is_none() {
            Need::units(1)
        } else {
            Need { brigades: 2 * self.brigades, units: 2 * self.units }
        }
    }
}

/// A division, for a capital held by the French (2.1.1): two brigades. The rules do not say
/// how large a division is; two brigades is the smallest formation called one.
pub const DIVISION_BRIGADES: u32 = 2;

/// The garrison that makes a settlement friendly to `side` (2.1.1, 2.1.2, 2.1.3).
pub fn need(side: Side, region: Region, kind: SettlementKind, port: bool) -> Need {
    use SettlementKind::*;
    if kind == Village {
        // 2.1.3: villages and minor towns "do not need garrisons".
        return Need::NONE;
    }
    let base = match (side, region) {
        (Side::French, Region::South) => match kind {
            Town | FortressTown => Need::units(1),
            City | FortressCity => Need::brigades(1),
            Capital => Need::brigades(DIVISION_BRIGADES),
            Village => Need::NONE,
        },
        (Side::French, Region::North) => match kind {
            Town | FortressTown | Village => Need::NONE,
            City | FortressCity | Capital => Need::units(1),
        },
        (Side::Allies, Region::South) => match kind {
            Town | Village => Need::NONE,
            FortressTown | City => Need::units(1),
            FortressCity | Capital => Need::brigades(1),
        },
        (Side::Allies, Region::North) => match kind {
            Town | FortressTown => Need::units(1),
            City | FortressCity | Capital => Need::brigades(1),
            Village => Need::NONE,
        },
    };
    if port { Need { brigades: base.brigades, units: base.units + 1 } } else { base }
}

/// Who garrisons each hex: per hex, per side, the garrison, and the Allied nation with the
/// most units there.
#[derive(Debug, Clone, Default)]
pub struct Garrisons {
    by_hex: BTreeMap<HexId, [Garrison; 2]>,
    allied_nation: BTreeMap<HexId, Nation>,
}

fn side_index(s: Side) -> usize {
    match s {
        Side::French => 0,
        Side::Allies => 1,
    }
}

impl Garrisons {
    /// The garrisons of every hex with a force in it; unavailable units do not garrison.
    pub fn of(c: &Campaign) -> Garrisons {
        let mut g = Garrisons::default();
        let mut nations: BTreeMap<HexId, BTreeMap<Nation, u32>> = BTreeMap::new();
        let turn = c.config.turn;
        // Most campaigns have no unit out of action: then no unit's formations are looked up.
        let any_unavailable = c.oob.units().iter().any(|u| u.has_status(StatusKind::Unavailable, turn));
        for f in c.oob.forces() {
            let Some(hex) = f.hex else { continue };
            let side = f.side();
            let slot = &mut g.by_hex.entry(hex).or_default()[side_index(side)];
            slot.forces += 1;
            if f.has_status(StatusKind::Unavailable, turn) {
                continue;
            }
            for u in c.oob.units_under(&f.id) {
                let (b, s) = garrison_units(u);
                if b + s == 0 || (any_unavailable && unavailable(c, u, turn)) {
                    continue;
                }
                slot.battalions += b;
                slot.squadrons += s;
                if side == Side::Allies {
                    *nations.entry(hex).or_default().entry(u.nation).or_default() += b + s;
                }
            }
        }
        for (hex, n) in nations {
            // Most units; ties to the nation named first (Sp, Po, Br).
            if let Some((nation, _)) =
                n.into_iter().max_by_key(|&(nation, units)| (units, std::cmp::Reverse(nation)))
            {
                g.allied_nation.insert(hex, nation);
            }
        }
        g
    }

    /// The garrison `side` keeps in `hex`.
    pub fn at(&self, hex: HexId, side: Side) -> Garrison {
        self.by_hex.get(&hex).map(|g| g[side_index(side)]).unwrap_or_default()
    }
}

fn unavailable(c: &Campaign, u: &Unit, turn: u32) -> bool {
    u.has_status(StatusKind::Unavailable, turn)
        || c.oob.ancestors(&u.id).iter().any(|a| a.has_status(StatusKind::Unavailable, turn))
}

/// Battalions and dragoon squadrons of one row of `forces.csv` (2.1.1).
fn garrison_units(u: &Unit) -> (u32, u32) {
    match (u.arm_class(), u.arm) {
        (Some(ArmClass::Infantry), _) if u.men > 0 => (1, 0),
        (_, Some(Arm::Dragoon)) if u.men > 0 => (0, u.squadrons.max(1)),
        _ => (0, 0),
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

/// Every settlement's control from garrisons already counted.
pub fn compute_with(c: &Campaign, g: &Garrisons) -> Vec<SettlementControl> {
    c.map.settlements.iter().map(|s| settlement_control(s, g)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::campaign::{CampaignFiles, names, parse_campaign};

    /// A campaign with one settlement row and the forces given (rows of forces.csv).
    fn campaign(settlement: &str, forces: &str) -> Campaign {
        let mut files = CampaignFiles::default();
        let mut put = |name: &'static str, text: String| {
            files.files.insert(name, text.into_bytes());
        };
        put(names::CAMPAIGN, "name = \"T\"\nseed = 1\nturn = 20\n[map]\ncolumns = 64\nrows = 48\n".into());
        put(names::HEXES, "hex,terrain\n".into());
        put(names::ROADS, "from,to,class\n".into());
        put(names::RIVERS, "from,to,name\n".into());
        put(
            names::SETTLEMENTS,
            format!("name,hex,kind,port,province,region,control,overrule\n{settlement}\n"),
        );
        put(names::COMMANDERS, "name,side\n".into());
        put(names::FORCES, format!("id,parent,level,name,nation,arm,men,squadrons,guns,hex\n{forces}"));
        parse_campaign(&files).unwrap()
    }

    fn battalions(id: &str, nation: &str, hex: &str, n: usize) -> String {
        let mut s = format!("{id},,brigade,{id},{nation},,,,,{hex}\n");
        for i in 0..n {
            s += &format!("{id}-{i},{id},battalion,Bn {i},{nation},line,500,,,\n");
        }
        s
    }

    fn control_of(settlement: &str, forces: &str) -> SettlementControl {
        compute(&campaign(settlement, forces)).remove(0)
    }

    #[test]
    fn a_town_held_by_one_french_battalion_is_french() {
        let k = control_of("Trujillo,19.26,town,,Extremadura,south,Sp,", &battalions("FR", "Fr", "19.26", 1));
        assert_eq!(k.control, Control::Nation(Nation::Fr), "2.1.1: a town needs 1 unit");
        assert_eq!(k.production, Production::Adequate);
        let k = control_of("Trujillo,19.26,town,,Extremadura,south,Sp,", &battalions("FR", "Fr", "19.26", 2));
        assert_eq!(k.production, Production::Good, "doubling the garrison");
    }

    #[test]
    fn a_city_with_one_french_battalion_is_not_french() {
        let k = control_of("Mérida,16.29,city,,Extremadura,south,Sp,", &battalions("FR", "Fr", "16.29", 1));
        assert_eq!(
            k.control,
            Control::Unrest,
            "a city needs a brigade (2.1.1); French-garrisoned, not Allied"
        );
        let k = control_of("Mérida,16.29,city,,Extremadura,south,Sp,", &battalions("FR", "Fr", "16.29", 3));
        assert_eq!(k.control, Control::Nation(Nation::Fr), "3 battalions are a brigade");
    }

    #[test]
    fn madrid_held_by_a_division_is_french_and_by_a_brigade_is_not() {
        let k =
            control_of("Madrid,29.21,capital,,New Castile,south,Sp,", &battalions("FR", "Fr", "29.21", 6));
        assert_eq!(k.control, Control::Nation(Nation::Fr), "a capital needs a division (2.1.1)");
        let k =
            control_of("Madrid,29.21,capital,,New Castile,south,Sp,", &battalions("FR", "Fr", "29.21", 5));
        assert_eq!(k.control, Control::Unrest);
    }

    #[test]
    fn a_port_needs_one_unit_more() {
        let k =
            control_of("Bilbao,33.04,town,yes,Vascongadas,south,Fr,", &battalions("FR", "Fr", "33.04", 1));
        assert_eq!(k.control, Control::Unrest, "a port town needs 2 units");
        let k =
            control_of("Bilbao,33.04,town,yes,Vascongadas,south,Fr,", &battalions("FR", "Fr", "33.04", 2));
        assert_eq!(k.control, Control::Nation(Nation::Fr));
    }

    #[test]
    fn dragoons_garrison_and_other_cavalry_do_not() {
        let dragoons = "FR,,brigade,Dragons,Fr,,,,,19.26\nFR-1,FR,regiment,1er Dragons,Fr,dragoon,400,2,,\n";
        let k = control_of("Trujillo,19.26,town,,Extremadura,south,Sp,", dragoons);
        assert_eq!(k.control, Control::Nation(Nation::Fr));
        let hussars =
            "FR,,brigade,Hussards,Fr,,,,,19.26\nFR-1,FR,regiment,2e Hussards,Fr,light-cavalry,400,3,,\n";
        let k = control_of("Trujillo,19.26,town,,Extremadura,south,Sp,", hussars);
        assert_eq!(
            k.control,
            Control::Nation(Nation::Sp),
            "hussars cannot garrison (2.1.1): it stays Allied"
        );
        // A brigade of dragoons: 2 regiments, 4 squadrons, holds a city.
        let brigade = "FR,,brigade,Dragons,Fr,,,,,16.29\nFR-1,FR,regiment,1er,Fr,dragoon,400,2,,\nFR-2,FR,regiment,2e,Fr,dragoon,400,2,,\n";
        let k = control_of("Mérida,16.29,city,,Extremadura,south,Sp,", brigade);
        assert_eq!(k.control, Control::Nation(Nation::Fr));
    }

    #[test]
    fn allied_towns_need_no_garrison_but_cities_do() {
        let k = control_of("Trujillo,19.26,town,,Extremadura,south,Sp,", "");
        assert_eq!(k.control, Control::Nation(Nation::Sp), "2.1.2: towns need no garrison");
        assert_eq!(k.production, Production::Adequate, "good needs 1 unit in a town");
        let k = control_of("Mérida,16.29,city,,Extremadura,south,Sp,", "");
        assert_eq!(k.control, Control::Unrest, "2.4.8: larger than a non-port town must be garrisoned");
        let k = control_of("Mérida,16.29,city,,Extremadura,south,Fr,", &battalions("SP", "Sp", "16.29", 1));
        assert_eq!(k.control, Control::Nation(Nation::Sp));
        let k = control_of("Abrantes,07.25,town,,Portugal,south,Fr,", "");
        assert_eq!(k.control, Control::Nation(Nation::Po), "a French town left empty goes back to Portugal");
    }

    #[test]
    fn civil_unrest_persists_until_garrisoned() {
        let k = control_of("Ronda,22.41,town,,Andalucia,south,-,", "");
        assert_eq!(k.control, Control::Unrest);
        let k = control_of("Ronda,22.41,town,,Andalucia,south,-,", &battalions("SP", "Sp", "22.41", 1));
        assert_eq!(k.control, Control::Nation(Nation::Sp));
    }

    #[test]
    fn north_of_the_pyrenees_towns_are_french_and_cities_need_a_unit() {
        let k = control_of("Orthez,44.03,town,,France,north,Fr,", "");
        assert_eq!(k.control, Control::Nation(Nation::Fr));
        let k = control_of("Toulouse,53.03,city,,France,north,Fr,", "");
        assert_eq!(k.control, Control::Unrest, "2.1.1: in cities 1 unit is needed");
        let k = control_of("Toulouse,53.03,city,,France,north,Fr,", &battalions("FR", "Fr", "53.03", 1));
        assert_eq!(k.control, Control::Nation(Nation::Fr));
        let k = control_of("Orthez,44.03,town,,France,north,Fr,", &battalions("SP", "Sp", "44.03", 1));
        assert_eq!(k.control, Control::Nation(Nation::Sp), "the Allies hold a French town with 1 unit");
    }

    #[test]
    fn villages_need_no_garrison() {
        let k = control_of("Zancara,34.24,village,,New Castile,south,Sp,", "");
        assert_eq!(k.control, Control::Nation(Nation::Sp));
        let k =
            control_of("Zancara,34.24,village,,New Castile,south,Sp,", &battalions("FR", "Fr", "34.24", 1));
        assert_eq!(k.control, Control::Nation(Nation::Fr));
    }

    #[test]
    fn the_umpire_overrules() {
        let k = control_of("Mérida,16.29,city,,Extremadura,south,Sp,Sp", "");
        assert_eq!(
            (k.computed, k.control, k.overruled),
            (Control::Unrest, Control::Nation(Nation::Sp), true)
        );
    }
}
