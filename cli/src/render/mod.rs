//! Pictures: Gantt charts of schedules (SVG) and plots of experiments.
//!
//! Text that reaches a picture may come from a user (job names, algorithm names, file names), so
//! it goes through [`xml_escape`] (or [`xml_chars`] where the backend escapes markup itself):
//! every SVG written is well-formed XML whatever the names contain.
//!
//! Every picture names the build that drew it ([`crate::provenance`]): an SVG in a
//! `<metadata id="resched">` element right after its opening tag ([`with_metadata`]), holding
//! `{"resched": {"version", "commit", "dirty"}}`; a PNG in two `tEXt` chunks, `Software`
//! (`resched 0.2.0 (commit …)`) and `resched` (the same JSON object), see [`plot::write_png`].
pub mod gantt;
pub mod plot;

use resched::time::Time;

/// A parameter as a figure or a page prints it: its exact decimal when it has one of at most
/// six places ("ε = 0.3", not "3/10"), else the exact fraction with its value to three places
/// ("1/3 ≈ 0.333"): exact either way, and readable.
pub fn decimal(t: &Time) -> String {
    match t.decimal_places(6) {
        Some(k) => t.to_decimal_string(k),
        None => format!("{t} ≈ {}", t.to_decimal_string(3)),
    }
}

/// The `<metadata>` element of every SVG: this build, as JSON text.
pub fn metadata_element() -> String {
    let json = serde_json::json!({ "resched": crate::provenance::this_build() }).to_string();
    // Character data: `&`, `<` and `>` are the only markup a JSON text can hold.
    let text = xml_chars(&json)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(r#"<metadata id="resched">{text}</metadata>"#)
}

/// `svg` (a whole SVG document) with [`metadata_element`] inserted after its opening `<svg …>`
/// tag (and the line break that follows it); a text without an `<svg` tag, or an empty
/// `<svg/>`, is returned as is.
pub fn with_metadata(svg: String) -> String {
    let Some(end) = svg
        .find("<svg")
        .and_then(|start| svg[start..].find('>').map(|e| start + e + 1))
    else {
        return svg;
    };
    if svg[..end].ends_with("/>") {
        // An empty document: nothing to put metadata in.
        return svg;
    }
    let (head, tail) = svg.split_at(end);
    let (nl, tail) = match tail.strip_prefix('\n') {
        Some(t) => ("\n", t),
        None => ("", tail),
    };
    format!("{head}{nl}{}\n{tail}", metadata_element())
}

/// `s` with the characters XML 1.0 forbids or hides replaced by visible ones (XML 1.0 §2.2:
/// `Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`):
/// - the C0 controls U+0000–U+001F become their Control Pictures U+2400–U+241F (`␀`, `␇`, …):
///   forbidden ones must go, and tab, line feed and carriage return would vanish from a
///   one-line label; a picture keeps names that differ only there distinct;
/// - DEL U+007F becomes `␡` (U+2421), legal but invisible;
/// - the C1 controls U+0080–U+009F (legal but "discouraged", and invisible) and the
///   noncharacters U+FFFE, U+FFFF (forbidden) become U+FFFD `�`.
pub fn xml_chars(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            // unreachable: 0x2400 + c for c ≤ 0x1f is a valid char (the Control Pictures block)
            '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
            '\u{7f}' => '\u{2421}',
            '\u{80}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// `s` as XML character data or attribute value: markup characters as entities (`&amp;`,
/// `&lt;`, `&gt;`, `&quot;`, `&apos;`) and the characters of [`xml_chars`] replaced.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in xml_chars(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_replaces_forbidden_characters() {
        assert_eq!(
            xml_escape("a<b>&\"c'\u{0}\u{7}\t\n\u{7f}\u{85}\u{ffff}é😀"),
            "a&lt;b&gt;&amp;&quot;c&apos;␀␇␉␊␡\u{fffd}\u{fffd}é😀"
        );
        assert_eq!(xml_chars("<&\u{1f}"), "<&\u{241f}");
    }

    /// ε = 3/10 reads "0.3"; 1/4 "0.25"; an integer has no point; 1/3 keeps its fraction.
    #[test]
    fn parameters_read_as_decimals() {
        let t = |s: &str| s.parse::<Time>().unwrap();
        assert_eq!(decimal(&t("3/10")), "0.3");
        assert_eq!(decimal(&t("1/4")), "0.25");
        assert_eq!(decimal(&t("2")), "2");
        assert_eq!(decimal(&t("1/3")), "1/3 ≈ 0.333");
    }

    #[test]
    fn metadata_goes_after_the_opening_tag() {
        let m = metadata_element();
        assert!(m.contains(crate::provenance::COMMIT), "{m}");
        let s = with_metadata("<svg a=\"1\">\n<rect/>\n</svg>\n".to_string());
        assert_eq!(s, format!("<svg a=\"1\">\n{m}\n<rect/>\n</svg>\n"));
        assert_eq!(with_metadata("<svg/>".into()), "<svg/>");
        assert_eq!(with_metadata("plain".into()), "plain");
    }
}
