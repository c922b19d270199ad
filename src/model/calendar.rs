//! The campaign calendar (rule 6.1): two-week turns from early June 1808, the winter season
//! of rule 6.2 (late November to early February) and the campaign years of rule 4.1.

use std::fmt;

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A campaign turn, 1 = early June 1808.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Turn(pub u32);

/// Season of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Season {
    /// Campaigning season.
    Summer,
    /// Late November to early February inclusive (rule 6.2): movement halved.
    Winter,
}

impl Turn {
    /// Month (0 = January) and year of the turn.
    pub fn month_year(self) -> (usize, u32) {
        let m = 5 + (self.0.max(1) - 1) / 2;
        ((m % 12) as usize, 1808 + m / 12)
    }
    /// True for the first half of the month.
    pub fn early(self) -> bool {
        (self.0.max(1) - 1).is_multiple_of(2)
    }
    /// "early June 1808".
    pub fn date(self) -> String {
        let (m, y) = self.month_year();
        format!("{} {} {}", if self.early() { "early" } else { "late" }, MONTHS[m], y)
    }
    /// The season (rule 6.2).
    pub fn season(self) -> Season {
        let (m, _) = self.month_year();
        let winter = match m {
            10 => !self.early(),
            11 | 0 => true,
            1 => self.early(),
            _ => false,
        };
        if winter { Season::Winter } else { Season::Summer }
    }
    /// The campaign year (rule 4.1): the first runs to the end of February 1809 (18 turns),
    /// then March to February (24 turns).
    pub fn campaign_year(self) -> u32 {
        if self.0 <= 18 { 1 } else { 2 + (self.0 - 19) / 24 }
    }
    /// The next turn.
    pub fn next(self) -> Turn {
        Turn(self.0 + 1)
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
