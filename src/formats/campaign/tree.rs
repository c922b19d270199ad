//! The order of battle as a tree, checked whole once every row is read: parents that exist and
//! outrank their children, no unit its own ancestor, every hex on the map, every commander listed.

use std::collections::BTreeSet;

use compact_str::CompactString;

use crate::error::{Problem, Problems};
use crate::model::oob::{IdMap, IdSet};
use crate::model::{CampaignMap, OrderOfBattle, Unit};

use super::commanders::Named;
use super::names;

/// What the order of battle may refer to in the other files. A file that was not read
/// whole (see [`Table::whole`]) is `None` (`commanders.csv`: not `commanders_whole`) and
/// references into it are not checked, since its own problems say why; a name listed on a
/// row refused for another reason is not reported unknown either. One cause, one message.
#[derive(Debug, Default)]
pub(super) struct Listed {
    /// Every name on a row of `settlements.csv` (only ever asked, never walked).
    pub(super) settlements: Option<IdSet<CompactString>>,
    /// Every name on a row of `commanders.csv` with the side read from it, gathered as the
    /// file is read (a large campaign lists tens of thousands: a name is held without a
    /// string of its own on the heap when it is short).
    pub(super) commanders: Named,
    /// Whether `commanders.csv` was read whole: else a name not in it is not reported.
    pub(super) commanders_whole: bool,
}

