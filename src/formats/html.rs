//! Pictures and reports as one self-contained HTML page: the SVG inline, the text rendered
//! from the report's Markdown, its own style, no script, no font, image or style sheet
//! fetched from anywhere, so that the umpire can mail the one file to the players and it
//! opens the same anywhere.

use pulldown_cmark::{Event, Options, Parser, html};

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

const STYLE: &str = "<style>\n\
body { margin: 0; background: #f2f2f2; color: #1a1a1a; \
font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; line-height: 1.4; }\n\
h1 { font-size: 1.2em; margin: 0; padding: 0.6em 1em; }\n\
.text { background: #ffffff; max-width: 60em; margin: 0.8em 1em; padding: 0.4em 1.2em; }\n\
.text h1 { padding: 0.4em 0 0; }\n\
.text h2 { font-size: 1.1em; }\n\
.text h3 { font-size: 1em; }\n\
table { border-collapse: collapse; margin: 0.6em 0; }\n\
th, td { border: 1px solid #c8c8c8; padding: 0.2em 0.5em; }\n\
th { background: #eeeeee; }\n\
pre { white-space: pre-wrap; }\n\
.picture { overflow: auto; background: #ffffff; margin: 0.2em 0 0.8em; }\n\
.picture svg { display: block; max-width: 100%; height: auto; }\n\
.full { margin-left: 1em; }\n\
.full:checked ~ .picture svg { max-width: none; }\n\
label { font-size: 0.9em; color: #555555; }\n\
.caption { margin: 0.4em 1em; font-weight: bold; }\n\
.note { margin: 0.4em 1em; color: #555555; }\n\
</style>\n";

/// A page being put together, section by section.
#[derive(Debug)]
pub struct Page {
    /// The page so far, from its doctype on: each section is written once, in place.
    body: String,
    pictures: usize,
}

impl Page {
    /// A page titled `title` (its first heading too).
    pub fn new(title: &str) -> Page {
        let t = escape(title);
        let mut body = String::with_capacity(STYLE.len() + 4096);
        body.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        body.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        body.push_str(&format!("<title>{t}</title>\n"));
        body.push_str(STYLE);
        body.push_str("</head>\n<body>\n");
        body.push_str(&format!("<h1>{t}</h1>\n"));
        Page { body, pictures: 0 }
    }

    /// A Markdown text (a report, a briefing) as HTML, with its tables (see [`Text`]).
    pub fn markdown(&mut self, md: &str) {
        self.body.reserve_exact(room_for(md));
        push_text(&mut self.body, md);
    }

    /// A text rendered apart (see [`Text::render`]).
    pub fn text(&mut self, t: &Text) {
        self.body.push_str(&t.0);
    }

    /// Plain text kept as it is written (monospaced lines).
    pub fn preformatted(&mut self, caption: &str, text: &str) {
        self.body.push_str(&format!(
            "<div class=\"text\">\n<h2>{}</h2>\n<pre>{}</pre>\n</div>\n",
            escape(caption),
            escape(text)
        ));
    }

    /// A line of note.
    pub fn note(&mut self, text: &str) {
        self.body.push_str(&format!("<p class=\"note\">{}</p>\n", escape(text)));
    }

    /// An SVG document inline, under a caption. Its XML declaration is dropped (HTML takes
    /// none inline) and its ids are made the page's own, so that two pictures on one page
    /// never point into each other.
    pub fn picture(&mut self, caption: &str, svg: &[u8]) {
        self.pictures += 1;
        let svg = crate::formats::text::utf8_or_lossy(svg);
        let body = match svg.strip_prefix("<?xml") {
            Some(rest) => rest.split_once("?>").map_or(rest, |(_, after)| after).trim_start(),
            None => svg.as_ref(),
        };
        // Attribute values the pictures write are escaped, so `id="` and `href="#` occur only
        // as attributes, never inside a name.
        // The first picture keeps its own ids.
        let body: std::borrow::Cow<'_, str> = if self.pictures == 1 {
            std::borrow::Cow::Borrowed(body)
        } else {
            let prefix = format!("p{}-", self.pictures);
            std::borrow::Cow::Owned(
                body.replace(" id=\"", &format!(" id=\"{prefix}"))
                    .replace(" href=\"#", &format!(" href=\"#{prefix}")),
            )
        };
        if !caption.is_empty() {
            self.body.push_str(&format!("<p class=\"caption\">{}</p>\n", escape(caption)));
        }
        // Fitted to the window's width; the box shows it at its own size, every name readable
        // (plain HTML, no script).
        let n = self.pictures;
        self.body.push_str(&format!(
            "<div class=\"picture-box\">\n<input type=\"checkbox\" class=\"full\" id=\"full-{n}\">\
             <label for=\"full-{n}\">at full size</label>\n<div class=\"picture\">\n"
        ));
        self.body.reserve_exact(body.len() + 64);
        self.body.push_str(body.trim_end());
        self.body.push_str("\n</div>\n</div>\n");
    }

    /// The page's bytes.
    pub fn finish(mut self) -> Vec<u8> {
        self.body.push_str("</body>\n</html>\n");
        self.body.into_bytes()
    }
}

