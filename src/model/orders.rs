//! The umpire's march orders (`move`): one line of an orders file, as a value.

use super::HexId;

/// What an order asks.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// To a destination, by the cheapest legal route.
    To(HexId),
    /// Through these hexes, from the first after the force's own.
    Path(Vec<HexId>),
}

/// One line of an orders file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Order {
    /// The force ordered.
    pub force: String,
    /// Where it goes.
    pub route: Route,
    /// A retreat before battle (8.2): the force declines a contact and marches out of the
    /// enemy's zone.
    pub retreat: bool,
    /// The standing instruction for a contact this march makes (8.1): fight or decline.
    pub on_contact: Option<OnContact>,
    /// The orders file, as shown in messages.
    pub file: String,
    /// Its line.
    pub line: u64,
}

/// An order's standing instruction for contact (`on_contact`), the side's decision (8.1,
/// 8.2) when its force meets the enemy on this march.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OnContact {
    /// Attack: fight.
    Attack,
    /// Hold its ground: fight where it stands.
    Hold,
    /// Avoid battle: withdraw out of the enemy's zone (8.2).
    Avoid,
}

impl OnContact {
    /// The decision it stands for.
    pub fn decision(self) -> super::decisions::Decision {
        match self {
            OnContact::Attack | OnContact::Hold => super::decisions::Decision::Fight,
            OnContact::Avoid => super::decisions::Decision::Withdraw,
        }
    }
}

impl std::str::FromStr for OnContact {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "attack" => Ok(OnContact::Attack),
            "hold" => Ok(OnContact::Hold),
            "avoid" => Ok(OnContact::Avoid),
            other => Err(format!("'{other}' is not an instruction for contact: attack, hold or avoid")),
        }
    }
}