/// Checks the tree: duplicate ids, unknown parents, cycles, sides, levels, hexes, commanders.
/// It walks the order of battle's own indexes (by id, first row of an id winning).
pub(super) fn validate_tree(
    oob: &OrderOfBattle,
    lines: &[u32],
    map: &CampaignMap,
    listed: &Listed,
    p: &mut Problems,
) {
    let file = names::FORCES;
    let rows = oob.units();
    for &(row, first) in oob.duplicates() {
        p.push(Problem::at(
            file,
            u64::from(lines[row]),
            "id",
            format!("duplicate id '{}' (first on line {})", rows[row].id, lines[first]),
        ));
    }
    let endless = endless_ancestry(oob);
    let hex_refused: BTreeSet<u64> =
        p.0.iter()
            .filter(|x| x.file == file && x.field.as_deref() == Some("hex"))
            .filter_map(|x| x.line)
            .collect();
    let tree = Rows { oob, lines, map, listed, endless: &endless, hex_refused: &hex_refused };
    // The rows are checked one by one, each on its own: a large order of battle in two halves
    // at once (problems are put in order once the whole campaign is read).
    let n = oob.units().len();
    if n < CHECKED_IN_HALVES_FROM {
        tree.check(0..n, p);
        return;
    }
    let mut second = std::thread::scope(|s| {
        let tree = &tree;
        let half = s.spawn(move || {
            let mut second = Problems::default();
            tree.check(n / 2..n, &mut second);
            second
        });
        tree.check(0..n / 2, p);
        half.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    p.0.append(&mut second.0);
}

/// An order of battle of this many rows or more is checked in two halves at once.
const CHECKED_IN_HALVES_FROM: usize = 1 << 14;

/// What checking a row of the order of battle reads.
struct Rows<'a> {
    oob: &'a OrderOfBattle,
    lines: &'a [u32],
    map: &'a CampaignMap,
    listed: &'a Listed,
    /// Rows on or into a cycle of parents.
    endless: &'a [bool],
    /// Lines whose hex was refused as written.
    hex_refused: &'a BTreeSet<u64>,
}

impl<'a> Rows<'a> {
    /// Checks the rows of `range` against their parents, the map and the other files.
    fn check(&self, range: std::ops::Range<usize>, p: &mut Problems) {
        let rows = self.oob.units();
        // Ids made of digits, by their number: built at the first unknown parent, if any.
        let mut lost_zeros: Option<IdMap<&str, &str>> = None;
        for (i, u) in rows.iter().enumerate().take(range.end).skip(range.start) {
            let line = u64::from(self.lines[i]);
            match &u.parent {
                Some(pid) => self.under_parent(i, u, pid, line, &mut lost_zeros, p),
                None => self.on_the_map(u, line, p),
            }
            if let Some(c) = u.commander() {
                self.commander(u, c, line, p);
            }
            if self.endless[i] {
                p.push(Problem::at(
                    names::FORCES,
                    line,
                    "parent",
                    format!("'{}' is its own ancestor (a cycle)", u.id),
                ));
            }
        }
    }

    /// Row `i` (`u`, on `line`) under its parent `pid`: one that exists, can command it, and
    /// fights for its side.
    fn under_parent(
        &self,
        i: usize,
        u: &Unit,
        pid: &str,
        line: u64,
        lost_zeros: &mut Option<IdMap<&'a str, &'a str>>,
        p: &mut Problems,
    ) {
        let file = names::FORCES;
        let Some(parent) = self.oob.parent_row(i).map(|k| &self.oob.units()[k]) else {
            let zeros = lost_zeros.get_or_insert_with(|| ids_by_number(self.oob));
            let hint = match zeros.get(pid.trim_start_matches('0')) {
                Some(id) if pid.bytes().all(|b| b.is_ascii_digit()) => format!(
                    " (there is a row '{id}': Excel drops the leading zeros of ids that look like \
                     numbers; format the id and parent columns as Text)"
                ),
                _ => String::new(),
            };
            p.push(Problem::at(file, line, "parent", format!("unknown parent '{pid}'{hint}")));
            return;
        };
        if !parent.level.is_formation() {
            p.push(Problem::at(
                file,
                line,
                "parent",
                format!("parent '{pid}' is a {}, which cannot command other rows", parent.level),
            ));
        } else if u.level.is_formation() && u.level.rank() <= parent.level.rank() {
            p.push(Problem::at(
                file,
                line,
                "level",
                format!("a {} cannot stand under a {} ('{pid}')", u.level, parent.level),
            ));
        }
        if parent.side() != u.side() {
            p.push(Problem::at(
                file,
                line,
                "nation",
                format!("{} ({}) is under '{pid}' of the other side", u.id, u.nation),
            ));
        }
    }

    /// A top-level force (`u`, on `line`): its hex, where it marches, its depot.
    fn on_the_map(&self, u: &Unit, line: u64, p: &mut Problems) {
        let file = names::FORCES;
        // A hex refused as written already has its problem.
        if u.hex.is_none() && !self.hex_refused.contains(&line) {
            p.push(Problem::at(file, line, "hex", format!("force '{}' has no hex", u.id)));
        }
        // A march off road halts with its next hex as `moving_to` too (`move`).
        if let (Some(h), Some(m)) = (u.hex, u.moving_to)
            && !self.map.grid.adjacent(h, m)
        {
            p.push(Problem::at(file, line, "moving_to", format!("{m} is not adjacent to {h}")));
        }
        if let Some(d) = u.depot()
            && self.listed.settlements.as_ref().is_some_and(|names| !names.contains(d))
        {
            p.push(Problem::at(file, line, "depot", format!("unknown settlement '{d}'")));
        }
    }

    /// The commanding general `c` of row `u` (on `line`): listed, of its side, and over a
    /// formation.
    fn commander(&self, u: &Unit, c: &str, line: u64, p: &mut Problems) {
        let file = names::FORCES;
        // A name listed on a row refused for its side is not reported: that row's problem
        // says why.
        match self.listed.commanders.get(c) {
            Some(&Some(side)) if side != u.side() => p.push(Problem::at(
                file,
                line,
                "commander",
                format!("'{c}' fights for the {side} but commands a unit of the {}", u.side()),
            )),
            None if self.listed.commanders_whole => {
                p.push(Problem::at(file, line, "commander", format!("'{c}' is not in commanders.csv")));
            }
            _ => {}
        }
        if u.is_unit() {
            p.push(Problem::at(file, line, "commander", "units have no commanding general; leave it empty"));
        }
    }
}

/// The ids made only of digits, by their digits without leading zeros: where a parent that
/// Excel shortened (`101` for `0101`) most likely points.
pub(super) fn ids_by_number(oob: &OrderOfBattle) -> IdMap<&str, &str> {
    oob.units()
        .iter()
        .map(|u| u.id.as_str())
        .filter(|id| id.bytes().all(|b| b.is_ascii_digit()))
        .map(|id| (id.trim_start_matches('0'), id))
        .collect()
}

/// For each row, whether its walk up through the parents never ends (it is on a cycle or
/// leads into one). Each row is walked once: a walk stops at a row already judged.
pub(super) fn endless_ancestry(oob: &OrderOfBattle) -> Vec<bool> {
    let n = oob.units().len();
    // Where every parent comes before its rows (a file in tree order), no walk can come back.
    if (0..n).all(|i| oob.parent_row(i).is_none_or(|p| p < i)) {
        return vec![false; n];
    }
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Unseen,
        OnWalk,
        Ends,
        Endless,
    }
    let mut state = vec![State::Unseen; n];
    let mut walk = Vec::new();
    for start in 0..n {
        let mut cur = start;
        let verdict = loop {
            match state[cur] {
                State::Ends => break State::Ends,
                State::Endless | State::OnWalk => break State::Endless,
                State::Unseen => {}
            }
            state[cur] = State::OnWalk;
            walk.push(cur);
            match oob.parent_row(cur) {
                Some(next) => cur = next,
                None => break State::Ends,
            }
        };
        for i in walk.drain(..) {
            state[i] = verdict;
        }
    }
    state.into_iter().map(|s| s == State::Endless).collect()
}

