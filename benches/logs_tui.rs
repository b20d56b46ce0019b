//! `cargo bench --bench logs_tui`: the TUI's log ingest path (`update` with `Msg::LogLines`
//! batches of 1000 lines of 100 bytes into a full 100,000-line buffer) and drawing a 120×40
//! frame over 100,000 lines (following / scrolled to the middle / wrapped), and over one 1 MB
//! line (cut / wrapped; the cut must not scan the line per frame). Target: ingest
//! ≥ 200,000 lines/s.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use podscope::app::{Msg, State, update};
use podscope::model::{ContainerKind, ContainerState, ContainerSummary, LogLine, PodSummary};
use podscope::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const BATCH: usize = 1000;

fn pod() -> PodSummary {
    let json = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("assets/cases/04-crashloop-oomkilled-jvm/pod.json"),
    )
    .expect("pod.json");
    let pod: k8s_openapi::api::core::v1::Pod = serde_json::from_str(&json).expect("pod");
    let mut summary = PodSummary::from_pod(&pod);
    let c: &mut ContainerSummary = &mut summary.containers[0];
    c.state = ContainerState::Running { started_at: None };
    c.kind = ContainerKind::Main;
    summary
}

/// A batch of `BATCH` lines of 100 bytes (31-byte kubelet timestamp + 69 bytes of text).
fn batch(start: usize) -> Vec<LogLine> {
    (start..start + BATCH)
        .map(|i| {
            let raw = format!(
                "2024-06-03T{:02}:{:02}:{:02}.{:09}Z INFO request {i:>10} handled in 3ms status=200 path=/api/v1/items",
                (i / 3_600_000) % 24,
                (i / 60_000) % 60,
                (i / 1000) % 60,
                i % 1000
            );
            LogLine::from_raw("coord", 0, &raw[..100.min(raw.len())])
        })
        .collect()
}

/// A state with the log pane open on coord, stream 1 reading, `fill` lines loaded.
fn state(fill: usize) -> State {
    let mut s = State::new(
        "data",
        "coord-2",
        jiff::Timestamp::UNIX_EPOCH,
        Theme::colored(),
    );
    update(&mut s, Msg::PodApplied(Box::new(pod())));
    update(
        &mut s,
        Msg::Key(crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char('l'),
            crossterm::event::KeyModifiers::NONE,
        )),
    );
    for b in 0..fill / BATCH {
        update(
            &mut s,
            Msg::LogLines {
                stream: 1,
                lines: batch(b * BATCH),
            },
        );
    }
    s
}

/// One render benchmark: drawing the whole screen for `s` into `terminal`.
fn render(c: &mut Criterion, name: &str, terminal: &mut Terminal<TestBackend>, s: &State) {
    c.bench_function(name, |b| {
        b.iter(|| {
            terminal
                .draw(|f| podscope::ui::view(f, black_box(s)))
                .expect("draw");
        });
    });
}

fn benches(c: &mut Criterion) {
    let mut s = state(100_000);
    // Every batch is newer than the last (a live stream); the buffer stays full, evicting.
    let mut next = 100_000;
    let mut g = c.benchmark_group("log ingest");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function("update LogLines 1000x100B into a full 100k buffer", |b| {
        b.iter_batched(
            || {
                next += BATCH;
                batch(next)
            },
            |lines| update(&mut s, Msg::LogLines { stream: 1, lines }),
            BatchSize::SmallInput,
        );
    });
    g.finish();

    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let mut s = state(100_000);
    render(
        c,
        "render 120x40 with 100k lines (following)",
        &mut terminal,
        &s,
    );
    s.target.logs.top = Some(s.target.logs.base() + 50_000);
    render(
        c,
        "render 120x40 with 100k lines (scrolled)",
        &mut terminal,
        &s,
    );
    s.target.logs.wrap = true;
    s.target.logs.top = None;
    render(
        c,
        "render 120x40 with 100k lines (wrapped)",
        &mut terminal,
        &s,
    );

    let mut s = state(0);
    let big = format!("2024-06-03T00:00:00.000000000Z {}", "错误x".repeat(150_000));
    update(
        &mut s,
        Msg::LogLines {
            stream: 1,
            lines: vec![LogLine::from_raw("coord", 0, &big)],
        },
    );
    render(c, "render 120x40 with a 1 MB line (cut)", &mut terminal, &s);
    s.target.logs.wrap = true;
    render(
        c,
        "render 120x40 with a 1 MB line (wrapped)",
        &mut terminal,
        &s,
    );
}

criterion_group!(group, benches);
criterion_main!(group);
