//! The turn's books — `sieges.csv`, `siege-trains.csv`, `revolts.csv`, `occupation.csv`,
//! `campaign-years.csv`, `intelligence.csv` and the umpire's `juntas.csv` — read into
//! [`Books`] and written back. Every bad field is a problem naming file, line and field.

use std::collections::BTreeMap;

use crate::error::Problems;
use crate::model::books::{
    Books, CampaignYear, JuntaCard, JuntaEffect, JuntaOrder, OccupationOutcome, OccupationTurn, Revolt,
    SiegeAction, SiegeKind, SiegeRecord, SiegeState, SiegeTrain, Sighting,
};
use crate::model::dialect::Dialect;
use crate::model::{HexGrid, HexId, Nation, Side};

use super::campaign::CampaignFiles;
use super::table::{Fields, Table, write_csv};

/// `sieges.csv`.
pub const SIEGES: &str = "sieges.csv";
/// `siege-trains.csv`.
pub const TRAINS: &str = "siege-trains.csv";
/// `revolts.csv`.
pub const REVOLTS: &str = "revolts.csv";
/// `occupation.csv`.
pub const OCCUPATION: &str = "occupation.csv";
/// `campaign-years.csv`.
pub const YEARS: &str = "campaign-years.csv";
/// `intelligence.csv`.
pub const INTELLIGENCE: &str = "intelligence.csv";
/// `juntas.csv`.
pub const JUNTAS: &str = "juntas.csv";
/// `junta-orders.csv`.
pub const JUNTA_CARDS: &str = "junta-orders.csv";
/// Every file of the books.
pub const ALL: [&str; 8] = [SIEGES, TRAINS, REVOLTS, OCCUPATION, YEARS, INTELLIGENCE, JUNTAS, JUNTA_CARDS];

/// Columns of `sieges.csv`.
pub const SIEGE_COLUMNS: [&str; 15] = [
    "place",
    "hex",
    "kind",
    "garrison",
    "investors",
    "defender",
    "began",
    "garrison_original",
    "investors_original",
    "holds_until",
    "train_since",
    "repulsed",
    "action",
    "state",
    "ended",
];
/// Columns of `siege-trains.csv`.
pub const TRAIN_COLUMNS: [&str; 3] = ["nation", "hex", "arrived"];
/// Columns of `revolts.csv`.
pub const REVOLT_COLUMNS: [&str; 5] = ["place", "began", "until", "men_lost", "units"];
/// Columns of `occupation.csv`.
pub const OCCUPATION_COLUMNS: [&str; 7] = ["turn", "year", "controlled", "taxed", "good", "outcome", "score"];
/// Columns of `campaign-years.csv`.
pub const YEAR_COLUMNS: [&str; 9] = [
    "year",
    "occupation",
    "won",
    "lost",
    "drawn",
    "score",
    "winner",
    "french_reinforcements",
    "allied_reinforcements",
];
/// Columns of `intelligence.csv`.
pub const INTEL_COLUMNS: [&str; 11] =
    ["known", "side", "force", "name", "from", "hex", "moved", "men", "guns", "near", "die"];
/// Columns of `juntas.csv` (`effect` and `turns` optional).
pub const JUNTA_COLUMNS: [&str; 5] = ["suit", "rank", "order", "effect", "turns"];
/// Columns of `junta-orders.csv`.
pub const JUNTA_CARD_COLUMNS: [&str; 7] = ["turn", "commander", "force", "card", "effect", "until", "order"];

pub use crate::model::books::{FACES, SUITS};

fn word<T: Copy>(all: &[T], w: impl Fn(T) -> &'static str, text: &str, what: &str) -> Result<T, String> {
    let t = text.trim();
    all.iter().copied().find(|x| w(*x).eq_ignore_ascii_case(t)).ok_or_else(|| {
        let words: Vec<&str> = all.iter().map(|x| w(*x)).filter(|s| !s.is_empty()).collect();
        format!("'{t}' is not a {what} (expected one of: {})", words.join(", "))
    })
}

