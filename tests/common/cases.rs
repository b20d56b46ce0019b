//! Loading `assets/cases/<case>/`: pod.json + events.json into a `State` at the case's snapshot
//! time, and the expected kubectl columns from expected.md.

use std::path::PathBuf;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, Pod};
use podscope::app::{Msg, State, update};
use podscope::model::{EventSummary, PodSummary};
use podscope::ui::theme::Theme;

/// The expected `kubectl get pod` columns of a case.
#[derive(Debug, Clone)]
pub struct Expected {
    /// Snapshot time: the `now` of the case.
    pub now: Timestamp,
    /// NAME, READY, STATUS, RESTARTS, AGE.
    pub name: String,
    pub ready: String,
    pub status: String,
    pub restarts: String,
    pub age: String,
}

fn dir(case: &str) -> PathBuf {
    super::cluster::cases_dir().join(case)
}

impl Expected {
    /// `(header, cell)` for NAME, READY, STATUS, RESTARTS, AGE.
    pub fn columns(&self) -> [(&'static str, &str); 5] {
        [
            ("NAME", &self.name),
            ("READY", &self.ready),
            ("STATUS", &self.status),
            ("RESTARTS", &self.restarts),
            ("AGE", &self.age),
        ]
    }
}

/// Parses expected.md: the snapshot time (the backquoted timestamp on the "Snapshot time"
/// line) and the first row of the `| NAME | READY | STATUS | RESTARTS | AGE |` table.
pub fn expected(case: &str) -> Expected {
    let md = std::fs::read_to_string(dir(case).join("expected.md")).expect("expected.md");
    let snapshot = md
        .lines()
        .find(|l| l.contains("Snapshot time"))
        .expect("a Snapshot time line");
    let ts = snapshot.rsplit('`').nth(1).expect("a backquoted timestamp");
    let now: Timestamp = ts.parse().expect("RFC 3339 snapshot time");
    let mut lines = md.lines();
    lines
        .find(|l| l.starts_with("| NAME | READY | STATUS"))
        .expect("the columns table");
    let row = lines.nth(1).expect("a table row");
    let cells: Vec<String> = row
        .trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_owned())
        .collect();
    Expected {
        now,
        name: cells[0].clone(),
        ready: cells[1].clone(),
        status: cells[2].clone(),
        restarts: cells[3].clone(),
        age: cells[4].clone(),
    }
}

/// The case's pod as the model summarises it.
pub fn pod(case: &str) -> PodSummary {
    let json = std::fs::read_to_string(dir(case).join("pod.json")).expect("pod.json");
    let pod: Pod = serde_json::from_str(&json).expect("a Pod");
    PodSummary::from_pod(&pod)
}

/// The case's events as the model summarises them.
pub fn events(case: &str) -> Vec<EventSummary> {
    let json = std::fs::read_to_string(dir(case).join("events.json")).expect("events.json");
    // `kubectl get events -o json` writes `kind: List`, so read the items one by one.
    let list: serde_json::Value = serde_json::from_str(&json).expect("a JSON list");
    let items = list["items"].as_array().cloned().unwrap_or_default();
    items
        .into_iter()
        .map(|item| serde_json::from_value::<Event>(item).expect("an Event"))
        .map(|e| EventSummary::from_event(&e))
        .collect()
}

/// The state after the watches delivered the case at its snapshot time: `Tick(now)`,
/// `PodApplied`, `EventsReset`; monochrome when `mono`.
pub fn state(case: &str, mono: bool) -> State {
    let now = expected(case).now;
    let theme = if mono {
        Theme::monochrome()
    } else {
        Theme::colored()
    };
    let pod = pod(case);
    let mut s = State::new(&pod.namespace, &pod.name, now, theme);
    update(&mut s, Msg::Tick(now));
    update(&mut s, Msg::PodApplied(Box::new(pod)));
    update(&mut s, Msg::EventsReset(events(case)));
    s
}

/// Answers the pending `Cmd::CheckOwner` of `s` (if any) with a 404, as the simulator does (it
/// stores no Jobs or ReplicaSets) and as the API server does once the owner was deleted.
pub fn owner_gone(s: &mut State) {
    if let Some(uid) = s.target.owner_asked.clone() {
        update(
            s,
            Msg::OwnerChecked {
                uid,
                status: podscope::model::deletion::OwnerStatus::Gone,
            },
        );
    }
}

/// A case at its snapshot time with the log pane open (`l`) and the case's
/// `logs-previous.txt` delivered on the first stream as `container`'s instance `restart_count`.
pub fn state_with_log(case: &str, container: &str, restart_count: i32) -> State {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use podscope::app::Cmd;
    use podscope::model::LogLine;
    let mut s = state(case, false);
    let cmds = update(
        &mut s,
        Msg::Key(KeyEvent::new(KeyCode::Char('l'), KeyModifiers::NONE)),
    );
    let Some(Cmd::FollowLogs {
        stream,
        container: c,
        ..
    }) = cmds.first()
    else {
        panic!("no stream opened: {cmds:?}")
    };
    assert_eq!(c, container);
    let text =
        std::fs::read_to_string(dir(case).join("logs-previous.txt")).expect("logs-previous.txt");
    let lines = text
        .lines()
        .map(|l| LogLine::from_raw(container, restart_count, l))
        .collect();
    update(
        &mut s,
        Msg::LogLines {
            stream: *stream,
            lines,
        },
    );
    s
}
