//! Labels placed without overlaps: a greedy placer. Each label is tried at its candidate
//! spots around what it names, in order, and takes the first where its box (its text's
//! estimated size) touches no box taken before — a counter, a settlement's symbol, or a
//! label placed earlier. A label that fits at none of its near spots is tried at its far
//! spots with a leader line to what it names, and dropped when none of those fits either
//! (its force or place keeps its name on hover). Labels are placed in the order they are
//! given: the more important first, so that the less important give way. The same labels in
//! the same order always land at the same spots.

use super::{Canvas, num};
use crate::model::oob::IdMap;

/// Width of a character of regular text, as a fraction of its font size: a generous
/// average for DejaVu Sans, Verdana and Arial (capitals and digits are wider than most
/// lower-case letters).
const CHAR: f64 = 0.62;
/// The same for bold text.
const CHAR_BOLD: f64 = 0.68;
/// Space kept around every box, pixels.
const PAD: f64 = 1.0;
/// Side of a cell of the placer's grid, pixels.
const CELL: f64 = 64.0;

/// A box on the picture: left, top, right, bottom.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left.
    pub x0: f64,
    /// Top.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Bottom.
    pub y1: f64,
}

impl Rect {
    /// The box of width `w` and height `h` centred at `c`.
    pub fn around(c: (f64, f64), w: f64, h: f64) -> Rect {
        Rect { x0: c.0 - w / 2.0, y0: c.1 - h / 2.0, x1: c.0 + w / 2.0, y1: c.1 + h / 2.0 }
    }

    fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    fn padded(&self) -> Rect {
        Rect { x0: self.x0 - PAD, y0: self.y0 - PAD, x1: self.x1 + PAD, y1: self.y1 + PAD }
    }
}

/// The estimated width of a line of text.
pub fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    let k = if bold { CHAR_BOLD } else { CHAR };
    k * size * super::char_len(text) as f64
}

/// How a label's lines stand to its spot's x: as SVG's `text-anchor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// Lines start at x.
    Start,
    /// Lines are centred on x.
    Middle,
    /// Lines end at x.
    End,
}

impl Anchor {
    fn word(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// Where a label may stand: the point its block is anchored at horizontally, and the top
/// of its block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spot {
    /// x of the lines' anchor, and y of the block's top.
    pub at: (f64, f64),
    /// How the lines stand to `at.0`.
    pub anchor: Anchor,
}

impl Spot {
    /// A spot.
    pub fn new(at: (f64, f64), anchor: Anchor) -> Spot {
        Spot { at, anchor }
    }
}

/// One line of a label.
#[derive(Debug, Clone)]
pub struct Line {
    /// The text.
    pub text: String,
    /// Font size, pixels.
    pub size: f64,
    /// Bold.
    pub bold: bool,
}

/// A label to place.
#[derive(Debug, Clone)]
pub struct Label {
    /// Its lines, top to bottom.
    pub lines: Vec<Line>,
    /// Its colour.
    pub fill: String,
    /// The point it names (where a leader line starts).
    pub names: (f64, f64),
    /// Its spots beside what it names, the preferred first.
    pub near: Vec<Spot>,
    /// Its spots farther away, tried with a leader line when no near spot fits.
    pub far: Vec<Spot>,
}

impl Label {
    /// Height of a line of `size`: the distance from one baseline to the next.
    fn step(size: f64) -> f64 {
        size * 1.2
    }

    /// Width and height of the label's block.
    pub fn size(&self) -> (f64, f64) {
        let w = self.lines.iter().map(|l| text_width(&l.text, l.size, l.bold)).fold(0.0, f64::max);
        let h = self.lines.iter().map(|l| Label::step(l.size)).sum();
        (w, h)
    }

    /// The block's box at `spot`.
    pub fn rect_at(&self, spot: &Spot) -> Rect {
        let (w, h) = self.size();
        let (x, y) = spot.at;
        let x0 = match spot.anchor {
            Anchor::Start => x,
            Anchor::Middle => x - w / 2.0,
            Anchor::End => x - w,
        };
        Rect { x0, y0: y, x1: x0 + w, y1: y + h }
    }
}

/// The boxes taken so far, found by the cells of a grid they touch.
#[derive(Debug, Default)]
pub struct Placer {
    boxes: Vec<Rect>,
    cells: IdMap<(i32, i32), Vec<usize>>,
    placed: Vec<(Label, Spot, bool)>,
    /// The picture's room for labels: a label never runs off it.
    bounds: Option<Rect>,
    /// Labels that fit nowhere.
    pub dropped: usize,
}

fn cells_of(r: &Rect) -> impl Iterator<Item = (i32, i32)> {
    let c = |v: f64| (v / CELL).floor() as i32;
    let (cx0, cy0, cx1, cy1) = (c(r.x0), c(r.y0), c(r.x1), c(r.y1));
    (cx0..=cx1).flat_map(move |x| (cy0..=cy1).map(move |y| (x, y)))
}

impl Placer {
    /// An empty placer.
    pub fn new() -> Placer {
        Placer::default()
    }

    /// A placer whose labels stay within `bounds` (the picture, less its title and legend).
    pub fn within(bounds: Rect) -> Placer {
        Placer { bounds: Some(bounds), ..Placer::default() }
    }

