//! The turn advance use case: moves the campaign to its next two-week turn (rule 6.1) and
//! applies what falls due — men returning from earlier battles, river-retreat penalties
//! running out, ammunition made good in supply — in one journalled, all-or-nothing commit.
//!
//! `campaign.toml` is changed by editing the one top-level `turn = N` line in place, so the
//! umpire's comments and layout stay byte for byte; the edit is proved by parsing the file
//! before and after and finding nothing else changed.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::formats::books;
use crate::formats::campaign::write_forces;
use crate::formats::ledger::{write_returns, write_score};
use crate::formats::report::supply::side_section;
use crate::formats::report::turn::{render_returns, side_report, summary, umpire_report};
use crate::formats::text::decode;
use crate::model::battle::BattleRecord;
use crate::model::{Campaign, HexId, Side};
use crate::rules::dice::SeededDice;
use crate::rules::turn::{TurnContext, TurnRun, run_turn};
use crate::store::journal::{Entry, StateFiles};
use crate::store::{CampaignDir, Commit};

pub use crate::formats::report::turn::Advanced;

/// The operation of a turn advance (see [`crate::commands::operation`]).
pub const OPERATION: &str = "turn advance";

/// The folder of a turn's reports.
pub fn reports_dir(turn: u32) -> String {
    format!("turns/T{turn}")
}

/// The three reports of a turn (relative paths).
pub fn report_paths(turn: u32) -> [String; 3] {
    let d = reports_dir(turn);
    [format!("{d}/report.md"), format!("{d}/french.md"), format!("{d}/allies.md")]
}

/// The dice stream of the turn advance out of `turn`.
pub fn dice_stream(turn: u32) -> String {
    format!("turn-T{turn}")
}

/// A turn advance asked for.
#[derive(Debug, Clone, Copy, Default)]
pub struct AdvanceRequest {
    /// Only say what would change; write nothing and take no lock.
    pub dry_run: bool,
}

/// A turn advanced, with the campaign value it leaves.
#[derive(Debug)]
pub struct Turned {
    /// What the turn advance did.
    pub advanced: Advanced,
    /// The campaign as the turn leaves it (as it would leave it, on a dry run).
    pub campaign: Campaign,
}

/// Moves the campaign to the next turn (or, on a dry run, only says what would change).
/// `pending` is handed the battles still waiting for a result before anything changes (a
/// battle left pending is a result forgotten, and its losses would fall into the wrong turn).
/// Takes the campaign lock unless it is a dry run.
pub fn advance(
    dir: &CampaignDir,
    req: AdvanceRequest,
    pending: impl FnOnce(&[BattleRecord]),
) -> Result<Turned> {
    let waiting: Vec<BattleRecord> = dir.battles()?.into_iter().filter(|b| b.state.is_pending()).collect();
    pending(&waiting);
    let dry_run = req.dry_run;
    let lock = dir.lock_unless_dry_run(dry_run)?;
    let mut txn = match &lock {
        Some(l) => Some(dir.begin(l)?),
        None => None,
    };
    let mut c = dir.load()?;
    let from = c.turn();
    if from.0 >= crate::model::limits::MAX_TURN {
        return Err(Error::refused(format!(
            "campaign.toml: turn {from} is the last a campaign may reach (at most {}); nothing changed",
            crate::model::limits::MAX_TURN
        )));
    }
    let ctx = TurnContext { from, to: from.next(), moved: moved_forces(dir, &c)? };
    let stream = dice_stream(from.0);
    let mut dice = SeededDice::new(c.config.seed, &stream);
    let returns_before = c.returns.len();
    let run = run_turn(&mut c, &ctx, &mut dice);
    let pending_battles: Vec<String> =
        dir.battles()?.into_iter().filter(|b| b.state.is_pending()).map(|b| b.id).collect();
    let changes = run.returns.clone();
    let mut r = Advanced {
        returned_by_unit: changes.returned_by_unit(),
        returned_by_kind: changes.totals_by_kind(),
        men_returned: changes.men_returned(),
        changes,
        phases: run.phases.clone(),
        lost: run.lost.clone(),
        dice: run.dice.clone(),
        reports: report_paths(ctx.to.0).to_vec(),
        supply: run.supply.clone(),
        pending_battles,
        dry_run,
        journal_seq: 0,
    };
    let current = match &mut txn {
        Some(t) => t.current()?.clone(),
        None => dir.read_state()?,
    };
    let toml = current.get("campaign.toml").cloned().flatten().unwrap_or_default();
    let new_toml = set_turn(&toml, r.changes.to.turn)?;
    let Some(txn) = txn else { return Ok(Turned { advanced: r, campaign: c }) };
    let mut new_files = state_files(&c, &current, returns_before, &r)?;
    new_files.insert("campaign.toml".to_string(), Some(new_toml));
    let extra = reports(&run, &c, &r, &stream);
    let entry = Entry::turn_advance(
        r.changes.to.turn,
        summary(&r),
        run.dice.clone(),
        r.returned_by_unit.iter().map(|(u, m)| (u.clone(), *m)).collect(),
        run.lost.clone(),
    );
    r.journal_seq = txn.finish(new_files, Some(entry), extra)?;
    Ok(Turned { advanced: r, campaign: c })
}

