//! A side's dispatch for a turn: `turns/T<n>/<side>.md` and the page beside it,
//! `turns/T<n>/<side>.html`, what the umpire sends that side's players as the turn begins.
//!
//! Everything in it is drawn from the one "what this side knows" view
//! (`rules::intel::known::side_view`), the side's own lines of each phase, its own forces'
//! supply, its own battles' carry-over and the rules' public books (the score): the side's
//! map, its forces and their supply, the enemy as last seen with the age of each report, the
//! battles it fought on the turn that ended as after-action reports from its side, the Junta
//! cards (Allies), the line of communications (French) and the campaign score so far (4.0).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use crate::formats::html::{Page, Text};
use crate::formats::svg::map::{MapHeading, MapOptions, Window, campaign_map};
use crate::model::battle::BattleRecord;
use crate::model::carryover::UnitCarryover;
use crate::model::oob::{IdMap, IdSet};
use crate::model::{Campaign, HexId, Side, Turn};
use crate::rules::intel::known::{ForcesView, KnownForce, side_view};
use crate::rules::intel::{Reading, reported_guns, reported_men};
use crate::rules::supply::{ForceSupply, SupplyReport};
use crate::rules::turn::TurnRun;
use crate::rules::zoc::Contact;

/// A battle whose result was applied on the turn that ended, with what its side reports are
/// made from.
#[derive(Debug, Clone)]
pub struct BattleFought {
    /// The battle's record (applied).
    pub record: BattleRecord,
    /// The carry-over of every unit that fought, as its result was applied (the journal's).
    pub carryover: Vec<UnitCarryover>,
    /// The umpire's battle report (`battles/<id>/report.md`), for the withdrawal and
    /// penalty lines that name the side's own forces.
    pub report: String,
    /// Each side's view of the battle's neighbourhood (`battles/<id>/briefings/<side>.svg`).
    pub pictures: BTreeMap<Side, Vec<u8>>,
}

/// A side's dispatch: its Markdown and its page.
#[derive(Debug, Clone)]
pub struct Dispatch {
    /// `turns/T<n>/<side>.md`.
    pub markdown: String,
    /// `turns/T<n>/<side>.html`: the map, the same text, the battles' pictures.
    pub html: Vec<u8>,
}

fn who(side: Side) -> &'static str {
    match side {
        Side::French => "the French",
        Side::Allies => "the Allies",
    }
}

/// How a dispatch's map is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapDrawn {
    /// After the text, on the caller's thread.
    InTurn,
    /// On a thread of its own while the text is written: for a caller with a core to spare
    /// (the text and the map are each a few megabytes at scale, held at once).
    Beside,
}

/// The side's dispatch for the turn `run` begins, from `c` as the turn leaves it, its supply
/// on the new turn (`rules::turn::supply_after`) and its `contacts` (each found once for both
/// sides). The bytes are the same however the map is drawn.
pub fn dispatch(
    run: &TurnRun,
    supply_after: &SupplyReport,
    c: &Campaign,
    contacts: &[Contact],
    battles: &[BattleFought],
    side: Side,
    drawn: MapDrawn,
) -> Dispatch {
    let to = run.returns.to.turn;
    let supply: IdMap<&str, &ForceSupply> =
        supply_after.forces.iter().map(|f| (f.force.as_str(), f)).collect();
    let view = side_view(c, contacts, side, false).with_supply(|id| supply.get(id).map(|f| f.known()));
    let heading = MapHeading { title: c.config.name.clone(), turn: to, date: run.returns.to.date.clone() };
    let title = title(run, side);
    // The page begun with its map; the text, and the text as HTML.
    let map_page = || {
        let mut p = Page::new(&title);
        p.picture(
            "Your map: your forces and lines of supply, the enemy where last seen",
            &side_map(c, &view, side, &heading),
        );
        p
    };
    let markdown = || text(run, supply_after, c, &view, battles, side);
    // The page's text, under the page's own title.
    let render = |s: &str| Text::render(s.split_once('\n').map_or(s, |(_, rest)| rest));
    let (mut p, markdown, html) = match drawn {
        MapDrawn::InTurn => {
            let s = markdown();
            let p = map_page();
            let html = render(&s);
            (p, s, html)
        }
        MapDrawn::Beside => std::thread::scope(|scope| {
            let map = scope.spawn(map_page);
            let s = markdown();
            let html = render(&s);
            (map.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), s, html)
        }),
    };
    p.text(&html);
    drop(html);
    for b in own_battles(battles, side) {
        if let Some(svg) = b.pictures.get(&side) {
            p.picture(
                &format!(
                    "Battle {} at {}: your view of the field before the battle",
                    b.record.id, b.record.place
                ),
                svg,
            );
        }
    }
    Dispatch { markdown, html: p.finish() }
}

