//! The books sowbridge keeps for the turn's own rules, beside the order of battle: sieges
//! (`sieges.csv`, 7.1–7.2), the siege trains the umpire places (`siege-trains.csv`, 6.4),
//! revolts (`revolts.csv`, 4.0), the occupation's turns and the campaign years
//! (`occupation.csv`, `campaign-years.csv`, 4.0–4.1), what each side has learnt of the other's
//! movements (`intelligence.csv`, 9.0) and the Juntas' orders (`juntas.csv`, 5.1).

use super::hex::HexId;
use super::kinds::{Nation, Side};

/// Investment or siege (7.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SiegeKind {
    /// Invested: the place holds out until it capitulates (7.1.1).
    Investment,
    /// Besieged with a siege train (7.1.2).
    Siege,
}

impl SiegeKind {
    /// The word in `sieges.csv`.
    pub fn word(self) -> &'static str {
        match self {
            SiegeKind::Investment => "investment",
            SiegeKind::Siege => "siege",
        }
    }
}

/// Where a siege stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SiegeState {
    /// Going on.
    Active,
    /// The garrison capitulated or was taken: prisoners (7.1.1–7.1.4, 7.2).
    Taken,
    /// The garrison marched out with the honours of war (7.1.2).
    Honours,
    /// The besieger lifted the siege below half its strength (7.2), or left.
    Lifted,
    /// The investment ended otherwise: no garrison left, or `invested_by` cleared.
    Ended,
}

impl SiegeState {
    /// Every state.
    pub const ALL: [SiegeState; 5] =
        [SiegeState::Active, SiegeState::Taken, SiegeState::Honours, SiegeState::Lifted, SiegeState::Ended];
    /// The word in `sieges.csv`.
    pub fn word(self) -> &'static str {
        match self {
            SiegeState::Active => "active",
            SiegeState::Taken => "taken",
            SiegeState::Honours => "honours",
            SiegeState::Lifted => "lifted",
            SiegeState::Ended => "ended",
        }
    }
}

/// What the umpire records for the besiegers' or the garrison's choice (7.1.2–7.1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SiegeAction {
    /// Nothing asked: the siege goes on (a breached garrison refuses the summons, 7.1.2).
    #[default]
    None,
    /// Storm (again) after a repulse (7.1.2), or the surprise assault of 7.1.3.
    Storm,
    /// A summons accepted: the garrison marches out with the honours of war.
    Honours,
}

impl SiegeAction {
    /// The word in `sieges.csv`.
    pub fn word(self) -> &'static str {
        match self {
            SiegeAction::None => "",
            SiegeAction::Storm => "storm",
            SiegeAction::Honours => "honours",
        }
    }
}

/// One row of `sieges.csv`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SiegeRecord {
    /// The settlement.
    pub place: String,
    /// Its hex.
    pub hex: HexId,
    /// Investment or siege.
    pub kind: SiegeKind,
    /// The garrison's forces.
    pub garrison: Vec<String>,
    /// The investing forces.
    pub investors: Vec<String>,
    /// The defending side.
    pub defender: Side,
    /// The turn it began.
    pub began: u32,
    /// The garrison's men when it began (7.2: losses are of the ORIGINAL strength).
    pub garrison_original: u32,
    /// The investors' men when it began.
    pub investors_original: u32,
    /// The last turn the place holds out (7.1.1): it capitulates as that turn ends.
    pub holds_until: u32,
    /// The turn a siege train arrived (7.1.2), if one did.
    pub train_since: Option<u32>,
    /// Storms repulsed so far.
    pub repulsed: u32,
    /// The umpire's order for the next turn advance.
    pub action: SiegeAction,
    /// State.
    pub state: SiegeState,
    /// The turn it ended.
    pub ended: Option<u32>,
}

/// One row of `siege-trains.csv` (6.4: one per nation, Britain and Portugal counting as one).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SiegeTrain {
    /// Nation.
    pub nation: Nation,
    /// Hex where the umpire placed it.
    pub hex: HexId,
    /// The turn it arrived there.
    pub arrived: u32,
}

/// One row of `revolts.csv` (4.0): a settlement that revolted against the French.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Revolt {
    /// The settlement.
    pub place: String,
    /// The turn it began.
    pub began: u32,
    /// The turn at whose start it ends (a month later).
    pub until: u32,
    /// Garrison men lost.
    pub men_lost: u32,
    /// Garrison units (battalions and dragoon squadrons) left after it: the settlement gives
    /// good taxes again only with more than these (a fresh unit added).
    pub units: u32,
}

/// How the occupation went in a turn (4.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OccupationOutcome {
    /// Fewer than 10 settlements taxed.
    CompleteFailure,
    /// Failing.
    Failing,
    /// Moderately successful.
    Moderate,
    /// Highly successful.
    High,
}

impl OccupationOutcome {
    /// Every outcome.
    pub const ALL: [OccupationOutcome; 4] = [
        OccupationOutcome::CompleteFailure,
        OccupationOutcome::Failing,
        OccupationOutcome::Moderate,
        OccupationOutcome::High,
    ];
    /// The word in `occupation.csv`.
    pub fn word(self) -> &'static str {
        match self {
            OccupationOutcome::CompleteFailure => "complete-failure",
            OccupationOutcome::Failing => "failing",
            OccupationOutcome::Moderate => "moderate",
            OccupationOutcome::High => "high",
        }
    }
    /// Its score at the year's end (4.0): failed −1, moderate 0, high +1.
    pub fn score(self) -> i64 {
        match self {
            OccupationOutcome::CompleteFailure | OccupationOutcome::Failing => -1,
            OccupationOutcome::Moderate => 0,
            OccupationOutcome::High => 1,
        }
    }
}

