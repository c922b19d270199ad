//! Pictures of the campaign as SVG: the campaign map ([`map`]), the battle picture
//! ([`battle`]) and the aftermath of a battle ([`aftermath`]). Drawing is a pure function from the model to SVG text; the commands write
//! the bytes. The same campaign always gives the same bytes: elements come in a fixed
//! order and every number is written with one decimal.
//!
//! Every name a campaign file gives (`Ejército de Extremadura`, `Brigade "Mackenzie" & Co`)
//! is escaped with `quick-xml`'s `escape`, so that no campaign can break a picture.

pub mod aftermath;
pub mod battle;
mod geometry;
pub mod labels;
mod legend;
pub mod map;
pub mod palette;
mod symbols;

use quick_xml::escape::escape;

pub use geometry::Frame;

/// A number as an attribute value: one decimal, without a trailing `.0`, never `-0`.
pub fn num(v: f64) -> String {
    let mut s = String::with_capacity(8);
    push_num(&mut s, v);
    s
}

/// The characters of a text, as its width on a picture is reckoned: most names are ASCII,
/// whose characters are its bytes, counted at once (a picture measures tens of thousands).
pub fn char_len(text: &str) -> usize {
    if text.is_ascii() { text.len() } else { text.chars().count() }
}

/// Appends [`num`]`(v)` to `s`.
pub fn push_num(s: &mut String, v: f64) {
    // ASCII digits, point and sign: each byte is its own character.
    with_num(v, |bytes| s.extend(bytes.iter().map(|&b| char::from(b))));
}

/// Hands [`num`]`(v)` to `put` as ASCII bytes: written by [`num_digits`], or as it comes for
/// a value beyond any picture's size (`inf`, `NaN` and the like are ASCII too).
fn with_num(v: f64, put: impl FnOnce(&[u8])) {
    let mut digits = [0u8; 24];
    match num_digits(v, &mut digits) {
        Some(at) => put(&digits[at..]),
        None => put(format!("{v:.1}").as_bytes()),
    }
}

/// [`num`]`(v)` written at the end of `buf` in ASCII, from the index returned; `None` for a
/// value beyond any picture's size (up to 1e15 tenths fit the buffer), written as it comes.
/// Written with integer arithmetic: a picture has tens of thousands of numbers, and
/// formatting floats is the slow part of drawing one.
fn num_digits(v: f64, buf: &mut [u8; 24]) -> Option<usize> {
    let tenths = (v * 10.0).round();
    if !tenths.is_finite() || tenths.abs() > 1e15 {
        return None;
    }
    let t = tenths as i64;
    let a = t.unsigned_abs();
    // Written from the end: the tenth, then the whole part, then the sign.
    let mut at = buf.len();
    if !a.is_multiple_of(10) {
        at -= 2;
        buf[at] = b'.';
        buf[at + 1] = b'0' + (a % 10) as u8;
    }
    let mut whole = a / 10;
    loop {
        at -= 1;
        buf[at] = b'0' + (whole % 10) as u8;
        whole /= 10;
        if whole == 0 {
            break;
        }
    }
    if t < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    Some(at)
}

/// An SVG document being written, element by element, into memory: each tag on a line of
/// its own, except a tag after text (`<title>A</title>`), as quick-xml's indenting writer
/// lays it out; attribute values and text are escaped by quick-xml.
pub struct Canvas {
    buf: Vec<u8>,
    /// The next tag begins a new line (after a tag, not after text or at the start).
    line_break: bool,
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
        f.debug_struct("Canvas").field("bytes", &self.buf.len()).field("open", &self.open).finish()
    }
}

/// The outline that makes a label read over roads, rivers and hex sides.
const OUTLINE: [(&str, &str); 4] =
    [("stroke", "#ffffff"), ("stroke-width", "2.5"), ("stroke-linejoin", "round"), ("paint-order", "stroke")];

impl Canvas {
    /// A document of `width` × `height` pixels whose title (what a viewer shows in its title
    /// bar or as a tooltip) is `title`.
    pub fn new(width: f64, height: f64, title: &str) -> Canvas {
        Canvas::with_capacity(width, height, title, 64 * 1024)
    }