    /// True when `r` lies within the bounds and touches no box taken.
    pub fn fits(&self, r: &Rect) -> bool {
        if self.bounds.is_some_and(|b| r.x0 < b.x0 || r.y0 < b.y0 || r.x1 > b.x1 || r.y1 > b.y1) {
            return false;
        }
        let p = r.padded();
        cells_of(&p).all(|cell| {
            self.cells.get(&cell).is_none_or(|ids| ids.iter().all(|&i| !self.boxes[i].overlaps(&p)))
        })
    }

    /// Takes `r`: nothing placed later overlaps it (a counter, a symbol).
    pub fn block(&mut self, r: Rect) {
        let i = self.boxes.len();
        for cell in cells_of(&r) {
            self.cells.entry(cell).or_default().push(i);
        }
        self.boxes.push(r);
    }

    /// Places a label at its first spot that fits (a far one with a leader line), or drops
    /// it. True when it was placed.
    pub fn place(&mut self, label: Label) -> bool {
        let near = label.near.iter().map(|s| (s, false));
        let far = label.far.iter().map(|s| (s, true));
        let found = near.chain(far).find(|(s, _)| self.fits(&label.rect_at(s))).map(|(s, f)| (*s, f));
        match found {
            Some((spot, leader)) => {
                self.block(label.rect_at(&spot));
                self.placed.push((label, spot, leader));
                true
            }
            None => {
                self.dropped += 1;
                false
            }
        }
    }

    /// Writes every label placed into a group `id`, each line outlined in white so that it
    /// reads over roads, rivers and hex sides, a leader line from a far label to what it
    /// names.
    pub fn draw(&self, cv: &mut Canvas, id: &str) {
        cv.open(
            "g",
            &[
                ("id", id),
                ("stroke", "#ffffff"),
                ("stroke-width", "2.5"),
                ("stroke-linejoin", "round"),
                ("paint-order", "stroke"),
            ],
        );
        for (label, spot, leader) in &self.placed {
            if *leader {
                let r = label.rect_at(spot);
                let to = (label.names.0.clamp(r.x0, r.x1), label.names.1.clamp(r.y0, r.y1));
                cv.line(label.names, to, &[("stroke", &label.fill), ("stroke-width", "0.8")]);
            }
            let mut y = spot.at.1;
            for l in &label.lines {
                let step = Label::step(l.size);
                // The baseline sits a fifth of the line's height above its foot.
                let base = y + step - 0.25 * l.size;
                let (bx, by, size) = (num(spot.at.0), num(base), num(l.size));
                let mut attrs: Vec<(&str, &str)> = vec![("x", &bx), ("y", &by), ("font-size", &size)];
                if spot.anchor != Anchor::Start {
                    attrs.push(("text-anchor", spot.anchor.word()));
                }
                if l.bold {
                    attrs.push(("font-weight", "bold"));
                }
                attrs.push(("fill", &label.fill));
                cv.text("text", &attrs, &l.text);
                y += step;
            }
        }
        cv.close();
    }
}

/// The eight spots around a box `r` (what a label names: a counter, a place's symbol) for a
/// block of `block` (width, height), `gap` plus `far` away: right, left, below, above, then
/// south-east, north-east, south-west, north-west.
pub fn compass(r: &Rect, block: (f64, f64), gap: f64, far: f64) -> [Spot; 8] {
    let (_, h) = block;
    let d = gap + far;
    let cy = (r.y0 + r.y1) / 2.0 - h / 2.0;
    let cx = (r.x0 + r.x1) / 2.0;
    [
        Spot::new((r.x1 + d, cy), Anchor::Start),
        Spot::new((r.x0 - d, cy), Anchor::End),
        Spot::new((cx, r.y1 + d), Anchor::Middle),
        Spot::new((cx, r.y0 - d - h), Anchor::Middle),
        Spot::new((r.x1 + d, r.y1 + d), Anchor::Start),
        Spot::new((r.x1 + d, r.y0 - d - h), Anchor::Start),
        Spot::new((r.x0 - d, r.y1 + d), Anchor::End),
        Spot::new((r.x0 - d, r.y0 - d - h), Anchor::End),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(text: &str, spots: Vec<Spot>) -> Label {
        Label {
            lines: vec![Line { text: text.into(), size: 10.0, bold: false }],
            fill: "#000000".into(),
            names: (0.0, 0.0),
            near: spots,
            far: vec![],
        }
    }

    #[test]
    fn a_label_takes_its_first_free_spot_and_gives_way_else() {
        let mut p = Placer::new();
        p.block(Rect::around((0.0, 0.0), 20.0, 10.0));
        let spots = vec![Spot::new((-10.0, -5.0), Anchor::Start), Spot::new((0.0, 20.0), Anchor::Middle)];
        assert!(p.place(label("Rio Guadiana", spots.clone())));
        assert_eq!(p.placed[0].1, spots[1]);
        // The second spot is taken now, the first by the block: nothing left.
        assert!(!p.place(label("Ier Corps", spots)));
        assert_eq!(p.dropped, 1);
    }

    #[test]
    fn boxes_far_apart_do_not_touch() {
        let mut p = Placer::new();
        p.block(Rect::around((1000.0, 1000.0), 20.0, 10.0));
        assert!(p.fits(&Rect::around((1030.0, 1000.0), 20.0, 10.0)));
        assert!(!p.fits(&Rect::around((1015.0, 1000.0), 20.0, 10.0)));
    }
}
