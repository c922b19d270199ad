//! The campaign order of battle turned into SoW rows: every commander (side, army, corps,
//! division, brigade), every battalion or cavalry regiment, each battery as a battery
//! commander with one row per gun, a courier per army and supply wagons per corps. SoW has
//! exactly six levels; where the campaign lacks one, an acting commander fills it, and a
//! battery standing inside a brigade becomes a brigade-level battery of its division.

use std::collections::BTreeSet;

use crate::error::{Error, Result};
use crate::model::battle::RowKind;
use crate::model::vocabulary::SowLevel;
use crate::model::{Arm, ArmClass, Campaign, Chain, Level, Nation, Quality, Side, StatusKind, Supply, Unit};

use super::super::profile::Profile;

/// One row of the SoW order of battle.
#[derive(Debug, Clone, PartialEq)]
pub struct SowRow {
    /// Hierarchy chain.
    pub chain: Chain,
    /// What it is.
    pub kind: RowKind,
    /// Vocabulary level.
    pub level: SowLevel,
    /// Campaign unit or formation it stands for.
    pub unit: Option<String>,
    /// Top-level campaign force it belongs to (empty for the side and army rows).
    pub force: String,
    /// First name column (commander or unit).
    pub name1: String,
    /// Second name column (formation).
    pub name2: String,
    /// Nation (for the vocabulary).
    pub nation: Nation,
    /// Arm (for the vocabulary).
    pub arm: Option<Arm>,
    /// Quality (for the attribute levels).
    pub quality: Quality,
    /// Head count.
    pub men: u32,
    /// Ammunition in per cent of the vocabulary's full load.
    pub ammo_pct: u32,
    /// Gun number within its battery.
    pub gun: Option<u32>,
    /// Position (loc x, loc z), set by deployment.
    pub loc: (f64, f64),
    /// Facing (dir x, dir z), set by deployment.
    pub dir: (f64, f64),
}

#[derive(Debug)]
struct Node<'a> {
    level: u8,
    kind: RowKind,
    unit: Option<&'a Unit>,
    name1: String,
    name2: String,
    arm: Option<Arm>,
    force: String,
    bucket: bool,
    men: u32,
    gun: Option<u32>,
    children: Vec<Node<'a>>,
}

impl<'a> Node<'a> {
    fn acting(level: u8, name2: String, force: &str, bucket: bool) -> Self {
        Node {
            level,
            kind: RowKind::Acting,
            unit: None,
            name1: "Acting commander".to_string(),
            name2,
            arm: None,
            force: force.to_string(),
            bucket,
            men: 1,
            gun: None,
            children: Vec::new(),
        }
    }
}

/// What goes into one side's order of battle.
#[derive(Debug)]
pub struct SideInput<'a> {
    /// The campaign.
    pub campaign: &'a Campaign,
    /// The side.
    pub side: Side,
    /// SoW army index for this battle.
    pub army_index: u8,
    /// Participating top-level forces, senior first.
    pub forces: Vec<&'a Unit>,
    /// Units and formations left out with their subtrees (reserves, unavailable).
    pub skip: &'a BTreeSet<String>,
    /// Name of the battle's place, for acting commanders' titles.
    pub place: String,
    /// The SoW profile.
    pub profile: &'a Profile,
}

fn sow_target(u: &Unit) -> u8 {
    match u.level {
        Level::Army => 2,
        Level::Corps => 3,
        Level::Division => 4,
        Level::Brigade | Level::Battery => 5,
        _ => 6,
    }
}

fn level_word(l: u8) -> &'static str {
    match l {
        1 => "command",
        2 => "army",
        3 => "corps",
        4 => "division",
        5 => "brigade",
        _ => "unit",
    }
}

/// The single arm of a subtree's units, if they share one (for commanders' vocabulary).
fn common_arm(c: &Campaign, id: &str) -> Option<Arm> {
    let units = c.oob.units_under(id);
    let first = units.first()?.arm?;
    units.iter().all(|u| u.arm == Some(first)).then_some(first)
}

struct Builder<'a, 'b> {
    input: &'b SideInput<'a>,
}

