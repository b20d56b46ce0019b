//! The parts of a YAML line as [`super::to_yaml`] writes it, for colouring (`docs/views.md`
//! §2): list dashes, keys, and values by kind. A line-by-line reading of block-style YAML, not
//! a parser: it knows the block scalars (`|`, `>`) our writer uses for multi-line strings, so
//! their content is a string however it looks.

use std::ops::Range;

/// What a part of a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    /// Indentation, `: ` and anything else without a colour.
    Plain,
    /// A `- ` that starts a list item.
    Dash,
    /// A map key (without its `:`).
    Key,
    /// A string value, quoted or not, or a line of a block scalar.
    Str,
    /// A number or a boolean.
    Scalar,
    /// `null` or `~`.
    Null,
}

/// The parts of each line of `lines`, as byte ranges that cover the line in order.
#[must_use]
pub fn classify(lines: &[String]) -> Vec<Vec<(Part, Range<usize>)>> {
    let mut block: Option<usize> = None;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(min) = block {
            if line.trim().is_empty() || indent >= min {
                out.push(vec![
                    (Part::Plain, 0..indent),
                    (Part::Str, indent..line.len()),
                ]);
                continue;
            }
            block = None;
        }
        let (parts, opens) = classify_line(line, indent);
        if opens {
            block = Some(indent + 1);
        }
        out.push(parts);
    }
    out
}

/// One line outside a block scalar; the flag says whether it opens one.
fn classify_line(line: &str, indent: usize) -> (Vec<(Part, Range<usize>)>, bool) {
    let mut parts = vec![(Part::Plain, 0..indent)];
    let mut pos = indent;
    while line[pos..].starts_with("- ") || &line[pos..] == "-" {
        let end = (pos + 2).min(line.len());
        parts.push((Part::Dash, pos..end));
        pos = end;
    }
    let rest = &line[pos..];
    if let Some(colon) = key_end(rest) {
        parts.push((Part::Key, pos..pos + colon));
        let value_at = (pos + colon + 2).min(line.len());
        parts.push((Part::Plain, pos + colon..value_at));
        pos = value_at;
    }
    let value = &line[pos..];
    let opens = value.starts_with('|') || value.starts_with('>');
    if !value.is_empty() {
        parts.push((kind_of(value), pos..line.len()));
    }
    (
        parts.into_iter().filter(|(_, r)| !r.is_empty()).collect(),
        opens,
    )
}

/// Where a key ends (the byte of its `:`), when `rest` starts with one: `key:` at the end of the
/// line or `key: value`; a quoted key counts to its closing quote.
fn key_end(rest: &str) -> Option<usize> {
    let search_from = match rest.chars().next()? {
        q @ ('"' | '\'') => rest[1..].find(q)? + 2,
        _ => 0,
    };
    let tail = &rest[search_from..];
    let colon = tail
        .match_indices(':')
        .map(|(i, _)| i)
        .find(|&i| tail[i + 1..].is_empty() || tail[i + 1..].starts_with(' '))?;
    let key = &rest[..search_from + colon];
    (!key.is_empty() && (search_from > 0 || !key.contains(['"', '\'', '{', '['])))
        .then_some(search_from + colon)
}

fn kind_of(value: &str) -> Part {
    match value {
        "null" | "~" => Part::Null,
        "true" | "false" => Part::Scalar,
        v if v.parse::<f64>().is_ok() && !v.starts_with(['\'', '"']) => Part::Scalar,
        _ => Part::Str,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Vec<(Part, String)>> {
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        classify(&lines)
            .into_iter()
            .zip(&lines)
            .map(|(parts, l)| {
                parts
                    .into_iter()
                    .map(|(k, r)| (k, l[r].to_owned()))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn keys_dashes_and_values() {
        let got = kinds(
            "spec:\n  - name: app\n    port: 8080\n    ok: true\n    x: null\n  args: |\n    a: b\n    c\n  y: '1'\n",
        );
        use Part::*;
        assert_eq!(got[0], vec![(Key, "spec".into()), (Plain, ":".into())]);
        assert_eq!(
            got[1],
            vec![
                (Plain, "  ".into()),
                (Dash, "- ".into()),
                (Key, "name".into()),
                (Plain, ": ".into()),
                (Str, "app".into())
            ]
        );
        assert_eq!(got[2].last(), Some(&(Scalar, "8080".into())));
        assert_eq!(got[3].last(), Some(&(Scalar, "true".into())));
        assert_eq!(got[4].last(), Some(&(Null, "null".into())));
        assert_eq!(got[5].last(), Some(&(Str, "|".into())));
        assert_eq!(got[6], vec![(Plain, "    ".into()), (Str, "a: b".into())]);
        assert_eq!(got[7], vec![(Plain, "    ".into()), (Str, "c".into())]);
        assert_eq!(got[8][1], (Key, "y".into()));
        assert_eq!(got[8].last(), Some(&(Str, "'1'".into())));
    }
}
