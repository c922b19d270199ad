//! Standing orders (`standing-orders.csv`): the rest of a march ordered beyond one turn's
//! allowance, which each later `move` continues until the force arrives, a new order replaces
//! it or the umpire cancels it.

use super::HexId;

/// One force's standing order: the hexes still to march.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StandingOrder {
    /// The force.
    pub force: String,
    /// The hexes still to march, from the first after the force's own; the last is where
    /// the order goes.
    pub route: Vec<HexId>,
    /// The order it came from, as `file:line`.
    pub order: String,
    /// The turn the order was given.
    pub turn: u32,
    /// The order's standing instruction for contact (`on_contact`, 8.1), kept with it: it
    /// decides for the force's side on the contacts its later marches make.
    pub on_contact: Option<super::orders::OnContact>,
}

impl StandingOrder {
    /// Where the order goes.
    pub fn destination(&self) -> Option<HexId> {
        self.route.last().copied()
    }
}
