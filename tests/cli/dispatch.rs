//! Each side's dispatch (`turns/T<n>/<side>.md` and `.html`): the README's battle day on the
//! example campaign (export Medellín, apply the example result, advance the turn), then each
//! side's dispatch searched for what only the other side knows — its units' ids, its
//! commanders' names, its forces' exact strengths and its exact losses — and read for the
//! battle from the side's own point of view and the age of every enemy report.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::*;
use crate::pictures::{parse_svg, render};

/// The battle day: Medellín exported, its example result applied, the turn advanced to 21.
fn battle_day() -> Camp {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let result = fixture("results").join("T20-18.28-example.result.csv").display().to_string();
    assert_code(&c.run(&["apply", &result]), 0);
    assert_code(&c.run(&["turn", "advance"]), 0);
    c
}

/// A `forces.csv` row: its id, parent, name, commander, side, men.
struct Row {
    id: String,
    parent: String,
    name: String,
    commander: String,
    side: &'static str,
    men: u32,
}

fn rows(c: &Camp) -> Vec<Row> {
    let text = c.read("forces.csv");
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let (id, parent, name, commander, nation, men) =
        (col("id"), col("parent"), col("name"), col("commander"), col("nation"), col("men"));
    rdr.records()
        .map(|r| r.unwrap())
        .map(|r| Row {
            id: r[id].to_string(),
            parent: r[parent].to_string(),
            name: r[name].to_string(),
            commander: r[commander].to_string(),
            side: if &r[nation] == "Fr" { "French" } else { "Allies" },
            men: r[men].parse().unwrap_or(0),
        })
        .collect()
}

/// Men of each top-level force: the sum over its subtree.
fn force_men(rows: &[Row]) -> BTreeMap<String, u32> {
    let parent: BTreeMap<&str, &str> = rows.iter().map(|r| (r.id.as_str(), r.parent.as_str())).collect();
    let mut out: BTreeMap<String, u32> = BTreeMap::new();
    for r in rows {
        let mut top = r.id.as_str();
        while let Some(p) = parent.get(top).filter(|p| !p.is_empty()) {
            top = p;
        }
        *out.entry(top.to_string()).or_default() += r.men;
    }
    out
}

/// The text a reader sees of a page: its tags taken away, entities read.
fn visible(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for ch in html.chars() {
        match ch {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(ch),
            _ => {}
        }
    }
    out.replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
}

/// True when `word` stands in `text` on its own: not inside a longer id or number.
fn holds(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '-' || c == '_' || c == '.' || c == ',';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        // A full stop or comma ends a word unless a digit follows it (12,345 or 18.28).
        let ends = match after {
            None => true,
            Some('.' | ',') => !text[i + word.len() + 1..].starts_with(|d: char| d.is_ascii_digit()),
            Some(c) => !part(c),
        };
        before.is_none_or(|c| !part(c)) && ends
    })
}

fn thousands(n: u32) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The forces the side's own map (`map --side`) shows: what its view holds.
fn known_ids(c: &Camp, side: &str) -> BTreeSet<String> {
    let out = c.tmp.path().join(format!("{side}-view.svg"));
    assert_code(&c.run(&["map", "--side", side, "--out", out.to_str().unwrap()]), 0);
    let svg = std::fs::read(&out).unwrap();
    parse_svg(&svg).iter().filter_map(|e| e.attr("data-force").map(str::to_string)).collect()
}

/// An enemy's exact losses in the battle, from the umpire's report: men before less after.
fn exact_losses(c: &Camp, side: &str) -> u32 {
    let report = c.read("battles/T20-18.28/report.md");
    let line = report.lines().find(|l| l.starts_with(&format!("| {side} |"))).unwrap();
    let cells: Vec<u32> = line.split('|').filter_map(|x| x.trim().parse().ok()).collect();
    cells[0] - cells[1]
}

