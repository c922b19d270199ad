//! The campaign rules as pure functions over the model. Each function cites its rule.

pub mod dice;
pub mod movement;
pub mod withdrawal;
pub mod zoc;

pub use dice::{Dice, Roll, ScriptedDice, SeededDice};
