//! Settling a siege at the end of its turn (7.1–7.2): the holdout roll, capitulation, storming,
//! the honours of war and the besieger's losses, each in the rule's order.

use crate::model::books::{SiegeAction, SiegeKind, SiegeRecord, SiegeState};
use crate::model::{Campaign, Nation, Settlement, Side, Turn};
use crate::rules::capitulation::Capitulation;
use crate::rules::dice::{Dice, average_die};
use crate::rules::effects::{Effect, losses_over, men_of, per_cent};
use crate::rules::turn::{Section, TurnContext};

use super::forces::{
    after_losses, battalions_and_batteries, capture, forces_text, garrison_of, honours_destination, present,
    train_at, unresolved_contact,
};

/// One record's turn: its losses, then the first of its endings that applies.
pub(super) fn settle(
    c: &Campaign,
    ctx: &TurnContext,
    mut rec: SiegeRecord,
    capitulates: Option<&Capitulation>,
    dice: &mut dyn Dice,
    sec: &mut Section,
) -> Vec<Effect> {
    let from = ctx.from.0;
    let defender = rec.defender;
    let investor = defender.enemy();
    let place = rec.place.clone();
    let Some(s) = c.map.settlements.iter().find(|x| x.name == place) else {
        sec.umpire(format!("{place}: no longer in settlements.csv; the siege ends"));
        rec.state = SiegeState::Ended;
        rec.ended = Some(from);
        return vec![Effect::Siege(rec)];
    };
    let mut out = Vec::new();
    if s.invested_by.is_none_or(|n| n.side() != investor) {
        sec.both(defender, format!("{place}: no longer invested; the siege ends (invested_by cleared)."));
        sec.side(investor, format!("{place}: the investment is over."));
        end(rec, SiegeState::Ended, from, &mut out);
        return out;
    }
    // The defenders are every force of the defending side in the place (7.1.1, 7.2).
    let garrison = garrison_of(c, rec.hex, defender);
    let investors = present(c, &rec.investors, |u| {
        u.hex.is_some_and(|h| h == rec.hex || c.map.grid.adjacent(h, rec.hex))
    });
    if garrison.is_empty() {
        sec.both(investor, format!("{place}: the garrison is gone; the investment ends."));
        end(rec, SiegeState::Ended, from, &mut out);
        return out;
    }
    if investors.is_empty() {
        sec.both(
            defender,
            format!("{place}: the investing forces have gone; the siege is lifted (invested_by cleared)."),
        );
        out.push(Effect::InvestmentEnded { place: place.clone(), hex: rec.hex });
        end(rec, SiegeState::Lifted, from, &mut out);
        return out;
    }
    if clock_stops(c, ctx, &mut rec, &garrison, &investors, sec) {
        rec.garrison.clone_from(&garrison);
        rec.investors.clone_from(&investors);
        rec.action = SiegeAction::None;
        out.push(Effect::Siege(rec));
        return out;
    }
    rec.garrison.clone_from(&garrison);
    rec.investors.clone_from(&investors);
    if rec.train_since.is_none()
        && let Some(t) = train_at(c, rec.hex, investor)
    {
        rec.train_since = Some(t.arrived.max(rec.began));
        rec.kind = SiegeKind::Siege;
        sec.umpire(format!(
            "{place}: the {} siege train (6.4) stands at {} since turn {}: the investment becomes a siege (7.1.2)",
            t.nation, t.hex, t.arrived
        ));
    }
    // 7.2: losses of the ORIGINAL strength.
    let gd = dice.roll(6, &format!("7.2 {place} garrison losses"));
    let id = dice.roll(6, &format!("7.2 {place} besiegers' losses"));
    let g_loss = per_cent(rec.garrison_original, gd * 2);
    let i_loss = per_cent(rec.investors_original, id * 2);
    let mut losses = losses_over(c, &garrison, g_loss, &format!("7.2 siege of {place}"), false);
    losses.extend(losses_over(c, &investors, i_loss, &format!("7.2 siege of {place}"), false));
    sec.umpire(format!(
        "{place} ({}, turn {} of the {}): 7.2 losses — garrison 1d6 {gd} × 2 % of {} = {g_loss} men, besiegers 1d6 {id} × 2 % of {} = {i_loss} men",
        rec.hex,
        from - rec.began + 1,
        rec.kind.word(),
        rec.garrison_original,
        rec.investors_original
    ));
    sec.side(defender, format!("{place}: the garrison loses {g_loss} men to the siege (7.2)."));
    sec.side(investor, format!("{place}: the besiegers lose {i_loss} men to the siege (7.2)."));
    let g_after = after_losses(c, &garrison, &losses);
    let i_after = after_losses(c, &investors, &losses);
    out.append(&mut losses);
    let siege = Siege {
        c,
        s,
        place,
        from,
        to: ctx.to,
        defender,
        investor,
        g_after,
        i_after,
        garrison,
        investors,
        capitulates,
    };
    match siege.ending(&mut rec, dice, &mut out, sec) {
        Ending::Over(state) => end(rec, state, from, &mut out),
        Ending::GoesOn => {
            rec.action = SiegeAction::None;
            out.push(Effect::Siege(rec));
        }
    }
    out
}