/// The state files the turn leaves (`campaign.toml` aside): control and supply, the forces,
/// the returns, the score and the books, each written from the campaign value.
fn state_files(
    c: &Campaign,
    current: &StateFiles,
    returns_before: usize,
    r: &Advanced,
) -> Result<StateFiles> {
    let mut new_files: StateFiles = BTreeMap::new();
    // Control as the turn leaves it (computed in the supply phase, places taken in the siege
    // phase): one route from the campaign value into `settlements.csv`.
    super::turn_files::phase_files(c, current, &mut new_files)?;
    new_files.insert("forces.csv".to_string(), Some(write_forces(&c.oob, c.dialect("forces.csv"))));
    // Rows returned, or taken with a force taken prisoner.
    if !r.changes.returns.is_empty() || c.returns.len() != returns_before {
        new_files
            .insert("returns.csv".to_string(), Some(write_returns(&c.returns, c.dialect("returns.csv"))));
    }
    if current.get("score.csv").is_some_and(Option::is_some) || !c.score.is_empty() {
        new_files.insert("score.csv".to_string(), Some(write_score(&c.score, c.dialect("score.csv"))));
    }
    let b = &c.books;
    let mut book = |name: &str, rows: usize, bytes: Vec<u8>| {
        if rows > 0 || current.get(name).is_some_and(Option::is_some) {
            new_files.insert(name.to_string(), Some(bytes));
        }
    };
    book(books::SIEGES, b.sieges.len(), books::write_sieges(&b.sieges, c.dialect(books::SIEGES)));
    book(books::REVOLTS, b.revolts.len(), books::write_revolts(&b.revolts, c.dialect(books::REVOLTS)));
    book(
        books::OCCUPATION,
        b.occupation.len(),
        books::write_occupation(&b.occupation, c.dialect(books::OCCUPATION)),
    );
    book(books::YEARS, b.years.len(), books::write_years(&b.years, c.dialect(books::YEARS)));
    book(
        books::INTELLIGENCE,
        b.intelligence.len(),
        books::write_intelligence(&b.intelligence, c.dialect(books::INTELLIGENCE)),
    );
    Ok(new_files)
}

/// The turn's three reports, for the umpire and each side, as the other files of its commit.
fn reports(run: &TurnRun, c: &Campaign, r: &Advanced, stream: &str) -> Commit {
    let [umpire, french, allies] = report_paths(r.changes.to.turn);
    let mut extra = Commit { operation: Some(OPERATION.to_string()), ..Commit::default() };
    extra.write(umpire, umpire_report(run, &render_returns(r), c.config.seed, stream).into_bytes());
    extra.write(
        french,
        (side_report(run, c, Side::French) + &side_section(&run.supply_after, Side::French)).into_bytes(),
    );
    extra.write(
        allies,
        (side_report(run, c, Side::Allies) + &side_section(&run.supply_after, Side::Allies)).into_bytes(),
    );
    extra
}

/// Top-level forces' hexes in a `forces.csv`.
fn force_hexes(bytes: Option<&[u8]>) -> BTreeMap<String, HexId> {
    let Some(b) = bytes else { return BTreeMap::new() };
    let mut p = crate::error::Problems::default();
    let t = crate::formats::table::Table::parse("forces.csv", b, &mut p);
    t.rows
        .iter()
        .filter(|r| t.text(r, "parent").is_empty())
        .filter_map(|r| Some((t.text(r, "id").to_string(), t.text(r, "hex").parse().ok()?)))
        .collect()
}

/// The forces that moved this turn: each force's hex now against its hex in the state the
/// journal recorded at the last turn advance (or its baseline). The umpire's hand edits, a
/// withdrawal and a `move` all change the `hex` column, so all of them count.
pub fn moved_forces(dir: &CampaignDir, c: &Campaign) -> Result<BTreeMap<String, HexId>> {
    let journal = dir.read_journal()?;
    if journal.entries.is_empty() {
        return Ok(BTreeMap::new());
    }
    let upto = journal.last_standing_turn_advance().map_or(0, |i| i + 1);
    let then = journal.replay(&dir.read_baseline()?, Some(upto))?;
    let before = force_hexes(then.get("forces.csv").and_then(|b| b.as_deref()));
    Ok(c.oob
        .forces()
        .filter_map(|f| {
            let was = *before.get(f.id.as_str())?;
            (f.hex? != was).then(|| (f.id.to_string(), was))
        })
        .collect())
}

