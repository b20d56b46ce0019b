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

#[cfg(test)]
mod tests {
    use super::{PodRefError, parse_pod_ref, validate_pod_name};

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
