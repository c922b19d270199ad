//! Commanding generals and their battle records (rule 8.5 counts battles fought and won).

use super::kinds::Side;

/// One row of `commanders.csv`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Commander {
    /// Name as used in `forces.csv`.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Battles fought.
    pub battles_fought: u32,
    /// Battles won.
    pub battles_won: u32,
    /// Blank, or `wounded`, `killed`, `captured`: flagged for replacement.
    pub status: String,
    /// Whether a player commands as this general, and whether a Junta commands him (5.1).
    pub player: Player,
    /// Values of columns sowbridge does not know.
    pub extra: Vec<String>,
}

/// The `player` column of `commanders.csv`: whether a player plays this general (5.1: a Junta
/// card "for each Spanish general player/army commander"), and whether the Juntas command him
/// (5.1: "The Palafox and Llamas players will not have any Junta cards drawn for them").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// Blank (or no column, as in files written before it): a player when he commands a
    /// top-level Spanish army, as the rule's "army commander".
    #[default]
    Default,
    /// `yes`: a player.
    Yes,
    /// `no`: not a player.
    No,
    /// `exempt`: a player no Junta commands.
    Exempt,
}

impl Player {
    /// Every value, each with its own word.
    pub const ALL: [Player; 4] = [Player::Default, Player::Yes, Player::No, Player::Exempt];

    /// The column's word.
    pub fn word(self) -> &'static str {
        match self {
            Player::Default => "",
            Player::Yes => "yes",
            Player::No => "no",
            Player::Exempt => "exempt",
        }
    }
}
