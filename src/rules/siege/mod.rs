//! Sieges (rules 7.1–7.2, with 2.5 and 6.4), settled at each turn advance. A fortress
//! (fortress-city, fortress-town, or Toledo's Alcázar, 2.5.3) whose `invested_by` is set in
//! `settlements.csv` starts a record in `sieges.csv` at the next turn advance: the garrison is
//! the defending side's forces in its hex, the investors the investing side's forces in or
//! next to it; 7.1.4 is judged then, once, by the code `export` uses
//! ([`crate::rules::capitulation::judge`]). The advance that starts it is the investment's
//! first round. Then, every round (turn advance), in this order:
//! 1. the defenders are every force of the defending side in the place: a relief that entered
//!    joins them (its men are added to the ORIGINAL strength of 7.2); the round it enters is not
//!    run, nor any round while a contact between defenders and investors is unresolved as the
//!    turn ends (a defender halted marching on an investor's hex, or a battle between them still
//!    pending) — and an investment does not start while one is;
//! 2. 7.2: both sides lose 1d6 × 2 % of their ORIGINAL strength; a garrison below half of it
//!    surrenders, investors below half lift the siege and withdraw (`invested_by` cleared, each
//!    besieging force marched off by 8.4's withdrawal, named in the report);
//! 3. a summons accepted (`action` = `honours`): the garrison marches out with the honours of
//!    war to Toulouse (French), Lisbon (British, Portuguese) or its own provincial capital
//!    (Spanish), else the nearest friendly place that can take a garrison (7.1.2);
//! 4. 7.1.4, as judged when the investment started: the place capitulates after one turn (at
//!    the first round);
//! 5. 7.1.3: a garrison under a fifth of the investors may be assaulted after one turn
//!    (`action` = `storm`): the defenders always lose and are captured, losing 1dA × 10 %,
//!    the attackers 1dA × 5 %;
//! 6. 7.1.2: one turn after a siege train (6.4, `siege-trains.csv`) arrives the place is
//!    breached and summoned; refused, it is stormed: both roll 2d6 plus their infantry
//!    battalions and batteries; casualties 1dA × 5 % (the attacker's infantry, all of the
//!    defender's); the attacker wins → the garrison is captured, else it is repulsed and may
//!    storm again (`action` = `storm`) or starve the place out;
//! 7. 7.1.1: an invested place holds out 1dA turns (strong fortress-cities +1, sea-supplied
//!    places +2 when the Allies defend, fortress-towns and the Alcázar −1): that many rounds,
//!    capitulating at the last (`holds_until` is the turn whose advance is the last round).
//!
//! A capitulation, a storm or a surrender takes every defender in the place.

use std::collections::BTreeMap;

use crate::model::Campaign;
use crate::model::books::{SiegeAction, SiegeKind, SiegeRecord, SiegeState};
use crate::rules::capitulation::Capitulation;
use crate::rules::dice::{Dice, average_die};
use crate::rules::effects::{Effect, men_of};
use crate::rules::turn::{PhaseOutcome, Section, TurnContext};

mod forces;
mod places;
mod settle;

pub use self::forces::{Honours, garrison_of, honours_destination, investors_of};
use self::forces::{forces_text, train_at, unresolved_contact};
use self::places::holdout_words;
pub use self::places::{
    PROVINCIAL_CAPITALS, SEA_SUPPLIED, STRONG, fold, holdout_modifier, investable, supply_cut,
};
use self::settle::settle;

