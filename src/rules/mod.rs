//! The campaign rules as pure functions over the model. Each function cites its rule.

pub mod carryover;
pub mod dice;
pub mod zoc;

pub use dice::{Dice, Roll, ScriptedDice, SeededDice};