#[test]
fn each_dispatch_holds_nothing_of_what_only_the_other_side_knows() {
    let c = battle_day();
    let rows = rows(&c);
    let men = force_men(&rows);
    for (side, enemy) in [("french", "Allies"), ("allies", "French")] {
        let md = c.read(&format!("turns/T21/{side}.md"));
        let html = visible(&c.read(&format!("turns/T21/{side}.html")));
        let known = known_ids(&c, side);
        let enemy_names: Vec<&str> =
            rows.iter().filter(|r| r.side == enemy && r.parent.is_empty()).map(|r| r.name.as_str()).collect();
        let mut ids = Vec::new();
        let mut names = Vec::new();
        let mut numbers = Vec::new();
        for r in rows.iter().filter(|r| r.side == enemy) {
            if !known.contains(&r.id) {
                ids.push(r.id.clone());
            }
            // A commander the side knows only by his force's name is no secret.
            if !r.commander.is_empty() && !enemy_names.iter().any(|n| n.contains(&r.commander)) {
                names.push(r.commander.clone());
            }
            if r.parent.is_empty() && men[&r.id] >= 100 {
                numbers.push(men[&r.id]);
            }
        }
        numbers.push(exact_losses(&c, enemy));
        assert!(ids.len() > 50, "the enemy's brigades and battalions are looked for: {}", ids.len());
        assert!(names.len() > 5, "{names:?}");
        for (what, text) in [("md", &md), ("html", &html)] {
            for id in &ids {
                assert!(!holds(text, id), "{side}.{what} names the enemy's {id}");
            }
            for n in &names {
                assert!(!holds(text, n), "{side}.{what} names the enemy's commander {n}");
            }
            for n in &numbers {
                for form in [n.to_string(), thousands(*n)] {
                    assert!(!holds(text, &form), "{side}.{what} gives the enemy's exact {form}");
                }
            }
        }
    }
    // The check can fail: the umpire's report holds what the players' dispatches must not.
    let umpire = c.read("turns/T21/report.md") + &c.read("battles/T20-18.28/report.md");
    assert!(holds(&umpire, &exact_losses(&c, "Allies").to_string()));
    assert!(holds(&umpire, "SP-EXT-VAN-1"));
}