fn list(text: &str) -> Vec<String> {
    text.split(';').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

fn hex(f: &mut Fields<'_>, grid: &HexGrid, col: &str, required: bool) -> Option<HexId> {
    let h: Option<HexId> = if required { f.req(col) } else { f.opt(col) };
    let h = h?;
    if !grid.contains(h) {
        f.problem(col, format!("{h} is off the map"));
        return None;
    }
    Some(h)
}

fn table(files: &CampaignFiles, name: &'static str, p: &mut Problems, cols: &[&str]) -> Option<Table> {
    let t = Table::parse(name, files.get(name)?, p);
    t.require(cols, p).then_some(t)
}

/// Reads the books from the campaign's files (each file optional), with their dialects.
pub fn parse_books(
    files: &CampaignFiles,
    grid: &HexGrid,
    p: &mut Problems,
    dialects: &mut BTreeMap<&'static str, Dialect>,
) -> Books {
    let mut b = Books { intelligence_begun: files.get(INTELLIGENCE).is_some(), ..Books::default() };
    let mut seen = |t: &Table, name: &'static str| {
        dialects.insert(name, t.dialect);
    };
    if let Some(t) = table(files, SIEGES, p, &SIEGE_COLUMNS[..10]) {
        seen(&t, SIEGES);
        b.sieges = read_sieges(&t, grid, p);
    }
    if let Some(t) = table(files, TRAINS, p, &TRAIN_COLUMNS) {
        seen(&t, TRAINS);
        b.trains = read_trains(&t, grid, p);
    }
    if let Some(t) = table(files, REVOLTS, p, &REVOLT_COLUMNS) {
        seen(&t, REVOLTS);
        b.revolts = read_revolts(&t, p);
    }
    if let Some(t) = table(files, OCCUPATION, p, &OCCUPATION_COLUMNS[..6]) {
        seen(&t, OCCUPATION);
        b.occupation = read_occupation(&t, p);
    }
    if let Some(t) = table(files, YEARS, p, &YEAR_COLUMNS) {
        seen(&t, YEARS);
        b.years = read_years(&t, p);
    }
    if let Some(t) = table(files, INTELLIGENCE, p, &INTEL_COLUMNS) {
        seen(&t, INTELLIGENCE);
        b.intelligence = read_intelligence(&t, grid, p);
    }
    if let Some(t) = table(files, JUNTAS, p, &JUNTA_COLUMNS[..3]) {
        b.juntas = read_juntas(&t, p);
    }
    if let Some(t) = table(files, JUNTA_CARDS, p, &JUNTA_CARD_COLUMNS) {
        seen(&t, JUNTA_CARDS);
        b.junta_cards = read_junta_cards(&t, p);
    }
    b
}

/// The siege records of `sieges.csv`.
fn read_sieges(t: &Table, grid: &HexGrid, p: &mut Problems) -> Vec<SiegeRecord> {
    let mut out: Vec<SiegeRecord> = Vec::new();
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let place = f.text("place").to_string();
        if place.is_empty() {
            f.problem("place", "is empty");
        }
        let h = hex(&mut f, grid, "hex", true);
        let kind = match word(
            &[SiegeKind::Investment, SiegeKind::Siege],
            SiegeKind::word,
            f.text("kind"),
            "siege kind",
        ) {
            Ok(k) => Some(k),
            Err(e) => {
                f.problem("kind", e);
                None
            }
        };
        let state_text = f.text("state");
        let state = if state_text.is_empty() {
            Some(SiegeState::Active)
        } else {
            match word(&SiegeState::ALL, SiegeState::word, state_text, "siege state") {
                Ok(s) => Some(s),
                Err(e) => {
                    f.problem("state", e);
                    None
                }
            }
        };
        let action = match word(
            &[SiegeAction::None, SiegeAction::Storm, SiegeAction::Honours],
            SiegeAction::word,
            f.text("action"),
            "siege action",
        ) {
            Ok(a) => a,
            Err(e) => {
                f.problem("action", e);
                SiegeAction::None
            }
        };
        let defender: Option<Side> = f.req("defender");
        let began = f.req_count("began");
        let go = f.req_count("garrison_original");
        let io = f.req_count("investors_original");
        let until = f.req_count("holds_until");
        let train_since = f.count("train_since");
        let repulsed = f.count("repulsed").unwrap_or(0);
        let ended = f.count("ended");
        let (garrison, investors) = (list(f.text("garrison")), list(f.text("investors")));
        if let (
            Some(hex),
            Some(kind),
            Some(state),
            Some(defender),
            Some(began),
            Some(go),
            Some(io),
            Some(until),
        ) = (h, kind, state, defender, began, go, io, until)
        {
            out.push(SiegeRecord {
                place,
                hex,
                kind,
                garrison,
                investors,
                defender,
                began,
                garrison_original: go,
                investors_original: io,
                holds_until: until,
                train_since,
                repulsed,
                action,
                state,
                ended,
            });
        }
    }
    out
}

