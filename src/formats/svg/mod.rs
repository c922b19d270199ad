//! Pictures of the campaign as SVG: the campaign map ([`map`]), the battle picture
//! ([`battle`]) and the aftermath of a battle ([`aftermath`]). Drawing is a pure function from the model to SVG text; the commands write
//! the bytes. The same campaign always gives the same bytes: elements come in a fixed
//! order and every number is written with one decimal.
//!
//! The XML is written with `quick-xml`, which escapes every name a campaign file gives
//! (`Ejército de Extremadura`, `Brigade "Mackenzie" & Co`) so that no campaign can break a
//! picture.

pub mod aftermath;
pub mod battle;
mod geometry;
pub mod labels;
mod legend;
pub mod map;
pub mod palette;
mod symbols;

use quick_xml::Writer;
use quick_xml::escape::escape;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};

pub use geometry::Frame;

/// A number as an attribute value: one decimal, without a trailing `.0`, never `-0`.
pub fn num(v: f64) -> String {
    let mut s = String::with_capacity(8);
    push_num(&mut s, v);
    s
}

/// Appends [`num`]`(v)` to `s`. Written with integer arithmetic: a picture has tens of
/// thousands of numbers, and formatting floats is the slow part of drawing one.
pub fn push_num(s: &mut String, v: f64) {
    use std::fmt::Write as _;
    let tenths = (v * 10.0).round();
    // Beyond any picture's size: written as it comes.
    if !tenths.is_finite() || tenths.abs() > 1e15 {
        let _ = write!(s, "{v:.1}");
        return;
    }
    let t = tenths as i64;
    let a = t.unsigned_abs();
    if t < 0 {
        s.push('-');
    }
    let _ = write!(s, "{}", a / 10);
    if !a.is_multiple_of(10) {
        s.push('.');
        s.push(char::from(b'0' + (a % 10) as u8));
    }
}

/// An SVG document being written, element by element, into memory.
pub struct Canvas {
    w: Writer<Vec<u8>>,
    open: Vec<&'static str>,
    /// Labels held back for the placer ([`Canvas::defer_labels`]), when it is on.
    deferred: Option<Vec<Deferred>>,
}

/// A label [`Canvas::label`] was asked for while labels are held back: placed later, where
/// it overlaps nothing ([`labels::Placer`]).
#[derive(Debug, Clone)]
pub struct Deferred {
    /// Where it was asked for: x of its anchor, y of its baseline.
    pub at: (f64, f64),
    /// Font size.
    pub size: f64,
    /// Bold (a place's name); else a river's or another feature's.
    pub bold: bool,
    /// Colour.
    pub fill: String,
    /// Text.
    pub text: String,
}

impl std::fmt::Debug for Canvas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Canvas").field("bytes", &self.w.get_ref().len()).field("open", &self.open).finish()
    }
}

impl Canvas {
    /// A document of `width` × `height` pixels whose title (what a viewer shows in its title
    /// bar or as a tooltip) is `title`.
    pub fn new(width: f64, height: f64, title: &str) -> Canvas {
        Canvas::with_capacity(width, height, title, 64 * 1024)
    }

