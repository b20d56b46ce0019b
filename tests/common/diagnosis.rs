//! Diagnosing a case from `assets/cases/<case>/` in-process, with the case's log files as the
//! tails podscope would read, at the case's snapshot time.

use std::path::Path;

use podscope::model::ContainerKind;
use podscope::model::deletion::OwnerStatus;
use podscope::model::diagnosis::{Finding, Inputs, LogTail, LogTails, Related, diagnose};
use podscope::model::event::sort_newest_first;

/// The case's log files as tails: `logs-previous.txt` for the container with a
/// `lastState.terminated` and the most restarts (the one the simulator serves it for),
/// `logs-current.txt` for that container, else the first main container.
pub fn tails(case: &str) -> LogTails {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/cases")
        .join(case);
    let pod = super::cases::pod(case);
    let restarted = pod
        .containers
        .iter()
        .filter(|c| c.last_state.is_some())
        .max_by_key(|c| c.restart_count);
    let lines = |file: &str| {
        std::fs::read_to_string(dir.join(file))
            .ok()
            .map(|t| t.lines().map(str::to_owned).collect::<Vec<_>>())
    };
    let mut tails = LogTails::default();
    if let (Some(c), Some(l)) = (restarted, lines("logs-previous.txt")) {
        let tail = LogTail {
            restart_count: c.restart_count,
            lines: Ok(l),
        };
        tails.previous.insert(c.name.clone(), tail);
    }
    let current = restarted.or(pod
        .containers
        .iter()
        .find(|c| c.kind == ContainerKind::Main));
    if let (Some(c), Some(l)) = (current, lines("logs-current.txt")) {
        let tail = LogTail {
            restart_count: c.restart_count,
            lines: Ok(l),
        };
        tails.current.insert(c.name.clone(), tail);
    }
    tails
}

/// The case's diagnosis at its snapshot time, with `owner` as the owner check's answer.
pub fn diagnosis(case: &str, owner: OwnerStatus) -> Vec<Finding> {
    let pod = super::cases::pod(case);
    let mut events = super::cases::events(case);
    sort_newest_first(&mut events);
    let logs = tails(case);
    let related = Related::new();
    diagnose(&Inputs::new(
        &pod,
        &events,
        &logs,
        &related,
        &owner,
        super::cases::expected(case).now,
    ))
}

/// One finding as text (headline, evidence, hint), for `contains` checks and messages.
pub fn text(f: &Finding) -> String {
    format!(
        "{}\n{}\n{}",
        f.headline,
        f.evidence.join("\n"),
        f.hint.clone().unwrap_or_default()
    )
}