/// The dispatch's title.
fn title(run: &TurnRun, side: Side) -> String {
    format!("Turn {} — {}: {}", run.returns.to.turn, run.returns.to.date, who(side))
}

/// The battles of the turn the side fought in.
fn own_battles(battles: &[BattleFought], side: Side) -> Vec<&BattleFought> {
    battles.iter().filter(|b| b.record.participants.iter().any(|p| p.side == side)).collect()
}

/// The dispatch's text (Markdown).
fn text(
    run: &TurnRun,
    supply_after: &SupplyReport,
    c: &Campaign,
    view: &ForcesView,
    battles: &[BattleFought],
    side: Side,
) -> String {
    let to = run.returns.to.turn;
    let title = title(run, side);
    let mut s = format!("# {title}\n\n");
    let _ = writeln!(
        s,
        "The dispatch of {} for turn {to}: what the side knows as the turn begins. Enemy forces are \
         where they were last seen, with the turn of the report.\n",
        who(side)
    );
    forces_lines(&mut s, view, side, to);
    let own = own_battles(battles, side);
    let _ = writeln!(s, "\n## Battles fought on turn {}", run.returns.from.turn);
    if own.is_empty() {
        let _ = writeln!(s, "\nNone.");
    }
    for b in &own {
        s.push_str(&after_action(b, side));
    }
    listed(&mut s, "Standing orders", &standing_orders(c, side));
    listed(&mut s, "Intercepted messages", &intercepted(c, side, run.returns.from.turn));
    for p in &run.phases {
        let lines = match side {
            Side::French => &p.section.french,
            Side::Allies => &p.section.allies,
        };
        if !lines.is_empty() {
            listed(&mut s, &p.section.title, lines);
        }
    }
    match side {
        Side::Allies => listed(&mut s, "Junta cards standing (5.1)", &junta_cards(c, to)),
        Side::French => listed(&mut s, "Line of communications (3.5)", &communications(supply_after)),
    }
    s.push_str(&super::supply::side_section(supply_after, side));
    score_lines(&mut s, c, side, Turn(to));
    s
}

/// A section of bullet lines, "None." when it has none.
fn listed(s: &mut String, title: &str, lines: &[String]) {
    let _ = writeln!(s, "\n## {title}\n");
    if lines.is_empty() {
        let _ = writeln!(s, "None.");
    }
    for l in lines {
        let _ = writeln!(s, "- {l}");
    }
}

/// The side's standing orders as the campaign holds them (`standing-orders.csv`).
fn standing_orders(c: &Campaign, side: Side) -> Vec<String> {
    super::standing::lines(c, Some(side))
}

/// The enemy messages and orders the side caught on its supply lines during turn `turn`
/// (6.3.1, `messages.csv`): what each said, from whom to whom, where it was caught.
fn intercepted(c: &Campaign, side: Side, turn: u32) -> Vec<String> {
    c.messages
        .iter()
        .filter(|m| m.side == side && m.turn == turn)
        .map(|m| {
            format!(
                "Day {}, from {} to {}, caught at {} on the supply line of {} (6.3.1): \"{}\"",
                m.day, m.from, m.to, m.hex, m.line_of, m.text
            )
        })
        .collect()
}