impl<'a> Builder<'a, '_> {
    fn c(&self) -> &'a Campaign {
        self.input.campaign
    }

    fn unit_node(&self, level: u8, u: &'a Unit, force: &str) -> Node<'a> {
        let c = self.c();
        let (kind, name1, name2, arm) = if u.level.is_formation() {
            let cmd = u.commander().unwrap_or("Acting commander").to_string();
            (RowKind::Commander, cmd, u.name.to_string(), common_arm(c, &u.id))
        } else if u.level == Level::Battery {
            (RowKind::Battery, format!("{} commander", u.name), u.name.to_string(), u.arm)
        } else {
            let parent = u
                .parent
                .as_deref()
                .and_then(|p| c.oob.get(p))
                .map(|p| p.name.to_string())
                .unwrap_or_default();
            (RowKind::Unit, u.name.to_string(), parent, u.arm)
        };
        let men = if kind == RowKind::Unit { u.men } else { 1 };
        Node {
            level,
            kind,
            unit: Some(u),
            name1,
            name2,
            arm,
            force: force.to_string(),
            bucket: false,
            men,
            gun: None,
            children: Vec::new(),
        }
    }

    /// Attaches a campaign row under a SoW node; returns batteries that must be placed one
    /// level higher (a battery inside a brigade).
    fn attach(&self, parent: &mut Node<'a>, u: &'a Unit, force: &str) -> Vec<&'a Unit> {
        if self.input.skip.contains(u.id.as_str()) {
            return Vec::new();
        }
        let l = parent.level;
        let is_battery = u.level == Level::Battery;
        // A battery that lost every gun keeps its gunners in the campaign, but has nothing
        // to fight with: it stays out of the OOB until the umpire re-equips or disbands it.
        if is_battery && u.guns == 0 {
            return Vec::new();
        }
        if is_battery && l >= 5 {
            return vec![u];
        }
        let target = sow_target(u).max(l + 1);
        if !u.level.is_formation() && target > l + 1 {
            // Loose units share an acting commander per parent.
            let reuse = parent.children.last().is_some_and(|n| n.bucket && n.level == l + 1);
            if !reuse {
                let title = format!("{} ({} attached)", parent.name2, level_word(l + 1));
                parent.children.push(Node::acting(l + 1, title, force, true));
            }
            let Some(bucket) = parent.children.last_mut() else { return Vec::new() };
            return self.attach(bucket, u, force);
        }
        if u.level.is_formation() && target > l + 1 {
            let mut wrapper =
                Node::acting(l + 1, format!("{} (acting {})", u.name, level_word(l + 1)), force, false);
            wrapper.arm = common_arm(self.c(), &u.id);
            let up = self.attach(&mut wrapper, u, force);
            parent.children.push(wrapper);
            return up;
        }
        let mut node = self.unit_node(l + 1, u, force);
        let mut up = Vec::new();
        if is_battery {
            let guns = u.guns.max(1);
            for g in 0..guns {
                let share = u.men / guns + u32::from(g < u.men % guns);
                node.children.push(Node {
                    level: l + 2,
                    kind: RowKind::Gun,
                    unit: Some(u),
                    name1: format!("{} gun {}", u.name, g + 1),
                    name2: u.name.to_string(),
                    arm: u.arm,
                    force: force.to_string(),
                    bucket: false,
                    men: share,
                    gun: Some(g + 1),
                    children: Vec::new(),
                });
            }
        } else if u.level.is_formation() {
            for child in self.c().oob.children(u) {
                for h in self.attach(&mut node, child, force) {
                    if node.level <= 4 {
                        up.extend(self.attach(&mut node, h, force));
                    } else {
                        up.push(h);
                    }
                }
            }
        }
        parent.children.push(node);
        up
    }
}

fn senior<'a>(c: &Campaign, forces: &[&'a Unit]) -> Option<&'a Unit> {
    forces
        .iter()
        .copied()
        .min_by_key(|f| (f.level.rank(), std::cmp::Reverse(c.oob.strength(f).men()), f.id.clone()))
}

/// True while a unit or any of its formations carries a penalty.
pub fn penalised(c: &Campaign, u: &Unit, kind: StatusKind) -> bool {
    let turn = c.config.turn;
    u.has_status(kind, turn) || c.oob.ancestors(&u.id).iter().any(|a| a.has_status(kind, turn))
}

/// Ammunition of a unit in per cent (rules 3.1, 6.5.2.2): full when in supply, what it ended
/// its last battle with when out of supply; halved under a river-retreat penalty.
pub fn ammo_percent(c: &Campaign, u: &Unit) -> u32 {
    let force = c.oob.force_of(&u.id);
    let out = force.is_some_and(|f| f.supply == Supply::Out);
    let base = if out { u32::from(u.ammo.unwrap_or(100)) } else { 100 };
    if penalised(c, u, StatusKind::AmmoHalved) { base / 2 } else { base }
}

