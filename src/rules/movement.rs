//! Road movement allowances: how many hexes a force may march by road in one turn (rule 6.3),
//! halved in winter after every bonus and penalty (6.2), less the cost of crossing major
//! rivers for forces of division size (6.5.1) and of marching along secondary roads (the
//! secondary-road rule of 13 July 2014). The withdrawal after a battle (8.4) is measured in
//! these hexes.

use crate::model::{ArmClass, Campaign, HexId, Level, Nation, RoadClass, Season, Turn, Unit};

/// What a force is made of, as far as its road speed goes (rule 6.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Composition {
    /// Contains infantry and no artillery: 12 hexes by road.
    Infantry,
    /// Contains artillery (with or without infantry): 10 hexes by road.
    Artillery,
    /// Contains only cavalry: 14 hexes by road.
    CavalryOnly,
}

impl Composition {
    /// Road hexes per turn before any modifier (rule 6.3).
    pub fn road_hexes(self) -> u32 {
        match self {
            Composition::Infantry => 12,
            Composition::Artillery => 10,
            Composition::CavalryOnly => 14,
        }
    }
}

/// A force's road movement for one turn, before the penalties that depend on the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Allowance {
    /// Road hexes for the force's composition (6.3): 12, 10 or 14.
    pub base: u32,
    /// Nation modifier (6.3): Spanish −1, French +1, others 0; from the force's top row.
    pub nation_modifier: i32,
    /// Winter turn (6.2): everything is halved after the modifiers.
    pub winter: bool,
    /// What the force is made of.
    pub composition: Composition,
    /// The force's top row is an army, corps or division (6.5.1 "division size or greater").
    pub division_size: bool,
    /// Hexes lost per major river crossed (6.5.1): 0 below division size, 2 for Spanish and
    /// pre-July 1809 Portuguese forces or contingents of division size, else 1.
    pub river_penalty: u32,
    /// Hexes lost by a move that uses any secondary road: 1, or 2 with artillery.
    pub secondary_penalty: u32,
}

impl Allowance {
    /// The full road move in hexes before any per-path penalty: base plus the nation
    /// modifier, halved (rounded down) in winter.
    pub fn hexes(&self) -> u32 {
        clamp(self.apply_winter(self.base as i32 + self.nation_modifier))
    }

    /// The road move along a path that crosses `river_crossings` major rivers and uses a
    /// secondary road or not: every penalty is taken from the normal move, then the result
    /// is halved in winter (rule 6.2's note of 25 January 2015). Never below 0.
    pub fn for_path(&self, river_crossings: u32, secondary: bool) -> i32 {
        let rivers = (river_crossings * self.river_penalty) as i32;
        let minor = if secondary { self.secondary_penalty as i32 } else { 0 };
        clamp(self.apply_winter(self.base as i32 + self.nation_modifier - rivers - minor)) as i32
    }

    fn apply_winter(&self, hexes: i32) -> i32 {
        if self.winter { hexes.div_euclid(2) } else { hexes }
    }
}

fn clamp(hexes: i32) -> u32 {
    u32::try_from(hexes).unwrap_or(0)
}

/// True from early July 1809, when British training takes effect on the Portuguese (6.5.1).
pub fn post_june_1809(turn: Turn) -> bool {
    let (month, year) = turn.month_year();
    year > 1809 || (year == 1809 && month >= 6)
}

/// What a force is made of (rule 6.3): artillery anywhere in it makes it an artillery force,
/// else any infantry an infantry force, else (cavalry only) a cavalry force. A force with no
/// units at all marches as infantry.
pub fn composition(c: &Campaign, force_id: &str) -> Composition {
    // One walk of the force's units: any artillery settles it.
    let (mut infantry, mut any) = (false, false);
    for class in c.oob.walk(force_id).filter(|u| u.is_unit()).filter_map(Unit::arm_class) {
        any = true;
        match class {
            ArmClass::Artillery => return Composition::Artillery,
            ArmClass::Infantry => infantry = true,
            ArmClass::Cavalry => {}
        }
    }
    if infantry || !any { Composition::Infantry } else { Composition::CavalryOnly }
}