/// How old a report of turn `seen` is on turn `now`: "seen T20 (2 turns ago)".
pub fn age(seen: u32, now: u32) -> String {
    match now.saturating_sub(seen) {
        0 => format!("seen T{seen} (this turn)"),
        1 => format!("seen T{seen} (1 turn ago)"),
        n => format!("seen T{seen} ({n} turns ago)"),
    }
}

fn forces_lines(s: &mut String, v: &ForcesView, side: Side, now: u32) {
    let _ = writeln!(s, "## Your forces\n");
    for f in v.forces.iter().filter(|f| f.side() == side) {
        let st = f.strength.unwrap_or_default();
        let guns = if st.guns > 0 { format!(", {} guns", st.guns) } else { String::new() };
        let supply = match &f.supply {
            Some(k) if k.in_supply => "; in supply",
            Some(_) => "; out of supply",
            None => "",
        };
        let _ = writeln!(s, "- {} ({}) at {}: {} men{guns}{supply}", f.name, f.id, f.hex, st.men());
    }
    let _ = writeln!(s, "\n## Enemy forces known\n");
    let enemies: Vec<&KnownForce> = v.forces.iter().filter(|f| f.side() != side).collect();
    if enemies.is_empty() {
        let _ = writeln!(s, "None known.");
    }
    let touching = in_contact(v);
    for f in enemies {
        let mut what = Vec::new();
        if touching.contains(f.id.as_str()) {
            what.push(format!("in contact at {}", f.hex));
        }
        if let Some(r) = &f.reported {
            let guns = if r.guns > 0 { format!(", {} guns", r.guns) } else { String::new() };
            what.push(format!("{} at {}, about {} men{guns}", age(r.turn, now), r.hex, r.men));
        }
        let _ = writeln!(s, "- {} ({}): {}", f.name, f.id, what.join("; "));
    }
}

/// The forces of the view in contact with one of the other side's.
fn in_contact(v: &ForcesView) -> IdSet<&str> {
    v.contacts.iter().flat_map(|k| [k.french.as_str(), k.allies.as_str()]).collect()
}

/// The Junta cards standing on turn `to` (5.1): the face cards drawn for the Allied generals.
fn junta_cards(c: &Campaign, to: u32) -> Vec<String> {
    c.books
        .junta_cards
        .iter()
        .filter(|k| k.turn <= to && to < k.until)
        .map(|k| {
            format!(
                "{} ({}): {}, drawn turn {}, stands until turn {}: {}",
                k.commander, k.force, k.card, k.turn, k.until, k.order
            )
        })
        .collect()
}

/// Each French force's line of communications back to France (3.5).
fn communications(supply_after: &SupplyReport) -> Vec<String> {
    supply_after
        .communications
        .iter()
        .map(|k| match k.state {
            "open" => format!(
                "{}: open to {} ({} hexes)",
                k.force,
                k.to.as_deref().unwrap_or("France"),
                k.path.len().saturating_sub(1)
            ),
            _ => format!(
                "{}: CUT{}: {}; no replacements",
                k.force,
                k.break_hex.map(|h| format!(" at {h}")).unwrap_or_default(),
                k.reason.as_deref().unwrap_or("cut")
            ),
        })
        .collect()
}

/// Men and guns out of the ranks, and what became of them, summed over some units.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    before: u64,
    after: u64,
    killed: u64,
    wounded: u64,
    stragglers: u64,
    drowned: u64,
    captured: u64,
    guns_before: u64,
    guns_after: u64,
    guns_taken: u64,
}

fn tally<'a>(rows: impl Iterator<Item = &'a UnitCarryover>) -> Tally {
    let mut t = Tally::default();
    for r in rows {
        t.before += u64::from(r.men_before);
        t.after += u64::from(r.men_after);
        t.killed += u64::from(r.killed);
        t.wounded += u64::from(r.wounded_returning + r.wounded_captured + r.wounded_lost);
        t.stragglers += u64::from(r.stragglers_returning + r.stragglers_lost);
        t.drowned += u64::from(r.stragglers_drowned);
        t.captured += u64::from(r.wounded_captured + r.stragglers_captured);
        t.guns_before += u64::from(r.guns_before);
        t.guns_after += u64::from(r.guns_after);
        t.guns_taken += u64::from(r.guns_captured_by_enemy);
    }
    t
}

