//! Sieges (rules 7.1–7.2, with 2.5 and 6.4), settled at each turn advance. A fortress
//! (fortress-city, fortress-town, or Toledo's Alcázar, 2.5.3) whose `invested_by` is set in
//! `settlements.csv` starts a record in `sieges.csv` at the next turn advance: the garrison is
//! the defending side's forces in its hex, the investors the investing side's forces in or
//! next to it. Then, every turn advance, in this order:
//! 1. 7.2: both sides lose 1d6 × 2 % of their ORIGINAL strength; a garrison below half of it
//!    surrenders, investors below half lift the siege and withdraw;
//! 2. a summons accepted (`action` = `honours`): the garrison marches out with the honours of
//!    war to Toulouse (French), Lisbon (British, Portuguese) or its provincial capital
//!    (Spanish) (7.1.2);
//! 3. 7.1.4: a garrison under its minimum (2.5) capitulates after one turn against four
//!    times its strength or a siege train;
//! 4. 7.1.3: a garrison under a fifth of the investors may be assaulted after one turn
//!    (`action` = `storm`): the defenders always lose and are captured, losing 1dA × 10 %,
//!    the attackers 1dA × 5 %;
//! 5. 7.1.2: one turn after a siege train (6.4, `siege-trains.csv`) arrives the place is
//!    breached and summoned; refused, it is stormed: both roll 2d6 plus their infantry
//!    battalions and batteries; casualties 1dA × 5 % (the attacker's infantry, all of the
//!    defender's); the attacker wins → the garrison is captured, else it is repulsed and may
//!    storm again (`action` = `storm`) or starve the place out;
//! 6. 7.1.1: an invested place holds out 1dA turns (strong fortress-cities +1, sea-supplied
//!    places +2 when the Allies defend, fortress-towns and the Alcázar −1), then
//!    capitulates.

use crate::model::books::{SiegeAction, SiegeKind, SiegeRecord, SiegeState};
use crate::model::{ArmClass, Campaign, HexId, Level, Nation, Settlement, SettlementKind, Side, Unit};
use crate::rules::dice::{Dice, average_die};
use crate::rules::effects::{Effect, losses_over, men_of, per_cent};
use crate::rules::map_choice::minimum_garrison;
use crate::rules::turn::{PhaseOutcome, Section, TurnContext};

/// The strong fortress-cities of 7.1.1, which hold out 1dA + 1 turns.
pub const STRONG: [&str; 5] = ["Zaragosa", "Gerona", "Pamplona", "San Sebastian", "Burgos"];
/// The places 7.1.1 lets the sea supply, which hold out 1dA + 2 turns when the Allies defend.
pub const SEA_SUPPLIED: [&str; 5] = ["Barcelona", "Gibraltar", "Tarragona", "Valencia", "Cádiz"];
/// The provincial capitals of 2.2, where a Spanish garrison marching out with the honours of
/// war goes (7.1.2), by province.
pub const PROVINCIAL_CAPITALS: [(&str, &str); 13] = [
    ("Galicia", "Santiago"),
    ("Asturias", "Oviedo"),
    ("Cantabria", "Santander"),
    ("Leon and Old Castile", "Valladolid"),
    ("Vascongadas", "Vitoria"),
    ("Navarra", "Pamplona"),
    ("Aragon", "Zaragosa"),
    ("Cataluña", "Barcelona"),
    ("Valencia", "Valencia"),
    ("Murcia", "Murcia"),
    ("Castile-La Mancha", "Toledo"),
    ("Andalucía", "Seville"),
    ("Extremadura", "Mérida"),
];

/// A name folded for comparison: lower case, the accents of the rules' place names dropped.
pub fn fold(s: &str) -> String {
    s.trim()
        .to_lowercase()
        .chars()
        .map(|c| match c {
            'á' | 'à' | 'â' => 'a',
            'é' | 'è' | 'ê' => 'e',
            'í' => 'i',
            'ó' | 'ô' => 'o',
            'ú' => 'u',
            'ñ' => 'n',
            'ç' => 'c',
            'z' => 's',
            other => other,
        })
        .collect()
}

