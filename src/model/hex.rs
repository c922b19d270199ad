//! Hex ids and the geometry of the 15-mile campaign map: parsing `CC.RR`, neighbours,
//! distance and direction. The layout is a campaign setting; the default (flat-topped,
//! even columns shifted down, 0-based) is the one rule 2.5.3 fixes: 28.23 touches 27.24.

use std::fmt;
use std::str::FromStr;

/// A hex of the campaign map: column then row, printed zero-padded as `CC.RR`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexId {
    /// Column, 0-based.
    pub col: u16,
    /// Row, 0-based.
    pub row: u16,
}

impl HexId {
    /// A hex from column and row.
    pub const fn new(col: u16, row: u16) -> Self {
        HexId { col, row }
    }
}

impl fmt::Display for HexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}.{:02}", self.col, self.row)
    }
}

impl serde::Serialize for HexId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for HexId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a text is not a hex id, with the hex it most likely was where a spreadsheet
/// shortened it: Excel takes `17.30` for a number and saves it as `17.3`, `18.00` as `18`,
/// and in a locale with the decimal comma writes `17,3`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct HexIdError {
    /// The text, trimmed.
    pub text: String,
    /// What happened to it.
    pub fault: HexIdFault,
}

/// What is wrong with a text that should be a hex id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HexIdFault {
    /// The row has one digit (`17.3`): the trailing zero was dropped.
    ShortRow,
    /// No row at all (`18`): a row of `00` was dropped with the point.
    NoRow,
    /// A comma where the point should be (`17,30`, `17,3`).
    DecimalComma,
    /// A date (`17.03.2026`, `17/03/2026`): Excel took the hex for a day and month.
    Date,
    /// Not a hex id in any reading.
    NotHex,
}

impl HexIdError {
    /// The hex the text most likely was, when a spreadsheet shortened it.
    pub fn likely(&self) -> Option<String> {
        let t = &self.text;
        let (c, r) = match self.fault {
            HexIdFault::ShortRow | HexIdFault::DecimalComma => t.split_once(['.', ','])?,
            HexIdFault::NoRow => (t.as_str(), ""),
            HexIdFault::Date => {
                let (a, b) = date_parts(t)?;
                // Day first, unless the first cannot be a month's day but the second can.
                let (c, r) = if a > 12 || b <= 12 { (a, b) } else { (b, a) };
                return Some(format!("{c:02}.{r:02}"));
            }
            HexIdFault::NotHex => return None,
        };
        Some(format!("{c:0>2}.{r:0<2}"))
    }

    /// The message for a hex read from a spreadsheet's file: what it likely was, and the cure.
    pub fn in_spreadsheet(&self) -> String {
        let cure = match self.fault {
            HexIdFault::ShortRow | HexIdFault::NoRow => "Excel drops trailing zeros",
            HexIdFault::DecimalComma => {
                "Excel in a locale with the decimal comma writes the point as a comma"
            }
            HexIdFault::Date => "Excel took the hex for a date",
            HexIdFault::NotHex => return self.to_string(),
        };
        format!("{} {cure}; format the column as Text", self.guess())
    }

    /// The message on the command line and anywhere outside a spreadsheet's file.
    fn message(&self) -> String {
        match self.fault {
            HexIdFault::NotHex => {
                format!("'{}' is not a hex id of the form CC.RR (column.row, e.g. 18.28)", self.text)
            }
            _ => format!("{} A hex id is CC.RR, with a two-digit row (e.g. 18.28)", self.guess()),
        }
    }

    fn guess(&self) -> String {
        let other = match date_parts(&self.text) {
            // Day and month both 12 or under: the other order is as likely.
            Some((a, b)) if self.fault == HexIdFault::Date && a <= 12 && b <= 12 && a != b => {
                format!(" (or {b:02}.{a:02}, if your Excel writes the month first)")
            }
            _ => String::new(),
        };
        match self.likely() {
            Some(l) => format!("'{}' — did you mean {l}{other}?", self.text),
            None => format!("'{}' is not a hex id.", self.text),
        }
    }
}

/// The first two numbers of a date as Excel writes one (`17.03.2026`, `17/03/2026`,
/// `3-17-26`).
fn date_parts(t: &str) -> Option<(u16, u16)> {
    // Every hex of a large order of battle is read through here: the parts are taken
    // without gathering them.
    let mut parts = t.split(['.', '/', '-']);
    let (a, b, y) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |x: &str, lens: &[usize]| lens.contains(&x.len()) && x.bytes().all(|b| b.is_ascii_digit());
    if parts.next().is_none() && digits(a, &[1, 2]) && digits(b, &[1, 2]) && digits(y, &[2, 4]) {
        Some((a.parse().ok()?, b.parse().ok()?))
    } else {
        None
    }
}

