//! Every real-world case in `assets/cases/`: the printer's `kubectl get pod` row at the snapshot
//! time must equal expected.md's table, the CrashLoopBackOff next-restart time must equal the
//! countdown stated in expected.md, and every events.json must summarise.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, Pod};
use podscope_model::{EventSummary, PodSummary};

fn case_dirs() -> Vec<PathBuf> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("assets/cases");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("assets/cases readable")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no cases found in {}", root.display());
    dirs
}

fn case_id(dir: &Path) -> String {
    dir.file_name()
        .expect("dir name")
        .to_string_lossy()
        .into_owned()
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file))
        .unwrap_or_else(|e| panic!("{}/{file}: {e}", dir.display()))
}

/// The backticked RFC 3339 time after "Snapshot time" in expected.md.
fn snapshot_time(expected: &str) -> Timestamp {
    let line = expected
        .lines()
        .find(|l| l.contains("Snapshot time"))
        .expect("a Snapshot time line");
    let ticked = line.rsplit('`').nth(1).expect("a backticked time");
    ticked
        .parse()
        .unwrap_or_else(|e| panic!("snapshot time {ticked:?}: {e}"))
}

/// The cells of the first data row of the "Expected `kubectl get pod` columns" table.
fn expected_row(expected: &str) -> Vec<String> {
    let mut lines = expected
        .lines()
        .skip_while(|l| !l.contains("Expected `kubectl get pod` columns"));
    let mut table = lines.by_ref().filter(|l| l.trim_start().starts_with('|'));
    let header = table.next().expect("table header");
    assert_eq!(
        cells(header),
        ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
    );
    let _separator = table.next().expect("separator row");
    cells(table.next().expect("first data row"))
}

fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

/// Next restart times stated in expected.md ("What a good tool should present"), one for every
/// case with a container in CrashLoopBackOff.
const COUNTDOWNS: &[(&str, &str)] = &[
    // "waiting.message says back-off 20s; last finishedAt 09:40:50 -> next start attempt ~09:41:10"
    ("01-crashloop-exit1-db", "2024-03-12T09:41:10Z"),
    // "back-off is at the 5m0s cap; last finishedAt 14:12:45 -> next attempt ~14:17:45"
    (
        "02-crashloop-exit127-metrics-sidecar",
        "2024-01-06T14:17:45Z",
    ),
    // "back-off 2m40s after finishedAt 07:19:05 -> next attempt ~07:21:45 (90 s after the snapshot)"
    ("04-crashloop-oomkilled-jvm", "2024-06-03T07:21:45Z"),
    // "finishedAt 08:07:08 + 2m40s -> next attempt 08:09:48 (60 s after the snapshot)"
    (
        "07-liveness-kills-slow-start-exit143",
        "2020-07-16T08:09:48Z",
    ),
    // "back-off 5m0s from 08:20:35 -> next attempt 08:25:35 (2m25s after the snapshot)"
    (
        "08-init-crashloop-exit1-termination-message",
        "2020-08-25T08:25:35Z",
    ),
    // From case 46 on: finishedAt + min(10 s · 2^(restartCount−1), 300 s) (docs/protocols.md
    // §5.1), equal to the waiting message's back-off and to the countdown in expected.md.
    // restartCount 5: back-off 2m40s from finishedAt 19:22:46
    (
        "46-crashloop-exec-format-error-arch",
        "2022-03-01T19:25:26Z",
    ),
    // restartCount 3: back-off 40s from finishedAt 08:02:47
    (
        "47-crashloop-entrypoint-crlf-no-such-file",
        "2025-10-21T08:03:27Z",
    ),
    // restartCount 4: back-off 1m20s from finishedAt 10:01:17
    (
        "48-crashloop-starterror-entrypoint-permission-denied",
        "2025-03-14T10:02:37Z",
    ),
    // restartCount 4: back-off 1m20s from finishedAt 13:19:18
    ("79-readonly-root-filesystem", "2024-04-09T13:20:38Z"),
    // restartCount 6: back-off 5m0s (the cap) from finishedAt 08:05:47
    (
        "80-volume-permission-denied-nonroot",
        "2023-11-20T08:10:47Z",
    ),
    // metrics-exporter, restartCount 5: back-off 2m40s from finishedAt 15:22:42
    ("81-port-in-use-two-containers", "2024-02-27T15:25:22Z"),
    // restartCount 3: back-off 40s from finishedAt 11:01:13
    (
        "82-dns-enotfound-service-other-namespace",
        "2024-09-18T11:01:53Z",
    ),
    // restartCount 7: back-off 5m0s (the cap) from finishedAt 07:40:24
    ("83-econnrefused-dependency-service", "2024-10-03T07:45:24Z"),
    // sync, restartCount 6: back-off 5m0s from finishedAt 09:05:20
    (
        "84-app-crashloop-mesh-proxy-not-ready",
        "2024-05-14T09:10:20Z",
    ),
    // restartCount 5: back-off 2m40s from finishedAt 16:02:41
    (
        "85-x509-unknown-authority-dependency",
        "2024-07-22T16:05:21Z",
    ),
    // log-shipper, restartCount 6: back-off 5m0s from finishedAt 10:39:13
    ("86-oomkilled-sidecar-app-fine", "2024-06-11T10:44:13Z"),
    // restartCount 4: back-off 1m20s from finishedAt 14:02:32
    ("89-java-trace-caused-by-db-auth", "2024-12-02T14:03:52Z"),
    // restartCount 5: back-off 2m40s from finishedAt 14:04:48
    ("90-liveness-kills-90s-startup", "2024-03-28T14:07:28Z"),
    // restartCount 7: back-off 5m0s from finishedAt 08:15:18
    (
        "95-go-nil-pointer-panic-node-name-missing",
        "2025-03-11T08:20:18Z",
    ),
    // otel-collector (native sidecar), restartCount 4: back-off 1m20s from finishedAt 11:05:02
    (
        "100-native-sidecar-startup-probe-localhost-health",
        "2025-10-06T11:06:22Z",
    ),
    // restartCount 7: back-off 5m0s from finishedAt 16:15:20
    ("101-segfault-exit139-native-module", "2025-07-14T16:20:20Z"),
    // restartCount 6: back-off 5m0s from finishedAt 07:30:18
    (
        "102-python-modulenotfound-missing-dependency",
        "2025-03-30T07:35:18Z",
    ),
    // restartCount 6: back-off 5m0s from finishedAt 17:35:13
    (
        "105-too-many-open-files-inotify-instances-node",
        "2025-06-07T17:40:13Z",
    ),
    // restartCount 7: back-off 5m0s from finishedAt 12:20:24
    (
        "107-projected-token-wrong-audience-irsa",
        "2025-08-26T12:25:24Z",
    ),
];

