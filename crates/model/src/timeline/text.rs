//! The timeline as one list and as a table of text (`T` in the TUI, `docs/timeline.md`
//! "The table"): what one GET reconstructs and what the watch saw, merged in time order.

use jiff::Timestamp;

use super::{Entry, History, Kind};
use crate::diagnosis::facts::clock;

/// The reconstructed entries with the watch's ([`History`]) in time order. After attach the
/// watch sees every change of state, readiness, restarts, phase and conditions, so a
/// reconstructed one of those later than the attach is the same fact read back and is left
/// out (its time is a bound where the watch's is what happened), and so is one the watch saw
/// too (same container, kind, value and reason: a wait the pod was already in at attach and
/// the watch saw begin); events are only reconstructed, and all are kept.
#[must_use]
pub fn merged(reconstructed: Vec<Entry>, history: &History) -> Vec<Entry> {
    let observed: Vec<Entry> = history.entries().cloned().collect();
    let mut out: Vec<Entry> = reconstructed
        .into_iter()
        .filter(|r| {
            r.kind == Kind::Event
                || (history.attached().is_none_or(|a| r.at <= a)
                    && !observed.iter().any(|o| {
                        (&o.container, o.kind, &o.to, &o.reason)
                            == (&r.container, r.kind, &r.to, &r.reason)
                    }))
        })
        .collect();
    out.extend(observed);
    out.sort_by_key(|e| e.at);
    out
}

/// What changed, in words: `running → terminated (Error, exit 1)`, `restart 2 → 3`,
/// `event BackOff (×3): Back-off restarting …`, `Ready=False (ContainersNotReady)`.
fn change(e: &Entry) -> String {
    let to = e.to.as_deref().unwrap_or("");
    let why = match (&e.reason, e.exit_code) {
        (Some(r), Some(x)) => format!(" ({r}, exit {x})"),
        (Some(r), None) => format!(" ({r})"),
        (None, Some(x)) => format!(" (exit {x})"),
        (None, None) => String::new(),
    };
    match e.kind {
        Kind::Event => {
            let count = e
                .count
                .filter(|&n| n > 1)
                .map(|n| format!(" (×{n})"))
                .unwrap_or_default();
            let reason = e.reason.as_deref().unwrap_or("");
            format!("event {reason}{count}: {to}")
        }
        Kind::Restart => format!("restart {} → {to}", e.from.as_deref().unwrap_or("?")),
        Kind::Ready => {
            let flag = if e.reason.as_deref() == Some("started") {
                "started"
            } else {
                "ready"
            };
            format!("{flag} {} → {to}", e.from.as_deref().unwrap_or("?"))
        }
        Kind::Phase | Kind::State | Kind::Condition => match &e.from {
            Some(f) => format!("{f} → {to}{why}"),
            None => format!("{to}{why}"),
        },
    }
}

/// The table: a legend, then one line per entry, oldest first: the time (`clock`), `~` for a
/// reconstructed entry, the container (`pod` for the pod) and the change. `dropped` (the
/// history's) is said when not zero. Cluster text is not sanitised here: the caller's view
/// does that, line by line.
#[must_use]
pub fn to_text(entries: &[Entry], dropped: u64, now: Timestamp) -> String {
    let width = entries
        .iter()
        .map(|e| e.container.as_deref().map_or(3, str::len))
        .max()
        .unwrap_or(3)
        .max("CONTAINER".len());
    let mut out = String::from(
        "~ read back from the pod's fields and events; the other lines the watch saw since attach\n",
    );
    if dropped > 0 {
        out.push_str(&format!(
            "{dropped} older changes dropped (the history keeps the newest 10000)\n"
        ));
    }
    out.push_str(&format!("{:<10} {:<width$}  CHANGE\n", "TIME", "CONTAINER"));
    for e in entries {
        let mark = if e.reconstructed { '~' } else { ' ' };
        let who = e.container.as_deref().unwrap_or("pod");
        let when = clock(e.at, now);
        out.push_str(&format!("{when:<9}{mark} {who:<width$}  {}\n", change(e)));
    }
    out
}