impl FromStr for HexId {
    type Err = HexIdError;
    /// `CC.RR`: the column of one or two digits (a column without its leading zero, `5.13`,
    /// is unambiguous), the row of exactly two, so that a row a spreadsheet shortened
    /// (`17.3` for `17.30`) is refused, never read as another hex (17.03).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let err = |fault| HexIdError { text: t.to_string(), fault };
        let digits =
            |x: &str, max: usize| !x.is_empty() && x.len() <= max && x.bytes().all(|b| b.is_ascii_digit());
        if date_parts(t).is_some() {
            return Err(err(HexIdFault::Date));
        }
        let Some((c, r)) = t.split_once('.') else {
            return Err(match t.split_once(',') {
                Some((c, r)) if digits(c, 3) && digits(r, 2) => err(HexIdFault::DecimalComma),
                None if digits(t, 3) => err(HexIdFault::NoRow),
                _ => err(HexIdFault::NotHex),
            });
        };
        if !digits(c, 3) || !digits(r, 3) {
            return Err(err(HexIdFault::NotHex));
        }
        match r.len() {
            1 => return Err(err(HexIdFault::ShortRow)),
            2 => {}
            _ => return Err(err(HexIdFault::NotHex)),
        }
        let number = |x: &str| x.parse().map_err(|_| err(HexIdFault::NotHex));
        Ok(HexId { col: number(c)?, row: number(r)? })
    }
}

/// Which columns are shifted down by half a hex (flat-topped hexes, columns offset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HexLayout {
    /// Even columns (0, 2, …) sit half a hex lower: 28.23 touches 27.24 (rule 2.5.3).
    #[default]
    EvenColumnsDown,
    /// Odd columns sit half a hex lower.
    OddColumnsDown,
}

/// The six directions of a flat-topped hex, clockwise from north.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum Direction {
    /// Row decreasing.
    N,
    /// Up and to the right.
    NE,
    /// Down and to the right.
    SE,
    /// Row increasing.
    S,
    /// Down and to the left.
    SW,
    /// Up and to the left.
    NW,
}

impl Direction {
    /// All six, clockwise from north.
    pub const ALL: [Direction; 6] =
        [Direction::N, Direction::NE, Direction::SE, Direction::S, Direction::SW, Direction::NW];

    /// Compass bearing of the hex side's centre, degrees clockwise from north.
    pub fn bearing(self) -> f64 {
        match self {
            Direction::N => 0.0,
            Direction::NE => 60.0,
            Direction::SE => 120.0,
            Direction::S => 180.0,
            Direction::SW => 240.0,
            Direction::NW => 300.0,
        }
    }

    /// The opposite direction.
    pub fn opposite(self) -> Direction {
        Direction::ALL[(self as usize + 3) % 6]
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// The map's extent and layout, from `campaign.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexGrid {
    /// Number of columns (ids 0..columns).
    pub columns: u16,
    /// Number of rows (ids 0..rows).
    pub rows: u16,
    /// Offset layout.
    pub layout: HexLayout,
}

impl HexGrid {
    /// True when the hex lies on the map.
    pub fn contains(&self, h: HexId) -> bool {
        h.col < self.columns && h.row < self.rows
    }

    /// A hex's place in a per-hex table of the grid (column by column, row by row), if the
    /// hex lies on the map.
    pub fn cell(&self, h: HexId) -> Option<usize> {
        self.contains(h).then(|| self.cell_on_map(h))
    }

    /// [`Self::cell`] of a hex known to lie on the map (a force's hex, checked as the campaign
    /// is read; a hex a search reached), without asking again: for the searches' inner loops.
    pub fn cell_on_map(&self, h: HexId) -> usize {
        debug_assert!(self.contains(h), "{h} lies off the {} × {} map", self.columns, self.rows);
        usize::from(h.col) * usize::from(self.rows) + usize::from(h.row)
    }

    /// The hex at a place of a per-hex table of the grid: the inverse of [`Self::cell`], for a
    /// place below [`Self::cells`].
    pub fn hex_of_cell(&self, cell: usize) -> HexId {
        let rows = usize::from(self.rows);
        HexId::new((cell / rows) as u16, (cell % rows) as u16)
    }

    /// How many hexes the grid has: the length of a per-hex table.
    pub fn cells(&self) -> usize {
        usize::from(self.columns) * usize::from(self.rows)
    }

    fn shifted(&self, col: i32) -> bool {
        let even = col.rem_euclid(2) == 0;
        match self.layout {
            HexLayout::EvenColumnsDown => even,
            HexLayout::OddColumnsDown => !even,
        }
    }

