//! Where a hex is drawn: the campaign's own layout ([`HexGrid::centre`], flat-topped hexes,
//! north up) scaled to pixels, with the corners of a hex and the side two hexes share.

use crate::model::{HexGrid, HexId};

/// A hex grid placed on a picture: hex radius (centre to corner) in pixels and the pixel
/// position of the grid's origin.
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    /// The campaign's grid.
    pub grid: HexGrid,
    /// Centre to corner, pixels.
    pub radius: f64,
    /// Pixel position of map point (0, 0), the centre of hex 00.00 unshifted.
    pub origin: (f64, f64),
}

impl Frame {
    /// Centre of a hex, pixels.
    pub fn centre(&self, h: HexId) -> (f64, f64) {
        let (x, y) = self.grid.centre(h);
        (self.origin.0 + x * self.radius, self.origin.1 + y * self.radius)
    }

    /// The point at a compass bearing (degrees clockwise from north) and a distance from a
    /// point, y growing southward.
    pub fn toward(from: (f64, f64), bearing: f64, distance: f64) -> (f64, f64) {
        let b = bearing.to_radians();
        (from.0 + distance * b.sin(), from.1 - distance * b.cos())
    }

    /// The six corners of a hex, clockwise from the north-east one.
    pub fn corners(&self, h: HexId) -> [(f64, f64); 6] {
        self.corners_at(self.centre(h), 1.0)
    }

    /// The six corners of a hex centred at `c`, scaled by `scale`.
    pub fn corners_at(&self, c: (f64, f64), scale: f64) -> [(f64, f64); 6] {
        hexagon(c, self.radius * scale)
    }

    /// The side two neighbouring hexes share, as its two corners; `None` when they are not
    /// neighbours.
    pub fn shared_side(&self, a: HexId, b: HexId) -> Option<((f64, f64), (f64, f64))> {
        let d = self.grid.direction_to_neighbour(a, b)?;
        let c = self.centre(a);
        let bearing = d.bearing();
        Some((Frame::toward(c, bearing - 30.0, self.radius), Frame::toward(c, bearing + 30.0, self.radius)))
    }

    /// Width and height in pixels of the whole grid, from pixel (0, 0) to the far corners
    /// (with the origin a hex radius in from the top-left).
    pub fn extent(&self) -> (f64, f64) {
        let r = self.radius;
        let w = 1.5 * r * f64::from(self.grid.columns.saturating_sub(1)) + 2.0 * r;
        let h = 3f64.sqrt() * r * (f64::from(self.grid.rows) + 0.5);
        (w, h)
    }
}

/// The six corners of a flat-topped hexagon of radius `r` centred at `c`, clockwise from the
/// north-east one (at bearings 30°, 90°, … 330°).
pub fn hexagon(c: (f64, f64), r: f64) -> [(f64, f64); 6] {
    // sin and -cos of those bearings, worked out once: the map has thousands of hexes.
    const H: f64 = 0.866_025_403_784_438_6;
    const UNIT: [(f64, f64); 6] = [(0.5, -H), (1.0, 0.0), (0.5, H), (-0.5, H), (-1.0, 0.0), (-0.5, -H)];
    UNIT.map(|(dx, dy)| (c.0 + r * dx, c.1 + r * dy))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::HexLayout;

    fn frame() -> Frame {
        let grid = HexGrid { columns: 64, rows: 48, layout: HexLayout::EvenColumnsDown };
        Frame { grid, radius: 10.0, origin: (10.0, 10.0 * 3f64.sqrt() / 2.0) }
    }

    #[test]
    fn neighbours_share_a_side_at_the_right_place() {
        let f = frame();
        let (a, b): (HexId, HexId) = ("18.28".parse().unwrap(), "18.29".parse().unwrap());
        let (p, q) = f.shared_side(a, b).unwrap();
        // The side between a hex and the one south of it is horizontal, half-way between.
        assert!((p.1 - q.1).abs() < 1e-9);
        let mid_y = (f.centre(a).1 + f.centre(b).1) / 2.0;
        assert!((p.1 - mid_y).abs() < 1e-9);
        // Both hexes have those two corners.
        for corner in [p, q] {
            for h in [a, b] {
                assert!(
                    f.corners(h)
                        .iter()
                        .any(|c| (c.0 - corner.0).abs() < 1e-9 && (c.1 - corner.1).abs() < 1e-9)
                );
            }
        }
        assert!(f.shared_side(a, "20.20".parse().unwrap()).is_none());
    }

    #[test]
    fn the_whole_grid_fits_its_extent() {
        let f = frame();
        let (w, h) = f.extent();
        for hex in ["00.00", "63.47", "62.47", "00.47"] {
            for (x, y) in f.corners(hex.parse().unwrap()) {
                assert!(x > -1e-9 && x < w + 1e-9 && y > -1e-9 && y < h + 1e-9, "{hex}");
            }
        }
    }
}