fn named(list: &[&str], name: &str) -> bool {
    list.iter().any(|n| fold(n) == fold(name))
}

/// The places that can be invested: fortresses and Toledo's Alcázar (2.5, 2.5.3).
pub fn investable(s: &Settlement) -> bool {
    s.kind.is_fortress() || s.citadel
}

/// The modifier to the 1dA turns an invested place holds out (7.1.1).
pub fn holdout_modifier(s: &Settlement, defender: Side) -> i32 {
    let mut m = 0;
    if s.kind == SettlementKind::FortressCity && named(&STRONG, &s.name) {
        m += 1;
    }
    if defender == Side::Allies && named(&SEA_SUPPLIED, &s.name) {
        m += 2;
    }
    if s.kind == SettlementKind::FortressTown || (s.citadel && !s.kind.is_fortress()) {
        m -= 1;
    }
    m
}

/// Why the modifier is what it is, for the report.
fn holdout_words(s: &Settlement, defender: Side) -> String {
    let mut w = Vec::new();
    if s.kind == SettlementKind::FortressCity && named(&STRONG, &s.name) {
        w.push("+1 a strong fortress-city");
    }
    if defender == Side::Allies && named(&SEA_SUPPLIED, &s.name) {
        w.push("+2 supplied by sea, the Allies defending");
    }
    if s.kind == SettlementKind::FortressTown {
        w.push("−1 a fortress-town");
    } else if s.citadel && !s.kind.is_fortress() {
        w.push("−1 the citadel counts as a fortress-town (2.5.3)");
    }
    if w.is_empty() { String::new() } else { format!(" {}", w.join(", ")) }
}

/// True while a place generates no supply line (7.1.1: investment "will cut any supply line
/// it generates"): `invested_by` is set or an investment or siege of it goes on.
pub fn supply_cut(c: &Campaign, place: &str) -> bool {
    c.books.active_siege(place).is_some()
        || c.map.settlements.iter().any(|s| s.name == place && s.invested_by.is_some() && investable(s))
}

/// The defending side's forces in the place's hex.
pub fn garrison_of(c: &Campaign, hex: HexId, defender: Side) -> Vec<String> {
    c.oob.forces().filter(|f| f.hex == Some(hex) && f.side() == defender).map(|f| f.id.to_string()).collect()
}

/// The investing side's forces in the place's hex or next to it.
pub fn investors_of(c: &Campaign, hex: HexId, investor: Side) -> Vec<String> {
    c.oob
        .forces()
        .filter(|f| f.side() == investor)
        .filter(|f| f.hex.is_some_and(|h| h == hex || c.map.grid.adjacent(h, hex)))
        .map(|f| f.id.to_string())
        .collect()
}

/// The investing side's siege train at the place or next to it (6.4.1: "a very short
/// distance from a river to the nearest fortress").
fn train_at(c: &Campaign, hex: HexId, investor: Side) -> Option<&crate::model::books::SiegeTrain> {
    c.books
        .trains
        .iter()
        .find(|t| t.nation.side() == investor && (t.hex == hex || c.map.grid.adjacent(t.hex, hex)))
}

/// Infantry battalions and batteries of some forces (7.1.2's storm).
fn battalions_and_batteries(c: &Campaign, forces: &[String]) -> u32 {
    forces
        .iter()
        .flat_map(|f| c.oob.units_under(f))
        .filter(|u| {
            (u.level == Level::Battalion && u.arm_class() == Some(ArmClass::Infantry))
                || u.level == Level::Battery
        })
        .count() as u32
}

/// Where a garrison marching out with the honours of war goes (7.1.2).
pub fn honours_destination<'c>(
    c: &'c Campaign,
    place: &Settlement,
    nation: Nation,
) -> Option<&'c Settlement> {
    let name = match nation {
        Nation::Fr => "Toulouse",
        Nation::Br | Nation::Po => "Lisbon",
        Nation::Sp => {
            PROVINCIAL_CAPITALS.iter().find(|(p, _)| fold(p) == fold(&place.province)).map(|(_, n)| *n)?
        }
    };
    c.map.settlements.iter().find(|s| fold(&s.name) == fold(name))
}

