//! The turn's reports, as Markdown: `turns/T<n>/report.md` for the umpire (every phase's
//! lines, every die with its purpose and rule, every change), `french.md` and `allies.md` for
//! the players, built from the side's own lines of each phase and from the one "what this side
//! knows" view (`rules::intel::known`), so that a player's report shows nothing the side could
//! not know.

use std::fmt::Write as _;

use crate::model::{Campaign, Side};
use crate::rules::intel::known::{ForcesView, side_view};
use crate::rules::turn::TurnRun;

fn heading(run: &TurnRun) -> String {
    format!("Turn {} — {}", run.returns.to.turn, run.returns.to.date)
}

/// The umpire's report. `returns` is the returns phase's own text.
pub fn umpire_report(run: &TurnRun, returns: &str, seed: u64, stream: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {} (umpire)\n", heading(run));
    let _ = writeln!(
        s,
        "Turn {} ({}) ends; turn {} ({}) begins. Dice: seed {seed}, stream `{stream}`.\n",
        run.returns.from.turn, run.returns.from.date, run.returns.to.turn, run.returns.to.date
    );
    let _ = writeln!(s, "## Returns, penalties and ammunition (3.1, 6.5.2)\n");
    for l in returns.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let _ = writeln!(s, "    {l}");
    }
    for p in &run.phases {
        let _ = writeln!(s, "\n## {}\n", p.section.title);
        for l in &p.section.umpire {
            let _ = writeln!(s, "- {l}");
        }
    }
    let _ = writeln!(s, "\n## Men lost\n");
    if run.lost.is_empty() {
        let _ = writeln!(s, "None.");
    }
    for (u, m) in &run.lost {
        let _ = writeln!(s, "- {u}: {m}");
    }
    let _ = writeln!(s, "\n## Dice\n");
    if run.dice.is_empty() {
        let _ = writeln!(s, "No die was rolled.");
    } else {
        let _ = writeln!(s, "| # | die | roll | for |\n|---|---|---|---|");
        for (i, r) in run.dice.iter().enumerate() {
            let _ = writeln!(s, "| {} | d{} | {} | {} |", i + 1, r.sides, r.value, r.purpose);
        }
    }
    s
}

fn view_lines(s: &mut String, v: &ForcesView, side: Side) {
    let _ = writeln!(s, "## Your forces\n");
    for f in v.forces.iter().filter(|f| f.side() == side) {
        let st = f.strength.unwrap_or_default();
        let guns = if st.guns > 0 { format!(", {} guns", st.guns) } else { String::new() };
        let _ = writeln!(s, "- {} ({}) at {}: {} men{guns}", f.name, f.id, f.hex, st.men());
    }
    let _ = writeln!(s, "\n## Enemy forces known\n");
    let enemies: Vec<_> = v.forces.iter().filter(|f| f.side() != side).collect();
    if enemies.is_empty() {
        let _ = writeln!(s, "None known.");
    }
    for f in enemies {
        let contact = v.contacts.iter().any(|k| k.french == f.id || k.allies == f.id);
        let mut what = Vec::new();
        if contact {
            what.push(format!("in contact at {}", f.hex));
        }
        if let Some(r) = &f.reported {
            let guns = if r.guns > 0 { format!(", {} guns", r.guns) } else { String::new() };
            what.push(format!("reported at {} on turn {}, about {} men{guns}", r.hex, r.turn, r.men));
        }
        let _ = writeln!(s, "- {} ({}): {}", f.name, f.id, what.join("; "));
    }
}

/// A side's report, from its own lines of each phase and its view of the campaign after the
/// turn.
pub fn side_report(run: &TurnRun, c: &Campaign, side: Side) -> String {
    let mut s = String::new();
    let who = match side {
        Side::French => "the French",
        Side::Allies => "the Allies",
    };
    let _ = writeln!(s, "# {}: {who}\n", heading(run));
    let contacts = crate::rules::zoc::contacts(c);
    let v = side_view(c, &contacts, side, false);
    view_lines(&mut s, &v, side);
    for p in &run.phases {
        let lines = match side {
            Side::French => &p.section.french,
            Side::Allies => &p.section.allies,
        };
        if lines.is_empty() {
            continue;
        }
        let _ = writeln!(s, "\n## {}\n", p.section.title);
        for l in lines {
            let _ = writeln!(s, "- {l}");
        }
    }
    s
}
