//! The campaign's hex grid in Tiled's pixels: flat-topped hexes in staggered columns
//! (`staggeraxis` x), the campaign's shifted columns being Tiled's staggered ones. A hex's
//! centre, its corners and the side it shares with a neighbour; a pixel back to its hex, a
//! point to its nearest corner and two corners to the side between them.

use crate::model::{Direction, HexGrid, HexId, HexLayout};

/// A hex's size in pixels, as the map file gives it: `tilewidth`, `tileheight` and
/// `hexsidelength` (the length of the flat top and bottom sides).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexSize {
    /// Corner to opposite corner, across the hex.
    pub width: u32,
    /// Flat side to flat side.
    pub height: u32,
    /// Length of the top and bottom sides.
    pub side: u32,
}

impl HexSize {
    /// The size sowbridge writes when no other is asked for.
    pub const DEFAULT: HexSize = HexSize { width: 32, height: 28, side: 16 };

    /// A near-regular hex `width` pixels across (even, at least 8): its height rounded to
    /// an even number, its top side half its width.
    pub fn of_width(width: u32) -> HexSize {
        let width = width.max(8) & !1;
        let height = ((f64::from(width) * 3f64.sqrt() / 2.0 / 2.0).round() as u32) * 2;
        HexSize { width, height, side: width / 2 }
    }
}

/// A point in the map's pixels.
pub type Point = (f64, f64);

/// The grid laid out in pixels.
#[derive(Debug, Clone, Copy)]
pub struct Pixels {
    /// The campaign's grid.
    pub grid: HexGrid,
    /// A hex's size.
    pub size: HexSize,
}