/// One row of `occupation.csv`: one turn of the French occupation (4.0).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OccupationTurn {
    /// The turn.
    pub turn: u32,
    /// Its campaign year.
    pub year: u32,
    /// Settlements of the area of Spain and Portugal the French control (4.0,
    /// `rules::occupation::taxable`).
    pub controlled: u32,
    /// Of them, giving at least adequate taxes.
    pub taxed: u32,
    /// Of them, giving good taxes.
    pub good: u32,
    /// The outcome.
    pub outcome: OccupationOutcome,
}

/// One row of `campaign-years.csv`: a campaign year's result (4.0–4.1).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CampaignYear {
    /// Campaign year.
    pub year: u32,
    /// Sum of the occupation's turns.
    pub occupation: i64,
    /// French battles won, lost, drawn.
    pub won: u32,
    /// Lost.
    pub lost: u32,
    /// Drawn.
    pub drawn: u32,
    /// The French score: occupation + won − lost.
    pub score: i64,
    /// The side that won the year.
    pub winner: Side,
    /// 4.1: per cent to the winner's next-year reinforcements (+10) and the loser's (−10).
    pub french_reinforcements: i32,
    /// The same for the Allies.
    pub allied_reinforcements: i32,
}

/// One row of `intelligence.csv`: a movement (or the opening positions) a side learns of (9.0).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Sighting {
    /// The turn the side learns of it: reported in the turn advance that ends that turn.
    pub known: u32,
    /// The side that learns.
    pub side: Side,
    /// The enemy force.
    pub force: String,
    /// Its name.
    pub name: String,
    /// Where it came from (`None` for the opening positions).
    pub from: Option<HexId>,
    /// Where it was seen.
    pub hex: HexId,
    /// The turn it moved.
    pub moved: u32,
    /// Approximate men.
    pub men: u32,
    /// Approximate guns.
    pub guns: u32,
    /// Within one map move of the side's forces.
    pub near: bool,
    /// The die (0 for the opening positions, known without one).
    pub die: u32,
}

/// The four suits, good to bad (5.1).
pub const SUITS: [&str; 4] = ["hearts", "diamonds", "clubs", "spades"];
/// The four ranks that give orders, moderate to extreme (5.1).
pub const FACES: [&str; 4] = ["knave", "queen", "king", "ace"];

/// One row of `juntas.csv`: the order a face card or ace gives (5.1).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct JuntaOrder {
    /// hearts, diamonds, clubs or spades.
    pub suit: String,
    /// knave, queen, king or ace.
    pub rank: String,
    /// The order.
    pub order: String,
    /// What `move` holds the general to (the `effect` column; blank: nothing it can check).
    pub effect: JuntaEffect,
    /// How many turns the order stands (the `turns` column; blank: 1).
    pub turns: u32,
}

/// What a Junta's order does to its general's marches, as `move` enforces it (5.1: "an order
/// is given to that general with which he must comply").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JuntaEffect {
    /// Nothing `move` checks (blank).
    #[default]
    None,
    /// The army halts: no march.
    Halt,
    /// The army is recalled to its provincial capital: only marches that bring it nearer.
    Recall,
    /// The general is dismissed and the army halts.
    Dismiss,
}

impl JuntaEffect {
    /// The column's word.
    pub fn word(self) -> &'static str {
        match self {
            JuntaEffect::None => "",
            JuntaEffect::Halt => "halt",
            JuntaEffect::Recall => "recall",
            JuntaEffect::Dismiss => "dismiss",
        }
    }
}

/// One row of `junta-orders.csv`: a face card drawn for a general (5.1) and the order it
/// gave, standing from `turn` until `until` (exclusive).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct JuntaCard {
    /// The turn it was drawn for (the turn that began).
    pub turn: u32,
    /// The general.
    pub commander: String,
    /// The top-level force he commands.
    pub force: String,
    /// "the ace of spades".
    pub card: String,
    /// What `move` holds him to.
    pub effect: JuntaEffect,
    /// The first turn it no longer stands.
    pub until: u32,
    /// The order, as `juntas.csv` writes it.
    pub order: String,
}

impl JuntaCard {
    /// True while it stands at `turn` with an effect `move` enforces.
    pub fn binds(&self, turn: u32) -> bool {
        self.effect != JuntaEffect::None && self.turn <= turn && turn < self.until
    }
}

/// Everything above, as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Books {
    /// `sieges.csv`.
    pub sieges: Vec<SiegeRecord>,
    /// `siege-trains.csv`.
    pub trains: Vec<SiegeTrain>,
    /// `revolts.csv`.
    pub revolts: Vec<Revolt>,
    /// `occupation.csv`.
    pub occupation: Vec<OccupationTurn>,
    /// `campaign-years.csv`.
    pub years: Vec<CampaignYear>,
    /// `intelligence.csv`.
    pub intelligence: Vec<Sighting>,
    /// Whether `intelligence.csv` exists (the opening positions are known from the start).
    pub intelligence_begun: bool,
    /// `juntas.csv`.
    pub juntas: Vec<JuntaOrder>,
    /// `junta-orders.csv`: the face cards drawn.
    pub junta_cards: Vec<JuntaCard>,
}

impl Books {
    /// The active siege of a place, if any.
    pub fn active_siege(&self, place: &str) -> Option<&SiegeRecord> {
        self.sieges.iter().find(|s| s.place == place && s.state == SiegeState::Active)
    }
}
