//! The umpire's march orders (`move`): one line of an orders file, as a value.

use super::HexId;

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