fn forces_text(c: &Campaign, ids: &[String]) -> String {
    ids.iter()
        .map(|id| match c.oob.get(id) {
            Some(u) => format!("{} ({id})", u.name),
            None => id.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn present(c: &Campaign, ids: &[String], ok: impl Fn(&Unit) -> bool) -> Vec<String> {
    ids.iter().filter(|id| c.oob.get(id).is_some_and(&ok)).cloned().collect()
}

fn capture(c: &Campaign, garrison: &[String], by: Side) -> Vec<Effect> {
    garrison
        .iter()
        .map(|f| {
            let s = c.oob.strength(f);
            Effect::Captured { force: f.clone(), by, men: s.men(), guns: s.guns }
        })
        .collect()
}

/// Men still standing after some loss effects, per force list.
fn after_losses(c: &Campaign, forces: &[String], effects: &[Effect]) -> u32 {
    let before = men_of(c, forces, false);
    let lost: u32 = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Loss { unit, men, .. }
                if forces.iter().any(|f| c.oob.force_of(unit).is_some_and(|u| u.id == f.as_str())) =>
            {
                Some(*men)
            }
            _ => None,
        })
        .sum();
    before.saturating_sub(lost)
}

/// The siege phase of the turn (7.1–7.2).
pub fn phase(c: &Campaign, ctx: &TurnContext, dice: &mut dyn Dice) -> PhaseOutcome {
    let mut sec = Section::new("Sieges (7.1–7.2)");
    let mut effects = Vec::new();
    let from = ctx.from.0;
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
        let da = average_die(dice, &format!("7.1.1 {} holds out", s.name));
        let m = holdout_modifier(s, defender);
        let turns = (i64::from(da) + i64::from(m)).max(1) as u32;
        let rec = SiegeRecord {
            place: s.name.clone(),
            hex: s.hex,
            kind: SiegeKind::Investment,
            garrison_original: men_of(c, &garrison, false),
            investors_original: men_of(c, &investors, false),
            garrison,
            investors,
            defender,
            began: from,
            holds_until: from + turns,
            train_since: None,
            repulsed: 0,
            action: SiegeAction::None,
            state: SiegeState::Active,
            ended: None,
        };
        let line = format!(
            "{} ({}) invested by {}: the garrison {} ({} men) holds out 1dA {da}{} = {turns} turns, until turn {} (7.1.1); the investment cuts the supply line it generates",
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
    // Every active record, the new ones included (their first turn of losses, 7.2).
    let mut records: Vec<SiegeRecord> =
        c.books.sieges.iter().filter(|r| r.state == SiegeState::Active).cloned().collect();
    records.extend(effects.iter().filter_map(|e| match e {
        Effect::Siege(r) => Some(r.clone()),
        _ => None,
    }));
    for rec in records {
        let mut more = settle(c, ctx, rec, dice, &mut sec);
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

/// One record's turn: its losses, then the first of its endings that applies.
fn settle(
    c: &Campaign,
    ctx: &TurnContext,
    mut rec: SiegeRecord,
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
    let end = |mut rec: SiegeRecord, state: SiegeState, out: &mut Vec<Effect>| {
        rec.state = state;
        rec.ended = Some(from);
        rec.action = SiegeAction::None;
        out.push(Effect::Siege(rec));
    };
    if s.invested_by.is_none_or(|n| n.side() != investor) {
        sec.both(defender, format!("{place}: no longer invested; the siege ends (invested_by cleared)."));
        sec.side(investor, format!("{place}: the investment is over."));
        end(rec, SiegeState::Ended, &mut out);
        return out;
    }
    let garrison = present(c, &rec.garrison, |u| u.hex == Some(rec.hex));
    let investors = present(c, &rec.investors, |u| {
        u.hex.is_some_and(|h| h == rec.hex || c.map.grid.adjacent(h, rec.hex))
    });
    if garrison.is_empty() {
        sec.both(investor, format!("{place}: the garrison is gone; the investment ends."));
        end(rec, SiegeState::Ended, &mut out);
        return out;
    }
    if investors.is_empty() {
        sec.both(defender, format!("{place}: the investing forces have gone; the siege is lifted."));
        end(rec, SiegeState::Lifted, &mut out);
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
    let half = |orig: u32, now: u32| u64::from(now) * 2 < u64::from(orig);
    if half(rec.garrison_original, g_after) {
        sec.both(investor, format!("{place}: the garrison is down to {g_after} of {} men, under half: it surrenders (7.2); {g_after} prisoners.", rec.garrison_original));
        sec.side(defender, format!("{place}: the garrison, under half its strength, surrenders (7.2)."));
        out.extend(capture_after(c, &garrison, investor, &out));
        end(rec, SiegeState::Taken, &mut out);
        return out;
    }
    if half(rec.investors_original, i_after) {
        sec.both(investor, format!("{place}: the besiegers are down to {i_after} of {} men, under half: they lift the siege and withdraw (7.2).", rec.investors_original));
        sec.side(defender, format!("{place}: the besiegers lift the siege (7.2)."));
        end(rec, SiegeState::Lifted, &mut out);
        return out;
    }
    let after_first_turn = from > rec.began;
    let with_train = rec.train_since.is_some();
    // A summons accepted: the honours of war.
    if rec.action == SiegeAction::Honours {
        let nation = c.oob.get(&garrison[0]).map_or(Nation::Sp, |u| u.nation);
        match honours_destination(c, s, nation) {
            Some(dest) => {
                sec.both(defender, format!("{place}: the garrison accepts the summons and marches out with the honours of war to {} ({}) (7.1.2).", dest.name, dest.hex));
                sec.side(investor, format!("{place}: the garrison marches out with the honours of war; the place is yours."));
                out.extend(garrison.iter().map(|f| Effect::Moved { force: f.clone(), hex: dest.hex }));
            }
            None => sec.umpire(format!(
                "{place}: the garrison marches out with the honours of war; no destination for {nation} is in settlements.csv (Toulouse, Lisbon or the provincial capital of '{}'): place it by hand",
                s.province
            )),
        }
        end(rec, SiegeState::Honours, &mut out);
        return out;
    }
    // 7.1.4: under the minimum garrison.
    let minimum = minimum_garrison(s.kind, s.citadel).unwrap_or(0);
    if after_first_turn && g_after < minimum && (u64::from(i_after) >= 4 * u64::from(g_after) || with_train) {
        sec.both(investor, format!(
            "{place}: {g_after} men, under the minimum garrison of {minimum} (2.5), against {} — capitulates after one turn (7.1.4); {g_after} prisoners.",
            if with_train { "a siege train".to_string() } else { format!("{i_after} men, at least four times as many") }
        ));
        sec.side(defender, format!("{place}: the garrison, under its minimum, capitulates (7.1.4)."));
        out.extend(capture_after(c, &garrison, investor, &out));
        end(rec, SiegeState::Taken, &mut out);
        return out;
    }
    // 7.1.3: the surprise assault on a garrison under a fifth of the besiegers.
    if after_first_turn
        && !with_train
        && rec.action == SiegeAction::Storm
        && u64::from(g_after) * 5 < u64::from(i_after)
    {
        let dd = average_die(dice, &format!("7.1.3 {place} defenders' losses"));
        let ad = average_die(dice, &format!("7.1.3 {place} assault losses"));
        let dl = per_cent(g_after, dd * 10);
        let al = per_cent(i_after, ad * 5);
        sec.both(investor, format!(
            "{place}: surprise assault on a garrison under a fifth of the besiegers ({g_after} against {i_after}, 7.1.3): the defenders lose 1dA {dd} × 10 % = {dl}, the attackers 1dA {ad} × 5 % = {al}; the garrison is captured."
        ));
        sec.side(defender, format!("{place}: stormed by surprise; the garrison is lost (7.1.3)."));
        let mut l = losses_over_after(c, &garrison, dl, &format!("7.1.3 assault on {place}"), &out, false);
        l.extend(losses_over_after(c, &investors, al, &format!("7.1.3 assault on {place}"), &out, false));
        out.append(&mut l);
        out.extend(capture_after(c, &garrison, investor, &out));
        end(rec, SiegeState::Taken, &mut out);
        return out;
    }
    // 7.1.2: breach and storm, one turn after the train arrives.
    if let Some(since) = rec.train_since
        && from > since
        && (rec.repulsed == 0 || rec.action == SiegeAction::Storm)
    {
        let a2 = dice.roll(6, &format!("7.1.2 {place} storm, attacker"))
            + dice.roll(6, &format!("7.1.2 {place} storm, attacker"));
        let d2 = dice.roll(6, &format!("7.1.2 {place} storm, defender"))
            + dice.roll(6, &format!("7.1.2 {place} storm, defender"));
        let (au, du) = (battalions_and_batteries(c, &investors), battalions_and_batteries(c, &garrison));
        let (at, dt) = (a2 + au, d2 + du);
        let ad = average_die(dice, &format!("7.1.2 {place} attacker's infantry losses"));
        let dd = average_die(dice, &format!("7.1.2 {place} defender's losses"));
        let a_inf = after_infantry(c, &investors, &out);
        let al = per_cent(a_inf, ad * 5);
        let dl = per_cent(g_after, dd * 5);
        let won = at > dt;
        sec.umpire(format!(
            "{place}: breached and summoned; the summons is refused and the place is stormed (7.1.2): attacker 2d6 {a2} + {au} battalions and batteries = {at}, defender 2d6 {d2} + {du} = {dt} → {}; losses: attacker's infantry 1dA {ad} × 5 % of {a_inf} = {al}, defender 1dA {dd} × 5 % of {g_after} = {dl}",
            if won { "the attacker wins: the garrison is captured" } else { "the storm is driven back" }
        ));
        let mut l = losses_over_after(c, &investors, al, &format!("7.1.2 storm of {place}"), &out, true);
        l.extend(losses_over_after(c, &garrison, dl, &format!("7.1.2 storm of {place}"), &out, false));
        out.append(&mut l);
        if won {
            sec.side(investor, format!("{place}: stormed and taken; the garrison is captured (7.1.2)."));
            sec.side(defender, format!("{place}: stormed; the garrison is captured (7.1.2)."));
            out.extend(capture_after(c, &garrison, investor, &out));
            end(rec, SiegeState::Taken, &mut out);
            return out;
        }
        sec.side(
            investor,
            format!("{place}: the storm is driven back; storm again next turn or starve it out (7.1.2)."),
        );
        sec.side(defender, format!("{place}: the storm is driven back (7.1.2)."));
        rec.repulsed += 1;
        rec.action = SiegeAction::None;
        out.push(Effect::Siege(rec));
        return out;
    }
    // 7.1.1: the investment runs out.
    if from >= rec.holds_until {
        sec.both(
            investor,
            format!(
                "{place}: held out to turn {} and capitulates (7.1.1); {g_after} prisoners.",
                rec.holds_until
            ),
        );
        sec.side(defender, format!("{place}: the garrison capitulates (7.1.1)."));
        out.extend(capture_after(c, &garrison, investor, &out));
        end(rec, SiegeState::Taken, &mut out);
        return out;
    }
    sec.umpire(format!(
        "{place}: holds (until turn {}); garrison {g_after}, besiegers {i_after} men",
        rec.holds_until
    ));
    rec.action = SiegeAction::None;
    out.push(Effect::Siege(rec));
    out
}

/// Loss effects over some forces, on the men left after the effects so far.
fn losses_over_after(
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

fn after_infantry(c: &Campaign, forces: &[String], so_far: &[Effect]) -> u32 {
    let mut cc = c.clone();
    crate::rules::effects::apply_effects(&mut cc, so_far, 0);
    men_of(&cc, forces, true)
}

/// The garrison captured, with the men and guns it has after the effects so far.
fn capture_after(c: &Campaign, garrison: &[String], by: Side, so_far: &[Effect]) -> Vec<Effect> {
    let mut cc = c.clone();
    crate::rules::effects::apply_effects(&mut cc, so_far, 0);
    capture(&cc, garrison, by)
}

#[cfg(test)]
mod tests;
