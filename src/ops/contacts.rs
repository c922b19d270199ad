//! The contacts use case: every group of enemy forces in contact, with the side that
//! retreated before battle and was caught (8.2); each side advised of the enemy on contact
//! (8.1, 8.5) and its decision to fight or withdraw recorded (`decisions.csv`).

use crate::error::{Error, Result};
use crate::model::decisions::{ContactDecision, Decision};
use crate::model::{Campaign, HexId, Side};
use crate::rules::dice::{Dice, SeededDice};
use crate::rules::intel::{Briefing, Participants};
use crate::rules::zoc::Contact;
use crate::store::files::changed_files;
use crate::store::journal::Entry;
use crate::store::{CampaignDir, Commit};

/// What `contacts` shows.
#[derive(Debug)]
pub struct ContactsOutcome {
    /// The campaign as loaded.
    pub campaign: Campaign,
    /// Every group of enemy forces in contact, with the rule that put them there.
    pub contacts: Vec<Contact>,
    /// For each contact, in the same order, the side that retreated before battle and was
    /// caught (8.2), with its force.
    pub avoiding: Vec<Option<(Side, String)>>,
}

/// The contacts of the campaign as it stands.
pub fn contacts(dir: &CampaignDir) -> Result<ContactsOutcome> {
    let campaign = dir.load()?;
    let contacts = crate::rules::zoc::contacts(&campaign);
    let avoiding = contacts.iter().map(|k| crate::rules::avoidance::avoiding_side(&campaign, k)).collect();
    Ok(ContactsOutcome { campaign, contacts, avoiding })
}

/// One contact advised: the hex it was advised at and each side's advice (8.5).
#[derive(Debug)]
pub struct Advised {
    /// The hex.
    pub hex: HexId,
    /// French then Allies: the briefing and the side's decision so far.
    pub sides: Vec<(Briefing, Option<Decision>)>,
    /// True when its dice were rolled now (false: as recorded earlier this turn).
    pub new: bool,
}

/// What `contacts --advise` did.
#[derive(Debug)]
pub struct AdviceOutcome {
    /// Every contact of the turn, advised.
    pub advised: Vec<Advised>,
    /// The side files written (`turns/T<n>/advice-<side>.md`), with their text.
    pub files: Vec<(Side, String, String)>,
    /// The journal entry (0 when nothing new was rolled).
    pub seq: u64,
}

/// The path of a side's advice of turn `turn`.
pub fn advice_path(turn: u32, side: Side) -> String {
    format!("{}/advice-{}.md", crate::ops::turn::reports_dir(turn), side.slug())
}

/// Advises each side of the enemy on every contact (8.1, 8.5) without exporting anything: a
/// contact advised earlier this turn keeps its dice; a new one rolls them on its own seeded
/// stream (`advice-T<turn>-<hex>`), into `decisions.csv` and the journal. Each side's advice
/// of all the turn's contacts is written beside the turn's reports, from its own briefing only.
pub fn advise(dir: &CampaignDir) -> Result<AdviceOutcome> {
    let lock = dir.lock_for_change()?;
    let mut c = dir.load()?;
    let mut txn = dir.begin(&lock)?;
    let before = c.clone();
    let turn = c.config.turn;
    let mut advised = Vec::new();
    let mut rolled = Vec::new();
    let contacts = crate::rules::zoc::contacts(&before);
    for k in &contacts {
        let recorded: Vec<ContactDecision> =
            crate::rules::decision::rows_of(&before, k).into_iter().cloned().collect();
        let done = recorded.iter().any(ContactDecision::advised);
        let (hex, fr, al) = match recorded.iter().find(|r| r.advised()) {
            Some(r) => {
                let (_, fr, al) = crate::rules::decision::advice_hex(&before, &contacts, k);
                (r.hex, fr, al)
            }
            None => crate::rules::decision::advice_hex(&before, &contacts, k),
        };
        let id = format!("T{turn}-{hex}");
        let mut dice = SeededDice::new(c.config.seed, &format!("advice-{id}"));
        let part = |s: Side| Participants::fighting(if s == Side::French { &fr } else { &al });
        let mut sides = Vec::new();
        for side in [Side::French, Side::Allies] {
            let rec = recorded.iter().find(|r| r.side == side && r.advised());
            let b = crate::rules::decision::briefing(
                &before,
                &id,
                hex,
                side,
                &part(side),
                &part(side.enemy()),
                rec,
                &mut dice,
            );
            let decision = recorded.iter().find(|r| r.side == side).and_then(|r| r.decision);
            if !done {
                c.decisions.retain(|r| !(r.turn == turn && k.hexes.contains(&r.hex) && r.side == side));
                c.decisions.push(ContactDecision {
                    turn,
                    hex,
                    side,
                    die: b.reading.die(),
                    men_roll: b.men_roll,
                    guns_roll: b.guns_roll,
                    decision,
                });
            }
            sides.push((b, decision));
        }
        if !done {
            // Each die named with its stream, so that `audit` can roll the streams again.
            rolled.extend(dice.log().iter().cloned().map(|mut r| {
                r.purpose = format!("advice-{id}: {}", r.purpose);
                r
            }));
        }
        advised.push(Advised { hex, sides, new: !done });
    }
    let mut files = Vec::new();
    let mut commit = Commit { operation: Some("contacts --advise".into()), ..Commit::default() };
    for side in [Side::French, Side::Allies] {
        let i = usize::from(side == Side::Allies);
        let mine: Vec<_> = advised.iter().map(|a| (a.hex, &a.sides[i].0, a.sides[i].1)).collect();
        let text = crate::formats::report::contacts::advice(&before, side, &mine);
        commit.write(advice_path(turn, side), text.clone().into_bytes());
        files.push((side, advice_path(turn, side), text));
    }
    let new_files = changed_files(&before, &c, txn.current()?)?;
    let n = advised.iter().filter(|a| a.new).count();
    let entry = (n > 0).then(|| Entry::contacts(turn, format!("{n} contacts advised (8.1, 8.5)"), rolled));
    let seq = txn.finish(new_files, entry, commit)?;
    Ok(AdviceOutcome { advised, files, seq: if n > 0 { seq } else { 0 } })
}