#[test]
fn the_battle_is_in_both_dispatches_each_from_its_own_side() {
    let c = battle_day();
    let fr = c.read("turns/T21/french.md");
    let al = c.read("turns/T21/allies.md");
    assert!(fr.contains("### Medellin (18.28), battle T20-18.28: victory"), "{fr}");
    assert!(al.contains("### Medellin (18.28), battle T20-18.28: defeat"), "{al}");
    // Each side's own losses, exactly; the enemy's as its 8.5 reading estimates them.
    let (fr_lost, al_lost) = (exact_losses(&c, "French"), exact_losses(&c, "Allies"));
    assert!(fr.contains(&format!("- Your losses: {fr_lost} of ")), "{fr}");
    assert!(al.contains(&format!("- Your losses: {al_lost} of ")), "{al}");
    for (text, exact, band) in [(&fr, al_lost, 20), (&al, fr_lost, 30)] {
        let line =
            text.lines().find(|l| l.contains("The enemy's losses, as your officers estimate them")).unwrap();
        let about: u32 = line.split("about ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert!(about.is_multiple_of(50), "{line}");
        let (lo, hi) = (exact * (100 - band) / 100 - 25, exact * (100 + band) / 100 + 25);
        assert!((lo..=hi).contains(&about), "{about} of {exact} (±{band} %): {line}");
        assert!(line.contains(&format!("(±{band} %")), "{line}");
    }
    // Returns due and prisoners, each side its own.
    assert!(fr.contains("- Returning to the ranks: ") && fr.contains("on turn 24"), "{fr}");
    assert!(fr.contains("- Prisoners taken: "), "{fr}");
    // The withdrawal and the river's penalty are the beaten side's own news.
    assert!(al.contains("SP-EXT withdraws from 18.29 to Badajoz (13.29)"), "{al}");
    assert!(al.contains("brigade SP-EXT-VAN-1 unavailable until turn 23"), "{al}");
    assert!(!fr.contains("withdraws from"), "{fr}");
    assert!(fr.contains("- Withdrawal and penalties: none for your forces."), "{fr}");
    // The running score, each turn (4.0).
    assert!(fr.contains("- Campaign year 2 so far: French battles won 1, lost 0, drawn 0 (+1)"), "{fr}");
    assert!(fr.contains("the year's score so far +0"), "{fr}");
    assert!(al.contains("- Campaign year 2 so far: French battles won 1"), "{al}");
    assert!(!al.contains("The occupation this year"), "the taxes are the French's to know: {al}");
    // Juntas for the Allies, the line of communications for the French.
    assert!(al.contains("## Junta cards standing (5.1)") && !fr.contains("Junta"), "{fr}");
    assert!(fr.contains("## Line of communications (3.5)\n\n- FR-I: "), "{fr}");
    assert!(!al.contains("## Line of communications"), "{al}");
    // The places kept for standing orders and intercepted messages.
    for t in [&fr, &al] {
        assert!(t.contains("## Standing orders\n") && t.contains("## Intercepted messages\n"));
    }
    // The page holds the battle's picture the side was handed, and only its own.
    let page = c.read("turns/T21/allies.html");
    let handed = c.read("battles/T20-18.28/briefings/allies.svg");
    let marker = handed.lines().find(|l| l.contains("<title>")).unwrap().trim();
    assert!(page.contains(marker), "the side's view of the field is on its page");
    assert!(page.contains("Battle T20-18.28 at Medellin: your view of the field before the battle"));
}

#[test]
fn every_enemy_report_shows_its_age() {
    let c = battle_day();
    for side in ["french", "allies"] {
        let md = c.read(&format!("turns/T21/{side}.md"));
        let section = md.split("## Enemy forces known\n\n").nth(1).unwrap().split("\n\n").next().unwrap();
        let lines: Vec<&str> = section.lines().collect();
        assert!(lines.len() >= 5, "{section}");
        for l in &lines {
            assert!(l.contains("seen T20 (1 turn ago) at "), "{side}: {l}");
        }
        let html = visible(&c.read(&format!("turns/T21/{side}.html")));
        assert!(html.contains("seen T20 (1 turn ago)"), "{side}.html");
    }
    // A turn later the same news, if not renewed, is older; what is renewed is this turn's.
    assert_code(&c.run(&["turn", "advance"]), 0);
    let md = c.read("turns/T22/french.md");
    let section = md.split("## Enemy forces known\n\n").nth(1).unwrap().split("\n\n").next().unwrap();
    let page = c.read("turns/T22/french.html");
    let mut older = 0;
    for l in section.lines() {
        assert!(l.contains("seen T21 (1 turn ago)") || l.contains("seen T20 (2 turns ago)"), "{l}");
        // An older report is drawn fainter on the map; one in contact is seen now.
        let id = l.split(" (").nth(1).unwrap().split(')').next().unwrap();
        let faint = format!("<g data-force=\"{id}\" opacity=\"0.75\" data-age=\"2\"");
        assert_eq!(page.contains(&faint), l.contains("(2 turns ago)") && !l.contains("in contact"), "{l}");
        older += usize::from(page.contains(&faint));
    }
    assert!(older > 0, "{section}");
}

#[test]
fn the_dispatch_page_is_one_self_contained_file_whose_pictures_render() {
    let c = battle_day();
    for side in ["french", "allies"] {
        let page = c.read(&format!("turns/T21/{side}.html"));
        assert!(page.starts_with("<!DOCTYPE html>"), "{side}");
        for external in ["<script", "<link", "src=", "url(", "@import"] {
            assert!(!page.contains(external), "{side}: {external}");
        }
        let mut pictures = 0;
        let mut rest = page.as_str();
        while let Some(start) = rest.find("<svg ") {
            let end = rest[start..].find("</svg>").unwrap() + start + "</svg>".len();
            let svg = &rest[start..end];
            let elements = parse_svg(svg.as_bytes());
            let pixmap = render(svg.as_bytes());
            assert!(pixmap.width() > 400 && pixmap.height() > 300, "{side}: picture {pictures}");
            if pictures == 0 {
                // The side's map: its own counters, the enemy as seen.
                let own = if side == "french" { "FR-I" } else { "SP-EXT" };
                assert!(elements.iter().any(|e| e.attr("data-force") == Some(own)), "{side}: {own}");
                assert!(
                    elements.iter().any(|e| e.attr("data-supply") == Some(own)),
                    "{side}: its supply line"
                );
            }
            pictures += 1;
            rest = &rest[end..];
        }
        assert_eq!(pictures, 2, "{side}: the map and the battle's view");
    }
    // The same campaign gives the same bytes.
    let again = battle_day();
    for f in ["turns/T21/french.html", "turns/T21/allies.md"] {
        assert_eq!(c.read(f), again.read(f), "{f}");
    }
    // Undone, the turn takes its dispatches away.
    assert_code(&c.run(&["undo", "turn"]), 0);
    assert!(!c.path("turns/T21/french.html").exists() && !c.path("turns/T21").exists());
}

#[test]
fn a_battle_is_in_the_dispatch_of_the_turn_its_result_was_applied_and_only_there() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    // Advanced with the battle still pending: no battle yet.
    assert_code(&c.run(&["turn", "advance"]), 0);
    assert!(c.read("turns/T21/french.md").contains("## Battles fought on turn 20\n\nNone.\n"));
    let result = fixture("results").join("T20-18.28-example.result.csv").display().to_string();
    assert_code(&c.run(&["apply", &result]), 0);
    assert_code(&c.run(&["turn", "advance"]), 0);
    for (side, verdict) in [("french", "victory"), ("allies", "defeat")] {
        let md = c.read(&format!("turns/T22/{side}.md"));
        assert!(md.contains(&format!("### Medellin (18.28), battle T20-18.28: {verdict}")), "{md}");
    }
    assert_code(&c.run(&["turn", "advance"]), 0);
    assert!(!c.read("turns/T23/allies.md").contains("T20-18.28"));
}
