//! What falls due when the campaign moves to its next two-week turn (rule 6.1): men
//! returning from earlier battles (`returns.csv`), river-retreat penalties running out
//! (6.5.2: "for 1 month"), and ammunition made good for forces in supply (3.1, 6.5.2).
//! [`advance`] decides, [`apply_changes`] carries the decision out on a campaign value; the
//! command (`turn advance`) writes the result and journals it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::ledger::{Return, ReturnKind};
use crate::model::{Campaign, HexId, Season, StatusKind, Supply, Turn, Unit};
use crate::rules::dice::{Dice, Roll};
use crate::rules::effects::{Effect, apply_effects, men_lost};

/// What every phase of a turn advance is told beside the campaign: the turn that ends, the
/// turn that begins, and the forces that moved during the turn that ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnContext {
    /// The turn that ends.
    pub from: Turn,
    /// The turn that begins.
    pub to: Turn,
    /// Forces that moved during the turn, with the hex they stood on at the last turn advance
    /// (or the journal's baseline): those whose hex changed, and those that marched in a
    /// `move` of the turn that stands, even back to where they began.
    pub moved: BTreeMap<String, HexId>,
    /// Contacts not yet resolved as the turn ends: each force halted in contact (its
    /// `moving_to` when the turn ends, the hex it was marching on), and each force of a battle
    /// still pending, with the hex of that battle.
    pub in_contact: BTreeMap<String, HexId>,
}

/// One phase's part of the turn's reports: the umpire's lines (every die and change, with
/// rule numbers) and each side's (only what that side may know).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Section {
    /// Heading.
    pub title: String,
    /// The umpire's lines.
    pub umpire: Vec<String>,
    /// The French players' lines.
    pub french: Vec<String>,
    /// The Allied players' lines.
    pub allies: Vec<String>,
}

impl Section {
    /// An empty section under a heading.
    pub fn new(title: &str) -> Section {
        Section { title: title.to_string(), ..Section::default() }
    }
    /// A line for the umpire.
    pub fn umpire(&mut self, line: impl Into<String>) {
        self.umpire.push(line.into());
    }
    /// A line for one side's players.
    pub fn side(&mut self, side: crate::model::Side, line: impl Into<String>) {
        match side {
            crate::model::Side::French => self.french.push(line.into()),
            crate::model::Side::Allies => self.allies.push(line.into()),
        }
    }
    /// A line for the umpire and the same line for one side.
    pub fn both(&mut self, side: crate::model::Side, line: impl Into<String>) {
        let l = line.into();
        self.side(side, l.clone());
        self.umpire(l);
    }
}

/// What a phase decided: its report section and its changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PhaseOutcome {
    /// The phase's name.
    pub phase: &'static str,
    /// Its report section.
    pub section: Section,
    /// Its changes, carried out before the next phase runs.
    pub effects: Vec<Effect>,
}

/// A phase of the turn: a pure function of the campaign as the earlier phases left it, the
/// turn's context and the turn's dice.
pub type PhaseFn = fn(&Campaign, &TurnContext, &mut dyn Dice) -> PhaseOutcome;

/// The phases after the returns, in the rules' order (design.md "The whole turn"): sieges
/// (7.1–7.2), winter attrition (6.2), taxes and the occupation (4.0–4.1), the Juntas (5.1),
/// intelligence (9.0). A new phase is one more line here.
pub const PHASES: [(&str, PhaseFn); 5] = [
    ("sieges", crate::rules::siege::phase),
    ("winter", crate::rules::attrition::phase),
    ("occupation", crate::rules::occupation::phase),
    ("juntas", crate::rules::juntas::phase),
    ("intelligence", crate::rules::intelligence::phase),
];

