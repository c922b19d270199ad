//! One row of the order of battle: a formation, unit or battery.

use compact_str::CompactString;

use crate::model::hex::HexId;
use crate::model::kinds::{Arm, ArmClass, Level, Nation, Quality, Side, Status, StatusKind, Supply};

/// One row of `forces.csv`. A large order of battle has hundreds of thousands of rows, so a
/// row is kept small: ids and names are [`CompactString`]s (up to 24 bytes held in place,
/// not allocated), and the fields most rows leave empty are boxed together in [`Rare`]
/// (one pointer when they are all empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Unique id.
    pub id: CompactString,
    /// The formation it belongs to; `None` for a top-level force.
    pub parent: Option<CompactString>,
    /// Level in the order of battle.
    pub level: Level,
    /// Display name.
    pub name: CompactString,
    /// Nation.
    pub nation: Nation,
    /// Arm (units only).
    pub arm: Option<Arm>,
    /// Men present (units only; 0 for formations).
    pub men: u32,
    /// Squadrons (cavalry units).
    pub squadrons: u32,
    /// Guns (artillery units).
    pub guns: u32,
    /// Hex (top-level forces only).
    pub hex: Option<HexId>,
    /// Adjacent hex the force is marching to along a road (top-level forces only).
    pub moving_to: Option<HexId>,
    /// Supply state now (top-level forces; blank is in supply): the `supply` column as read,
    /// until the rules compute it from the force's line (`rules::supply::now`).
    pub supply: Supply,
    /// The `supply` column as read: the state the last turn advance wrote, and what
    /// `forces.csv` keeps until the next one.
    pub supply_column: Supply,
    /// Quality; `None` inherits the parent's, and `trained` at the top.
    pub quality: Option<Quality>,
    /// Ammunition in per cent of a full load; `None` is full.
    pub ammo: Option<u8>,
    /// The commander, depot, penalties and extra columns, when any is there.
    pub rare: Option<Box<Rare>>,
}

/// The fields of a row that most rows leave empty.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rare {
    /// Commanding general of a formation (a `commanders.csv` name), if named.
    pub commander: Option<CompactString>,
    /// Depot settlement (top-level forces only).
    pub depot: Option<CompactString>,
    /// Penalties with the turn they end.
    pub status: Vec<Status>,
    /// Values of columns sowbridge does not know, kept as the umpire wrote them.
    pub extra: Vec<String>,
}

impl Rare {
    /// True when every field is empty (most rows: battalions, batteries). Each field is
    /// named, so that a field added is asked about here too.
    pub fn is_empty(&self) -> bool {
        let Rare { commander, depot, status, extra } = self;
        commander.is_none() && depot.is_none() && status.is_empty() && extra.is_empty()
    }

    /// The box for a row: `None` when every field is empty.
    pub fn boxed(self) -> Option<Box<Rare>> {
        (!self.is_empty()).then(|| Box::new(self))
    }
}

impl Unit {
    /// The side of the unit.
    pub fn side(&self) -> Side {
        self.nation.side()
    }
    /// True for infantry battalions, cavalry and batteries.
    pub fn is_unit(&self) -> bool {
        !self.level.is_formation()
    }
    /// True for a unit with men present. A unit that lost every man keeps its row with
    /// `men` 0 until its returns refill it: it stays in the order of battle, but it is not
    /// on the field (no SoW order of battle, zone of control, contact or garrison counts it).
    /// A formation has no men of its own: see [`super::OrderOfBattle::has_men`].
    pub fn has_men(&self) -> bool {
        self.is_unit() && self.men > 0
    }
    /// The broad class of the unit's arm.
    pub fn arm_class(&self) -> Option<ArmClass> {
        self.arm.map(Arm::class)
    }
    /// What the row counts towards a garrison (2.1.1: "A unit is 1 infantry battalion or 1
    /// dragoon cavalry squadron ... Other cavalry are not able to garrison"): battalions and
    /// dragoon squadrons. An infantry unit with men present is one battalion; a dragoon unit
    /// with men present, its squadrons (one when it names none). Anything else counts none.
    pub fn garrison_units(&self) -> (u32, u32) {
        match (self.arm_class(), self.arm) {
            (Some(ArmClass::Infantry), _) if self.has_men() => (1, 0),
            (_, Some(Arm::Dragoon)) if self.has_men() => (0, self.squadrons.max(1)),
            _ => (0, 0),
        }
    }
    /// True while a penalty of this kind runs at `turn`.
    pub fn has_status(&self, kind: StatusKind, turn: u32) -> bool {
        self.status().iter().any(|s| s.kind == kind && s.until > turn)
    }
    /// Commanding general of a formation (a `commanders.csv` name), if named.
    pub fn commander(&self) -> Option<&str> {
        self.rare.as_ref().and_then(|r| r.commander.as_deref())
    }
    /// Depot settlement (top-level forces only).
    pub fn depot(&self) -> Option<&str> {
        self.rare.as_ref().and_then(|r| r.depot.as_deref())
    }
    /// Penalties with the turn they end.
    pub fn status(&self) -> &[Status] {
        self.rare.as_ref().map_or(&[], |r| r.status.as_slice())
    }
    /// Values of columns sowbridge does not know.
    pub fn extra(&self) -> &[String] {
        self.rare.as_ref().map_or(&[], |r| r.extra.as_slice())
    }
    /// The penalties, to change them.
    pub fn status_mut(&mut self) -> &mut Vec<Status> {
        &mut self.rare.get_or_insert_with(Box::default).status
    }
}
