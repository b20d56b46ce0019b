//! Terminal columns of text. East Asian wide characters and most emoji take two columns,
//! combining marks none (Unicode UAX #11, through the `unicode-width` crate, the same measure
//! ratatui draws with). Every pane that cuts or wraps text from the cluster measures it here, so
//! a line of CJK log text is cut at the pane's edge rather than past it.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Columns `s` takes on a terminal.
#[must_use]
pub fn cells(s: &str) -> usize {
    s.width()
}

/// The longest prefix of `s` that fits in `cols` columns: `(end byte, its columns)`. Stops at the
/// first character that does not fit, so it reads little more than `cols` characters of a long
/// line. A wide character that would straddle the edge is left out (`(0, 0)` when it is the
/// first one).
#[must_use]
pub fn prefix(s: &str, cols: usize) -> (usize, usize) {
    let mut used = 0;
    for (i, ch) in s.char_indices() {
        let w = ch.width().unwrap_or(0);
        if used + w > cols {
            return (i, used);
        }
        used += w;
    }
    (s.len(), used)
}

/// `text` wrapped at spaces into lines of at most `cols` columns (first fit; a word longer than
/// a line is broken). Empty text gives no lines. `cols` of 0 is taken as 1.
#[must_use]
pub fn words(text: &str, cols: usize) -> Vec<String> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    let options = textwrap::Options::new(cols.max(1))
        .break_words(true)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .wrap_algorithm(textwrap::WrapAlgorithm::FirstFit);
    textwrap::wrap(text, options)
        .into_iter()
        .map(std::borrow::Cow::into_owned)
        .collect()
}

/// `text` wrapped like [`words`], the first line `first` columns narrower than `cols` and the
/// others `rest` narrower (room for a prefix and a hanging indent); the lines carry no indent.
/// At least one column is left on each line.
#[must_use]
pub fn hanging(text: &str, cols: usize, first: usize, rest: usize) -> Vec<String> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    // Keep one column of text whatever the indents.
    let first = first.min(cols.saturating_sub(1));
    let rest = rest.min(cols.saturating_sub(1));
    let (first_indent, rest_indent) = (" ".repeat(first), " ".repeat(rest));
    let options = textwrap::Options::new(cols.max(1))
        .break_words(true)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .wrap_algorithm(textwrap::WrapAlgorithm::FirstFit)
        .initial_indent(&first_indent)
        .subsequent_indent(&rest_indent);
    textwrap::wrap(text, options)
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let indent = if i == 0 { first } else { rest };
            line.get(indent..).unwrap_or_default().to_owned()
        })
        .collect()
}

/// `s` cut to at most `cols` columns, ending in `…` when something was cut.
#[must_use]
pub fn ellipsis(s: &str, cols: usize) -> String {
    if cells(s) <= cols {
        return s.to_owned();
    }
    let (end, _) = prefix(s, cols.saturating_sub(1));
    let mut out = s[..end].trim_end().to_owned();
    if cols > 0 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_take_two_columns() {
        assert_eq!(cells("ошибка"), 6);
        assert_eq!(cells("错误"), 4);
        assert_eq!(cells("e\u{301}"), 1);
        // "错" is 3 bytes and 2 columns: 3 columns hold one of them, not one and a half.
        assert_eq!(prefix("错误", 3), (3, 2));
        assert_eq!(prefix("错误", 1), (0, 0));
        assert_eq!(prefix("abc", 10), (3, 3));
    }

    #[test]
    fn words_wrap_by_columns_and_break_long_words() {
        assert_eq!(words("a bb cc", 4), vec!["a bb", "cc"]);
        assert_eq!(words("abcdefg", 3), vec!["abc", "def", "g"]);
        assert_eq!(words("错误 错误错误", 4), vec!["错误", "错误", "错误"]);
        assert!(words("", 5).is_empty());
    }

    #[test]
    fn hanging_leaves_room_for_a_prefix_and_an_indent() {
        assert_eq!(hanging("aa bb cc dd", 7, 3, 2), vec!["aa", "bb cc", "dd"]);
        // Indents wider than the line keep one column of text.
        assert_eq!(hanging("ab", 2, 5, 5), vec!["a", "b"]);
        assert!(hanging(" ", 8, 0, 0).is_empty());
    }

    #[test]
    fn ellipsis_cuts_by_columns() {
        assert_eq!(ellipsis("abcdef", 6), "abcdef");
        assert_eq!(ellipsis("abcdef", 4), "abc…");
        assert_eq!(ellipsis("错误错误", 5), "错误…");
        assert_eq!(ellipsis("abc", 0), "");
    }
}