/// The whole turn, decided and carried out on the campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnRun {
    /// Supply and control (2.1, 3.1-3.5): the first phase, before the returns, so that the
    /// ammunition made good asks who is in supply and the later phases who holds each place.
    pub supply: super::supply::SupplyPhase,
    /// Returns, penalties, ammunition.
    pub returns: TurnChanges,
    /// The other phases, in order.
    pub phases: Vec<PhaseOutcome>,
    /// Men lost per unit over the whole turn.
    pub lost: Vec<(String, u32)>,
    /// Every die rolled, in order.
    pub dice: Vec<Roll>,
}

/// Supply on the new turn `to` as the whole turn left the campaign `c`, as `supply` will show
/// it then: what each side's report tells it of its own forces (a garrison that capitulated in
/// the siege phase is no longer there; the turns out of supply count the new turn). Worked out
/// on the campaign the phases left and with the memory the turn's supply phase keeps for it.
pub fn supply_after(
    c: &Campaign,
    phase: &super::supply::SupplyPhase,
    to: u32,
) -> super::supply::SupplyReport {
    super::supply::compute_for_turn(c, &phase.records, to)
}

/// Runs the turn on `c`: supply and control first, then the returns, then each of [`PHASES`]
/// on the campaign as the phase before left it.
pub fn run_turn(c: &mut Campaign, ctx: &TurnContext, dice: &mut dyn Dice) -> TurnRun {
    let supply = supply_phase(c);
    run_turn_from(c, supply, ctx, dice)
}

/// The turn's first phase, supply and control (2.1, 3.1-3.5), worked out on the campaign as
/// the turn finds it: it reads the campaign and changes nothing (the caller may read it
/// beside it, as the turn advance copies the campaign as it was).
pub fn supply_phase(c: &Campaign) -> super::supply::SupplyPhase {
    super::supply::phase(c, &c.supply)
}

/// [`run_turn`] with its first phase, `supply`, worked out already by [`supply_phase`] on `c`
/// as it is.
pub fn run_turn_from(
    c: &mut Campaign,
    supply: super::supply::SupplyPhase,
    ctx: &TurnContext,
    dice: &mut dyn Dice,
) -> TurnRun {
    super::supply::apply_phase(c, &supply);
    let returns = advance(c);
    apply_changes(c, &returns);
    let year = ctx.from.campaign_year();
    let mut phases = Vec::new();
    let mut lost: BTreeMap<String, u32> = BTreeMap::new();
    for (name, run) in PHASES {
        let mut out = run(c, ctx, dice);
        out.phase = name;
        // One effect at a time: a garrison taken loses the men its earlier losses left it.
        for e in &out.effects {
            let one = std::slice::from_ref(e);
            for (u, m) in men_lost(c, one) {
                *lost.entry(u).or_default() += m;
            }
            apply_effects(c, one, year);
        }
        phases.push(out);
    }
    TurnRun { supply, returns, phases, lost: lost.into_iter().collect(), dice: dice.log().to_vec() }
}

/// A turn of the calendar as reports show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnInfo {
    /// Turn number.
    pub turn: u32,
    /// "early April 1809".
    pub date: String,
    /// Season (rule 6.2).
    pub season: Season,
    /// Campaign year (rule 4.1).
    pub campaign_year: u32,
}

impl TurnInfo {
    /// The calendar facts of a turn.
    pub fn of(t: Turn) -> TurnInfo {
        TurnInfo { turn: t.0, date: t.date(), season: t.season(), campaign_year: t.campaign_year() }
    }
}

/// A penalty that runs out at the new turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EndedPenalty {
    /// The `forces.csv` row carrying it.
    pub unit: String,
    /// The penalty.
    pub kind: StatusKind,
    /// The turn at whose start it ends (at or before the new turn).
    pub until: u32,
}

/// A unit whose ammunition is made good.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AmmoRestored {
    /// The `forces.csv` row.
    pub unit: String,
    /// Its ammunition before, in per cent.
    pub was: u8,
}

