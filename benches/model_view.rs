//! `cargo bench --bench model_view`: summarising a pod (case 02, two containers in
//! CrashLoopBackOff / Running) and rendering a full 120×40 frame of it.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use k8s_openapi::api::core::v1::{Event, Pod};
use podscope::app::{Msg, State, update};
use podscope::model::printer::print_pod;
use podscope::model::{EventSummary, PodSummary};
use podscope::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const CASE: &str = "02-crashloop-exit127-metrics-sidecar";

fn load() -> (Pod, Vec<Event>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/cases")
        .join(CASE);
    let pod: Pod =
        serde_json::from_str(&std::fs::read_to_string(dir.join("pod.json")).expect("pod.json"))
            .expect("pod");
    let list: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("events.json")).expect("events.json"),
    )
    .expect("events");
    let events = list["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter_map(|e| serde_json::from_value::<Event>(e).ok())
        .collect();
    (pod, events)
}

fn benches(c: &mut Criterion) {
    let (pod, events) = load();
    let now: jiff::Timestamp = "2024-01-06T14:17:15Z".parse().expect("time");
    c.bench_function("print_pod (case 02)", |b| {
        b.iter(|| print_pod(black_box(&pod)))
    });
    c.bench_function("PodSummary::from_pod (case 02)", |b| {
        b.iter(|| PodSummary::from_pod(black_box(&pod)));
    });

    let mut state = State::new("shop", "cache-master-0", now, Theme::colored());
    let _ = update(
        &mut state,
        Msg::PodApplied(Box::new(PodSummary::from_pod(&pod))),
    );
    let _ = update(
        &mut state,
        Msg::EventsReset(events.iter().map(EventSummary::from_event).collect()),
    );
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    c.bench_function("render 120x40 frame (case 02)", |b| {
        b.iter(|| {
            terminal
                .draw(|f| podscope::ui::view(f, black_box(&state)))
                .expect("draw");
        });
    });
}

criterion_group!(model_view, benches);
criterion_main!(model_view);
