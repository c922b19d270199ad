//! What a battle's result says of the battle, once joined to its units: each campaign unit's
//! losses, the commanders hit, and the exported rows the result does not mention. The readers
//! of dumps and hand results produce it; the aftermath rules consume it.

use std::collections::BTreeMap;

/// Losses of one campaign unit as the result gives them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Losses {
    /// Killed.
    pub killed: u32,
    /// Wounded.
    pub wounded: u32,
    /// Deserted, routed, missing.
    pub deserted: u32,
    /// Taken prisoner outright (hand-settled results only).
    pub captured: u32,
    /// Guns whose crew is gone.
    pub guns_lost: u32,
    /// Ammunition left, per cent of a full load, when the result gives it.
    pub ammo_pct: Option<u32>,
}

/// A commander row hit in the battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommanderHit {
    /// Campaign formation.
    pub formation: String,
    /// Killed (else wounded).
    pub killed: bool,
}

/// What a result says of a battle.
#[derive(Debug, Clone, Default)]
pub struct Matched {
    /// Losses by campaign unit.
    pub losses: BTreeMap<String, Losses>,
    /// Commanders hit.
    pub commanders: Vec<CommanderHit>,
    /// Exported rows the result does not mention (accepted with `--allow-missing`).
    pub missing: Vec<String>,
}