/// Builds one side's rows. Refuses a level with more than 99 members.
pub fn build_side(input: &SideInput<'_>) -> Result<Vec<SowRow>> {
    let c = input.campaign;
    let b = Builder { input };
    let senior_force = senior(c, &input.forces);
    let senior_name = senior_force.and_then(|f| f.commander()).unwrap_or("Acting commander").to_string();
    let mut side_node = Node::acting(1, format!("{} at {}", input.side, input.place), "", false);
    side_node.name1 = senior_name.clone();
    let armies: Vec<&Unit> = input.forces.iter().copied().filter(|f| f.level == Level::Army).collect();
    let mut army = if armies.len() == 1 {
        let mut n = b.unit_node(2, armies[0], &armies[0].id);
        n.force = armies[0].id.to_string();
        n
    } else {
        let mut n = Node::acting(2, format!("Army of the {} at {}", input.side, input.place), "", false);
        n.name1 = senior_name;
        n
    };
    for f in &input.forces {
        if armies.len() == 1 && f.id == armies[0].id {
            for child in c.oob.children(f) {
                for h in b.attach(&mut army, child, &f.id) {
                    let up = b.attach(&mut army, h, &f.id);
                    debug_assert!(up.is_empty());
                }
            }
        } else {
            for h in b.attach(&mut army, f, &f.id) {
                let _ = b.attach(&mut army, h, &f.id);
            }
        }
    }
    // Supply wagons per corps-level node, unless every unit under it lost its wagons (6.5.2.1).
    let profile = input.profile;
    for corps in army.children.iter_mut() {
        let units: Vec<&Unit> = collect_units(corps);
        let all_lost = !units.is_empty() && units.iter().all(|u| penalised(c, u, StatusKind::NoWagons));
        if all_lost {
            continue;
        }
        for w in 0..profile.wagons_per_corps {
            let mut n =
                Node::acting(4, format!("{} supply wagon {}", corps.name2, w + 1), &corps.force, false);
            n.kind = RowKind::Wagon;
            n.name1 = format!("Supply wagon {}", w + 1);
            n.men = profile.wagon_men;
            corps.children.push(n);
        }
    }
    let mut courier = Node::acting(3, format!("{} couriers", army.name2), "", false);
    courier.kind = RowKind::Courier;
    courier.name1 = "Courier".to_string();
    courier.men = profile.courier_men;
    army.children.push(courier);
    side_node.children.push(army);
    let mut rows = Vec::new();
    let base = Chain([input.side.sow_index(), 0, 0, 0, 0, 0]);
    flatten(c, input, &side_node, base, &mut rows)?;
    Ok(rows)
}

fn collect_units<'a>(n: &Node<'a>) -> Vec<&'a Unit> {
    let mut v = Vec::new();
    if matches!(n.kind, RowKind::Unit | RowKind::Battery)
        && let Some(u) = n.unit
    {
        v.push(u);
    }
    for ch in &n.children {
        v.extend(collect_units(ch));
    }
    v
}

fn flatten(
    c: &Campaign,
    input: &SideInput<'_>,
    n: &Node<'_>,
    chain: Chain,
    rows: &mut Vec<SowRow>,
) -> Result<()> {
    let level = match (n.kind, n.level) {
        (RowKind::Gun, _) => SowLevel::Gun,
        (RowKind::Courier, _) => SowLevel::Courier,
        (RowKind::Wagon, _) => SowLevel::Wagon,
        (RowKind::Unit, _) => SowLevel::Unit,
        (_, 1) => SowLevel::Side,
        (_, 2) => SowLevel::Army,
        (_, 3) => SowLevel::Corps,
        (_, 4) => SowLevel::Division,
        (_, _) => SowLevel::Brigade,
    };
    let quality = match n.unit {
        Some(u) => c.oob.quality_of(&u.id),
        None => {
            n.children.iter().find_map(|ch| ch.unit).map_or(Quality::Trained, |u| c.oob.quality_of(&u.id))
        }
    };
    let nation = n.unit.map(|u| u.nation).unwrap_or_else(|| match input.side {
        Side::French => Nation::Fr,
        Side::Allies => input.forces.first().map_or(Nation::Sp, |f| f.nation),
    });
    let ammo_pct = match (n.kind, n.unit) {
        (RowKind::Unit | RowKind::Gun, Some(u)) => ammo_percent(c, u),
        (RowKind::Wagon, _) => 100,
        _ => 0,
    };
    let arm = n.arm.or_else(|| if n.kind == RowKind::Acting { acting_arm(n) } else { None });
    rows.push(SowRow {
        chain,
        kind: n.kind,
        level,
        unit: match n.kind {
            RowKind::Commander | RowKind::Unit | RowKind::Battery | RowKind::Gun => {
                n.unit.map(|u| u.id.to_string())
            }
            _ => None,
        },
        force: n.force.clone(),
        name1: n.name1.clone(),
        name2: n.name2.clone(),
        nation,
        arm,
        quality,
        men: n.men,
        ammo_pct,
        gun: n.gun,
        loc: (0.0, 0.0),
        dir: (1.0, 0.0),
    });
    if n.children.len() > 99 {
        return Err(Error::refused(format!(
            "{} has {} subordinates at SoW level {}; SoW allows 99 (split it in forces.csv)",
            n.name2,
            n.children.len(),
            n.level + 1
        )));
    }
    for (i, ch) in n.children.iter().enumerate() {
        // The side's one army takes the battle's army index, distinct from other pending
        // battles, so that a dump can only match its own battle.
        let idx = if n.level == 1 { input.army_index } else { (i + 1) as u8 };
        flatten(c, input, ch, chain.with(usize::from(n.level), idx), rows)?;
    }
    Ok(())
}

/// An acting commander over cavalry or artillery only takes that arm's vocabulary.
fn acting_arm(n: &Node<'_>) -> Option<Arm> {
    let units = collect_units(n);
    let first = units.first()?.arm?;
    (units.iter().all(|u| u.arm == Some(first)) && first.class() != ArmClass::Infantry).then_some(first)
}
