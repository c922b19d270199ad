//! One die rolled, as the battle record and the journal keep it. The dice themselves (the
//! `Dice` trait and its seeded stream) are the rules'; the model only holds what they rolled.

/// One die rolled.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Roll {
    /// Faces of the die (6 for a d6).
    pub sides: u32,
    /// The result, 1..=sides.
    pub value: u32,
    /// What it was rolled for, e.g. `8.5 French intelligence (d6)`.
    pub purpose: String,
}