/// The investments that begin at this advance (7.1.1): a record each, with its hold-out
/// rolled, and 7.1.4 judged once; the places judged to capitulate after one turn.
fn start_investments(
    c: &Campaign,
    ctx: &TurnContext,
    dice: &mut dyn Dice,
    sec: &mut Section,
    effects: &mut Vec<Effect>,
) -> BTreeMap<String, Capitulation> {
    let from = ctx.from.0;
    let mut capitulating = BTreeMap::new();
    for s in &c.map.settlements {
        let Some(nation) = s.invested_by else { continue };
        if c.books.active_siege(&s.name).is_some() {
            continue;
        }
        let investor = nation.side();
        let defender = investor.enemy();
        if !investable(s) {
            sec.umpire(format!(
                "{} ({}): invested_by {nation} is set, but it is no fortress (7.1, 2.5): nothing to invest",
                s.name, s.hex
            ));
            continue;
        }
        let garrison = garrison_of(c, s.hex, defender);
        let investors = investors_of(c, s.hex, investor);
        if garrison.is_empty() || investors.is_empty() {
            sec.umpire(format!(
                "{} ({}): invested_by {nation} is set, but {}: no investment begins",
                s.name,
                s.hex,
                if garrison.is_empty() {
                    "no garrison of the other side stands in it"
                } else {
                    "no force of that side stands in or next to it"
                }
            ));
            continue;
        }
        if let Some(why) = unresolved_contact(c, &ctx.in_contact, &garrison, &investors) {
            sec.both(
                defender,
                format!(
                    "{} ({}): invested by {nation}, but {why}: until that contact is resolved (a battle, a sally or a retreat) the siege clock does not start — no investment begins this turn (7.1.1).",
                    s.name, s.hex
                ),
            );
            sec.side(investor, format!("{}: a relief stands in contact with your investing forces; the siege clock does not start this turn.", s.name));
            continue;
        }
        let da = average_die(dice, &format!("7.1.1 {} holds out", s.name));
        let m = holdout_modifier(s, defender);
        let turns = (i64::from(da) + i64::from(m)).max(1) as u32;
        let (garrison_men, investors_men) = (men_of(c, &garrison, false), men_of(c, &investors, false));
        let train = train_at(c, s.hex, investor).is_some();
        if let Some(k) =
            crate::rules::capitulation::judge(c, s.hex, defender, garrison_men, investors_men, train)
        {
            sec.umpire(format!(
                "{}: judged once as the investment starts (7.1.4): it capitulates after 1 turn, at this advance",
                k.why()
            ));
            capitulating.insert(s.name.clone(), k);
        }
        let rec = SiegeRecord {
            place: s.name.clone(),
            hex: s.hex,
            kind: SiegeKind::Investment,
            garrison_original: garrison_men,
            investors_original: investors_men,
            garrison,
            investors,
            defender,
            began: from,
            // The advance that starts it is its first round: `turns` rounds end at this turn.
            holds_until: from + turns - 1,
            train_since: None,
            repulsed: 0,
            action: SiegeAction::None,
            state: SiegeState::Active,
            ended: None,
        };
        let line = format!(
            "{} ({}) invested by {}: the garrison {} ({} men) holds out 1dA {da}{} = {turns} turns, {turns} rounds of 7.2 to turn {} (7.1.1); the investment cuts the supply line it generates",
            s.name,
            s.hex,
            forces_text(c, &rec.investors),
            forces_text(c, &rec.garrison),
            rec.garrison_original,
            holdout_words(s, defender),
            rec.holds_until
        );
        sec.umpire(line);
        sec.side(
            defender,
            format!(
                "{} is invested: its garrison {} ({} men).",
                s.name,
                forces_text(c, &rec.garrison),
                rec.garrison_original
            ),
        );
        sec.side(investor, format!("{} is invested by {}.", s.name, forces_text(c, &rec.investors)));
        effects.push(Effect::Siege(rec));
    }
    capitulating
}

/// The siege phase of the turn (7.1–7.2).
pub fn phase(c: &Campaign, ctx: &TurnContext, dice: &mut dyn Dice) -> PhaseOutcome {
    let mut sec = Section::new("Sieges (7.1–7.2)");
    let mut effects = Vec::new();
    let from = ctx.from.0;
    let capitulating = start_investments(c, ctx, dice, &mut sec, &mut effects);
    // Every active record, the new ones included (their first turn of losses, 7.2).
    let mut records: Vec<SiegeRecord> =
        c.books.sieges.iter().filter(|r| r.state == SiegeState::Active).cloned().collect();
    records.extend(effects.iter().filter_map(|e| match e {
        Effect::Siege(r) => Some(r.clone()),
        _ => None,
    }));
    for rec in records {
        let judged = capitulating.get(&rec.place).filter(|_| rec.began == from);
        let mut more = settle(c, ctx, rec, judged, dice, &mut sec);
        // A place taken changes hands (7.1, 2.4.8): the investing nation's, no longer invested.
        let mut taken = Vec::new();
        for e in &more {
            if let Effect::Siege(r) = e
                && matches!(r.state, SiegeState::Taken | SiegeState::Honours)
            {
                let s = c.map.settlements.iter().find(|s| s.name == r.place);
                match s.and_then(|s| s.invested_by.filter(|n| n.side() != r.defender).map(|n| (s, n))) {
                    Some((s, by)) => {
                        let overrule = if s.overrule.is_some() { "; the umpire's overrule of it is cleared" } else { "" };
                        sec.umpire(format!(
                            "{} ({}) changes hands: settlements.csv gives its control to {by} and clears invested_by{overrule} (7.1, 2.4.8)",
                            s.name, s.hex
                        ));
                        taken.push(Effect::PlaceTaken { place: s.name.clone(), hex: s.hex, by });
                    }
                    None => sec.umpire(format!(
                        "{}: set its control in settlements.csv to the {} nation that took it and clear invested_by (2.4.8)",
                        r.place,
                        r.defender.enemy()
                    )),
                }
            }
        }
        effects.append(&mut more);
        effects.append(&mut taken);
    }
    if sec.umpire.is_empty() {
        sec.umpire("No investment or siege.");
    }
    PhaseOutcome { phase: "sieges", section: sec, effects }
}

#[cfg(test)]
mod tests;