    /// [`Canvas::new`], with room for `bytes` of SVG before the buffer grows.
    pub fn with_capacity(width: f64, height: f64, title: &str, bytes: usize) -> Canvas {
        let buffer = Vec::with_capacity(bytes);
        let mut c = Canvas { w: Writer::new_with_indent(buffer, b' ', 0), open: Vec::new(), deferred: None };
        c.emit(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
        let (w, h) = (num(width), num(height));
        let view = format!("0 0 {w} {h}");
        c.open(
            "svg",
            &[
                ("xmlns", "http://www.w3.org/2000/svg"),
                ("width", &w),
                ("height", &h),
                ("viewBox", &view),
                ("font-family", "DejaVu Sans, Verdana, Arial, sans-serif"),
            ],
        );
        c.text("title", &[], title);
        c
    }

    /// Writes an event. Writing into memory cannot fail, so there is no error to pass on.
    fn emit(&mut self, e: Event<'_>) {
        let written = self.w.write_event(e);
        debug_assert!(written.is_ok(), "writing SVG into memory failed");
    }

    /// A start tag with its attributes, each value escaped by quick-xml, built in one string
    /// (a map has tens of thousands of elements).
    fn start(name: &'static str, attrs: &[(&str, &str)]) -> BytesStart<'static> {
        let mut content = String::with_capacity(
            name.len() + attrs.iter().map(|(k, v)| k.len() + v.len() + 4).sum::<usize>(),
        );
        content.push_str(name);
        for &(k, v) in attrs {
            content.push(' ');
            content.push_str(k);
            content.push_str("=\"");
            content.push_str(&escape(v));
            content.push('"');
        }
        BytesStart::from_content(content, name.len())
    }

    /// Opens an element that [`Canvas::close`] ends.
    pub fn open(&mut self, name: &'static str, attrs: &[(&str, &str)]) {
        self.emit(Event::Start(Self::start(name, attrs)));
        self.open.push(name);
    }

    /// Ends the element opened last.
    pub fn close(&mut self) {
        if let Some(name) = self.open.pop() {
            self.emit(Event::End(BytesEnd::new(name)));
        }
    }

    /// An element without content.
    pub fn empty(&mut self, name: &'static str, attrs: &[(&str, &str)]) {
        self.emit(Event::Empty(Self::start(name, attrs)));
    }

    /// An element holding only text (escaped).
    pub fn text(&mut self, name: &'static str, attrs: &[(&str, &str)], text: &str) {
        self.emit(Event::Start(Self::start(name, attrs)));
        self.emit(Event::Text(BytesText::new(text)));
        self.emit(Event::End(BytesEnd::new(name)));
    }

    /// From now on [`Canvas::label`] holds its labels back (centred on their point) until
    /// [`Canvas::take_deferred`]: the map places them all at once, without overlaps.
    pub fn defer_labels(&mut self) {
        self.deferred = Some(Vec::new());
    }

    /// The labels held back, and labels written at once again.
    pub fn take_deferred(&mut self) -> Vec<Deferred> {
        self.deferred.take().unwrap_or_default()
    }

    /// A `<text>` at a point, with its size, anchor and weight, outlined in white so that it
    /// reads over roads, rivers and hex sides (held back for the placer when it is on).
    pub fn label(&mut self, at: (f64, f64), size: f64, anchor: &str, bold: bool, fill: &str, text: &str) {
        if let Some(d) = &mut self.deferred {
            d.push(Deferred { at, size, bold, fill: fill.to_string(), text: text.to_string() });
            return;
        }
        let (x, y, s) = (num(at.0), num(at.1), num(size));
        let mut attrs: Vec<(&str, &str)> = vec![("x", &x), ("y", &y), ("font-size", &s)];
        if anchor != "start" {
            attrs.push(("text-anchor", anchor));
        }
        if bold {
            attrs.push(("font-weight", "bold"));
        }
        attrs.extend([
            ("fill", fill),
            ("stroke", "#ffffff"),
            ("stroke-width", "2.5"),
            ("stroke-linejoin", "round"),
            ("paint-order", "stroke"),
        ]);
        self.text("text", &attrs, text);
    }

    /// A `<text>` without outline (inside a marker, in the legend).
    pub fn plain(&mut self, at: (f64, f64), size: f64, anchor: &str, bold: bool, fill: &str, text: &str) {
        let (x, y, s) = (num(at.0), num(at.1), num(size));
        let mut attrs: Vec<(&str, &str)> = vec![("x", &x), ("y", &y), ("font-size", &s)];
        if anchor != "start" {
            attrs.push(("text-anchor", anchor));
        }
        if bold {
            attrs.push(("font-weight", "bold"));
        }
        attrs.push(("fill", fill));
        self.text("text", &attrs, text);
    }

    /// A straight line.
    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), style: &[(&str, &str)]) {
        let (x1, y1, x2, y2) = (num(a.0), num(a.1), num(b.0), num(b.1));
        let mut attrs: Vec<(&str, &str)> = vec![("x1", &x1), ("y1", &y1), ("x2", &x2), ("y2", &y2)];
        attrs.extend_from_slice(style);
        self.empty("line", &attrs);
    }

    /// A circle.
    pub fn circle(&mut self, at: (f64, f64), r: f64, style: &[(&str, &str)]) {
        let (x, y, r) = (num(at.0), num(at.1), num(r));
        let mut attrs: Vec<(&str, &str)> = vec![("cx", &x), ("cy", &y), ("r", &r)];
        attrs.extend_from_slice(style);
        self.empty("circle", &attrs);
    }

    /// A rectangle from its top-left corner and size.
    pub fn rect(&mut self, at: (f64, f64), size: (f64, f64), style: &[(&str, &str)]) {
        let (x, y, w, h) = (num(at.0), num(at.1), num(size.0), num(size.1));
        let mut attrs: Vec<(&str, &str)> = vec![("x", &x), ("y", &y), ("width", &w), ("height", &h)];
        attrs.extend_from_slice(style);
        self.empty("rect", &attrs);
    }

    /// A closed polygon through the points.
    pub fn polygon(&mut self, points: &[(f64, f64)], style: &[(&str, &str)]) {
        let pts = points_attr(points);
        let mut attrs: Vec<(&str, &str)> = vec![("points", &pts)];
        attrs.extend_from_slice(style);
        self.empty("polygon", &attrs);
    }

    /// Closes every element still open and returns the document's bytes.
    pub fn finish(mut self) -> Vec<u8> {
        while !self.open.is_empty() {
            self.close();
        }
        let mut bytes = self.w.into_inner();
        bytes.push(b'\n');
        bytes
    }
}

/// Points as a `points` attribute: `x,y x,y …`.
pub fn points_attr(points: &[(f64, f64)]) -> String {
    let mut s = String::with_capacity(points.len() * 12);
    for (i, &(x, y)) in points.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        push_num(&mut s, x);
        s.push(',');
        push_num(&mut s, y);
    }
    s
}

/// Men with a thousands separator: `24,312`.
pub fn thousands(n: u32) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_one_decimal_and_no_negative_zero() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.345), "12.3");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(-3.25), "-3.3");
        assert_eq!(num(-0.3), "-0.3");
        assert_eq!(num(1234.56), "1234.6");
        assert_eq!(points_attr(&[(1.0, 2.25), (-0.04, 3.0)]), "1,2.3 0,3");
        assert_eq!(thousands(24312), "24,312");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
    }

    #[test]
    fn names_are_escaped() {
        let mut c = Canvas::new(10.0, 10.0, "A & B");
        c.label((1.0, 2.0), 9.0, "middle", true, "#000000", "Brigade \"Mackenzie\" <Br>");
        let s = String::from_utf8(c.finish()).unwrap();
        assert!(s.contains("<title>A &amp; B</title>"), "{s}");
        assert!(s.contains("Brigade &quot;Mackenzie&quot; &lt;Br&gt;"), "{s}");
        assert!(s.ends_with("</svg>\n"), "{s}");
    }
}