    /// The hex one step in a direction, if it is on the map.
    pub fn step(&self, h: HexId, d: Direction) -> Option<HexId> {
        let (c, r) = (i32::from(h.col), i32::from(h.row));
        let down = i32::from(self.shifted(c));
        let (nc, nr) = match d {
            Direction::N => (c, r - 1),
            Direction::S => (c, r + 1),
            Direction::NE => (c + 1, r - 1 + down),
            Direction::SE => (c + 1, r + down),
            Direction::NW => (c - 1, r - 1 + down),
            Direction::SW => (c - 1, r + down),
        };
        let hex = HexId::new(u16::try_from(nc).ok()?, u16::try_from(nr).ok()?);
        self.contains(hex).then_some(hex)
    }

    /// The (up to) six hexes around `h` that lie on the map, clockwise from north.
    pub fn neighbours(&self, h: HexId) -> impl Iterator<Item = HexId> + '_ {
        Direction::ALL.into_iter().filter_map(move |d| self.step(h, d))
    }

    /// True when the two hexes share a side.
    pub fn adjacent(&self, a: HexId, b: HexId) -> bool {
        self.direction_to_neighbour(a, b).is_some()
    }

    /// The direction from `a` to its neighbour `b`, if they are neighbours.
    pub fn direction_to_neighbour(&self, a: HexId, b: HexId) -> Option<Direction> {
        Direction::ALL.into_iter().find(|&d| self.step(a, d) == Some(b))
    }

    fn cube(&self, h: HexId) -> (i32, i32, i32) {
        let c = i32::from(h.col);
        let r = i32::from(h.row);
        let odd = c & 1;
        let q = c;
        let rr = match self.layout {
            HexLayout::EvenColumnsDown => r - (c + odd) / 2,
            HexLayout::OddColumnsDown => r - (c - odd) / 2,
        };
        (q, rr, -q - rr)
    }

    /// Number of hex steps between two hexes.
    pub fn distance(&self, a: HexId, b: HexId) -> u32 {
        let (ax, ay, az) = self.cube(a);
        let (bx, by, bz) = self.cube(b);
        ((ax - bx).unsigned_abs()).max((ay - by).unsigned_abs()).max((az - bz).unsigned_abs())
    }

    /// Centre of a hex in map units (hex width 2, north up, y growing southward).
    pub fn centre(&self, h: HexId) -> (f64, f64) {
        let x = 1.5 * f64::from(h.col);
        let half = if self.shifted(i32::from(h.col)) { 0.5 } else { 0.0 };
        let y = 3f64.sqrt() * (f64::from(h.row) + half);
        (x, y)
    }