/// Hexes a division-size force loses per major river crossed (rule 6.5.1): 2 when the force,
/// or a division-or-larger formation inside it, is Spanish or pre-July 1809 Portuguese;
/// otherwise 1. Forces below division size lose nothing.
pub fn river_crossing_penalty(c: &Campaign, force_id: &str, turn: Turn) -> u32 {
    let Some(top) = c.oob.get(force_id) else { return 0 };
    if !is_division_size(top.level) {
        return 0;
    }
    let slow = |n: Nation| n == Nation::Sp || (n == Nation::Po && !post_june_1809(turn));
    let slow_contingent =
        c.oob.walk(force_id).any(|u| u.level.is_formation() && is_division_size(u.level) && slow(u.nation));
    if slow_contingent { 2 } else { 1 }
}

fn is_division_size(level: Level) -> bool {
    matches!(level, Level::Army | Level::Corps | Level::Division)
}

/// A force's road allowance for a turn (rules 6.2, 6.3, 6.5.1 and the secondary-road rule).
/// The nation modifier is the force's top row's: a mixed Allied force moves at the speed of
/// the nation that commands it. An unknown id counts as a force with no units.
pub fn road_allowance(c: &Campaign, force_id: &str, turn: Turn) -> Allowance {
    let composition = composition(c, force_id);
    let top = c.oob.get(force_id);
    let nation_modifier = match top.map(|u| u.nation) {
        Some(Nation::Sp) => -1,
        Some(Nation::Fr) => 1,
        _ => 0,
    };
    Allowance {
        base: composition.road_hexes(),
        nation_modifier,
        winter: turn.season() == Season::Winter,
        composition,
        division_size: top.is_some_and(|u| is_division_size(u.level)),
        river_penalty: river_crossing_penalty(c, force_id, turn),
        secondary_penalty: if composition == Composition::Artillery { 2 } else { 1 },
    }
}

/// What a road path costs: the major rivers it crosses (by name, in order) and whether it
/// uses a secondary road. `path` runs from the start hex to the end hex.
pub fn path_costs(c: &Campaign, path: &[HexId]) -> (Vec<String>, bool) {
    let mut rivers = Vec::new();
    let mut secondary = false;
    for step in path.windows(2) {
        if let Some(r) = c.map.river(step[0], step[1]) {
            rivers.push(r.to_string());
        }
        secondary |= c.map.road(step[0], step[1]) == Some(RoadClass::Secondary);
    }
    (rivers, secondary)
}

/// Hexes a force may march along a road path this turn, after the river-crossing (6.5.1)
/// and secondary-road penalties, halved last in winter (6.2). The secondary-road penalty is
/// taken once per move, however many secondary-road hexes the path uses: the rule reduces
/// the move rate ("road speed but −1 additional hex").
pub fn path_allowance(c: &Campaign, force_id: &str, turn: Turn, path: &[HexId]) -> i32 {
    let (rivers, secondary) = path_costs(c, path);
    road_allowance(c, force_id, turn).for_path(rivers.len() as u32, secondary)
}

/// A small campaign built from CSV text, for the tests of the movement rules.
#[cfg(test)]
pub(crate) mod testing {
    use crate::formats::campaign::{CampaignFiles, names, parse_campaign};
    use crate::model::{Campaign, HexId};

    const FORCE_HEADER: &str = "id,parent,level,name,nation,arm,men,squadrons,guns,hex,moving_to,depot";

    /// Builds a 30 × 30 campaign with roads, rivers, settlements and forces.
    #[derive(Debug, Default)]
    pub(crate) struct Builder {
        roads: Vec<String>,
        rivers: Vec<String>,
        settlements: Vec<String>,
        forces: Vec<Vec<String>>,
    }

    /// A hex from its `CC.RR` id.
    pub(crate) fn h(s: &str) -> HexId {
        s.parse().unwrap()
    }

