//! Is this dump the battle's final result? The battlescript that `export` writes runs
//! `dumpgamedb` every so often during the battle (periodic, interim dumps), then, at the
//! profile's margins before the end (recorded with the battle), `dumplocs` (which writes
//! `startlocs.csv`), `dumpdead` and the final `dumpgamedb`, in that order. So a dump is final
//! only when a `startlocs.csv` beside it
//!
//! - lists the units this battle exported (a `startlocs.csv` left behind by another battle
//!   proves nothing about this one),
//! - carries, when its header has one, a game time at or after the battle's final `dumplocs`,
//! - and was written just before the dump: a dump written before that `startlocs.csv` is one of
//!   the periodic ones; a dump written long after it is not the one that followed it.
//!
//! The decision is a pure function of that evidence, so that `apply` and `watch` decide alike
//! and the report can say which evidence decided.

use std::time::{Duration, SystemTime};

use crate::model::battle::FinalDumps;

/// How far file times may disagree and still count as "at the same moment": FAT disks keep
/// times to 2 seconds, and a copy may land the two files in either order.
pub const SAME_MOMENT: Duration = Duration::from_secs(2);

/// How much later than the battlescript says a final dump may be written after its
/// `startlocs.csv`: a large battle on a slow disk takes longer than the game seconds between
/// the two commands, but nothing like this.
pub const FINAL_SLACK: Duration = Duration::from_secs(600);

/// The longest a final dump may be written after its `startlocs.csv`: the game seconds from
/// the final `dumplocs` to the final `dumpgamedb`, and [`FINAL_SLACK`].
pub fn final_window(dumps: FinalDumps) -> Duration {
    Duration::from_secs(u64::from(dumps.gap())) + FINAL_SLACK
}

/// What a `startlocs.csv` beside a dump shows of one battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocsEvidence {
    /// Exported rows of the battle that the file lists (by SoW id or by name).
    pub listed: usize,
    /// Rows the battle exported.
    pub exported: usize,
    /// The game time in its header, seconds after midnight, when it has one.
    pub game_time: Option<u32>,
    /// When it was written, when the file system says.
    pub modified: Option<SystemTime>,
}

impl LocsEvidence {
    /// True when the file lists at least half of the battle's exported rows: it was written
    /// by this battle (units destroyed or never deployed may be missing from it).
    pub fn lists_the_battle(&self) -> bool {
        self.exported > 0 && self.listed * 2 >= self.exported
    }
}

/// The verdict on one dump.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finality {
    /// The final dump; says which evidence decided.
    Final(String),
    /// A periodic dump written before the final `dumplocs`; says how it is known.
    Interim(String),
    /// Not shown either way (no `startlocs.csv` of this battle yet); says why.
    Unknown(String),
}

/// Seconds as the umpire reads them: `2 s`, `4 min 30 s`, `3 h 12 min`.
pub fn span(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..3600 if s.is_multiple_of(60) => format!("{} min", s / 60),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, (s / 60) % 60),
    }
}

/// `HH:MM:SS` of seconds after midnight.
fn clock(secs: u32) -> String {
    format!("{:02}:{:02}:{:02}", secs / 3600 % 24, (secs / 60) % 60, secs % 60)
}

