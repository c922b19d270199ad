//! The garrison a settlement needs to be held (rules 2.1, 2.3, 2.5.3).

use serde::Serialize;

use crate::model::{Region, SettlementKind, Side};

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
