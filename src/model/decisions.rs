//! The decision to fight (8.1, 8.2): for each contact, each side's advice of the enemy (8.5,
//! its dice as rolled when the contact was advised) and whether it fights or withdraws, as
//! `decisions.csv` keeps them.

use super::{HexId, Side};

/// A side's answer to a contact (8.1: "if both agree to fight, a battle is set up").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// It accepts battle.
    Fight,
    /// It declines, and must withdraw out of the enemy's zone of control (8.2).
    Withdraw,
}

impl Decision {
    /// The word in `decisions.csv` and on the command line.
    pub fn word(self) -> &'static str {
        match self {
            Decision::Fight => "fight",
            Decision::Withdraw => "withdraw",
        }
    }
}

impl std::str::FromStr for Decision {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "fight" => Ok(Decision::Fight),
            "withdraw" => Ok(Decision::Withdraw),
            other => Err(format!("'{other}' is not a decision: fight or withdraw")),
        }
    }
}

/// One side's row of a contact: its advice's dice (8.5) and its decision.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ContactDecision {
    /// The turn of the contact.
    pub turn: u32,
    /// The hex the contact was advised at (one of its hexes).
    pub hex: HexId,
    /// The side.
    pub side: Side,
    /// The die of its reading (6, 8 or 10); 0 when not advised yet.
    pub die: u32,
    /// The face rolled for the enemy's men.
    pub men_roll: u32,
    /// The face rolled, separately, for the enemy's guns.
    pub guns_roll: u32,
    /// Fight or withdraw; `None` until the side decides.
    pub decision: Option<Decision>,
}

impl ContactDecision {
    /// True once the side has been advised (its dice rolled).
    pub fn advised(&self) -> bool {
        self.die > 0
    }
}

/// What the decisions on a contact lead to (8.1, 8.2).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Outcome {
    /// Both fight: a battle is set up (`export hex`), unless a rule refuses it (`refused`,
    /// 2.5.3's bridge, 7.1.4's capitulation): then only the umpire's ruling sets it up.
    Battle {
        /// Where the battle is exported.
        hex: HexId,
        /// The rules that refuse it as the campaign stands, with what each says.
        refused: Vec<crate::model::battle::Overruling>,
    },
    /// A side declines: its forces in the contact must withdraw out of the enemy's zone.
    Withdrawal(Side, Vec<String>),
    /// A side has not decided yet.
    Waiting(Vec<Side>),
}