/// Sets the top-level `turn = N` of `campaign.toml` by editing that one line in place (its
/// indentation, spacing, trailing comment and line ending kept); every other byte of the
/// file is unchanged. Refuses when there is no such line or when the edited file would not
/// read back as the same settings with only the turn changed.
pub fn set_turn(bytes: &[u8], turn: u32) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len() + 4);
    let (mut top, mut in_basic, mut in_literal, mut done) = (true, false, false, false);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let outside = !in_basic && !in_literal;
        if !done
            && top
            && outside
            && let Some(edited) = turn_line(line, turn)
        {
            out.extend_from_slice(&edited);
            done = true;
            continue;
        }
        if outside && line.trim_ascii_start().starts_with(b"[") {
            top = false;
        }
        in_basic ^= count(line, b"\"\"\"") % 2 == 1;
        in_literal ^= count(line, b"'''") % 2 == 1;
        out.extend_from_slice(line);
    }
    if !done {
        return Err(Error::refused("campaign.toml: no top-level `turn = N` line to change; nothing changed"));
    }
    let table = |b: &[u8]| -> Result<toml::Table> {
        let (text, _) = decode(b);
        text.parse::<toml::Table>()
            .map_err(|e| Error::refused(format!("campaign.toml: {}; nothing changed", e.message())))
    };
    let mut expected = table(bytes)?;
    expected.insert("turn".to_string(), toml::Value::Integer(i64::from(turn)));
    if table(&out)? != expected {
        return Err(Error::refused(
            "campaign.toml: editing its `turn` line would change more than the turn; set it by hand",
        ));
    }
    Ok(out)
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

/// The line with its number replaced, when it is `turn = N` (with optional indentation, a
/// byte-order mark on the first line, spaces, a trailing comment and a line ending).
fn turn_line(line: &[u8], turn: u32) -> Option<Vec<u8>> {
    let body = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let lead = line.len() - body.len() + (body.len() - body.trim_ascii_start().len());
    let rest = line[lead..].strip_prefix(b"turn")?;
    let after_key = rest.trim_ascii_start().strip_prefix(b"=")?;
    let value = after_key.trim_ascii_start();
    let start = line.len() - value.len();
    let digits = value.iter().take_while(|b| b.is_ascii_digit() || **b == b'_').count();
    if digits == 0 {
        return None;
    }
    let tail = &value[digits..];
    let tail_text = tail.trim_ascii();
    if !(tail_text.is_empty() || tail_text.starts_with(b"#")) {
        return None;
    }
    let mut out = line[..start].to_vec();
    out.extend_from_slice(turn.to_string().as_bytes());
    out.extend_from_slice(tail);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOML: &str = "# Late March 1809: Victor at Medellin.\r\nname = \"Turn = 3 is not this\"\r\nseed = 1808\r\n  turn   =  20   # the current turn\r\n\r\n[map]\r\ncolumns = 64 # wide\r\nrows = 48\r\n";

    #[test]
    fn only_the_turn_number_changes() {
        let out = set_turn(TOML.as_bytes(), 21).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), TOML.replace("=  20   #", "=  21   #"));
    }

    #[test]
    fn a_turn_key_inside_a_table_or_a_multiline_string_is_not_the_campaign_turn() {
        let text = "name = \"\"\"\nturn = 5\n\"\"\"\nseed = 1\n[paths]\nturn = 7\n";
        let err = set_turn(text.as_bytes(), 8).unwrap_err();
        assert!(err.to_string().contains("no top-level `turn = N` line"), "{err}");
        let text = "[map]\nturn = 7\n";
        assert!(set_turn(text.as_bytes(), 8).is_err());
        let text = "name = \"\"\"\nturn = 5\n\"\"\"\nturn = 9\n";
        assert_eq!(set_turn(text.as_bytes(), 10).unwrap(), b"name = \"\"\"\nturn = 5\n\"\"\"\nturn = 10\n");
    }

    #[test]
    fn a_bom_no_final_newline_and_latin1_bytes_are_kept() {
        let mut bytes = b"\xEF\xBB\xBFturn = 9".to_vec();
        assert_eq!(set_turn(&bytes, 10).unwrap(), b"\xEF\xBB\xBFturn = 10");
        bytes = b"name = \"M\xe9rida\"\nturn = 1\n".to_vec();
        assert_eq!(set_turn(&bytes, 2).unwrap(), b"name = \"M\xe9rida\"\nturn = 2\n");
    }

    #[test]
    fn a_turn_line_that_is_not_a_plain_number_is_refused() {
        assert!(set_turn(b"turn = \"20\"\n", 21).is_err());
        assert!(set_turn(b"turns = 20\n", 21).is_err());
        assert!(set_turn(b"turn = 20 junk\n", 21).is_err());
    }
}