/// The 8.5 reading a side had before the battle, from the battle's logged dice: its die for
/// the enemy's men and guns (a d6 with more points, d8 with fewer or as many, d10 with at
/// most half), a d6 being 2× more exactly when the enemy rolled a d10.
fn reading_of(b: &BattleRecord, side: Side) -> Option<(Reading, u32, u32)> {
    let die = |s: Side, what: &str| {
        let prefix = format!("8.5 {s} intelligence: enemy {what} (d");
        b.dice.iter().find(|r| r.purpose.starts_with(&prefix)).map(|r| (r.sides, r.value))
    };
    let (sides, men) = die(side, "men")?;
    let (_, guns) = die(side, "guns")?;
    let enemy = die(side.enemy(), "men").map(|(s, _)| s);
    let reading = match (sides, enemy) {
        (6, Some(10)) => Reading::TwiceMore,
        (6, _) => Reading::More,
        (8, _) => Reading::Fewer,
        _ => Reading::TwiceFewer,
    };
    Some((reading, men, guns))
}

/// A battle's after-action report from `side`'s point of view.
fn after_action(b: &BattleFought, side: Side) -> String {
    let r = &b.record;
    let mut s = String::new();
    let verdict = match r.result.as_ref().and_then(|x| x.winner) {
        Some(w) if w == side => "victory",
        Some(_) => "defeat",
        None => "draw",
    };
    let _ = writeln!(s, "\n### {}, battle {}: {verdict}\n", r.site(), r.id);
    let ours: Vec<&str> =
        r.participants.iter().filter(|p| p.side == side).map(|p| p.force.as_str()).collect();
    let _ = writeln!(s, "- Your forces engaged: {}.", ours.join(", "));
    // The side of each unit of the battle, by the record's exported units.
    let sides: HashMap<&str, Side> = r.units.iter().map(|u| (u.unit.as_str(), u.side)).collect();
    let unit_side = |u: &UnitCarryover| sides.get(u.unit.as_str()).copied();
    let mine = tally(b.carryover.iter().filter(|u| unit_side(u) == Some(side)));
    let theirs = tally(b.carryover.iter().filter(|u| unit_side(u) == Some(side.enemy())));
    let drowned = if mine.drowned > 0 { format!(", drowned {}", mine.drowned) } else { String::new() };
    let _ = writeln!(
        s,
        "- Your losses: {} of {} men out of the ranks (killed {}, wounded {}, stragglers {}{drowned}, taken \
         prisoner {}: wounded and stragglers the enemy took), {} guns lost.",
        mine.before - mine.after,
        mine.before,
        mine.killed,
        mine.wounded,
        mine.stragglers,
        mine.captured,
        mine.guns_before - mine.guns_after
    );
    let mut due: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
    for u in b.carryover.iter().filter(|u| unit_side(u) == Some(side)) {
        due.entry(u.stragglers_return_turn).or_default().0 += u64::from(u.stragglers_returning);
        due.entry(u.wounded_return_turn).or_default().1 += u64::from(u.wounded_returning);
    }
    let due: Vec<String> = due
        .iter()
        .filter(|(_, (st, wo))| st + wo > 0)
        .map(|(t, (st, wo))| format!("{} men on turn {t} ({st} stragglers, {wo} wounded)", st + wo))
        .collect();
    let due = if due.is_empty() { "none".to_string() } else { due.join("; ") };
    let _ = writeln!(s, "- Returning to the ranks: {due}.");
    let _ = writeln!(s, "- Prisoners taken: {} men, {} guns.", theirs.captured, theirs.guns_taken);
    let _ = writeln!(s, "- {}", enemy_losses(r, side, &theirs));
    let lines = own_report_lines(b, side);
    if lines.is_empty() {
        let _ = writeln!(s, "- Withdrawal and penalties: none for your forces.");
    }
    for l in lines {
        let _ = writeln!(s, "- {l}");
    }
    s
}

