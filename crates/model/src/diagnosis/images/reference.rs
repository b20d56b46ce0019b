//! What is malformed in an image reference, by the grammar the kubelet parses it with
//! (`github.com/distribution/reference`, `ParseNormalizedNamed`, called from
//! `pkg/kubelet/images/image_manager.go` `applyDefaultImageTag`):
//!
//! ```text
//! reference := name [ ":" tag ] [ "@" digest ]
//! name      := [ domain "/" ] path-component ( "/" path-component )*    (at most 255 chars)
//! domain    := host [ ":" port ]       (the first component, when it has "." or ":", is
//!                                       "localhost", or has uppercase letters)
//! path-component := [a-z0-9]+ ( ( "." | "_" | "__" | "-"+ ) [a-z0-9]+ )*
//! tag       := [A-Za-z0-9_] [A-Za-z0-9_.-]{0,127}
//! digest    := algorithm ":" hex      (sha256: 64 lowercase hex digits)
//! ```

/// One thing wrong with a reference: what, and the byte span of the raw string it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// `leading '/': the registry host before it is empty`.
    pub what: String,
    /// `[start, end)` in the raw string (empty span: a position).
    pub span: (usize, usize),
}

fn p(what: impl Into<String>, start: usize, end: usize) -> Problem {
    Problem {
        what: what.into(),
        span: (start, end),
    }
}

/// The raw string with the span marked `«…»` (`«/»apps/demo:1`); whitespace and control
/// characters inside the mark made visible.
#[must_use]
pub fn highlight(raw: &str, span: (usize, usize)) -> String {
    let (s, e) = span;
    if s > e || e > raw.len() || !raw.is_char_boundary(s) || !raw.is_char_boundary(e) {
        return raw.to_owned();
    }
    let visible: String = raw[s..e]
        .chars()
        .map(|c| match c {
            ' ' => '␠',
            '\t' => '␉',
            '\n' => '␊',
            '\r' => '␍',
            c => c,
        })
        .collect();
    format!("{}«{visible}»{}", &raw[..s], &raw[e..])
}

fn is_component(c: &str) -> bool {
    let b = c.as_bytes();
    let alnum = |x: u8| x.is_ascii_lowercase() || x.is_ascii_digit();
    if b.is_empty() || !alnum(b[0]) || !alnum(b[b.len() - 1]) {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if alnum(b[i]) {
            i += 1;
            continue;
        }
        let sep_start = i;
        while i < b.len() && !alnum(b[i]) {
            i += 1;
        }
        let sep = &c[sep_start..i];
        if !(sep == "." || sep == "_" || sep == "__" || sep.bytes().all(|x| x == b'-')) {
            return false;
        }
    }
    true
}

fn is_domain(first: &str) -> bool {
    first.contains(['.', ':'])
        || first == "localhost"
        || first.chars().any(|c| c.is_ascii_uppercase())
}