/// True when the siege clock does not run this turn (no round): a relief entered this turn,
/// or a contact between the defenders and the investors is unresolved as the turn ends.
/// `holds_until` then moves one turn on.
fn clock_stops(
    c: &Campaign,
    ctx: &TurnContext,
    rec: &mut SiegeRecord,
    garrison: &[String],
    investors: &[String],
    sec: &mut Section,
) -> bool {
    let entered = relief_joins(c, ctx, rec, garrison, sec);
    let contact = unresolved_contact(c, &ctx.in_contact, garrison, investors);
    if !entered && contact.is_none() {
        return false;
    }
    let place = &rec.place;
    rec.holds_until += 1;
    let why = contact.unwrap_or_else(|| "the relief entered this turn".to_string());
    sec.umpire(format!(
        "{place}: {why}: until that contact is resolved (a battle, a sally or a retreat) the siege clock does not run — no round this turn; it holds to turn {}",
        rec.holds_until
    ));
    sec.side(
        rec.defender,
        format!("{place}: the relief is in contact with the besiegers; the siege clock stops this turn."),
    );
    sec.side(
        rec.defender.enemy(),
        format!("{place}: a relief stands in contact with the besiegers; the siege clock stops this turn."),
    );
    true
}

/// A relief that entered the place joins its defenders (7.1.1, 7.2): its men are added to the
/// ORIGINAL strength the losses and the surrender are measured on. True when a relief entered
/// this turn: the round it enters is not run.
fn relief_joins(
    c: &Campaign,
    ctx: &TurnContext,
    rec: &mut SiegeRecord,
    garrison: &[String],
    sec: &mut Section,
) -> bool {
    let joined: Vec<String> = garrison.iter().filter(|f| !rec.garrison.contains(f)).cloned().collect();
    if joined.is_empty() {
        return false;
    }
    let place = &rec.place;
    let men = men_of(c, &joined, false);
    rec.garrison_original += men;
    sec.both(
        rec.defender,
        format!(
            "{place}: {} joins the garrison ({men} men); the defenders' original strength is now {} (7.1.1, 7.2).",
            forces_text(c, &joined),
            rec.garrison_original
        ),
    );
    joined.iter().any(|f| ctx.moved.contains_key(f.as_str()))
}

/// Ends a siege record in `state` at turn `from`.
fn end(mut rec: SiegeRecord, state: SiegeState, from: u32, out: &mut Vec<Effect>) {
    rec.state = state;
    rec.ended = Some(from);
    rec.action = SiegeAction::None;
    out.push(Effect::Siege(rec));
}

/// How a siege's turn ends.
enum Ending {
    /// The siege is over, in this state.
    Over(SiegeState),
    /// It goes on.
    GoesOn,
}