/// The siege trains of `trains.csv`, one per nation (6.4).
fn read_trains(t: &Table, grid: &HexGrid, p: &mut Problems) -> Vec<SiegeTrain> {
    let mut out: Vec<SiegeTrain> = Vec::new();
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let nation: Option<Nation> = f.req("nation");
        let h = hex(&mut f, grid, "hex", true);
        let arrived = f.req_count("arrived");
        if let Some(n) = nation {
            // 6.4: one per nation, Britain and Portugal counting as one.
            let same =
                |x: Nation| x == n || matches!((x, n), (Nation::Br, Nation::Po) | (Nation::Po, Nation::Br));
            if out.iter().any(|t| same(t.nation)) {
                f.problem("nation", format!("a second siege train for {n}: one per nation, Britain and Portugal counting as one (6.4)"));
                continue;
            }
        }
        if let Some(a) = arrived
            && matches!(crate::model::Turn(a).month_year().0, 10 | 11 | 0 | 1)
        {
            f.problem(
                "arrived",
                format!(
                    "turn {a} is in November–February: rivers may not carry siege trains then (6.4.1, 6.2)"
                ),
            );
            continue;
        }
        if let (Some(nation), Some(hex), Some(arrived)) = (nation, h, arrived) {
            out.push(SiegeTrain { nation, hex, arrived });
        }
    }
    out
}

/// The revolts of `revolts.csv`.
fn read_revolts(t: &Table, p: &mut Problems) -> Vec<Revolt> {
    let mut out: Vec<Revolt> = Vec::new();
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let place = f.text("place").to_string();
        let (began, until, lost, units) =
            (f.req_count("began"), f.req_count("until"), f.req_count("men_lost"), f.req_count("units"));
        if let (Some(began), Some(until), Some(men_lost), Some(units)) = (began, until, lost, units) {
            out.push(Revolt { place, began, until, men_lost, units });
        }
    }
    out
}

/// The turns of the occupation record.
fn read_occupation(t: &Table, p: &mut Problems) -> Vec<OccupationTurn> {
    let mut out: Vec<OccupationTurn> = Vec::new();
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let n = [
            f.req_count("turn"),
            f.req_count("year"),
            f.req_count("controlled"),
            f.req_count("taxed"),
            f.req_count("good"),
        ];
        let outcome = match word(
            &OccupationOutcome::ALL,
            OccupationOutcome::word,
            f.text("outcome"),
            "occupation outcome",
        ) {
            Ok(o) => Some(o),
            Err(e) => {
                f.problem("outcome", e);
                None
            }
        };
        if let ([Some(turn), Some(year), Some(controlled), Some(taxed), Some(good)], Some(outcome)) =
            (n, outcome)
        {
            out.push(OccupationTurn { turn, year, controlled, taxed, good, outcome });
        }
    }
    out
}

