//! `cargo bench --bench logs_rss`: 1,000,000 log lines (100 bytes each, in `Msg::LogLines`
//! batches of 1000, built as the stream task builds them) through the TUI's default
//! 100,000-line buffer; prints the lines/s and the peak RSS (`VmHWM` from /proc/self/status) and
//! fails when the peak is 80 MB or more.

use std::time::Instant;

use podscope::app::{Msg, State, update};
use podscope::model::{LogLine, PodSummary};
use podscope::ui::theme::Theme;

const LINES: usize = 1_000_000;
const BATCH: usize = 1000;
const LIMIT_KB: u64 = 80 * 1024;

fn vm_hwm_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    // `cargo bench` passes `--bench`; nothing to parse.
    let json = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("assets/cases/04-crashloop-oomkilled-jvm/pod.json"),
    )
    .expect("pod.json");
    let pod: k8s_openapi::api::core::v1::Pod = serde_json::from_str(&json).expect("pod");
    let mut s = State::new(
        "data",
        "coord-2",
        jiff::Timestamp::UNIX_EPOCH,
        Theme::colored(),
    );
    update(
        &mut s,
        Msg::PodApplied(Box::new(PodSummary::from_pod(&pod))),
    );
    update(
        &mut s,
        Msg::Key(crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char('l'),
            crossterm::event::KeyModifiers::NONE,
        )),
    );
    let before = vm_hwm_kb().unwrap_or(0);
    let started = Instant::now();
    for b in 0..LINES / BATCH {
        let lines = (b * BATCH..(b + 1) * BATCH)
            .map(|i| {
                let raw = format!(
                    "2024-06-03T{:02}:{:02}:{:02}.{:09}Z INFO request {i:>10} handled in 3ms status=200 path=/api/v1/x",
                    (i / 3_600_000) % 24,
                    (i / 60_000) % 60,
                    (i / 1000) % 60,
                    i % 1000
                );
                LogLine::from_raw("coord", 0, &raw[..100.min(raw.len())])
            })
            .collect();
        update(&mut s, Msg::LogLines { stream: 1, lines });
    }
    let secs = started.elapsed().as_secs_f64();
    let peak = vm_hwm_kb().unwrap_or(0);
    println!(
        "logs_rss: {LINES} lines (line building included) in {secs:.2}s = {:.0} lines/s; buffer {} lines, {} dropped",
        LINES as f64 / secs,
        s.target.logs.buffer.len(),
        s.target.logs.buffer.evicted()
    );
    println!(
        "logs_rss: peak RSS (VmHWM) {:.1} MB (before the lines: {:.1} MB); limit {} MB",
        peak as f64 / 1024.0,
        before as f64 / 1024.0,
        LIMIT_KB / 1024
    );
    assert_eq!(s.target.logs.buffer.len(), 100_000);
    if peak >= LIMIT_KB {
        eprintln!("logs_rss: FAIL: peak RSS over the limit");
        std::process::exit(1);
    }
}