#[test]
fn every_case_row_matches_expected_md() {
    let mut failures = Vec::new();
    for dir in case_dirs() {
        let id = case_id(&dir);
        let expected = read(&dir, "expected.md");
        let now = snapshot_time(&expected);
        let want = expected_row(&expected);
        let pod: Pod = serde_json::from_str(&read(&dir, "pod.json"))
            .unwrap_or_else(|e| panic!("{id}/pod.json: {e}"));
        let row = PodSummary::from_pod(&pod).row(now);
        let got = vec![row.name, row.ready, row.status, row.restarts, row.age];
        if got != want {
            failures.push(format!("{id}: got {got:?}, expected.md says {want:?}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn countdowns_match_expected_md() {
    let ids: Vec<String> = case_dirs().iter().map(|d| case_id(d)).collect();
    for (id, _) in COUNTDOWNS {
        assert!(
            ids.iter().any(|i| i == id),
            "countdown table names a missing case {id}"
        );
    }
    for dir in case_dirs() {
        let id = case_id(&dir);
        let pod: Pod = serde_json::from_str(&read(&dir, "pod.json")).expect("pod.json parses");
        let summary = PodSummary::from_pod(&pod);
        let next: Vec<Option<Timestamp>> = summary
            .containers
            .iter()
            .filter_map(|c| c.backoff.as_ref().map(|b| b.next_restart_at))
            .collect();
        match COUNTDOWNS.iter().find(|(c, _)| *c == id) {
            Some((_, at)) => {
                let at: Timestamp = at.parse().expect("valid time");
                assert_eq!(next, [Some(at)], "{id}: next restart");
            }
            None => assert!(next.is_empty(), "{id}: unexpected back-off {next:?}"),
        }
    }
}

#[test]
fn every_events_json_summarises() {
    for dir in case_dirs() {
        let id = case_id(&dir);
        let list: serde_json::Value =
            serde_json::from_str(&read(&dir, "events.json")).expect("events.json is JSON");
        assert_eq!(
            (list["apiVersion"].as_str(), list["kind"].as_str()),
            (Some("v1"), Some("List")),
            "{id}"
        );
        let items = list["items"]
            .as_array()
            .unwrap_or_else(|| panic!("{id}: items"));
        let summaries: Vec<EventSummary> = items
            .iter()
            .map(|i| {
                let e: Event = serde_json::from_value(i.clone())
                    .unwrap_or_else(|e| panic!("{id}: event: {e}"));
                EventSummary::from_event(&e)
            })
            .collect();
        let raw_warnings = items.iter().filter(|i| i["type"] == "Warning").count();
        let warnings = summaries.iter().filter(|e| e.type_ == "Warning").count();
        assert_eq!(warnings, raw_warnings, "{id}: Warning events");
        for (raw, s) in items.iter().zip(&summaries) {
            assert_eq!(
                Some(s.reason.as_str()),
                raw["reason"].as_str(),
                "{id}: reason"
            );
            assert!(s.count >= 1, "{id}: count");
            assert!(
                s.last_timestamp >= s.first_timestamp,
                "{id}: {} last before first",
                s.reason
            );
        }
    }
}