/// A Markdown text rendered as a page's section on its own, to be put on a page later
/// ([`Page::text`]): what lets a text be rendered beside the drawing of the page's picture.
#[derive(Debug)]
pub struct Text(String);

impl Text {
    /// The text `md` as HTML, as [`Page::markdown`] renders it.
    pub fn render(md: &str) -> Text {
        let mut out = String::with_capacity(room_for(md));
        push_text(&mut out, md);
        Text(out)
    }
}

/// Room for a Markdown text as HTML. A report's HTML is about as long as its Markdown (a
/// tenth longer, its tables' tags and escapes): room for a quarter more, exactly, so that a
/// report of megabytes is not held at twice its size.
fn room_for(md: &str) -> usize {
    md.len() + md.len() / 4 + 256
}

/// The Markdown text `md` as HTML, with its tables, in its section. Any HTML the text holds
/// (a name from a campaign file, say) is shown as text, never taken as markup.
fn push_text(out: &mut String, md: &str) {
    let parser = Parser::new_ext(md, Options::ENABLE_TABLES).map(|e| match e {
        Event::Html(t) | Event::InlineHtml(t) => Event::Text(t),
        e => e,
    });
    out.push_str("<div class=\"text\">\n");
    html::push_html(out, parser);
    out.push_str("</div>\n");
}

/// A page titled `title` holding the SVG document `svg` alone.
pub fn page(title: &str, svg: &[u8]) -> Vec<u8> {
    let mut p = Page::new(title);
    p.picture("", svg);
    p.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_external(p: &str) {
        for external in ["<script", "<link", "src=", "url(", "@import"] {
            assert!(!p.contains(external), "{external}");
        }
    }

    #[test]
    fn a_long_report_is_not_held_at_twice_its_size() {
        let md: String = (0..20_000).map(|i| format!("- line {i} of the report, in supply\n")).collect();
        let mut p = Page::new("Turn 21");
        p.picture("", b"<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>");
        p.markdown(&md);
        let bytes = p.finish();
        assert!(bytes.len() > md.len());
        assert!(bytes.capacity() < bytes.len() + bytes.len() / 2, "{} for {}", bytes.capacity(), bytes.len());
    }

    #[test]
    fn a_page_holds_the_svg_inline_and_fetches_nothing() {
        let svg = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><title>x</title></svg>\n";
        let p = String::from_utf8(page("Turn 20 <Medellín> & co", svg)).unwrap();
        assert!(p.starts_with("<!DOCTYPE html>"));
        assert!(p.contains("<title>Turn 20 &lt;Medellín&gt; &amp; co</title>"));
        assert!(p.contains("<div class=\"picture\">\n<svg xmlns="));
        assert!(!p.contains("<?xml"));
        no_external(&p);
    }

    #[test]
    fn markdown_tables_are_rendered_and_html_in_names_is_text() {
        let mut p = Page::new("Battle");
        p.markdown("# Report\n\n| side | men |\n|---|---:|\n| French | 18590 |\n\nBrigade <script>alert(1)</script> & co\n");
        let s = String::from_utf8(p.finish()).unwrap();
        assert!(s.contains("<table>"), "{s}");
        assert!(s.contains("<td>French</td>"), "{s}");
        assert!(s.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{s}");
        no_external(&s);
    }

    #[test]
    fn two_pictures_on_a_page_keep_their_own_ids() {
        let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\"><defs><polygon id=\"hex\"/></defs><use href=\"#hex\"/><text>id=&quot;x&quot;</text></svg>";
        let mut p = Page::new("Two");
        p.picture("one", svg);
        p.picture("two", svg);
        let s = String::from_utf8(p.finish()).unwrap();
        assert!(s.contains("<polygon id=\"hex\"/></defs><use href=\"#hex\"/>"), "{s}");
        assert!(s.contains("<polygon id=\"p2-hex\"/></defs><use href=\"#p2-hex\"/>"), "{s}");
        assert!(s.contains("<text>id=&quot;x&quot;</text>"), "{s}");
    }
}