/// Decides whether a dump of `battle` is its final result, from the `startlocs.csv` beside it
/// (`locs`), the battle's end (game seconds after midnight) with the margins of its final
/// dumps, and the dump's own file time.
pub fn finality(
    battle: &str,
    end: u32,
    dumps: FinalDumps,
    dump_modified: Option<SystemTime>,
    locs: Option<LocsEvidence>,
) -> Finality {
    let final_dumplocs = end.saturating_sub(dumps.dumplocs);
    let Some(l) = locs else {
        return Finality::Unknown(format!(
            "no startlocs.csv beside it (battle {battle}'s final dumplocs writes one)"
        ));
    };
    if !l.lists_the_battle() {
        return Finality::Unknown(format!(
            "the startlocs.csv beside it lists {} of battle {battle}'s {} exported units: it was written by another battle",
            l.listed, l.exported
        ));
    }
    if let Some(t) = l.game_time
        && t < final_dumplocs
    {
        return Finality::Unknown(format!(
            "the startlocs.csv beside it is from game time {}, before battle {battle}'s final dumplocs at {}",
            clock(t),
            clock(final_dumplocs)
        ));
    }
    let time_said = l.game_time.map_or("its header has no game time".to_string(), |t| {
        format!("its game time {} is the final dumplocs'", clock(t))
    });
    let (Some(dump), Some(locs_at)) = (dump_modified, l.modified) else {
        return match l.game_time {
            Some(_) => Finality::Final(format!(
                "the startlocs.csv beside it lists the battle's units and {time_said} (file times unknown)"
            )),
            None => Finality::Unknown(
                "neither the startlocs.csv's header nor the file times tell when the dump was written"
                    .to_string(),
            ),
        };
    };
    if let Ok(before) = locs_at.duration_since(dump)
        && before > SAME_MOMENT
    {
        return Finality::Interim(format!(
            "written {} before battle {battle}'s final dumplocs (the startlocs.csv beside it): a periodic dump",
            span(before)
        ));
    }
    let after = dump.duration_since(locs_at).unwrap_or_default();
    if after > final_window(dumps) {
        return Finality::Unknown(format!(
            "written {} after the startlocs.csv beside it, which is therefore not the one that preceded it \
             (the battle's final dumpgamedb follows its final dumplocs by {} game seconds)",
            span(after),
            dumps.gap()
        ));
    }
    Finality::Final(format!(
        "the startlocs.csv beside it lists {} of the battle's {} units, {time_said}, and the dump was written {} after it",
        l.listed,
        l.exported,
        span(after)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The battle's end, and the final dumplocs of the default margins (40 s before it).
    const END: u32 = 15 * 3600;
    const DUMPS: FinalDumps = FinalDumps { dumplocs: 40, dumpdead: 35, dumpgamedb: 30 };
    const LOCS: u32 = END - 40;

    fn finality(battle: &str, end: u32, dump: Option<SystemTime>, locs: Option<LocsEvidence>) -> Finality {
        super::finality(battle, end, DUMPS, dump, locs)
    }

    fn at(secs: u64) -> Option<SystemTime> {
        Some(SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000 + secs))
    }

    fn locs(listed: usize, game_time: Option<u32>, modified: u64) -> Option<LocsEvidence> {
        Some(LocsEvidence { listed, exported: 40, game_time, modified: at(modified) })
    }

    #[test]
    fn the_dump_two_seconds_after_the_final_dumplocs_is_final() {
        let f = finality("T20-18.28", END, at(1002), locs(40, Some(LOCS), 1000));
        assert!(matches!(&f, Finality::Final(why) if why.contains("2 s after")), "{f:?}");
    }

    #[test]
    fn a_periodic_dump_written_before_the_final_dumplocs_is_interim() {
        // The 10:30 dump, four and a half hours before the end.
        let f = finality("T20-18.28", END, at(1000), locs(40, Some(LOCS), 1000 + 16_200));
        assert_eq!(
            f,
            Finality::Interim(
                "written 4 h 30 min before battle T20-18.28's final dumplocs (the startlocs.csv beside it): a periodic dump"
                    .to_string()
            )
        );
    }

    #[test]
    fn a_startlocs_of_another_battle_proves_nothing() {
        let f = finality("T21-19.30", END, at(90_000), locs(3, Some(LOCS), 1000));
        assert!(matches!(&f, Finality::Unknown(why) if why.contains("3 of battle T21-19.30's 40")), "{f:?}");
    }

    #[test]
    fn a_startlocs_listing_the_same_units_long_before_the_dump_is_not_its_final_one() {
        // The same forces fought again at the same hex: the old file lists them too.
        let f = finality("T21-18.28", END, at(1000 + 86_400), locs(40, Some(LOCS), 1000));
        assert!(matches!(&f, Finality::Unknown(why) if why.contains("24 h 0 min after")), "{f:?}");
    }

    #[test]
    fn a_startlocs_from_mid_battle_is_not_the_final_one() {
        let f = finality("T20-18.28", END, at(1002), locs(40, Some(10 * 3600 + 1800), 1000));
        assert!(matches!(&f, Finality::Unknown(why) if why.contains("10:30:00")), "{f:?}");
    }

    #[test]
    fn a_header_without_game_time_is_decided_by_the_file_times() {
        assert!(matches!(finality("B", END, at(1001), locs(40, None, 1000)), Finality::Final(_)));
        assert!(matches!(finality("B", END, at(1000), locs(40, None, 2000)), Finality::Interim(_)));
        assert!(matches!(
            finality(
                "B",
                END,
                None,
                Some(LocsEvidence { listed: 40, exported: 40, game_time: None, modified: None })
            ),
            Finality::Unknown(_)
        ));
    }

    #[test]
    fn files_copied_in_either_order_within_two_seconds_count_as_one_moment() {
        assert!(matches!(finality("B", END, at(1000), locs(40, Some(LOCS), 1002)), Finality::Final(_)));
        assert!(matches!(finality("B", END, at(1000), locs(40, Some(LOCS), 1003)), Finality::Interim(_)));
    }

    #[test]
    fn no_startlocs_is_unknown() {
        assert!(
            matches!(finality("B", END, at(1), None), Finality::Unknown(why) if why.contains("no startlocs.csv"))
        );
    }

    #[test]
    fn the_margins_decide_which_startlocs_is_the_final_one() {
        // Written at the final dumplocs, 40 s before the end: final; one second earlier: a
        // dumplocs of the battle's middle.
        assert!(matches!(finality("B", END, at(1010), locs(40, Some(LOCS), 1000)), Finality::Final(_)));
        let early = finality("B", END, at(1010), locs(40, Some(LOCS - 1), 1000));
        assert!(matches!(&early, Finality::Unknown(why) if why.contains("14:59:19")), "{early:?}");
        // With the old margins (3 s), 40 s before the end is too early.
        let legacy = super::finality("B", END, FinalDumps::LEGACY, at(1002), locs(40, Some(LOCS), 1000));
        assert!(matches!(legacy, Finality::Unknown(_)), "{legacy:?}");
    }

    #[test]
    fn the_window_after_the_startlocs_follows_the_gap_between_the_final_dumps() {
        let wide = FinalDumps { dumplocs: 900, dumpdead: 650, dumpgamedb: 600 };
        // 12 min 40 s: past 10 s + 10 min, within 5 min + 10 min.
        let after = 760;
        assert!(matches!(
            finality("B", END, at(1000 + after), locs(40, Some(LOCS), 1000)),
            Finality::Unknown(_)
        ));
        let f = super::finality("B", END, wide, at(1000 + after), locs(40, Some(END - 900), 1000));
        assert!(matches!(&f, Finality::Final(why) if why.contains("12 min 40 s after")), "{f:?}");
    }

    #[test]
    fn spans_read_as_the_umpire_says_them() {
        assert_eq!(span(Duration::from_secs(2)), "2 s");
        assert_eq!(span(Duration::from_secs(270)), "4 min 30 s");
        assert_eq!(span(Duration::from_secs(600)), "10 min");
        assert_eq!(span(Duration::from_secs(11_520)), "3 h 12 min");
    }
}