/// The enemy's losses as the side estimates them: the true figures off by the errors its
/// own 8.5 dice gave it before the battle, men to the nearest 50.
fn enemy_losses(r: &BattleRecord, side: Side, theirs: &Tally) -> String {
    let Some((reading, men_die, guns_die)) = reading_of(r, side) else {
        return "The enemy's losses: not estimated (no intelligence dice of 8.5 in the battle's record)."
            .to_string();
    };
    let lost = u32::try_from(theirs.before - theirs.after).unwrap_or(u32::MAX);
    let guns = u32::try_from(theirs.guns_before - theirs.guns_after).unwrap_or(u32::MAX);
    format!(
        "The enemy's losses, as your officers estimate them: about {} men and {} guns (±{} %, by the reading of \
         8.5 before the battle).",
        reported_men(lost, reading.error_pct(men_die)),
        reported_guns(guns, reading.error_pct(guns_die)),
        reading.accuracy_pct()
    )
}

/// The lines of the battle report's withdrawal (8.4) and penalties (6.5.2) that name one of
/// the side's own forces or units and none of the enemy's.
fn own_report_lines(b: &BattleFought, side: Side) -> Vec<String> {
    let forces = |s: Side| -> Vec<&str> {
        let mut v: Vec<&str> =
            b.record.participants.iter().filter(|p| p.side == s).map(|p| p.force.as_str()).collect();
        v.extend(b.record.units.iter().filter(|u| u.side == s).map(|u| u.unit.as_str()));
        v
    };
    let (own, enemy) = (forces(side), forces(side.enemy()));
    let names = |ids: &[&str], line: &str| {
        line.split(|ch: char| !(ch.is_alphanumeric() || ch == '-' || ch == '_'))
            .any(|w| ids.iter().any(|id| w == *id || w.strip_prefix(id).is_some_and(|r| r.starts_with('-'))))
    };
    let mut out = Vec::new();
    let mut keep = false;
    for line in b.report.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            keep = h.starts_with("Withdrawal") || h.starts_with("Penalties");
            continue;
        }
        let l = line.trim_start_matches("- ").trim();
        if keep && !l.is_empty() && names(&own, l) && !names(&enemy, l) {
            out.push(l.to_string());
        }
    }
    out
}

/// The campaign score so far (4.0): the year's occupation turns and battles, through the
/// rules' own count of a year; the occupation's turns are the French's to know until the
/// year's end tells both sides.
fn score_lines(s: &mut String, c: &Campaign, side: Side, now: Turn) {
    let year = now.campaign_year();
    let _ = writeln!(s, "\n## The campaign score (4.0)\n");
    for y in c.books.years.iter().filter(|y| y.year < year) {
        let _ = writeln!(
            s,
            "- Campaign year {}: occupation {:+}, battles won {} lost {} drawn {} → score {:+}: the {} won the year.",
            y.year, y.occupation, y.won, y.lost, y.drawn, y.score, y.winner
        );
    }
    let fr = c.score.iter().find(|r| r.year == year && r.side == Side::French);
    let (w, l, d) = fr.map_or((0, 0, 0), |r| (r.battles_won, r.battles_lost, r.battles_drawn));
    let battles = crate::rules::score::battle_score(w, l);
    let test = if crate::rules::score::french_battles_succeed(w, l, d) { "met" } else { "not met" };
    let _ = writeln!(
        s,
        "- Campaign year {year} so far: French battles won {w}, lost {l}, drawn {d} ({battles:+}); the French \
         battle test (won more than lost or drawn) is {test} so far."
    );
    if side == Side::French {
        let turns: Vec<_> = c.books.occupation.iter().filter(|t| t.year == year).collect();
        let y = crate::rules::occupation::year_result(year, &c.books.occupation, w, l, d);
        let _ = writeln!(
            s,
            "- The occupation this year: {} {} counted, {:+} (4.0); the year's score so far {:+}.",
            turns.len(),
            if turns.len() == 1 { "turn" } else { "turns" },
            y.occupation,
            y.score
        );
    }
}