/// What is wrong with `raw` as an image reference, most telling first; empty when podscope
/// finds nothing wrong (the runtime's parser may still disagree).
#[must_use]
pub fn problems(raw: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    if raw.trim().is_empty() {
        out.push(p("the image is empty", 0, raw.len()));
        return out;
    }
    let lead = raw.len() - raw.trim_start().len();
    let s = raw.trim();
    let end = lead + s.len();
    if lead > 0 {
        out.push(p("leading whitespace", 0, lead));
    }
    if end < raw.len() {
        out.push(p("trailing whitespace", end, raw.len()));
    }
    if let Some(i) = s.find(char::is_whitespace) {
        let len = s[i..]
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(s.len() - i);
        out.push(p(
            "whitespace inside the reference",
            lead + i,
            lead + i + len,
        ));
    }
    for marker in ["{{", "${", "<no value>", "<nil>"] {
        if let Some(i) = s.find(marker) {
            out.push(p(
                "an unrendered template expression (the chart or template left it in)",
                lead + i,
                lead + i + marker.len(),
            ));
        }
    }
    if let Some(i) = s.find("://") {
        out.push(p(
            "a URL scheme: an image reference has none (write registry/path:tag)",
            lead,
            lead + i + 3,
        ));
        return out;
    }
    if s.starts_with('/') {
        out.push(p(
            "leading '/': the registry host before it is empty (a template value that rendered empty?)",
            lead,
            lead + 1,
        ));
    }
    let (name_tag, digest) = match s.split_once('@') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    if let Some(d) = digest {
        let at = lead + name_tag.len();
        if d.contains('@') {
            out.push(p("more than one '@'", at, end));
        } else {
            match d.split_once(':') {
                None => out.push(p(
                    "'@' must be followed by a digest such as sha256:<64 hex digits>",
                    at,
                    end,
                )),
                Some((algo, hex)) => {
                    let hex_ok = hex.len() >= 32 && hex.bytes().all(|b| b.is_ascii_hexdigit());
                    if algo == "sha256"
                        && (hex.len() != 64
                            || hex.bytes().any(|b| !matches!(b, b'0'..=b'9' | b'a'..=b'f')))
                    {
                        out.push(p(
                            format!(
                                "the sha256 digest must be 64 lowercase hex digits (has {} characters)",
                                hex.chars().count()
                            ),
                            at + 1 + algo.len() + 1,
                            end,
                        ));
                    } else if algo.is_empty()
                        || !algo.starts_with(|c: char| c.is_ascii_alphabetic())
                        || !hex_ok
                    {
                        out.push(p("malformed digest after '@'", at, end));
                    }
                }
            }
        }
    }
    let last_slash = name_tag.rfind('/').map_or(0, |i| i + 1);
    let (name, tag) = match name_tag[last_slash..].rfind(':') {
        Some(i) => (
            &name_tag[..last_slash + i],
            Some((lead + last_slash + i, &name_tag[last_slash + i + 1..])),
        ),
        None => (name_tag, None),
    };
    if let Some((at, t)) = tag {
        if t.is_empty() {
            out.push(p("empty tag after ':'", at, at + 1));
        } else {
            let first_ok = t.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
            let rest_ok = t
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
            if !first_ok || !rest_ok || t.len() > 128 {
                out.push(p(
                    "invalid tag: letters, digits, '_', '.', '-' only, not starting with '.' or '-', at most 128",
                    at + 1,
                    at + 1 + t.len(),
                ));
            }
        }
    }
    if name.len() > 255 {
        out.push(p(
            format!(
                "the repository name is {} characters; at most 255",
                name.len()
            ),
            lead,
            lead + name.len(),
        ));
    }
    let parts: Vec<&str> = name.split('/').collect();
    let has_domain = parts.len() > 1 && is_domain(parts[0]);
    let mut offset = lead;
    for (i, part) in parts.iter().enumerate() {
        let span = (offset, offset + part.len());
        offset += part.len() + 1;
        if i == 0 && has_domain {
            let (host, port) = match part.rsplit_once(':') {
                Some((h, port)) if !h.contains(']') || h.ends_with(']') => (h, Some(port)),
                _ => (*part, None),
            };
            if port.is_some_and(|port| port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()))
            {
                out.push(p("the registry port must be digits", span.0, span.1));
            }
            if !host.starts_with('[')
                && (host.is_empty()
                    || host.split('.').any(|l| {
                        l.is_empty()
                            || l.starts_with('-')
                            || l.ends_with('-')
                            || !l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                    }))
            {
                out.push(p("malformed registry host", span.0, span.1));
            }
            continue;
        }
        if part.is_empty() {
            if !(i == 0 && s.starts_with('/')) {
                out.push(p(
                    "empty path component ('//' or a '/' at an end)",
                    span.0,
                    span.0,
                ));
            }
        } else if part.chars().any(|c| c.is_ascii_uppercase()) {
            out.push(p(
                "uppercase letters in the repository path: repository names must be lowercase",
                span.0,
                span.1,
            ));
        } else if !is_component(part) {
            out.push(p(
                "characters the repository path does not allow (lowercase letters, digits and single '.', '_', '__' or '-' runs between them)",
                span.0,
                span.1,
            ));
        }
    }
    if !has_domain
        && tag.is_none()
        && digest.is_none()
        && name.len() == 64
        && name.bytes().all(|b| b.is_ascii_hexdigit())
    {
        out.push(p(
            "a 64-character hex string is taken for an image ID, not a repository name",
            lead,
            end,
        ));
    }
    out
}

/// The registry host of a reference: its domain, or `docker.io` when it names none (the
/// runtime's default).
#[must_use]
pub fn registry(image: &str) -> String {
    let name = image.trim().split('@').next().unwrap_or("");
    match name.split_once('/') {
        Some((first, _)) if is_domain(first) => first.to_owned(),
        _ => "docker.io".to_owned(),
    }
}

/// The reference without tag and digest (`registry.example/drain/leader`).
#[must_use]
pub fn repository(image: &str) -> &str {
    let name = image.trim().split('@').next().unwrap_or("");
    let last_slash = name.rfind('/').map_or(0, |i| i + 1);
    match name[last_slash..].rfind(':') {
        Some(i) => &name[..last_slash + i],
        None => name,
    }
}