#[cfg(test)]
mod tests {
    use super::super::{CampaignFiles, names, parse_campaign_with};
    use crate::model::limits::{MAX_TOTAL_MEN, MAX_UNIT_MEN};

    /// The problems of a campaign of `divisions` French divisions of one battalion each, with
    /// the rows `bad` made wrong: a division without a hex; a battalion of an unknown parent
    /// (an even division) or a brigade under a battalion with a commander of the other side
    /// (an odd one).
    fn problems(divisions: usize, bad: &[usize]) -> Vec<String> {
        problems_of(&campaign(divisions, bad, "name,side\nWellesley,Allies\n"))
    }

    /// The campaign of [`problems`], with `commanders.csv` as given.
    fn campaign(divisions: usize, bad: &[usize], commanders: &str) -> CampaignFiles {
        let mut files = CampaignFiles::default();
        let mut put = |name: &'static str, text: String| {
            files.files.insert(name, text.into_bytes());
        };
        put(
            names::CAMPAIGN,
            "name = \"Test\"\nseed = 1808\nturn = 20\n[map]\ncolumns = 40\nrows = 40\n".into(),
        );
        put(names::HEXES, "hex,terrain\n".into());
        put(names::ROADS, "from,to,class\n".into());
        put(names::RIVERS, "from,to,name\n".into());
        put(names::SETTLEMENTS, "name,hex,kind,control\n".into());
        put(names::COMMANDERS, commanders.into());
        let mut forces = String::from("id,parent,level,name,commander,nation,arm,men,hex\n");
        for d in 0..divisions {
            let i = 2 * d;
            let hex = if bad.contains(&i) { "" } else { "10.10" };
            forces.push_str(&format!("D{d},,division,Division {d},,Fr,,,{hex}\n"));
            let (parent, commander) = match bad.contains(&(i + 1)) {
                true if d % 2 == 0 => (format!("D{d}-x"), ""),
                true => (format!("D{}-1", d - 1), "Wellesley"),
                false => (format!("D{d}"), ""),
            };
            let row = match commander {
                "" => "battalion,Battalion {d},,Fr,line,100",
                _ => "brigade,Brigade {d},Wellesley,Fr,,",
            };
            let row = row.replace("{d}", &d.to_string());
            forces.push_str(&format!("D{d}-1,{parent},{row},\n"));
        }
        put(names::FORCES, forces);
        files
    }

    fn problems_of(files: &CampaignFiles) -> Vec<String> {
        match parse_campaign_with(files, None) {
            Ok(_) => Vec::new(),
            Err(p) => p.0.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn a_large_order_of_battle_checked_in_halves_reports_the_problems_of_both() {
        let divisions = super::CHECKED_IN_HALVES_FROM;
        let rows = 2 * divisions;
        // Rows (0-based) near the start and near the end, and their lines (1-based, header first).
        let bad = [2, 5, 7, rows - 4, rows - 3, rows - 1];
        let got = problems(divisions, &bad);
        let line = |row: usize| row + 2;
        assert_eq!(
            got,
            [
                format!("forces.csv:{}: hex: force 'D1' has no hex", line(2)),
                format!("forces.csv:{}: parent: unknown parent 'D2-x'", line(5)),
                format!(
                    "forces.csv:{}: commander: 'Wellesley' fights for the Allies but commands a unit of the French",
                    line(7)
                ),
                format!(
                    "forces.csv:{}: parent: parent 'D2-1' is a battalion, which cannot command other rows",
                    line(7)
                ),
                format!("forces.csv:{}: hex: force 'D{}' has no hex", line(rows - 4), divisions - 2),
                format!("forces.csv:{}: parent: unknown parent 'D{}-x'", line(rows - 3), divisions - 2),
                format!(
                    "forces.csv:{}: commander: 'Wellesley' fights for the Allies but commands a unit of the French",
                    line(rows - 1)
                ),
                format!(
                    "forces.csv:{}: parent: parent 'D{}-1' is a battalion, which cannot command other rows",
                    line(rows - 1),
                    divisions - 2
                ),
            ]
        );
        // A small one, checked on one thread, the same way.
        assert_eq!(problems(4, &[2, 5, 7]), got[..4]);
    }

    #[test]
    fn a_large_order_of_battle_read_on_threads_of_its_own_is_read_with_the_rest() {
        // forces.csv large enough to be read on two threads of its own, the other files read
        // after it: the problems of both, as with a small one.
        let commanders = "name,side\nWellesley,Allies\nNey,Prussians\n";
        let divisions = super::super::forces::THREADED_FROM as usize / 64;
        let rows = 2 * divisions;
        let files = campaign(divisions, &[2, rows - 4], commanders);
        let size = files.get(names::FORCES).map_or(0, <[u8]>::len);
        assert!(size as u64 >= super::super::forces::THREADED_FROM, "{size} bytes");
        let got = problems_of(&files);
        assert_eq!(
            got,
            [
                "commanders.csv:3: side: unknown side 'Prussians' (expected one of: French, Allies)"
                    .to_string(),
                "forces.csv:4: hex: force 'D1' has no hex".to_string(),
                format!("forces.csv:{}: hex: force 'D{}' has no hex", rows - 2, divisions - 2),
            ]
        );
        assert_eq!(problems_of(&campaign(4, &[2], commanders)), got[..2]);
    }

    #[test]
    fn each_commander_is_looked_up_among_those_listed_with_their_side() {
        // Listed and of the side; listed for the other side; listed on a row refused for its
        // side (its own problem says why); not listed at all; on a unit.
        let commanders = "name,side\nSoult,French\nWellesley,Allies\nNey,Prussians\n";
        let mut files = campaign(1, &[], commanders);
        let forces = "id,parent,level,name,commander,nation,arm,men,hex\n\
            D,,division,D,Soult,Fr,,,10.10\n\
            D-1,D,brigade,B1,Wellesley,Fr,,,\n\
            D-2,D,brigade,B2,Ney,Fr,,,\n\
            D-3,D,brigade,B3,Marmont,Fr,,,\n\
            D-3-1,D-3,battalion,Bn,Soult,Fr,line,100,\n";
        files.files.insert(names::FORCES, forces.as_bytes().to_vec());
        assert_eq!(
            problems_of(&files),
            [
                "commanders.csv:4: side: unknown side 'Prussians' (expected one of: French, Allies)",
                "forces.csv:3: commander: 'Wellesley' fights for the Allies but commands a unit of the French",
                "forces.csv:5: commander: 'Marmont' is not in commanders.csv",
                "forces.csv:6: commander: units have no commanding general; leave it empty",
            ]
        );
        // Without its side column no commander is read, but every name is still listed: the
        // missing column is the file's one problem.
        files.files.insert(names::COMMANDERS, b"name\nSoult\nWellesley\nNey\n".to_vec());
        let got = problems_of(&files);
        assert!(got.iter().any(|x| x.starts_with("commanders.csv") && x.contains("side")), "{got:?}");
        assert!(
            !got.iter().any(|x| x.contains("is not in commanders.csv") && !x.contains("Marmont")),
            "{got:?}"
        );
        assert!(got.iter().any(|x| x.contains("'Marmont' is not in commanders.csv")), "{got:?}");
        assert!(!got.iter().any(|x| x.contains("fights for")), "{got:?}");
    }

    #[test]
    fn one_force_of_more_men_than_any_sum_can_hold_is_refused_not_summed_past_it() {
        // Each row within a unit's most men, one force's rows past 2^32 men in all: the
        // forces' men are summed as the order of battle is read, before it is refused.
        let mut files = campaign(1, &[], "name,side\n");
        let rows = (u64::from(u32::MAX) / u64::from(MAX_UNIT_MEN) + 1) as usize;
        let mut forces =
            String::from("id,parent,level,name,commander,nation,arm,men,hex\nD,,division,D,,Fr,,,10.10\n");
        for k in 0..rows {
            forces.push_str(&format!("D-{k},D,battalion,Bn {k},,Fr,line,{MAX_UNIT_MEN},\n"));
        }
        files.files.insert(names::FORCES, forces.into_bytes());
        let total = rows as u64 * u64::from(MAX_UNIT_MEN);
        assert_eq!(
            problems_of(&files),
            [format!(
                "forces.csv: men: the order of battle counts {total} men, more than any campaign can hold (at most {MAX_TOTAL_MEN})"
            )]
        );
    }
}