impl Pixels {
    /// Tiled's `staggerindex` for the campaign's layout: which columns sit half a hex lower.
    pub fn stagger_index(layout: HexLayout) -> &'static str {
        match layout {
            HexLayout::EvenColumnsDown => "even",
            HexLayout::OddColumnsDown => "odd",
        }
    }

    fn step(&self) -> f64 {
        f64::from(self.size.width + self.size.side) / 2.0
    }

    fn shifted(&self, col: u16) -> bool {
        let even = col.is_multiple_of(2);
        match self.grid.layout {
            HexLayout::EvenColumnsDown => even,
            HexLayout::OddColumnsDown => !even,
        }
    }

    /// The map's extent in pixels.
    pub fn extent(&self) -> (u32, u32) {
        let w = self.step() * f64::from(self.grid.columns) + (f64::from(self.size.width) - self.step());
        let h = f64::from(self.size.height) * (f64::from(self.grid.rows) + 0.5);
        (w.round() as u32, h.round() as u32)
    }

    /// The centre of a hex.
    pub fn centre(&self, h: HexId) -> Point {
        let x = self.step() * f64::from(h.col) + f64::from(self.size.width) / 2.0;
        let half = if self.shifted(h.col) { 0.5 } else { 0.0 };
        let y = f64::from(self.size.height) * (f64::from(h.row) + 0.5 + half);
        (x, y)
    }

    /// The six corners of a hex, clockwise from the east one.
    pub fn corners(&self, h: HexId) -> [Point; 6] {
        let (x, y) = self.centre(h);
        let (w, s, t) = (
            f64::from(self.size.width) / 2.0,
            f64::from(self.size.side) / 2.0,
            f64::from(self.size.height) / 2.0,
        );
        [(x + w, y), (x + s, y + t), (x - s, y + t), (x - w, y), (x - s, y - t), (x + s, y - t)]
    }

    /// The two corners of the side a hex shares with its neighbour in direction `d`.
    pub fn side_corners(&self, h: HexId, d: Direction) -> (Point, Point) {
        let c = self.corners(h);
        match d {
            Direction::N => (c[4], c[5]),
            Direction::NE => (c[5], c[0]),
            Direction::SE => (c[0], c[1]),
            Direction::S => (c[1], c[2]),
            Direction::SW => (c[2], c[3]),
            Direction::NW => (c[3], c[4]),
        }
    }

    /// The hex a point lies in (the one whose centre is nearest), if it is on the map.
    pub fn hex_at(&self, p: Point) -> Option<HexId> {
        self.nearest(p).first().map(|&(h, _)| h)
    }

    /// The hexes of the map around a point, nearest centre first, with their distances.
    fn nearest(&self, (x, y): Point) -> Vec<(HexId, f64)> {
        let col = ((x - f64::from(self.size.width) / 2.0) / self.step()).round() as i64;
        let row = (y / f64::from(self.size.height) - 0.5).round() as i64;
        let mut out = Vec::new();
        for c in col - 1..=col + 1 {
            for r in row - 1..=row + 1 {
                let (Ok(c), Ok(r)) = (u16::try_from(c), u16::try_from(r)) else { continue };
                let h = HexId::new(c, r);
                if self.grid.contains(h) {
                    let (cx, cy) = self.centre(h);
                    out.push((h, (cx - x).hypot(cy - y)));
                }
            }
        }
        out.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        out
    }

    /// The hex corner nearest a point, when it lies within a quarter of a side of it.
    pub fn corner_at(&self, p: Point) -> Option<Point> {
        let tolerance = f64::from(self.size.side) / 4.0;
        self.nearest(p)
            .into_iter()
            .flat_map(|(h, _)| self.corners(h))
            .map(|c| (c, (c.0 - p.0).hypot(c.1 - p.1)))
            .filter(|&(_, d)| d <= tolerance)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(c, _)| c)
    }

    /// The two hexes on either side of the side from corner `a` to corner `b`, when the two
    /// corners are the ends of one side of a hex of the map (the hex beyond a side on the
    /// map's edge is off the map: `None`).
    pub fn side_between(&self, a: Point, b: Point) -> Option<(HexId, HexId)> {
        let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        let same = |p: Point, q: Point| (p.0 - q.0).hypot(p.1 - q.1) < 0.5;
        for (h, _) in self.nearest(mid).into_iter().take(3) {
            for d in Direction::ALL {
                let (p, q) = self.side_corners(h, d);
                if (same(p, a) && same(q, b)) || (same(p, b) && same(q, a)) {
                    return self.grid.step(h, d).map(|n| (h, n));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn px() -> Pixels {
        Pixels {
            grid: HexGrid { columns: 64, rows: 48, layout: HexLayout::EvenColumnsDown },
            size: HexSize::DEFAULT,
        }
    }

    #[test]
    fn centres_are_whole_pixels_and_even_columns_sit_lower() {
        let p = px();
        assert_eq!(p.centre(HexId::new(0, 0)), (16.0, 28.0));
        assert_eq!(p.centre(HexId::new(1, 0)), (40.0, 14.0));
        assert_eq!(p.extent(), (64 * 24 + 8, 48 * 28 + 14));
    }

    #[test]
    fn every_side_of_a_hex_leads_back_to_its_neighbour() {
        let p = px();
        let h: HexId = "28.23".parse().unwrap();
        for d in Direction::ALL {
            let (a, b) = p.side_corners(h, d);
            let n = p.grid.step(h, d).unwrap();
            let got = p.side_between(a, b).unwrap();
            assert!(got == (h, n) || got == (n, h), "{d}: {got:?}");
            assert_eq!(p.hex_at(p.centre(n)), Some(n));
        }
    }

    #[test]
    fn a_point_near_a_corner_snaps_to_it_and_one_far_from_every_corner_does_not() {
        let p = px();
        let h: HexId = "10.10".parse().unwrap();
        let c = p.corners(h)[2];
        assert_eq!(p.corner_at((c.0 + 2.0, c.1 - 1.0)), Some(c));
        assert_eq!(p.corner_at(p.centre(h)), None);
    }

    #[test]
    fn a_larger_hex_is_near_regular() {
        assert_eq!(HexSize::of_width(64), HexSize { width: 64, height: 56, side: 32 });
        assert_eq!(HexSize::of_width(33), HexSize { width: 32, height: 28, side: 16 });
    }
}
