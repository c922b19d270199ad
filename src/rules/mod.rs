//! The campaign rules as pure functions over the model. Each function cites its rule.

pub mod aftermath;
pub mod alcantara;
pub mod attrition;
pub mod avoidance;
pub mod battle;
pub mod battle_plan;
pub mod capitulation;
pub mod carryover;
pub mod control;
pub mod decision;
pub mod dice;
pub mod effects;
pub mod finality;
pub mod garrison;
pub mod intel;
pub mod intelligence;
pub mod juntas;
pub mod map_choice;
pub mod march;
pub mod messenger;
pub mod movement;
pub mod occupation;
pub mod records;
pub mod reserve;
pub mod roads;
pub mod score;
pub mod siege;
pub mod supply;
pub mod turn;
pub mod verdict;
pub mod withdrawal;
pub mod zoc;

pub use dice::{Dice, Roll, ScriptedDice, SeededDice};
