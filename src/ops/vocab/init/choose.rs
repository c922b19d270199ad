//! One vocabulary row's ids chosen from the install: the id kept when the install defines
//! it, otherwise the best-scoring candidate, with a comment naming the runners-up.

use std::path::Path;

use crate::formats::logistics::{ClassType, IdDef, Logistics};
use crate::model::vocabulary::{SowLevel, VocabEntry};

use super::score::{class_score, drill_candidates, weapon_score};
use super::{InitReport, plain};
use crate::ops::vocab::required_type;

/// One field's outcome: the id written and the comment part saying how.
struct Pick {
    id: String,
    note: String,
    kept: bool,
    found: bool,
    /// A borrowed id gave way to one of the row's own nation.
    own_nation: bool,
}

/// Keeps `current` when `fits` finds it; else takes the best of `cands`; else keeps
/// `current` and says nothing fits. A borrowed id (another nation's, lent because the game
/// had none) gives way to the best candidate when that one has every reason in `borrowed`
/// (the row's own nation, and for a unit its arm); an empty `borrowed` means not borrowed.
fn pick(
    field: &str,
    current: &str,
    kept: Option<&IdDef>,
    mut cands: Vec<(i32, Vec<&'static str>, &IdDef)>,
    pool: &str,
    borrowed: &[&str],
) -> Pick {
    cands.sort_by(|a, b| {
        b.0.cmp(&a.0).then_with(|| a.2.id.to_ascii_uppercase().cmp(&b.2.id.to_ascii_uppercase()))
    });
    let own_nation =
        !borrowed.is_empty() && cands.first().is_some_and(|c| borrowed.iter().all(|r| c.1.contains(r)));
    let kept = kept.filter(|_| !own_nation);
    let others = |skip: &str| {
        let o: Vec<&str> = cands
            .iter()
            .map(|c| c.2.id.as_str())
            .filter(|id| !id.eq_ignore_ascii_case(skip))
            .take(3)
            .collect();
        if o.is_empty() { String::new() } else { format!(" (other candidates: {})", o.join(" ")) }
    };
    if let Some(k) = kept {
        let note = format!("{field} {} kept: line {} of {}{}", k.id, k.line, short(&k.file), others(&k.id));
        return Pick { id: k.id.clone(), note, kept: true, found: true, own_nation: false };
    }
    match cands.first() {
        Some((_, why, d)) => {
            let by =
                if why.is_empty() { "first by name".to_string() } else { format!("by {}", why.join(" + ")) };
            let instead =
                if own_nation { format!(" instead of the borrowed {current}") } else { String::new() };
            let note = format!("{field} {} chosen from {pool} {by}{instead}{}", d.id, others(&d.id));
            Pick { id: d.id.clone(), note, kept: false, found: true, own_nation }
        }
        None => Pick {
            id: current.to_string(),
            note: format!(
                "{field} NOT FOUND: the install has no {pool}; {current} left for the umpire to replace"
            ),
            kept: false,
            found: false,
            own_nation: false,
        },
    }
}

/// A Logistics path's file name, for comments.
fn short(file: &str) -> String {
    Path::new(file).file_name().map_or(file.to_string(), |n| n.to_string_lossy().into_owned())
}

pub(super) fn init_entry(
    e: &VocabEntry,
    l: &Logistics,
    origin: &str,
    previous: &str,
    report: &mut InitReport,
) -> VocabEntry {
    let need = required_type(e.level, e.arm);
    // A `Type` that is not G1's 1-5 (a later engine's unittype.csv id) cannot be judged.
    let fits =
        |kind: &ClassType| matches!(kind, ClassType::Other(_)) || need.as_ref().is_none_or(|n| n == kind);
    let type_name = need.as_ref().map_or("any Type".to_string(), |t| format!("Type {}", t.describe()));
    let classes: Vec<_> = l
        .classes
        .values()
        .filter(|c| fits(&c.kind))
        .map(|c| {
            let (s, why) = class_score(e, &c.def.id);
            (s, why, &c.def)
        })
        .collect();
    let borrowed = e.borrowed_from();
    // What a candidate must match to replace a borrowed id: the nation, and a unit's arm.
    let needs: &[&str] = match (borrowed, e.arm) {
        (None, _) => &[],
        (Some(_), Some(_)) if !e.level.is_commander() => &["nation", "arm"],
        (Some(_), _) => &["nation"],
    };
    let kept_class = l.class(&e.class).filter(|c| fits(&c.kind)).map(|c| &c.def);
    let class = pick("class", &e.class, kept_class, classes, &format!("the {type_name} classes"), needs);
    let drills = drill_candidates(e, l);
    let formation =
        pick("formation", &e.formation, l.drill(&e.formation), drills, "drills of this level", &[]);
    let weapon = match e.level {
        SowLevel::Unit | SowLevel::Gun => {
            let gun = e.level == SowLevel::Gun;
            let src = if gun { &l.artillery } else { &l.rifles };
            let cands = src
                .values()
                .map(|d| {
                    let (s, why) = weapon_score(e, &d.id);
                    (s, why, d)
                })
                .collect();
            let kept = if gun { l.gun(&e.weapon) } else { l.rifle(&e.weapon) };
            let pool = if gun { "artillery.csv guns" } else { "rifles.csv weapons" };
            let needs: &[&str] = if borrowed.is_some() { &["nation", "arm"] } else { &[] };
            Some(pick("weapon", &e.weapon, kept, cands, pool, needs))
        }
        _ => None,
    };
    let picks: Vec<&Pick> = [Some(&class), Some(&formation), weapon.as_ref()].into_iter().flatten().collect();
    let found = picks.iter().all(|p| p.found);
    if !found {
        report.unresolved += 1;
    } else if picks.iter().all(|p| p.kept) {
        report.kept += 1;
    } else {
        report.chosen += 1;
    }
    let notes: Vec<&str> = picks.iter().map(|p| p.note.as_str()).collect();
    // A row whose class is still the lent one stays marked as borrowed; one that got its
    // nation's own class still wears the lent portrait and flags, which Logistics cannot give.
    let (head, tail) = match borrowed {
        Some(b) if class.own_nation => {
            (String::new(), format!(" (portrait and flags still {b}: set them from the mod)"))
        }
        Some(b) => (format!("{b}: "), String::new()),
        None => (String::new(), String::new()),
    };
    let comment = plain(&format!(
        "{head}vocab init from {origin}: {}; portrait flags and ammo kept from {previous}{tail}",
        notes.join("; ")
    ));
    VocabEntry {
        class: class.id.clone(),
        formation: formation.id.clone(),
        weapon: weapon.map_or_else(|| e.weapon.clone(), |w| w.id),
        verified: found,
        comment,
        ..e.clone()
    }
}
