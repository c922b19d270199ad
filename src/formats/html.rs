//! A picture as one self-contained HTML page: the SVG inline, its own style, no script, no
//! font, image or style sheet fetched from anywhere, so that the umpire can mail the one
//! file to the players and it opens the same anywhere.

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

/// A page titled `title` holding the SVG document `svg` (its XML declaration dropped, as
/// HTML does not take one inline).
pub fn page(title: &str, svg: &[u8]) -> Vec<u8> {
    let svg = String::from_utf8_lossy(svg);
    let body = match svg.strip_prefix("<?xml") {
        Some(rest) => rest.split_once("?>").map_or(rest, |(_, after)| after).trim_start(),
        None => svg.as_ref(),
    };
    let t = escape(title);
    let mut s = String::with_capacity(body.len() + 1024);
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    s.push_str(&format!("<title>{t}</title>\n"));
    s.push_str(
        "<style>\nbody { margin: 0; background: #f2f2f2; color: #1a1a1a; \
         font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; }\n\
         h1 { font-size: 1.2em; margin: 0; padding: 0.6em 1em; }\n\
         .picture { overflow: auto; background: #ffffff; }\n\
         .picture svg { display: block; }\n</style>\n",
    );
    s.push_str("</head>\n<body>\n");
    s.push_str(&format!("<h1>{t}</h1>\n<div class=\"picture\">\n"));
    s.push_str(body.trim_end());
    s.push_str("\n</div>\n</body>\n</html>\n");
    s.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_holds_the_svg_inline_and_fetches_nothing() {
        let svg = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><title>x</title></svg>\n";
        let p = String::from_utf8(page("Turn 20 <Medellín> & co", svg)).unwrap();
        assert!(p.starts_with("<!DOCTYPE html>"));
        assert!(p.contains("<title>Turn 20 &lt;Medellín&gt; &amp; co</title>"));
        assert!(p.contains("<div class=\"picture\">\n<svg xmlns="));
        assert!(!p.contains("<?xml"));
        for external in ["<script", "<link", "src=", "url(", "@import"] {
            assert!(!p.contains(external), "{external}");
        }
    }
}