/// Everything the move to the next turn changes, decided before anything is changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnChanges {
    /// The turn the campaign is on.
    pub from: TurnInfo,
    /// The turn it moves to.
    pub to: TurnInfo,
    /// `returns.csv` rows due at or before the new turn whose unit exists: applied
    /// (`men += men`) and removed from `returns.csv`.
    pub returns: Vec<Return>,
    /// Rows due whose unit is no longer in `forces.csv`: kept in `returns.csv`, not applied,
    /// for the umpire to point at another unit by hand.
    pub not_applied: Vec<Return>,
    /// Rows still due on a later turn (left as they are).
    pub later: usize,
    /// Penalties whose `until` is at or before the new turn: removed.
    pub penalties_ended: Vec<EndedPenalty>,
    /// Units whose ammunition is made good (blank = full).
    pub ammo_restored: Vec<AmmoRestored>,
    /// Forces whose `moving_to` is cleared: a march is a turn's order (6.1), and last turn's
    /// must not make its side the attacker (8.6) in a contact of the new turn.
    pub marches_ended: Vec<(String, HexId)>,
}

impl TurnChanges {
    /// Men returned per unit (several rows of one unit summed), for the journal's audit.
    pub fn returned_by_unit(&self) -> BTreeMap<String, u32> {
        let mut m: BTreeMap<String, u32> = BTreeMap::new();
        for r in &self.returns {
            *m.entry(r.unit.clone()).or_default() += r.men;
        }
        m
    }

    /// Men returned by kind (stragglers, wounded).
    pub fn totals_by_kind(&self) -> BTreeMap<ReturnKind, u32> {
        let mut m: BTreeMap<ReturnKind, u32> = BTreeMap::new();
        for r in &self.returns {
            *m.entry(r.kind).or_default() += r.men;
        }
        m
    }

    /// All men returned.
    pub fn men_returned(&self) -> u32 {
        self.returns.iter().map(|r| r.men).sum()
    }
}

/// True while a penalty of `kind` runs at `turn` on the row or any formation above it (a
/// penalty on a brigade covers its battalions).
fn penalty_runs(c: &Campaign, u: &Unit, kind: StatusKind, turn: u32) -> bool {
    u.has_status(kind, turn) || c.oob.ancestors(&u.id).iter().any(|a| a.has_status(kind, turn))
}

/// Decides what the move from the campaign's turn to the next changes:
/// - every `returns.csv` row due at or before the new turn returns to its unit; a row whose
///   unit is gone from `forces.csv` is reported and kept, neither applied nor lost;
/// - every status whose `until` is at or before the new turn ends (6.5.2: the penalties
///   last "1 month", two turns, and `until` is the turn at whose start they end);
/// - every force's `moving_to` ends: a march is the turn's order (6.1);
/// - every row with an ammunition figure is made full again when its force is in supply
///   (3.1: out of supply, expended ammunition is not replaced) and no `ammo-halved` penalty
///   still runs on it or a formation above it at the new turn (6.5.2.2: "After this time
///   replacement wagons and ammunition are assumed to be available providing the army in
///   question is in supply at that point").
pub fn advance(c: &Campaign) -> TurnChanges {
    let from = c.turn();
    let to = from.next();
    let mut returns = Vec::new();
    let mut not_applied = Vec::new();
    let mut later = 0;
    let mut due: Vec<&Return> = c.returns.iter().collect();
    due.sort();
    for r in due {
        if r.turn > to.0 {
            later += 1;
        } else if c.oob.get(&r.unit).is_some() {
            returns.push(r.clone());
        } else {
            not_applied.push(r.clone());
        }
    }
    let mut penalties_ended = Vec::new();
    let mut ammo_restored = Vec::new();
    for u in c.oob.units() {
        for s in u.status().iter().filter(|s| s.until <= to.0) {
            penalties_ended.push(EndedPenalty { unit: u.id.to_string(), kind: s.kind, until: s.until });
        }
        let Some(was) = u.ammo else { continue };
        let in_supply = c.oob.force_of(&u.id).is_some_and(|f| f.supply == Supply::In);
        if in_supply && !penalty_runs(c, u, StatusKind::AmmoHalved, to.0) {
            ammo_restored.push(AmmoRestored { unit: u.id.to_string(), was });
        }
    }
    let marches_ended = c.oob.forces().filter_map(|f| f.moving_to.map(|h| (f.id.to_string(), h))).collect();
    TurnChanges {
        from: TurnInfo::of(from),
        to: TurnInfo::of(to),
        returns,
        not_applied,
        later,
        penalties_ended,
        ammo_restored,
        marches_ended,
    }
}