/// The campaign years of `years.csv`.
fn read_years(t: &Table, p: &mut Problems) -> Vec<CampaignYear> {
    let mut out: Vec<CampaignYear> = Vec::new();
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let year = f.req_count("year");
        let occupation: Option<i64> = f.req("occupation");
        let (won, lost, drawn) = (f.req_count("won"), f.req_count("lost"), f.req_count("drawn"));
        let score: Option<i64> = f.req("score");
        let winner: Option<Side> = f.req("winner");
        let fr: Option<i32> = f.req("french_reinforcements");
        let al: Option<i32> = f.req("allied_reinforcements");
        if let (
            Some(year),
            Some(occupation),
            Some(won),
            Some(lost),
            Some(drawn),
            Some(score),
            Some(winner),
            Some(fr),
            Some(al),
        ) = (year, occupation, won, lost, drawn, score, winner, fr, al)
        {
            out.push(CampaignYear {
                year,
                occupation,
                won,
                lost,
                drawn,
                score,
                winner,
                french_reinforcements: fr,
                allied_reinforcements: al,
            });
        }
    }
    out
}

/// The sightings of the intelligence record.
fn read_intelligence(t: &Table, grid: &HexGrid, p: &mut Problems) -> Vec<Sighting> {
    let mut out: Vec<Sighting> = Vec::new();
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let known = f.req_count("known");
        let side: Option<Side> = f.req("side");
        let force = f.id("force").to_string();
        let name = f.text("name").to_string();
        let from = hex(&mut f, grid, "from", false);
        let h = hex(&mut f, grid, "hex", true);
        let moved = f.req_count("moved");
        let (men, guns, die) =
            (f.count("men").unwrap_or(0), f.count("guns").unwrap_or(0), f.count("die").unwrap_or(0));
        let near = f.flag("near");
        if let (Some(known), Some(side), Some(hex), Some(moved)) = (known, side, h, moved) {
            out.push(Sighting { known, side, force, name, from, hex, moved, men, guns, near, die });
        }
    }
    out
}

/// The junta orders, one for each face card and ace (5.1).
fn read_juntas(t: &Table, p: &mut Problems) -> Vec<JuntaOrder> {
    let mut out: Vec<JuntaOrder> = Vec::new();
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let suit = f.text("suit").to_ascii_lowercase();
        let rank = f.text("rank").to_ascii_lowercase();
        let order = f.text("order").to_string();
        let effect = junta_effect(&mut f);
        let turns = if f.text("turns").trim().is_empty() { Some(1) } else { f.count("turns") };
        let mut ok = turns.is_some();
        if !SUITS.contains(&suit.as_str()) {
            f.problem("suit", format!("'{suit}' is not one of: {}", SUITS.join(", ")));
            ok = false;
        }
        if !FACES.contains(&rank.as_str()) {
            f.problem(
                "rank",
                format!("'{rank}' is not one of: {} (2–10 give no order, 5.1)", FACES.join(", ")),
            );
            ok = false;
        }
        if order.is_empty() {
            f.problem("order", "is empty");
            ok = false;
        }
        if ok {
            if out.iter().any(|j| j.suit == suit && j.rank == rank) {
                f.problem("rank", format!("the {rank} of {suit} is listed twice"));
                continue;
            }
            out.push(JuntaOrder { suit, rank, order, effect, turns: turns.unwrap_or(1).max(1) });
        }
    }
    if out.len() != 16 && t.rows.len() == out.len() {
        p.push(crate::error::Problem::in_file(
            JUNTAS,
            format!("{} orders: the table needs one for each of the 16 face cards and aces (5.1)", out.len()),
        ));
    }
    out
}

fn junta_effect(f: &mut Fields<'_>) -> JuntaEffect {
    let all = [JuntaEffect::None, JuntaEffect::Halt, JuntaEffect::Recall, JuntaEffect::Dismiss];
    match word(&all, JuntaEffect::word, f.text("effect"), "Junta order's effect") {
        Ok(e) => e,
        Err(m) => {
            f.problem("effect", m);
            JuntaEffect::None
        }
    }
}

