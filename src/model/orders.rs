//! The umpire's march orders (`move`): one line of an orders file, as a value.

use super::HexId;

/// Days of a turn (a turn is two weeks): an order or a message is sent on one of them.
pub const TURN_DAYS: u32 = 14;

/// What an order asks.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// To a destination, by the cheapest legal route.
    To(HexId),
    /// Through these hexes, from the first after the force's own (none: the force stays,
    /// to be detached or attached where it is).
    Path(Vec<HexId>),
    /// The force's standing order cancelled (`to` = `cancel`): it holds.
    Cancel,
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
    /// The day of the turn (1–14) the order is sent by messenger (6.3.1); `None`: given at
    /// the start of the turn, the whole allowance.
    pub day: Option<u32>,
    /// Where the messenger sets out: the commander's headquarters, a force id or a hex
    /// (`None`: the ordered force's own hex).
    pub from: Option<String>,
    /// The force (a formation, or a force of its own) to join where the force ends its march
    /// (the `attach` column).
    pub attach: Option<String>,
    /// A standing order continued (`standing-orders.csv`), not a line of an orders file.
    pub standing: bool,
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
    /// As an orders file writes it.
    pub fn word(self) -> &'static str {
        match self {
            OnContact::Attack => "attack",
            OnContact::Hold => "hold",
            OnContact::Avoid => "avoid",
        }
    }

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

/// One message between commanders (6.3.1), as `messages FILE` reads it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Message {
    /// The force sending it.
    pub from: String,
    /// The force it is for.
    pub to: String,
    /// The day of the turn (1–14) it is sent.
    pub day: u32,
    /// What it says.
    pub text: String,
    /// Its file and line.
    pub file: String,
    /// See `file`.
    pub line: u64,
}

/// A message or an order the enemy caught on its way (6.3.1), kept in `messages.csv` for the
/// interceptor's turn report.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Intercepted {
    /// The turn it was sent.
    pub turn: u32,
    /// The day of the turn it was sent.
    pub day: u32,
    /// Who sent it: a force id, or the hex of a headquarters.
    pub from: String,
    /// The force it was for.
    pub to: String,
    /// Where it was caught: the first hex of its road on the enemy's supply line.
    pub hex: HexId,
    /// The side that caught it.
    pub side: super::Side,
    /// The force whose supply line it crossed there.
    pub line_of: String,
    /// What it said (for an order, the order).
    pub text: String,
}
