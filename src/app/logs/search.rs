//! Text matching for the log pane's search and filter: plain substrings, smart case (a needle
//! with an upper-case letter matches case-sensitively, else ASCII case is ignored).

/// A search or filter text, prepared for matching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Needle {
    /// The text as typed (sanitised: typed keys are printable characters).
    pub text: String,
    case_sensitive: bool,
}

impl Needle {
    /// Prepares `text`; `None` for an empty text.
    #[must_use]
    pub fn new(text: &str) -> Option<Needle> {
        (!text.is_empty()).then(|| Needle {
            text: text.to_owned(),
            case_sensitive: text.chars().any(char::is_uppercase),
        })
    }

    /// Byte offset of the first match in `hay` at or after `from`, if any.
    #[must_use]
    pub fn find(&self, hay: &str, from: usize) -> Option<usize> {
        let h = hay.as_bytes().get(from..)?;
        let n = self.text.as_bytes();
        if n.len() > h.len() {
            return None;
        }
        if self.case_sensitive {
            return hay[from..].find(&self.text).map(|i| i + from);
        }
        let first = n[0].to_ascii_lowercase();
        (0..=h.len() - n.len())
            .find(|&i| {
                h[i].to_ascii_lowercase() == first && h[i..i + n.len()].eq_ignore_ascii_case(n)
            })
            .map(|i| i + from)
    }

    /// Whether `hay` contains a match.
    #[must_use]
    pub fn is_in(&self, hay: &str) -> bool {
        self.find(hay, 0).is_some()
    }

    /// Every match in `hay` as byte ranges, non-overlapping, in order (for highlighting).
    #[must_use]
    pub fn ranges(&self, hay: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut at = 0;
        while let Some(i) = self.find(hay, at) {
            let end = i + self.text.len();
            if !hay.is_char_boundary(i) || !hay.is_char_boundary(end) {
                at = i + 1;
                continue;
            }
            out.push((i, end));
            at = end;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_case() {
        let lower = Needle::new("error").expect("non-empty");
        assert!(lower.is_in("an ERROR here"));
        let upper = Needle::new("Error").expect("non-empty");
        assert!(!upper.is_in("an ERROR here"));
        assert!(upper.is_in("an Error here"));
        assert_eq!(lower.ranges("error, Error!"), vec![(0, 5), (7, 12)]);
        assert!(Needle::new("").is_none());
    }
}
