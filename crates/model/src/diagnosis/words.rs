//! The dead instance's last words: what an application said as it exited, for the headline of
//! an application exit (the termination message, else the error line of its previous log), and
//! the configuration value that line names (case 01's data-dictionary error, case 08's
//! `statusCode=403`, the seed's `lookup tcp/abc: unknown port` from `PORT=abc`).

use super::Inputs;
use super::facts;
use crate::pod::{ContainerSummary, Terminated};

/// The longest quote a headline takes, in characters.
const QUOTE: usize = 160;

/// Words that mark a log line as the one that says why a process gave up.
const ERRORISH: [&str; 14] = [
    "error",
    "fatal",
    "panic",
    "fail",
    "exception",
    "denied",
    "refused",
    "not found",
    "unknown",
    "invalid",
    "cannot",
    "can't",
    "unable",
    "forbidden",
];

/// A log line without its leading timestamp (`2024-03-12T09:40:46.88Z …`, `2024/06/01 10:00:00 …`).
fn without_timestamp(line: &str) -> &str {
    let line = line.trim();
    let mut rest = line;
    for _ in 0..2 {
        let Some((first, tail)) = rest.split_once(' ') else {
            break;
        };
        let stamp = first.starts_with(|c: char| c.is_ascii_digit())
            && first
                .chars()
                .all(|c| c.is_ascii_digit() || "-/:.TZ+".contains(c))
            && first.contains(['-', '/', ':']);
        if !stamp {
            break;
        }
        rest = tail.trim_start();
    }
    rest
}

fn bounded(s: &str) -> String {
    if s.chars().count() <= QUOTE {
        return s.to_owned();
    }
    let cut: String = s.chars().take(QUOTE).collect();
    format!("{cut}…")
}

/// What the instance `t` of `c` said last: the first line of its termination message, else the
/// decisive line of its previous log's last 40 (an error level with a reason, never a stack
/// frame: `logline::decisive`), else the first of the last run of error-like lines of the last
/// 20, else its last line.
/// `None` without either.
#[must_use]
pub fn last_words(inp: &Inputs<'_>, c: &ContainerSummary, t: &Terminated) -> Option<String> {
    if let Some(m) = t
        .message
        .as_deref()
        .and_then(|m| m.lines().map(str::trim).find(|l| !l.is_empty()))
    {
        return Some(bounded(m));
    }
    let (tail, scores) = facts::previous_scored(inp, &c.name, 40)?;
    // The line the knowledge base explains, tried best-scoring first (`messages.rs` quotes the
    // same one as evidence).
    for i in super::logline::candidates(tail, &scores, 3) {
        if super::kb::find(super::kb::On::Log, &tail[i]).is_some() {
            let line = without_timestamp(&tail[i]);
            if !line.is_empty() {
                return Some(bounded(line));
            }
        }
    }
    // A line with an error level and a reason, never a stack frame (`logline.rs`).
    if let Some(i) = super::logline::decisive(&scores).filter(|&i| scores[i] >= 2) {
        let line = without_timestamp(&tail[i]);
        if !line.is_empty() {
            return Some(bounded(line));
        }
    }
    let tail = &tail[tail.len().saturating_sub(20)..];
    let is_error = |l: &String| {
        let lower = l.to_lowercase();
        ERRORISH.iter().any(|w| lower.contains(w))
    };
    // The last run of error lines (a line of another kind may sit inside it) starts with the
    // cause; what follows it is usually the program giving up ("Aborting", "exiting").
    let mut first_of_run = None;
    let mut gap = 0;
    for (i, l) in tail.iter().enumerate().rev() {
        if is_error(l) {
            first_of_run = Some(i);
            gap = 0;
        } else if first_of_run.is_some() {
            gap += 1;
            if gap > 1 {
                break;
            }
        }
    }
    let line = first_of_run.map(|i| &tail[i]).or_else(|| tail.last())?;
    let line = without_timestamp(line);
    (!line.is_empty()).then(|| bounded(line))
}

/// The literal env values of `c` that `words` names as a whole token: `(name, value)`, for
/// values of at least two characters.
#[must_use]
pub fn named_env<'a>(
    inp: &Inputs<'a>,
    c: &ContainerSummary,
    words: &str,
) -> Vec<(&'a str, &'a str)> {
    let Some(spec) = facts::spec_of(inp.pod, &c.name) else {
        return Vec::new();
    };
    let tokens: Vec<&str> = words
        .split(|ch: char| !(ch.is_alphanumeric() || "._-".contains(ch)))
        .filter(|t| !t.is_empty())
        .collect();
    spec.env
        .iter()
        .flatten()
        .filter_map(|e| Some((e.name.as_str(), e.value.as_deref()?)))
        .filter(|(_, v)| v.chars().count() >= 2 && !v.contains('\n'))
        .filter(|(_, v)| tokens.contains(v))
        .collect()
}

/// A next step read from what the application said: refused access, an unreachable
/// dependency, a missing file, a port in use, permissions, memory. `None` when it says nothing
/// of the kind.
#[must_use]
pub fn hint_for(said: &str) -> Option<&'static str> {
    let l = said.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| l.contains(w));
    if has(&[
        "403",
        "401",
        "forbidden",
        "unauthorized",
        "unauthorised",
        "access denied",
        "authentication failed",
    ]) {
        Some(
            "it was refused access: check the credentials or token it uses (a Secret, its ServiceAccount) and the permissions of the service it calls",
        )
    } else if has(&[
        "connection refused",
        "no such host",
        "timed out",
        "timeout",
        "unreachable",
        "no route to host",
        "dial tcp",
    ]) {
        Some(
            "a dependency it calls is not reachable: check that service's name, port and readiness, and that a NetworkPolicy lets this pod through",
        )
    } else if has(&["address already in use"]) {
        Some(
            "the port it listens on is taken: another process in the pod (a sidecar) or hostNetwork uses it",
        )
    } else if has(&["permission denied", "read-only file system"]) {
        Some(
            "it may not write or read a path: check securityContext (runAsUser, fsGroup, readOnlyRootFilesystem) and the volume's permissions",
        )
    } else if has(&["no such file or directory", "not found"]) {
        Some(
            "a file or program it needs is missing: check the image, the command and the volume mounts",
        )
    } else if has(&["out of memory", "outofmemory", "cannot allocate memory"]) {
        Some(
            "it ran out of memory inside its own limits: raise the heap or limits.memory, or find what grows",
        )
    } else {
        None
    }
}