/// The part of the map the dispatch shows: every hex within two of a force the side knows
/// (its own, the enemy as seen) and of its own lines of supply.
fn window(c: &Campaign, v: &ForcesView) -> Window {
    let mut hexes: BTreeSet<HexId> = v.forces.iter().map(|f| f.hex).collect();
    for f in &v.forces {
        if let Some(k) = &f.supply {
            hexes.extend(k.path.iter().copied());
        }
    }
    let grid = c.map.grid;
    let (Some(c0), Some(c1)) = (hexes.iter().map(|h| h.col).min(), hexes.iter().map(|h| h.col).max()) else {
        return Window::whole(grid);
    };
    let (r0, r1) =
        (hexes.iter().map(|h| h.row).min().unwrap_or(0), hexes.iter().map(|h| h.row).max().unwrap_or(0));
    let last = |n: u16| n.saturating_sub(1);
    Window {
        columns: (c0.saturating_sub(2), c1.saturating_add(2).min(last(grid.columns))),
        rows: (r0.saturating_sub(2), r1.saturating_add(2).min(last(grid.rows))),
    }
}

/// The side's map: its view with its own lines of supply, an enemy seen on an earlier turn
/// drawn fainter the older its report.
fn side_map(c: &Campaign, v: &ForcesView, side: Side, heading: &MapHeading) -> Vec<u8> {
    let shown = crate::rules::roads::map_known_to(c, side);
    let opts = MapOptions { zoc: false, supply: true, window: Some(window(c, v)) };
    let svg = campaign_map(&shown, v, heading, opts);
    let mut older: IdMap<String, String> = IdMap::default();
    let touching = in_contact(v);
    for f in v.forces.iter().filter(|f| f.side() != side && !touching.contains(f.id.as_str())) {
        let Some(r) = &f.reported else { continue };
        let age = heading.turn.saturating_sub(r.turn);
        let opacity = match age {
            0 | 1 => continue,
            2 => "0.75",
            3 => "0.6",
            _ => "0.45",
        };
        older.insert(
            crate::formats::html::escape(&f.id),
            format!(" opacity=\"{opacity}\" data-age=\"{age}\""),
        );
    }
    fainter(&svg, &older)
}

/// The picture with each counter group `<g data-force="ID"` whose id `older` holds given
/// that entry's attributes, in one pass over the picture.
fn fainter(svg: &[u8], older: &IdMap<String, String>) -> Vec<u8> {
    const KEY: &str = "<g data-force=\"";
    if older.is_empty() {
        return svg.to_vec();
    }
    let text = crate::formats::text::utf8_or_lossy(svg);
    let mut out = String::with_capacity(text.len() + 40 * older.len());
    let mut rest: &str = &text;
    while let Some(i) = rest.find(KEY) {
        let after = &rest[i + KEY.len()..];
        let Some(end) = after.find('"') else { break };
        out.push_str(&rest[..i + KEY.len() + end + 1]);
        if let Some(attrs) = older.get(&after[..end]) {
            out.push_str(attrs);
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn older_reports_are_made_fainter_in_one_pass() {
        let svg = b"<g data-force=\"SP-EXT\" data-side=\"allies\"><g data-force=\"SP-EXT-VAN\" data-side=\"allies\">";
        let older: IdMap<String, String> =
            [("SP-EXT".to_string(), " opacity=\"0.75\" data-age=\"2\"".to_string())].into_iter().collect();
        let out = String::from_utf8(fainter(svg, &older)).unwrap();
        assert_eq!(
            out,
            "<g data-force=\"SP-EXT\" opacity=\"0.75\" data-age=\"2\" data-side=\"allies\"><g data-force=\"SP-EXT-VAN\" data-side=\"allies\">"
        );
    }

    #[test]
    fn a_report_carries_its_age() {
        assert_eq!(age(20, 22), "seen T20 (2 turns ago)");
        assert_eq!(age(20, 21), "seen T20 (1 turn ago)");
        assert_eq!(age(21, 21), "seen T21 (this turn)");
    }
}
