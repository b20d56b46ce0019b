//! `cargo bench --bench diagnosis`: the diagnosis engine on case 07 (a liveness kill, with its
//! previous log), on the largest case of the corpus (84: two containers' logs, a Java-free
//! panic, a mesh proxy's log, 14 events) and on a pod of 10 crash-looping containers with 500
//! events, each next to rendering a 120×40 frame of the same pod: diagnosing runs on every pod,
//! event and clock update, so it must stay a small part (under 5 %) of a frame's cost.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use k8s_openapi::api::core::v1::{ContainerState, ContainerStateRunning, Event, Pod};
use podscope::app::{Msg, State, update};
use podscope::model::deletion::OwnerStatus;
use podscope::model::diagnosis::{Inputs, LogTail, LogTails, Related, diagnose};
use podscope::model::event::sort_newest_first;
use podscope::model::{EventSummary, PodSummary};
use podscope::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const CASE: &str = "07-liveness-kills-slow-start-exit143";

fn case_file(name: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/cases")
        .join(CASE);
    std::fs::read_to_string(dir.join(name)).expect("case file")
}

fn load() -> (Pod, Vec<Event>) {
    let pod: Pod = serde_json::from_str(&case_file("pod.json")).expect("pod");
    let list: serde_json::Value = serde_json::from_str(&case_file("events.json")).expect("events");
    let events = list["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter_map(|e| serde_json::from_value::<Event>(e).ok())
        .collect();
    (pod, events)
}

/// Case 07's pod with its container copied to 10 containers (`db-0` … `db-9`), the first
/// `failing` of them crash-looping as in the case and the others running and ready, and 500
/// events spread over all ten (Unhealthy, Killing, BackOff, Pulled in turn).
fn big(pod: &Pod, failing: usize) -> (PodSummary, Vec<EventSummary>) {
    let mut p = pod.clone();
    let spec = p.spec.as_mut().expect("spec");
    let status = p.status.as_mut().expect("status");
    let c0 = spec.containers[0].clone();
    let s0 = status.container_statuses.as_ref().expect("statuses")[0].clone();
    spec.containers = (0..10)
        .map(|i| {
            let mut c = c0.clone();
            c.name = format!("db-{i}");
            c
        })
        .collect();
    status.container_statuses = Some(
        (0..10)
            .map(|i| {
                let mut s = s0.clone();
                s.name = format!("db-{i}");
                if i >= failing {
                    s.ready = true;
                    s.started = Some(true);
                    s.restart_count = 0;
                    s.last_state = None;
                    s.state = Some(ContainerState {
                        running: Some(ContainerStateRunning {
                            started_at: s0.last_state.as_ref().and_then(|l| {
                                l.terminated.as_ref().and_then(|t| t.started_at.clone())
                            }),
                        }),
                        ..ContainerState::default()
                    });
                }
                s
            })
            .collect(),
    );
    let (_, base) = load();
    let mut events: Vec<EventSummary> = (0..500)
        .map(|i| {
            let mut e = base[i % base.len()].clone();
            e.metadata.uid = Some(format!("uid-{i}"));
            e.involved_object.field_path = Some(format!("spec.containers{{db-{}}}", i % 10));
            EventSummary::from_event(&e)
        })
        .collect();
    sort_newest_first(&mut events);
    (PodSummary::from_pod(&p), events)
}

/// The largest case of the corpus (by its files' size).
const LARGEST: &str = "84-app-crashloop-mesh-proxy-not-ready";

/// A case's pod, events (newest first) and saved logs as the diagnosis reads them
/// (`docs/corpus.md`).
fn load_case(case: &str) -> (PodSummary, Vec<EventSummary>, LogTails) {
    use podscope::model::diagnosis::case_logs::{SavedLog, tails};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/cases")
        .join(case);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
    let pod: Pod = serde_json::from_str(&read("pod.json").expect("pod.json")).expect("pod");
    let list: serde_json::Value =
        serde_json::from_str(&read("events.json").expect("events.json")).expect("events");
    let mut events: Vec<EventSummary> = list["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter_map(|e| serde_json::from_value::<Event>(e).ok())
        .map(|e| EventSummary::from_event(&e))
        .collect();
    sort_newest_first(&mut events);
    let mut files: Vec<(Option<String>, bool, String)> = Vec::new();
    for (f, previous) in [("logs-previous.txt", true), ("logs-current.txt", false)] {
        if let Some(t) = read(f) {
            files.push((None, previous, t));
        }
    }
    for e in std::fs::read_dir(dir.join("logs"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let name = e.file_name().to_string_lossy().into_owned();
        let (c, previous) = match (
            name.strip_suffix(".previous.txt"),
            name.strip_suffix(".current.txt"),
        ) {
            (Some(c), _) => (c.to_owned(), true),
            (_, Some(c)) => (c.to_owned(), false),
            _ => continue,
        };
        if let Ok(t) = std::fs::read_to_string(e.path()) {
            files.push((Some(c), previous, t));
        }
    }
    let summary = PodSummary::from_pod(&pod);
    let saved: Vec<SavedLog<'_>> = files
        .iter()
        .map(|(c, previous, text)| SavedLog {
            container: c.as_deref(),
            previous: *previous,
            text,
        })
        .collect();
    let logs = tails(&summary, &saved);
    (summary, events, logs)
}

fn benches(c: &mut Criterion) {
    let (pod, events) = load();
    let now: jiff::Timestamp = "2020-07-16T08:08:48Z".parse().expect("time");
    let summary = PodSummary::from_pod(&pod);
    let mut summaries: Vec<EventSummary> = events.iter().map(EventSummary::from_event).collect();
    sort_newest_first(&mut summaries);
    let mut logs = LogTails::default();
    logs.previous.insert(
        "db".to_owned(),
        LogTail::new(
            5,
            Ok(case_file("logs-previous.txt")
                .lines()
                .map(str::to_owned)
                .collect()),
        ),
    );
    let related = Related::new();
    let owner = OwnerStatus::Unknown;
    c.bench_function("diagnose (case 07)", |b| {
        b.iter(|| {
            diagnose(black_box(&Inputs::new(
                &summary, &summaries, &logs, &related, &owner, now,
            )))
        });
    });

    let (large, large_events, large_logs) = load_case(LARGEST);
    let large_now: jiff::Timestamp = "2024-05-14T09:06:55Z".parse().expect("time");
    c.bench_function("diagnose (case 84, the largest case)", |b| {
        b.iter(|| {
            diagnose(black_box(&Inputs::new(
                &large,
                &large_events,
                &large_logs,
                &related,
                &owner,
                large_now,
            )))
        });
    });

    let (big_pod, big_events) = big(&pod, 10);
    c.bench_function(
        "diagnose (10 containers all crash-looping, 500 events)",
        |b| {
            b.iter(|| {
                diagnose(black_box(&Inputs::new(
                    &big_pod,
                    &big_events,
                    &logs,
                    &related,
                    &owner,
                    now,
                )))
            });
        },
    );
    let (one_failing, one_failing_events) = big(&pod, 1);
    c.bench_function(
        "diagnose (10 containers one crash-looping, 500 events)",
        |b| {
            b.iter(|| {
                diagnose(black_box(&Inputs::new(
                    &one_failing,
                    &one_failing_events,
                    &logs,
                    &related,
                    &owner,
                    now,
                )))
            });
        },
    );

    let mut state = State::new("catalog", "catalog-db-0", now, Theme::colored());
    let _ = update(&mut state, Msg::Tick(now));
    let _ = update(&mut state, Msg::PodApplied(Box::new(summary.clone())));
    let _ = update(&mut state, Msg::EventsReset(summaries.clone()));
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    c.bench_function("render 120x40 frame (case 07)", |b| {
        b.iter(|| {
            terminal
                .draw(|f| podscope::ui::view(f, black_box(&state)))
                .expect("draw");
        });
    });

    let mut state = State::new(&large.namespace, &large.name, large_now, Theme::colored());
    let _ = update(&mut state, Msg::Tick(large_now));
    let _ = update(&mut state, Msg::PodApplied(Box::new(large.clone())));
    let _ = update(&mut state, Msg::EventsReset(large_events.clone()));
    c.bench_function("render 120x40 frame (case 84, the largest case)", |b| {
        b.iter(|| {
            terminal
                .draw(|f| podscope::ui::view(f, black_box(&state)))
                .expect("draw");
        });
    });

    let mut state = State::new("catalog", "catalog-db-0", now, Theme::colored());
    let _ = update(&mut state, Msg::Tick(now));
    let _ = update(&mut state, Msg::PodApplied(Box::new(big_pod.clone())));
    let _ = update(&mut state, Msg::EventsReset(big_events.clone()));
    c.bench_function(
        "render 120x40 frame (10 containers all crash-looping, 500 events)",
        |b| {
            b.iter(|| {
                terminal
                    .draw(|f| podscope::ui::view(f, black_box(&state)))
                    .expect("draw");
            });
        },
    );
}

criterion_group!(diagnosis, benches);
criterion_main!(diagnosis);