/// Carries out the changes [`advance`] decided on the same campaign: the new turn, men added
/// and their `returns.csv` rows removed, penalties removed, ammunition made full.
pub fn apply_changes(c: &mut Campaign, ch: &TurnChanges) {
    c.config.turn = ch.to.turn;
    for r in &ch.returns {
        if let Some(i) = c.returns.iter().position(|x| x == r)
            && let Some(u) = c.oob.get_mut(&r.unit)
        {
            u.men = u.men.saturating_add(r.men);
            c.returns.remove(i);
        }
    }
    for p in &ch.penalties_ended {
        if let Some(u) = c.oob.get_mut(&p.unit) {
            u.status_mut().retain(|s| !(s.kind == p.kind && s.until == p.until));
        }
    }
    for a in &ch.ammo_restored {
        if let Some(u) = c.oob.get_mut(&a.unit) {
            u.ammo = None;
        }
    }
    for (force, _) in &ch.marches_ended {
        if let Some(u) = c.oob.get_mut(force) {
            u.moving_to = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::campaign::{CampaignFiles, names, parse_campaign};
    use crate::model::Status;

    /// Turn 20 (late March 1809). I Corps in supply: its 1st Brigade under ammo-halved until
    /// 23, a battalion of it short of ammunition, a battalion of the 2nd Brigade short with
    /// no penalty, a battery whose wagons come back at 21 and which is unavailable until 22.
    /// Lapisse's division out of supply with a battalion short. Returns due on 19, 21 and 24,
    /// one to a unit that is gone.
    fn campaign(turn: u32) -> Campaign {
        let mut files = CampaignFiles::default();
        let mut put = |name: &'static str, text: String| {
            files.files.insert(name, text.into_bytes());
        };
        put(
            names::CAMPAIGN,
            format!("name = \"Test\"\nseed = 1808\nturn = {turn}\n[map]\ncolumns = 40\nrows = 40\n"),
        );
        put(names::HEXES, "hex,terrain\n".into());
        put(names::ROADS, "from,to,class\n".into());
        put(names::RIVERS, "from,to,name\n".into());
        put(names::SETTLEMENTS, "name,hex,kind,control\n".into());
        put(names::COMMANDERS, "name,side\n".into());
        put(
            names::FORCES,
            "id,parent,level,name,nation,arm,men,squadrons,guns,hex,supply,ammo,status\n\
             FR-I,,corps,I Corps,Fr,,,,,18.28,in,,\n\
             FR-I-1,FR-I,division,1st Division,Fr,,,,,,,,\n\
             FR-I-1-1,FR-I-1,brigade,1st Brigade,Fr,,,,,,,,ammo-halved:23\n\
             FR-I-1-1-a,FR-I-1-1,battalion,1/4e Ligne,Fr,line,500,,,,,40,\n\
             FR-I-1-2,FR-I-1,brigade,2nd Brigade,Fr,,,,,,,,\n\
             FR-I-1-2-a,FR-I-1-2,battalion,1/9e Leger,Fr,light,450,,,,,55,\n\
             FR-I-ART,FR-I,battery,Foot battery,Fr,foot-artillery,120,,6,,,,no-wagons:21;unavailable:22\n\
             FR-LAP,,division,Lapisse,Fr,,,,,20.17,out,,\n\
             FR-LAP-a,FR-LAP,battalion,1/16e Leger,Fr,light,600,,,,,30,\n"
                .into(),
        );
        put(
            names::RETURNS,
            "turn,unit,men,kind,battle\n\
             19,FR-LAP-a,5,stragglers,T18-20.17\n\
             21,FR-I-1-2-a,40,stragglers,T20-18.28\n\
             21,FR-I-1-2-a,10,wounded,T19-18.28\n\
             24,FR-I-1-1-a,28,wounded,T20-18.28\n"
                .into(),
        );
        let mut c = parse_campaign(&files).unwrap();
        // A return to a unit no longer in the order of battle: `check` refuses one in
        // returns.csv, but a campaign value may still hold one.
        let gone = Return {
            turn: 21,
            unit: "FR-I-GONE".into(),
            men: 12,
            kind: ReturnKind::Stragglers,
            battle: "T20-18.28".into(),
        };
        c.returns.insert(3, gone);
        c
    }

    fn men(c: &Campaign, id: &str) -> u32 {
        c.oob.get(id).unwrap().men
    }

    fn statuses(c: &Campaign, id: &str) -> Vec<Status> {
        c.oob.get(id).unwrap().status().to_vec()
    }

    fn advanced(turn: u32) -> (Campaign, TurnChanges) {
        let mut c = campaign(turn);
        let ch = advance(&c);
        apply_changes(&mut c, &ch);
        (c, ch)
    }

    #[test]
    fn returns_due_now_come_back_and_later_ones_wait() {
        let (c, ch) = advanced(20);
        let due: Vec<(u32, &str, u32)> =
            ch.returns.iter().map(|r| (r.turn, r.unit.as_str(), r.men)).collect();
        assert_eq!(due, [(19, "FR-LAP-a", 5), (21, "FR-I-1-2-a", 10), (21, "FR-I-1-2-a", 40)]);
        assert_eq!(men(&c, "FR-I-1-2-a"), 450 + 40 + 10);
        assert_eq!(men(&c, "FR-LAP-a"), 605, "an overdue row is applied too");
        assert_eq!(men(&c, "FR-I-1-1-a"), 500, "its wounded are due on 24");
        assert_eq!(ch.later, 1);
        assert_eq!(
            ch.returned_by_unit(),
            BTreeMap::from([("FR-I-1-2-a".to_string(), 50), ("FR-LAP-a".to_string(), 5)])
        );
        assert_eq!(
            ch.totals_by_kind(),
            BTreeMap::from([(ReturnKind::Stragglers, 45), (ReturnKind::Wounded, 10)])
        );
        assert_eq!(ch.men_returned(), 55);
        let left: Vec<(u32, &str)> = c.returns.iter().map(|r| (r.turn, r.unit.as_str())).collect();
        assert_eq!(left, [(21, "FR-I-GONE"), (24, "FR-I-1-1-a")]);
    }

    #[test]
    fn a_return_to_a_removed_unit_is_kept_and_reported() {
        let (c, ch) = advanced(20);
        assert_eq!(ch.not_applied.len(), 1);
        assert_eq!((ch.not_applied[0].unit.as_str(), ch.not_applied[0].men), ("FR-I-GONE", 12));
        assert!(c.returns.contains(&ch.not_applied[0]), "kept in returns.csv, not lost");
        let total: u32 = c.oob.units().iter().map(|u| u.men).sum();
        assert_eq!(total, 500 + 450 + 120 + 600 + 55, "only the applied men were added");
    }

    #[test]
    fn penalties_end_exactly_at_their_turn() {
        let (c, ch) = advanced(20);
        let ended: Vec<(&str, StatusKind, u32)> =
            ch.penalties_ended.iter().map(|p| (p.unit.as_str(), p.kind, p.until)).collect();
        assert_eq!(ended, [("FR-I-ART", StatusKind::NoWagons, 21)]);
        assert_eq!(statuses(&c, "FR-I-ART"), [Status { kind: StatusKind::Unavailable, until: 22 }]);
        let (c, ch) = advanced(21);
        assert_eq!(ch.penalties_ended.len(), 2, "no-wagons:21 overdue and unavailable:22");
        assert!(statuses(&c, "FR-I-ART").is_empty());
        assert_eq!(statuses(&c, "FR-I-1-1"), [Status { kind: StatusKind::AmmoHalved, until: 23 }]);
        let (c, _) = advanced(22);
        assert!(statuses(&c, "FR-I-1-1").is_empty(), "ammo-halved:23 ends at the start of 23");
    }

    #[test]
    fn ammunition_is_made_good_only_in_supply_and_not_under_ammo_halved() {
        let (c, ch) = advanced(20);
        assert_eq!(ch.ammo_restored, [AmmoRestored { unit: "FR-I-1-2-a".into(), was: 55 }]);
        assert_eq!(c.oob.get("FR-I-1-2-a").unwrap().ammo, None, "blank is full");
        assert_eq!(c.oob.get("FR-I-1-1-a").unwrap().ammo, Some(40), "its brigade's penalty runs to 23");
        assert_eq!(c.oob.get("FR-LAP-a").unwrap().ammo, Some(30), "out of supply: not replaced (3.1)");
        let (_, ch) = advanced(21);
        assert!(!ch.ammo_restored.iter().any(|a| a.unit == "FR-I-1-1-a"), "turn 22: still halved");
        let (c, ch) = advanced(22);
        assert!(ch.ammo_restored.contains(&AmmoRestored { unit: "FR-I-1-1-a".into(), was: 40 }));
        assert_eq!(c.oob.get("FR-I-1-1-a").unwrap().ammo, None, "turn 23: penalty over, in supply");
        assert_eq!(c.oob.get("FR-LAP-a").unwrap().ammo, Some(30));
    }

    #[test]
    fn the_date_and_season_move_with_the_turn() {
        let (c, ch) = advanced(20);
        assert_eq!(c.config.turn, 21);
        assert_eq!((ch.from.date.as_str(), ch.to.date.as_str()), ("late March 1809", "early April 1809"));
        assert_eq!((ch.from.campaign_year, ch.to.campaign_year), (2, 2));
        // Turn 11 is early November (summer), 12 late November (winter, rule 6.2).
        let (_, ch) = advanced(11);
        assert_eq!(
            (ch.to.date.as_str(), ch.from.season, ch.to.season),
            ("late November 1808", Season::Summer, Season::Winter)
        );
        // Turn 17 is early February (winter), 18 late February: the winter is over.
        let (_, ch) = advanced(17);
        assert_eq!(
            (ch.to.date.as_str(), ch.from.season, ch.to.season),
            ("late February 1809", Season::Winter, Season::Summer)
        );
        // Turn 18 ends the first campaign year (4.1); turn 19 is early March 1809, year 2.
        let (_, ch) = advanced(18);
        assert_eq!(
            (ch.to.date.as_str(), ch.from.campaign_year, ch.to.campaign_year),
            ("early March 1809", 1, 2)
        );
    }

    #[test]
    fn a_quiet_turn_changes_only_the_turn() {
        let mut c = campaign(20);
        c.returns.clear();
        for u in c.oob.units_mut() {
            u.ammo = None;
            u.status_mut().clear();
        }
        let before = c.clone();
        let ch = advance(&c);
        apply_changes(&mut c, &ch);
        assert!(ch.returns.is_empty() && ch.penalties_ended.is_empty() && ch.ammo_restored.is_empty());
        assert_eq!(c.oob, before.oob);
        assert_eq!(c.config.turn, 21);
    }
}