    /// [`Canvas::new`], with room for `bytes` of SVG before the buffer grows.
    pub fn with_capacity(width: f64, height: f64, title: &str, bytes: usize) -> Canvas {
        let mut c =
            Canvas { buf: Vec::with_capacity(bytes), line_break: false, open: Vec::new(), deferred: None };
        c.tag_start("<?", "xml version=\"1.0\" encoding=\"UTF-8\"");
        c.tag_end("?>");
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

    /// Begins a tag: on a line of its own unless it follows text.
    fn tag_start(&mut self, before: &str, name: &str) {
        if self.line_break {
            self.buf.push(b'\n');
        }
        self.buf.extend_from_slice(before.as_bytes());
        self.buf.extend_from_slice(name.as_bytes());
    }

    /// Ends a tag: what follows it begins a new line.
    fn tag_end(&mut self, after: &str) {
        self.buf.extend_from_slice(after.as_bytes());
        self.line_break = true;
    }

    /// An attribute, its value escaped.
    fn attr(&mut self, k: &str, v: &str) {
        self.buf.push(b' ');
        self.buf.extend_from_slice(k.as_bytes());
        self.buf.extend_from_slice(b"=\"");
        self.buf.extend_from_slice(escape(v).as_bytes());
        self.buf.push(b'"');
    }

    /// An attribute whose value is a number ([`num`]).
    fn attr_num(&mut self, k: &str, v: f64) {
        self.buf.push(b' ');
        self.buf.extend_from_slice(k.as_bytes());
        self.buf.extend_from_slice(b"=\"");
        with_num(v, |bytes| self.buf.extend_from_slice(bytes));
        self.buf.push(b'"');
    }

    fn attrs(&mut self, attrs: &[(&str, &str)]) {
        for &(k, v) in attrs {
            self.attr(k, v);
        }
    }

    /// Opens an element that [`Canvas::close`] ends.
    pub fn open(&mut self, name: &'static str, attrs: &[(&str, &str)]) {
        self.tag_start("<", name);
        self.attrs(attrs);
        self.tag_end(">");
        self.open.push(name);
    }

    /// Ends the element opened last.
    pub fn close(&mut self) {
        if let Some(name) = self.open.pop() {
            self.tag_start("</", name);
            self.tag_end(">");
        }
    }

    /// An element without content.
    pub fn empty(&mut self, name: &'static str, attrs: &[(&str, &str)]) {
        self.tag_start("<", name);
        self.attrs(attrs);
        self.tag_end("/>");
    }

    /// An element holding only text (escaped).
    pub fn text(&mut self, name: &'static str, attrs: &[(&str, &str)], text: &str) {
        self.tag_start("<", name);
        self.attrs(attrs);
        self.tag_end(">");
        self.body(name, text);
    }

    /// The text of an element opened just before, and its end tag.
    fn body(&mut self, name: &str, text: &str) {
        self.buf.extend_from_slice(escape(text).as_bytes());
        self.line_break = false;
        self.tag_start("</", name);
        self.tag_end(">");
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
        self.text_start(at, size, anchor, bold, fill);
        self.attrs(&OUTLINE);
        self.tag_end(">");
        self.body("text", text);
    }

    /// A `<text>` without outline (inside a marker, in the legend).
    pub fn plain(&mut self, at: (f64, f64), size: f64, anchor: &str, bold: bool, fill: &str, text: &str) {
        self.text_start(at, size, anchor, bold, fill);
        self.tag_end(">");
        self.body("text", text);
    }

    /// The start tag of a `<text>`, open for more attributes.
    fn text_start(&mut self, at: (f64, f64), size: f64, anchor: &str, bold: bool, fill: &str) {
        self.tag_start("<", "text");
        self.attr_num("x", at.0);
        self.attr_num("y", at.1);
        self.attr_num("font-size", size);
        if anchor != "start" {
            self.attr("text-anchor", anchor);
        }
        if bold {
            self.attr("font-weight", "bold");
        }
        self.attr("fill", fill);
    }

    /// A straight line.
    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), style: &[(&str, &str)]) {
        self.shape("line", &[("x1", a.0), ("y1", a.1), ("x2", b.0), ("y2", b.1)], style);
    }

    /// A circle.
    pub fn circle(&mut self, at: (f64, f64), r: f64, style: &[(&str, &str)]) {
        self.shape("circle", &[("cx", at.0), ("cy", at.1), ("r", r)], style);
    }

    /// A rectangle from its top-left corner and size.
    pub fn rect(&mut self, at: (f64, f64), size: (f64, f64), style: &[(&str, &str)]) {
        self.shape("rect", &[("x", at.0), ("y", at.1), ("width", size.0), ("height", size.1)], style);
    }

    /// An empty element of numbers, then its style.
    fn shape(&mut self, name: &str, numbers: &[(&str, f64)], style: &[(&str, &str)]) {
        self.tag_start("<", name);
        for &(k, v) in numbers {
            self.attr_num(k, v);
        }
        self.attrs(style);
        self.tag_end("/>");
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
        let mut bytes = self.buf;
        bytes.push(b'\n');
        // A picture is kept until it is written: at its own size, not its buffer's.
        bytes.shrink_to_fit();
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
    fn a_finished_picture_is_held_at_its_own_size() {
        let mut cv = Canvas::with_capacity(100.0, 100.0, "room to spare", 1 << 20);
        cv.rect((0.0, 0.0), (10.0, 10.0), &[("fill", "#ffffff")]);
        let bytes = cv.finish();
        assert!(bytes.len() < 1 << 10);
        assert_eq!(bytes.capacity(), bytes.len());
    }

    #[test]
    fn a_text_is_as_wide_as_its_characters_not_its_bytes() {
        assert_eq!(char_len("Talavera"), 8);
        assert_eq!(char_len("Ejército de Extremadura"), 23);
        assert_eq!("Ejército de Extremadura".len(), 24);
        assert_eq!(char_len(""), 0);
    }

    #[test]
    fn numbers_have_one_decimal_and_no_negative_zero() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.345), "12.3");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(-3.25), "-3.3");
        assert_eq!(num(-0.3), "-0.3");
        assert_eq!(num(1234.56), "1234.6");
        assert_eq!(num(0.05), "0.1");
        assert_eq!(num(-1e14), "-100000000000000");
        assert_eq!(num(1e15), "1000000000000000.0");
        assert_eq!(num(f64::NAN), "NaN");
        assert_eq!(points_attr(&[(1.0, 2.25), (-0.04, 3.0)]), "1,2.3 0,3");
        assert_eq!(thousands(24312), "24,312");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
    }

    #[test]
    fn a_canvas_writes_its_numbers_as_num_does() {
        for v in [12.0, 12.345, -0.04, -3.25, 1234.56, -1e14, 1e15, f64::NAN, f64::INFINITY] {
            let mut c = Canvas::new(10.0, 10.0, "");
            c.plain((v, 2.0), 9.0, "start", false, "#000000", "x");
            let s = String::from_utf8(c.finish()).unwrap();
            assert!(s.contains(&format!("<text x=\"{}\" y=\"2\" font-size=\"9\"", num(v))), "{v}: {s}");
        }
        assert_eq!(num(f64::INFINITY), "inf");
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

    #[test]
    fn each_tag_has_a_line_but_text_keeps_its_tags_on_one() {
        let mut c = Canvas::new(10.0, 20.5, "");
        c.open("g", &[("class", "a'b")]);
        c.rect((1.0, 2.0), (3.0, 4.0), &[("fill", "none")]);
        c.plain((1.0, 2.0), 9.0, "start", false, "#000000", "x\ry");
        c.empty("circle", &[]);
        let s = String::from_utf8(c.finish()).unwrap();
        assert_eq!(
            s,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
             width=\"10\" height=\"20.5\" viewBox=\"0 0 10 20.5\" \
             font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n<title></title>\n\
             <g class=\"a&apos;b\">\n<rect x=\"1\" y=\"2\" width=\"3\" height=\"4\" fill=\"none\"/>\n\
             <text x=\"1\" y=\"2\" font-size=\"9\" fill=\"#000000\">x&#13;y</text>\n<circle/>\n</g>\n</svg>\n"
        );
    }
}
