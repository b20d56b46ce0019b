//! A pod named on the command line: kubectl's `NAME` or `pod/NAME` (also `pods/`, `po/`), and
//! the API server's rule for pod names (an RFC 1123 subdomain, `metadata.name` validation in
//! `k8s.io/apimachinery/pkg/util/validation`).

use super::sanitize::sanitize;

/// Why a pod argument names no pod.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PodRefError {
    /// `KIND/NAME` with another resource kind (`deployment/web`): podscope works on one pod.
    #[error("{kind:?} is not supported")]
    NotAPod {
        /// The kind before the slash, as typed.
        kind: String,
    },
}

/// The bare pod name of `s`: `NAME`, or kubectl's `pod/NAME`, `pods/NAME`, `po/NAME`.
///
/// # Errors
/// [`PodRefError::NotAPod`] for another kind (`deployment/web`).
pub fn parse_pod_ref(s: &str) -> Result<&str, PodRefError> {
    match s.split_once('/') {
        None => Ok(s),
        Some(("pod" | "pods" | "po", name)) => Ok(name),
        Some((kind, _)) => Err(PodRefError::NotAPod {
            kind: kind.to_owned(),
        }),
    }
}

/// Checks `name` is a valid pod name (an RFC 1123 subdomain, as the API server requires) so a
/// typo or pasted escape sequence gets a clear message instead of a transport error.
///
/// # Errors
/// The API server's wording, with the name sanitised.
pub fn validate_pod_name(name: &str) -> Result<(), String> {
    let ok_char = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.';
    let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if !name.is_empty()
        && name.len() <= 253
        && name.chars().all(ok_char)
        && alnum(name.chars().next())
        && alnum(name.chars().last())
    {
        return Ok(());
    }
    Err(format!(
        "invalid pod name \"{}\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        sanitize(name)
    ))
}

/// Most names [`closest_names`] returns.
pub const MAX_SUGGESTIONS: usize = 3;

/// The names in `names` (one list of the namespace's pods) that `wanted` was probably meant to
/// be, closest first, at most [`MAX_SUGGESTIONS`]: those within an edit distance (optimal string
/// alignment: a swap of two neighbours counts once, so `crahs` is 1 from `crash`) of a third of
/// `wanted`'s length (at least 1), then those that start with `wanted` (a Deployment's
/// `web-7d9f8-x2x4q` for `web`), shorter first. `wanted` itself is never suggested.
#[must_use]
pub fn closest_names<'a>(wanted: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let limit = (wanted.chars().count() / 3).max(1);
    let mut ranked: Vec<(usize, usize, &str)> = names
        .into_iter()
        .filter(|n| *n != wanted)
        .filter_map(|n| {
            let d = strsim::osa_distance(wanted, n);
            if d <= limit {
                Some((0, d, n))
            } else if wanted.len() >= 2 && n.starts_with(wanted) {
                Some((1, n.len(), n))
            } else {
                None
            }
        })
        .collect();
    ranked.sort_unstable();
    ranked.dedup();
    ranked
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, n)| sanitize(n).into_owned())
        .collect()
}

/// `did you mean crash?`, `did you mean web-1 or web-2?`, `did you mean a, b or c?`; `None`
/// for no names.
#[must_use]
pub fn did_you_mean(names: &[String]) -> Option<String> {
    let (last, rest) = names.split_last()?;
    Some(if rest.is_empty() {
        format!("did you mean {last}?")
    } else {
        format!("did you mean {} or {last}?", rest.join(", "))
    })
}

/// The one line for a pod that is not there: `pod "crahs" not found in namespace "default"`,
/// then `; did you mean crash?` when [`closest_names`] found any.
#[must_use]
pub fn not_found_line(name: &str, namespace: &str, closest: &[String]) -> String {
    let base = format!(
        "pod \"{}\" not found in namespace \"{}\"",
        sanitize(name),
        sanitize(namespace)
    );
    match did_you_mean(closest) {
        Some(hint) => format!("{base}; {hint}"),
        None => base,
    }
}

#[cfg(test)]
mod tests {
    use super::validate_pod_name;
    use super::{PodRefError, closest_names, did_you_mean, not_found_line, parse_pod_ref};

    #[test]
    fn a_typo_suggests_the_closest_names() {
        let pods = [
            "crash",
            "hello",
            "crash-loop-7d9f8-x2x4q",
            "web-6f7c9-abcde",
            "web-6f7c9-zzzzz",
        ];
        assert_eq!(closest_names("crahs", pods), vec!["crash"]);
        // `crash` itself is never suggested; what starts with it is.
        assert_eq!(closest_names("crash", pods), vec!["crash-loop-7d9f8-x2x4q"]);
        assert_eq!(closest_names("helo", pods), vec!["hello"]);
        assert_eq!(
            closest_names("web", pods),
            vec!["web-6f7c9-abcde", "web-6f7c9-zzzzz"]
        );
        assert_eq!(closest_names("nothing-like-it", pods), Vec::<String>::new());
        assert_eq!(
            not_found_line("crahs", "default", &closest_names("crahs", pods)),
            "pod \"crahs\" not found in namespace \"default\"; did you mean crash?"
        );
        assert_eq!(
            not_found_line("zzz", "default", &[]),
            "pod \"zzz\" not found in namespace \"default\""
        );
        let three: Vec<String> = ["a", "b", "c"].map(String::from).into();
        assert_eq!(
            did_you_mean(&three).as_deref(),
            Some("did you mean a, b or c?")
        );
    }

    #[test]
    fn pod_refs_are_kubectls() {
        for arg in ["web", "pod/web", "pods/web", "po/web"] {
            assert_eq!(parse_pod_ref(arg), Ok("web"));
        }
        assert_eq!(
            parse_pod_ref("deployment/web"),
            Err(PodRefError::NotAPod {
                kind: "deployment".into()
            })
        );
    }

    #[test]
    fn pod_names_follow_rfc_1123() {
        assert!(validate_pod_name("cache-master-0").is_ok());
        assert!(validate_pod_name("nightly-export-28731540-7xq2m").is_ok());
        assert!(validate_pod_name("Web").is_err());
        assert!(validate_pod_name("-web").is_err());
        let err = validate_pod_name("bad\u{1b}[31mred").expect_err("escape rejected");
        assert!(err.contains("bad\u{241b}[31mred"), "{err}");
        assert!(!err.contains('\u{1b}'));
    }
}