/// `audit`'s check of a contacts entry's dice: each die, named `advice-<id>: <purpose>`, rolled
/// again on its contact's stream from the campaign's seed (`None`: no seed to roll from).
pub fn audit_advice(e: &crate::store::journal::Entry, seed: Option<u64>) -> Vec<String> {
    let Some(seed) = seed else { return Vec::new() };
    let mut streams: Vec<(&str, SeededDice)> = Vec::new();
    let mut out = Vec::new();
    for (i, r) in e.dice.iter().enumerate() {
        let Some((stream, purpose)) = r.purpose.split_once(": ").filter(|(s, _)| s.starts_with("advice-"))
        else {
            out.push(format!("die {} ({}) names no advice stream", i + 1, r.purpose));
            break;
        };
        if !streams.iter().any(|(s, _)| *s == stream) {
            streams.push((stream, SeededDice::new(seed, stream)));
        }
        let Some((_, dice)) = streams.iter_mut().find(|(s, _)| *s == stream) else { continue };
        let v = dice.roll(r.sides, purpose);
        if v != r.value {
            out.push(format!(
                "die {} ({purpose}) of stream {stream} reads {} but the stream rolls {v}",
                i + 1,
                r.value
            ));
            break;
        }
    }
    out
}

/// A decision asked for: the contact (any of its hexes) and what each side decides.
#[derive(Debug, Clone)]
pub struct DecideRequest {
    /// A hex of the contact.
    pub hex: HexId,
    /// The French decision, if given.
    pub french: Option<Decision>,
    /// The Allies' decision, if given.
    pub allies: Option<Decision>,
}

pub use crate::model::decisions::Outcome;

/// Records each side's decision on the contact at `req.hex` (8.1, 8.2) in `decisions.csv`,
/// journalled, and says what it leads to.
pub fn decide(dir: &CampaignDir, req: &DecideRequest) -> Result<(Outcome, u64)> {
    if req.french.is_none() && req.allies.is_none() {
        return Err(Error::refused("give --french and/or --allies: fight or withdraw".to_string()));
    }
    let lock = dir.lock_for_change()?;
    let mut c = dir.load()?;
    let mut txn = dir.begin(&lock)?;
    let before = c.clone();
    let turn = c.config.turn;
    let contacts = crate::rules::zoc::contacts(&c);
    let Some(k) = contacts.iter().find(|k| k.hexes.contains(&req.hex)) else {
        return Err(Error::refused(format!(
            "no enemy forces are in contact at {} (rules 8.1, 8.3); see `sowbridge contacts`",
            req.hex
        )));
    };
    let advised_at = crate::rules::decision::rows_of(&c, k).first().map(|r| r.hex);
    let hex = advised_at.unwrap_or(k.hexes[0]);
    for (side, d) in [(Side::French, req.french), (Side::Allies, req.allies)] {
        let Some(d) = d else { continue };
        match c.decisions.iter_mut().find(|r| r.turn == turn && k.hexes.contains(&r.hex) && r.side == side) {
            Some(r) => r.decision = Some(d),
            None => c.decisions.push(ContactDecision {
                turn,
                hex,
                side,
                die: 0,
                men_roll: 0,
                guns_roll: 0,
                decision: Some(d),
            }),
        }
    }
    let outcome = outcome_of(&c, &contacts, k);
    let words = |d: Option<Decision>| d.map_or("-", Decision::word);
    let summary = format!(
        "contact at {}: French {}, Allies {} (8.1, 8.2)",
        req.hex,
        words(crate::rules::decision::decision_of(&c, k, Side::French)),
        words(crate::rules::decision::decision_of(&c, k, Side::Allies))
    );
    let new_files = changed_files(&before, &c, txn.current()?)?;
    let seq = txn.finish(
        new_files,
        Some(Entry::contacts(turn, summary, Vec::new())),
        Commit { operation: Some(format!("contacts decide {}", req.hex)), ..Commit::default() },
    )?;
    Ok((outcome, seq))
}

/// What the decisions of contact `k` (one of `contacts`) lead to: for a battle, with the rules
/// that refuse it as `export` would find them, on the campaign as the rules see it now.
fn outcome_of(c: &Campaign, contacts: &[Contact], k: &Contact) -> Outcome {
    let of = |s: Side| crate::rules::decision::decision_of(c, k, s);
    for s in [Side::French, Side::Allies] {
        if of(s) == Some(Decision::Withdraw) {
            return Outcome::Withdrawal(s, k.side(s).to_vec());
        }
    }
    let waiting: Vec<Side> = [Side::French, Side::Allies].into_iter().filter(|&s| of(s).is_none()).collect();
    if waiting.is_empty() {
        let hex = crate::rules::decision::rows_of(c, k).first().map_or(k.hexes[0], |r| r.hex);
        let (now, _) = crate::rules::supply::now(c.clone());
        // Who fights as `export` asks it, with no option given; a battle `export` cannot set
        // up for another reason says so itself.
        let refused = crate::rules::battle::who_fights(&now, contacts, hex, &Default::default())
            .map(|who| crate::rules::battle_plan::refusals(&now, &who, hex))
            .unwrap_or_default();
        Outcome::Battle { hex, refused }
    } else {
        Outcome::Waiting(waiting)
    }
}