/// The face cards drawn, of `junta-orders.csv`.
fn read_junta_cards(t: &Table, p: &mut Problems) -> Vec<JuntaCard> {
    let mut out = Vec::new();
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let effect = junta_effect(&mut f);
        let (Some(turn), Some(until)) = (f.count("turn"), f.count("until")) else { continue };
        out.push(JuntaCard {
            turn,
            commander: f.text("commander").to_string(),
            force: f.text("force").to_string(),
            card: f.text("card").to_string(),
            effect,
            until,
            order: f.text("order").to_string(),
        });
    }
    out
}

/// `junta-orders.csv`.
pub fn write_junta_cards(rows: &[JuntaCard], d: Dialect) -> Vec<u8> {
    write_csv(
        d,
        &JUNTA_CARD_COLUMNS,
        &[],
        rows.iter().map(|r| {
            vec![
                r.turn.to_string(),
                r.commander.clone(),
                r.force.clone(),
                r.card.clone(),
                r.effect.word().to_string(),
                r.until.to_string(),
                r.order.clone(),
            ]
        }),
    )
}

fn opt(v: Option<impl ToString>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// `sieges.csv`.
pub fn write_sieges(rows: &[SiegeRecord], d: Dialect) -> Vec<u8> {
    write_csv(
        d,
        &SIEGE_COLUMNS,
        &[],
        rows.iter().map(|s| {
            vec![
                s.place.clone(),
                s.hex.to_string(),
                s.kind.word().to_string(),
                s.garrison.join(";"),
                s.investors.join(";"),
                s.defender.to_string(),
                s.began.to_string(),
                s.garrison_original.to_string(),
                s.investors_original.to_string(),
                s.holds_until.to_string(),
                opt(s.train_since),
                s.repulsed.to_string(),
                s.action.word().to_string(),
                s.state.word().to_string(),
                opt(s.ended),
            ]
        }),
    )
}

/// `revolts.csv`.
pub fn write_revolts(rows: &[Revolt], d: Dialect) -> Vec<u8> {
    write_csv(
        d,
        &REVOLT_COLUMNS,
        &[],
        rows.iter().map(|r| {
            vec![
                r.place.clone(),
                r.began.to_string(),
                r.until.to_string(),
                r.men_lost.to_string(),
                r.units.to_string(),
            ]
        }),
    )
}

/// `occupation.csv`.
pub fn write_occupation(rows: &[OccupationTurn], d: Dialect) -> Vec<u8> {
    write_csv(
        d,
        &OCCUPATION_COLUMNS,
        &[],
        rows.iter().map(|r| {
            vec![
                r.turn.to_string(),
                r.year.to_string(),
                r.controlled.to_string(),
                r.taxed.to_string(),
                r.good.to_string(),
                r.outcome.word().to_string(),
                r.outcome.score().to_string(),
            ]
        }),
    )
}

/// `campaign-years.csv`.
pub fn write_years(rows: &[CampaignYear], d: Dialect) -> Vec<u8> {
    write_csv(
        d,
        &YEAR_COLUMNS,
        &[],
        rows.iter().map(|y| {
            vec![
                y.year.to_string(),
                y.occupation.to_string(),
                y.won.to_string(),
                y.lost.to_string(),
                y.drawn.to_string(),
                y.score.to_string(),
                y.winner.to_string(),
                format!("{:+}", y.french_reinforcements),
                format!("{:+}", y.allied_reinforcements),
            ]
        }),
    )
}

/// `intelligence.csv`.
pub fn write_intelligence(rows: &[Sighting], d: Dialect) -> Vec<u8> {
    write_csv(
        d,
        &INTEL_COLUMNS,
        &[],
        rows.iter().map(|s| {
            vec![
                s.known.to_string(),
                s.side.to_string(),
                s.force.clone(),
                s.name.clone(),
                opt(s.from),
                s.hex.to_string(),
                s.moved.to_string(),
                s.men.to_string(),
                s.guns.to_string(),
                if s.near { "yes" } else { "no" }.to_string(),
                s.die.to_string(),
            ]
        }),
    )
}