    impl Builder {
        /// A road through the hexes in order.
        pub(crate) fn road(mut self, hexes: &[&str], class: &str) -> Self {
            for w in hexes.windows(2) {
                self.roads.push(format!("{},{},{class}", w[0], w[1]));
            }
            self
        }
        /// A straight north–south road down column `col` from `from` to `to` (rows).
        pub(crate) fn column_road(self, col: u16, from: u16, to: u16, class: &str) -> Self {
            let hexes: Vec<String> = (from..=to).map(|r| HexId::new(col, r).to_string()).collect();
            let refs: Vec<&str> = hexes.iter().map(String::as_str).collect();
            self.road(&refs, class)
        }
        /// A major river on the side between two adjacent hexes.
        pub(crate) fn river(mut self, a: &str, b: &str, name: &str) -> Self {
            self.rivers.push(format!("{a},{b},{name}"));
            self
        }
        /// A settlement.
        pub(crate) fn settlement(mut self, name: &str, hex: &str, kind: &str, control: &str) -> Self {
            self.settlements.push(format!("{name},{hex},{kind},{control}"));
            self
        }
        /// A top-level force with one unit per arm word (`line`, `dragoon`, `foot-artillery`…).
        pub(crate) fn force(self, id: &str, level: &str, nation: &str, hex: &str, arms: &[&str]) -> Self {
            let b = self.row(id, "", level, nation, "", hex);
            b.units(id, nation, arms)
        }
        /// A formation under another, with one unit per arm word.
        pub(crate) fn formation(
            self,
            id: &str,
            parent: &str,
            level: &str,
            nation: &str,
            arms: &[&str],
        ) -> Self {
            self.row(id, parent, level, nation, "", "").units(id, nation, arms)
        }
        /// Sets the depot settlement of a force.
        pub(crate) fn depot(mut self, id: &str, settlement: &str) -> Self {
            if let Some(r) = self.forces.iter_mut().find(|r| r[0] == id) {
                r[11] = settlement.to_string();
            }
            self
        }
        fn units(mut self, parent: &str, nation: &str, arms: &[&str]) -> Self {
            for (i, arm) in arms.iter().enumerate() {
                let id = format!("{parent}-{i}");
                self = self.row(&id, parent, "", nation, arm, "");
            }
            self
        }
        fn row(mut self, id: &str, parent: &str, level: &str, nation: &str, arm: &str, hex: &str) -> Self {
            let (level, men, sq, guns) = match arm {
                "" => (level, "", "", ""),
                "dragoon" | "light-cavalry" | "heavy-cavalry" => ("regiment", "300", "2", ""),
                "foot-artillery" | "horse-artillery" => ("battery", "100", "", "6"),
                _ => ("battalion", "500", "", ""),
            };
            self.forces.push(
                [id, parent, level, id, nation, arm, men, sq, guns, hex, "", ""].map(str::to_string).to_vec(),
            );
            self
        }
        /// Parses the campaign; panics with every problem if it is invalid.
        pub(crate) fn build(self) -> Campaign {
            let mut files = CampaignFiles::default();
            let mut put = |name: &'static str, text: String| {
                files.files.insert(name, text.into_bytes());
            };
            put(names::CAMPAIGN, "name = \"t\"\nseed = 1\nturn = 1\n[map]\ncolumns = 30\nrows = 30\n".into());
            put(names::HEXES, "hex,terrain\n".into());
            put(names::ROADS, format!("from,to,class\n{}\n", self.roads.join("\n")));
            put(names::RIVERS, format!("from,to,name\n{}\n", self.rivers.join("\n")));
            put(names::SETTLEMENTS, format!("name,hex,kind,control\n{}\n", self.settlements.join("\n")));
            put(names::COMMANDERS, "name,side\n".into());
            put(names::BATTLE_MAPS, "hex,map,orientation,battle\n".into());
            let rows: Vec<String> = self.forces.iter().map(|r| r.join(",")).collect();
            put(names::FORCES, format!("{FORCE_HEADER}\n{}\n", rows.join("\n")));
            match parse_campaign(&files) {
                Ok(c) => c,
                Err(p) => panic!("{:?}", p.0.iter().map(ToString::to_string).collect::<Vec<_>>()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{Builder, h};
    use super::*;

    const SUMMER: Turn = Turn(3); // early July 1808
    const WINTER: Turn = Turn(13); // early December 1808

    fn one_force(level: &str, nation: &str, arms: &[&str]) -> Campaign {
        Builder::default().column_road(10, 0, 20, "major").force("f", level, nation, "10.05", arms).build()
    }

    fn hexes(level: &str, nation: &str, arms: &[&str], turn: Turn) -> u32 {
        road_allowance(&one_force(level, nation, arms), "f", turn).hexes()
    }

    #[test]
    fn road_moves_by_arm_and_nation_follow_rule_6_3() {
        assert_eq!(hexes("division", "Br", &["line", "dragoon"], SUMMER), 12);
        assert_eq!(hexes("division", "Fr", &["line"], SUMMER), 13);
        assert_eq!(hexes("division", "Sp", &["line"], SUMMER), 11);
        assert_eq!(hexes("brigade", "Br", &["dragoon", "light-cavalry"], SUMMER), 14);
        assert_eq!(hexes("brigade", "Fr", &["dragoon"], SUMMER), 15);
        assert_eq!(hexes("brigade", "Sp", &["dragoon"], SUMMER), 13);
        // Artillery present wins over infantry.
        assert_eq!(hexes("division", "Br", &["line", "foot-artillery"], SUMMER), 10);
        let a = road_allowance(&one_force("division", "Po", &["line", "horse-artillery"]), "f", SUMMER);
        assert_eq!((a.composition, a.base, a.nation_modifier), (Composition::Artillery, 10, 0));
    }

    #[test]
    fn winter_halves_after_the_modifiers_rounding_down() {
        assert!(Turn(12).season() == Season::Winter && Turn(11).season() == Season::Summer);
        assert_eq!(hexes("division", "Fr", &["line"], WINTER), 6); // 13 / 2
        assert_eq!(hexes("division", "Sp", &["line"], WINTER), 5); // 11 / 2
        assert_eq!(hexes("brigade", "Fr", &["dragoon"], WINTER), 7); // 15 / 2
        assert_eq!(hexes("division", "Br", &["line"], WINTER), 6);
    }

    fn across_river(level: &str, nation: &str, arms: &[&str], turn: Turn) -> i32 {
        let c = Builder::default()
            .column_road(10, 0, 20, "major")
            .river("10.07", "10.08", "Tagus")
            .force("f", level, nation, "10.05", arms)
            .build();
        let path: Vec<HexId> = (5..=12).map(|r| HexId::new(10, r)).collect();
        path_allowance(&c, "f", turn, &path)
    }

    #[test]
    fn crossing_a_major_river_costs_division_size_forces_by_nation_and_date() {
        assert_eq!(across_river("division", "Br", &["line"], SUMMER), 11);
        assert_eq!(across_river("corps", "Fr", &["line"], SUMMER), 12);
        assert_eq!(across_river("division", "Sp", &["line"], SUMMER), 9);
        // Portuguese: 2 hexes up to late June 1809 (turn 26), 1 from early July 1809 (turn 27).
        assert_eq!(Turn(26).date(), "late June 1809");
        assert_eq!(across_river("division", "Po", &["line"], Turn(26)), 10);
        assert_eq!(across_river("division", "Po", &["line"], Turn(27)), 11);
        // Below division size: no penalty.
        assert_eq!(across_river("brigade", "Sp", &["line"], SUMMER), 11);
        assert_eq!(across_river("brigade", "Fr", &["dragoon"], SUMMER), 15);
    }

    #[test]
    fn winter_halves_the_river_penalty_too() {
        // Rule 6.2: French infantry crossing a river in winter: (13 − 1) / 2 = 6.
        assert_eq!(across_river("division", "Fr", &["line"], WINTER), 6);
        // Spanish division: (11 − 2) / 2 = 4.
        assert_eq!(across_river("division", "Sp", &["line"], WINTER), 4);
    }

    #[test]
    fn a_slow_contingent_of_division_size_slows_the_whole_force() {
        let corps = |sub_level: &str, turn: Turn| {
            let c = Builder::default()
                .column_road(10, 0, 20, "major")
                .force("f", "corps", "Br", "10.05", &["line"])
                .formation("po", "f", sub_level, "Po", &["line"])
                .build();
            river_crossing_penalty(&c, "f", turn)
        };
        assert_eq!(corps("division", SUMMER), 2);
        assert_eq!(corps("division", Turn(27)), 1);
        assert_eq!(corps("brigade", SUMMER), 1);
    }

    #[test]
    fn a_secondary_road_costs_one_hex_per_move_or_two_with_artillery() {
        let build = |arms: &[&str]| {
            Builder::default()
                .column_road(10, 0, 5, "major")
                .column_road(10, 5, 20, "secondary")
                .force("f", "division", "Br", "10.00", arms)
                .build()
        };
        let major: Vec<HexId> = (0..=5).map(|r| HexId::new(10, r)).collect();
        let long: Vec<HexId> = (0..=12).map(|r| HexId::new(10, r)).collect();
        let inf = build(&["line"]);
        assert_eq!(path_allowance(&inf, "f", SUMMER, &major), 12);
        assert_eq!(path_allowance(&inf, "f", SUMMER, &long[..7]), 11);
        assert_eq!(path_allowance(&inf, "f", SUMMER, &long), 11, "once per move, not per hex");
        let guns = build(&["line", "foot-artillery"]);
        assert_eq!(path_allowance(&guns, "f", SUMMER, &long), 8);
        assert_eq!(path_allowance(&guns, "f", WINTER, &long), 4);
        assert_eq!(path_costs(&inf, &[h("10.04"), h("10.05"), h("10.06")]), (vec![], true));
    }
}