    /// Compass bearing from one hex centre to another, degrees clockwise from north.
    pub fn bearing(&self, from: HexId, to: HexId) -> f64 {
        let (fx, fy) = self.centre(from);
        let (tx, ty) = self.centre(to);
        let deg = (tx - fx).atan2(fy - ty).to_degrees();
        (deg + 360.0) % 360.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> HexGrid {
        HexGrid { columns: 64, rows: 48, layout: HexLayout::EvenColumnsDown }
    }
    fn h(s: &str) -> HexId {
        s.parse().unwrap()
    }

    #[test]
    fn each_hex_on_the_map_has_its_own_cell_and_none_off_it() {
        let g = grid();
        let mut seen = vec![false; g.cells()];
        for col in 0..g.columns {
            for row in 0..g.rows {
                let i = g.cell(HexId::new(col, row)).unwrap();
                assert!(!seen[i], "{col}.{row} shares its cell");
                assert_eq!(g.hex_of_cell(i), HexId::new(col, row), "the hex back from its cell");
                seen[i] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(
            (g.cell(h("00.00")), g.cell(h("00.01")), g.cell(h("01.00"))),
            (Some(0), Some(1), Some(48))
        );
        assert_eq!((g.cell(h("64.00")), g.cell(h("00.48"))), (None, None));
    }

    #[test]
    fn parses_and_prints_zero_padded() {
        assert_eq!(h("18.28"), HexId::new(18, 28));
        assert_eq!(h("2.29").to_string(), "02.29");
        assert_eq!(h("02.29").to_string(), "02.29");
        for bad in ["", "18", "18.", ".28", "18,28", "a.b", "18.28.1", "-1.2", "18.280"] {
            assert!(bad.parse::<HexId>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_row_excel_shortened_is_refused_with_its_likely_reading() {
        // Excel saves 17.30 as 17.3: read as 17.03 it would move a division 27 rows north.
        let e = "17.3".parse::<HexId>().unwrap_err();
        assert_eq!(e.fault, HexIdFault::ShortRow);
        assert_eq!(
            e.in_spreadsheet(),
            "'17.3' — did you mean 17.30? Excel drops trailing zeros; format the column as Text"
        );
        assert_eq!("18".parse::<HexId>().unwrap_err().likely().as_deref(), Some("18.00"));
        assert_eq!("5.2".parse::<HexId>().unwrap_err().likely().as_deref(), Some("05.20"));
        let comma = "17,3".parse::<HexId>().unwrap_err();
        assert_eq!((comma.fault, comma.likely().as_deref()), (HexIdFault::DecimalComma, Some("17.30")));
        assert_eq!("17,30".parse::<HexId>().unwrap_err().likely().as_deref(), Some("17.30"));
        assert!("18.2".parse::<HexId>().unwrap_err().to_string().starts_with("'18.2' — did you mean 18.20?"));
        // A column without its leading zero is unambiguous.
        assert_eq!(h("5.13"), HexId::new(5, 13));
    }

    #[test]
    fn a_hex_excel_took_for_a_date_is_refused_with_its_likely_reading() {
        let e = "17.03.2026".parse::<HexId>().unwrap_err();
        assert_eq!(e.fault, HexIdFault::Date);
        // A date has three parts, no more.
        assert_ne!("17.03.2026.5".parse::<HexId>().unwrap_err().fault, HexIdFault::Date);
        assert_ne!("17.03.".parse::<HexId>().unwrap_err().fault, HexIdFault::Date);
        assert_eq!(
            e.in_spreadsheet(),
            "'17.03.2026' — did you mean 17.03? Excel took the hex for a date; format the column as Text"
        );
        assert_eq!("3/17/2026".parse::<HexId>().unwrap_err().likely().as_deref(), Some("17.03"));
        let both = "05/12/2026".parse::<HexId>().unwrap_err().in_spreadsheet();
        assert!(
            both.starts_with("'05/12/2026' — did you mean 05.12 (or 12.05, if your Excel writes"),
            "{both}"
        );
    }

    #[test]
    fn toledo_touches_27_24_but_not_27_22() {
        // Rule 2.5.3: from 28.23 a force crosses into 28.24, then 27.24; 27.24 borders 28.23.
        let g = grid();
        assert!(g.adjacent(h("28.23"), h("27.24")));
        assert!(g.adjacent(h("28.23"), h("28.24")));
        assert!(!g.adjacent(h("28.23"), h("27.22")));
        let n: Vec<String> = g.neighbours(h("28.23")).map(|x| x.to_string()).collect();
        assert_eq!(n, ["28.22", "29.23", "29.24", "28.24", "27.24", "27.23"]);
    }

    #[test]
    fn gibraltar_touches_tarifa() {
        let g = grid();
        assert!(g.adjacent(h("20.44"), h("19.45")));
        assert_eq!(g.distance(h("20.44"), h("19.45")), 1);
    }

    #[test]
    fn odd_columns_have_their_own_neighbours() {
        let g = grid();
        let n: Vec<String> = g.neighbours(h("19.29")).map(|x| x.to_string()).collect();
        assert_eq!(n, ["19.28", "20.28", "20.29", "19.30", "18.29", "18.28"]);
    }

    #[test]
    fn distance_agrees_with_steps() {
        let g = grid();
        assert_eq!(g.distance(h("18.28"), h("18.28")), 0);
        assert_eq!(g.distance(h("18.28"), h("20.29")), 2);
        assert_eq!(g.distance(h("13.29"), h("29.21")), 16);
        // Every neighbour is at distance 1, and the relation is symmetric.
        for c in 0..10 {
            for r in 0..10 {
                let a = HexId::new(c, r);
                for b in g.neighbours(a) {
                    assert_eq!(g.distance(a, b), 1);
                    assert!(g.adjacent(b, a));
                }
            }
        }
    }

    #[test]
    fn the_odd_layout_mirrors_the_even_one() {
        let g = HexGrid { columns: 64, rows: 48, layout: HexLayout::OddColumnsDown };
        assert!(g.adjacent(h("27.23"), h("28.24")));
        assert!(!g.adjacent(h("28.23"), h("27.24")));
    }

    #[test]
    fn bearings_point_the_right_way() {
        let g = grid();
        assert!((g.bearing(h("18.28"), h("18.27")) - 0.0).abs() < 1e-9);
        assert!((g.bearing(h("18.28"), h("18.29")) - 180.0).abs() < 1e-9);
        let e = g.bearing(h("18.28"), h("20.28"));
        assert!((e - 90.0).abs() < 1e-9, "{e}");
        assert_eq!(g.direction_to_neighbour(h("18.28"), h("19.29")), Some(Direction::SE));
        assert_eq!(Direction::NE.opposite(), Direction::SW);
    }

    #[test]
    fn edges_of_the_map_have_fewer_neighbours() {
        let g = grid();
        assert_eq!(g.neighbours(h("00.00")).count(), 3);
        assert!(!g.contains(h("64.00")));
    }
}