/// A siege at the end of its turn, its 7.2 losses taken: the forces on each side and the men
/// they have left.
struct Siege<'a> {
    c: &'a Campaign,
    s: &'a Settlement,
    place: String,
    from: u32,
    to: Turn,
    defender: Side,
    investor: Side,
    garrison: Vec<String>,
    investors: Vec<String>,
    g_after: u32,
    i_after: u32,
    /// 7.1.4 as judged when the investment started (this is its first round).
    capitulates: Option<&'a Capitulation>,
}

impl Siege<'_> {
    /// The first of the endings that applies, in the rules' order.
    fn ending(
        &self,
        rec: &mut SiegeRecord,
        dice: &mut dyn Dice,
        out: &mut Vec<Effect>,
        sec: &mut Section,
    ) -> Ending {
        if let Some(e) = self.under_half(rec, out, sec) {
            return e;
        }
        if let Some(e) = self.honours(rec, out, sec) {
            return e;
        }
        if let Some(e) = self.under_minimum(out, sec) {
            return e;
        }
        if let Some(e) = self.surprise_assault(rec, dice, out, sec) {
            return e;
        }
        if let Some(e) = self.storm(rec, dice, out, sec) {
            return e;
        }
        self.holds(rec, out, sec)
    }

    /// 7.2: a side down to under half its original strength: the garrison surrenders, or the
    /// besiegers lift the siege.
    fn under_half(&self, rec: &SiegeRecord, out: &mut Vec<Effect>, sec: &mut Section) -> Option<Ending> {
        let Siege { c, ref place, defender, investor, ref garrison, g_after, i_after, .. } = *self;
        let half = |orig: u32, now: u32| u64::from(now) * 2 < u64::from(orig);
        if half(rec.garrison_original, g_after) {
            sec.both(investor, format!("{place}: the garrison is down to {g_after} of {} men, under half: it surrenders (7.2); {g_after} prisoners.", rec.garrison_original));
            sec.side(defender, format!("{place}: the garrison, under half its strength, surrenders (7.2)."));
            let taken = capture_after(c, garrison, investor, out);
            out.extend(taken);
            return Some(Ending::Over(SiegeState::Taken));
        }
        if half(rec.investors_original, i_after) {
            sec.both(investor, format!("{place}: the besiegers are down to {i_after} of {} men, under half: they lift the siege and withdraw (7.2).", rec.investors_original));
            sec.side(defender, format!("{place}: the besiegers lift the siege (7.2)."));
            out.push(Effect::InvestmentEnded { place: place.clone(), hex: rec.hex });
            self.withdraw(out, sec);
            return Some(Ending::Over(SiegeState::Lifted));
        }
        None
    }

    /// A summons accepted: the garrison marches out with the honours of war (7.1.2).
    fn honours(&self, rec: &SiegeRecord, out: &mut Vec<Effect>, sec: &mut Section) -> Option<Ending> {
        let Siege { c, s, ref place, defender, investor, ref garrison, .. } = *self;
        if rec.action != SiegeAction::Honours {
            return None;
        }
        let nation = c.oob.get(&garrison[0]).map_or(Nation::Sp, |u| u.nation);
        match honours_destination(c, s, nation, garrison) {
            Some(h) => {
                let dest = h.to;
                sec.both(defender, format!("{place}: the garrison accepts the summons and marches out with the honours of war to {} ({}): {}.", dest.name, dest.hex, h.why));
                sec.side(investor, format!("{place}: the garrison marches out with the honours of war; the place is yours."));
                out.extend(garrison.iter().map(|f| Effect::Moved { force: f.clone(), hex: dest.hex }));
            }
            None => sec.umpire(format!(
                "{place}: the garrison marches out with the honours of war; no friendly destination for {nation} is in settlements.csv (7.1.2): place it by hand"
            )),
        }
        Some(Ending::Over(SiegeState::Honours))
    }

    /// 7.1.4, as judged once when the investment started: the place capitulates after one
    /// turn, at its first round.
    fn under_minimum(&self, out: &mut Vec<Effect>, sec: &mut Section) -> Option<Ending> {
        let Siege { c, ref place, defender, investor, ref garrison, g_after, capitulates, .. } = *self;
        let k = capitulates?;
        sec.both(investor, format!("{} — capitulates after one turn (7.1.4); {g_after} prisoners.", k.why()));
        sec.side(defender, format!("{place}: the garrison, under its minimum, capitulates (7.1.4)."));
        let taken = capture_after(c, garrison, investor, out);
        out.extend(taken);
        Some(Ending::Over(SiegeState::Taken))
    }

    /// 7.2's withdrawal of the besiegers who lift the siege: each force marches off by the
    /// road 8.4's withdrawal proposes, away from the garrison; a force with no road away stays
    /// for the umpire to move.
    fn withdraw(&self, out: &mut Vec<Effect>, sec: &mut Section) {
        let Siege { c, ref place, investor, ref garrison, ref investors, to, .. } = *self;
        for f in investors {
            let plan = crate::rules::withdrawal::plan_withdrawal(c, f, garrison, to);
            let name = c.oob.get(f).map_or(f.as_str(), |u| u.name.as_str());
            match plan.chosen {
                Some(d) => {
                    sec.both(
                        investor,
                        format!(
                            "{place}: {name} ({f}) withdraws {} → {} ({} road hexes, 8.4's withdrawal away from the garrison) (7.2).",
                            plan.from, d.hex, d.road_hexes
                        ),
                    );
                    out.push(Effect::Moved { force: f.clone(), hex: d.hex });
                }
                None => sec.both(
                    investor,
                    format!("{place}: {name} ({f}) must withdraw (7.2) but no road leads away: the umpire moves it."),
                ),
            }
        }
    }

    /// 7.1.3: the surprise assault on a garrison under a fifth of the besiegers, without a
    /// siege train.
    fn surprise_assault(
        &self,
        rec: &SiegeRecord,
        dice: &mut dyn Dice,
        out: &mut Vec<Effect>,
        sec: &mut Section,
    ) -> Option<Ending> {
        let Siege { c, ref place, defender, investor, ref garrison, ref investors, g_after, i_after, .. } =
            *self;
        // "after 1 turn": from the first round, the advance that ends the investment's first turn.
        let with_train = rec.train_since.is_some();
        if !with_train && rec.action == SiegeAction::Storm && u64::from(g_after) * 5 < u64::from(i_after) {
            let dd = average_die(dice, &format!("7.1.3 {place} defenders' losses"));
            let ad = average_die(dice, &format!("7.1.3 {place} assault losses"));
            let dl = per_cent(g_after, dd * 10);
            let al = per_cent(i_after, ad * 5);
            sec.both(investor, format!(
                "{place}: surprise assault on a garrison under a fifth of the besiegers ({g_after} against {i_after}, 7.1.3): the defenders lose 1dA {dd} × 10 % = {dl}, the attackers 1dA {ad} × 5 % = {al}; the garrison is captured."
            ));
            sec.side(defender, format!("{place}: stormed by surprise; the garrison is lost (7.1.3)."));
            let mut l = losses_over_after(c, garrison, dl, &format!("7.1.3 assault on {place}"), out, false);
            l.extend(losses_over_after(c, investors, al, &format!("7.1.3 assault on {place}"), out, false));
            out.append(&mut l);
            let taken = capture_after(c, garrison, investor, out);
            out.extend(taken);
            return Some(Ending::Over(SiegeState::Taken));
        }
        None
    }

    /// 7.1.2: breach and storm, one turn after the train arrives: taken, or driven back to
    /// storm again or starve it out.
    fn storm(
        &self,
        rec: &mut SiegeRecord,
        dice: &mut dyn Dice,
        out: &mut Vec<Effect>,
        sec: &mut Section,
    ) -> Option<Ending> {
        let Siege { c, ref place, from, defender, investor, ref garrison, ref investors, g_after, .. } =
            *self;
        if let Some(since) = rec.train_since
            && from > since
            && (rec.repulsed == 0 || rec.action == SiegeAction::Storm)
        {
            let a2 = dice.roll(6, &format!("7.1.2 {place} storm, attacker"))
                + dice.roll(6, &format!("7.1.2 {place} storm, attacker"));
            let d2 = dice.roll(6, &format!("7.1.2 {place} storm, defender"))
                + dice.roll(6, &format!("7.1.2 {place} storm, defender"));
            let (au, du) = (battalions_and_batteries(c, investors), battalions_and_batteries(c, garrison));
            let (at, dt) = (a2 + au, d2 + du);
            let ad = average_die(dice, &format!("7.1.2 {place} attacker's infantry losses"));
            let dd = average_die(dice, &format!("7.1.2 {place} defender's losses"));
            let a_inf = after_infantry(c, investors, out);
            let al = per_cent(a_inf, ad * 5);
            let dl = per_cent(g_after, dd * 5);
            let won = at > dt;
            sec.umpire(format!(
                "{place}: breached and summoned; the summons is refused and the place is stormed (7.1.2): attacker 2d6 {a2} + {au} battalions and batteries = {at}, defender 2d6 {d2} + {du} = {dt} → {}; losses: attacker's infantry 1dA {ad} × 5 % of {a_inf} = {al}, defender 1dA {dd} × 5 % of {g_after} = {dl}",
                if won { "the attacker wins: the garrison is captured" } else { "the storm is driven back" }
            ));
            let mut l = losses_over_after(c, investors, al, &format!("7.1.2 storm of {place}"), out, true);
            l.extend(losses_over_after(c, garrison, dl, &format!("7.1.2 storm of {place}"), out, false));
            out.append(&mut l);
            if won {
                sec.side(investor, format!("{place}: stormed and taken; the garrison is captured (7.1.2)."));
                sec.side(defender, format!("{place}: stormed; the garrison is captured (7.1.2)."));
                let taken = capture_after(c, garrison, investor, out);
                out.extend(taken);
                return Some(Ending::Over(SiegeState::Taken));
            }
            sec.side(
                investor,
                format!("{place}: the storm is driven back; storm again next turn or starve it out (7.1.2)."),
            );
            sec.side(defender, format!("{place}: the storm is driven back (7.1.2)."));
            rec.repulsed += 1;
            return Some(Ending::GoesOn);
        }
        None
    }

    /// 7.1.1: the investment runs out and the place capitulates; otherwise it holds.
    fn holds(&self, rec: &SiegeRecord, out: &mut Vec<Effect>, sec: &mut Section) -> Ending {
        let Siege { c, ref place, from, defender, investor, ref garrison, g_after, i_after, .. } = *self;
        if from >= rec.holds_until {
            sec.both(
                investor,
                format!(
                    "{place}: held out to turn {} and capitulates (7.1.1); {g_after} prisoners.",
                    rec.holds_until
                ),
            );
            sec.side(defender, format!("{place}: the garrison capitulates (7.1.1)."));
            let taken = capture_after(c, garrison, investor, out);
            out.extend(taken);
            return Ending::Over(SiegeState::Taken);
        }
        sec.umpire(format!(
            "{place}: holds (until turn {}); garrison {g_after}, besiegers {i_after} men",
            rec.holds_until
        ));
        Ending::GoesOn
    }
}

/// Loss effects over some forces, on the men left after the effects so far.
pub(super) fn losses_over_after(
    c: &Campaign,
    forces: &[String],
    total: u32,
    why: &str,
    so_far: &[Effect],
    infantry_only: bool,
) -> Vec<Effect> {
    let mut cc = c.clone();
    crate::rules::effects::apply_effects(&mut cc, so_far, 0);
    losses_over(&cc, forces, total, why, infantry_only)
}

pub(super) fn after_infantry(c: &Campaign, forces: &[String], so_far: &[Effect]) -> u32 {
    let mut cc = c.clone();
    crate::rules::effects::apply_effects(&mut cc, so_far, 0);
    men_of(&cc, forces, true)
}

/// The garrison captured, with the men and guns it has after the effects so far.
pub(super) fn capture_after(c: &Campaign, garrison: &[String], by: Side, so_far: &[Effect]) -> Vec<Effect> {
    let mut cc = c.clone();
    crate::rules::effects::apply_effects(&mut cc, so_far, 0);
    capture(&cc, garrison, by)
}
