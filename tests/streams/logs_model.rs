//! The pure log model: kubelet timestamp prefixes and CRI records (`docs/protocols.md` §2.2,
//! §2.5), escape neutralisation, the bounded buffer, resume de-duplication and restart markers
//! (case 04's `lastState`), plus the line splitter on in-memory bodies.

use crate::common;
use std::time::Duration;

use jiff::Timestamp;
use podscope::cluster::logs::LineBatcher;
use podscope::model::log::{
    CriStream, DEFAULT_LOG_LINES, LineKind, LogBuffer, LogLine, display_truncate, parse_cri,
    parse_line, split_timestamp, terminal_safe, timestamp_token,
};
use podscope::model::log_resume::{
    ResumeFilter, ResumePoint, ResumeTracker, drop_before_resume, lost_instances_marker,
    restart_marker,
};

fn ts(s: &str) -> Timestamp {
    s.parse().expect("valid RFC 3339")
}

#[test]
fn kubelet_prefix_with_nine_digits() {
    // The example line of protocols.md §2.2.
    let (t, rest) = parse_line("2025-01-01T00:04:59.000000001Z line one");
    let t = t.expect("timestamp");
    assert_eq!(t.as_second(), ts("2025-01-01T00:04:59Z").as_second());
    assert_eq!(t.subsec_nanosecond(), 1);
    assert_eq!(rest, "line one");
    // Only the one separating space is cut; the content's own spaces stay.
    assert_eq!(
        parse_line("2025-01-01T00:04:59.000000001Z   indented").1,
        "  indented"
    );
    // An empty line is the prefix and its space.
    assert_eq!(parse_line("2025-01-01T00:04:59.000000001Z "), (Some(t), ""));
}

#[test]
fn lenient_timestamp_widths_and_offsets() {
    for (raw, want) in [
        ("2025-01-01T00:04:59Z x", "2025-01-01T00:04:59Z"),
        ("2025-01-01T00:04:59.5Z x", "2025-01-01T00:04:59.5Z"),
        (
            "2025-01-01T00:04:59.123456Z x",
            "2025-01-01T00:04:59.123456Z",
        ),
        ("2025-01-01T02:04:59.1+02:00 x", "2025-01-01T00:04:59.1Z"),
    ] {
        let (t, rest) = parse_line(raw);
        assert_eq!(t, Some(ts(want)), "{raw}");
        assert_eq!(rest, "x", "{raw}");
    }
    for raw in [
        "plain text line",
        "2025-01-01 00:04:59 not RFC 3339",
        "2025-13-01T00:04:59Z month 13",
        "",
    ] {
        assert_eq!(parse_line(raw), (None, raw), "{raw}");
    }
    // Byte-level variant on non-UTF-8 content.
    let raw = b"2025-01-01T00:04:59.000000001Z \xff\xfe";
    let (t, at) = split_timestamp(raw).expect("prefix parses");
    assert_eq!(t.subsec_nanosecond(), 1);
    assert_eq!(&raw[at..], b"\xff\xfe");
    assert_eq!(
        timestamp_token(raw).map(|(tok, _)| tok),
        Some(&b"2025-01-01T00:04:59.000000001Z"[..])
    );
}

#[test]
fn cri_records() {
    // The two example records of protocols.md §2.5.
    let r = parse_cri("2016-10-06T00:17:09.669794202Z stdout P log content 1").expect("record");
    assert_eq!(r.ts, ts("2016-10-06T00:17:09.669794202Z"));
    assert_eq!(r.stream, CriStream::Stdout);
    assert!(r.partial);
    assert_eq!(r.content, "log content 1");
    let r = parse_cri("2016-10-06T00:17:09.669794203Z stderr F log content 2").expect("record");
    assert_eq!(r.stream, CriStream::Stderr);
    assert!(!r.partial);
    assert_eq!(r.content, "log content 2");
    // Forward-compatible tags: only the first counts.
    let r = parse_cri("2016-10-06T00:17:09Z stdout F:x:y z").expect("record");
    assert!(!r.partial);
    assert_eq!(r.content, "z");
    assert!(parse_cri("2016-10-06T00:17:09Z console F z").is_none());
    assert!(parse_cri("2016-10-06T00:17:09Z stdout Q z").is_none());
    assert!(parse_cri("no timestamp stdout F z").is_none());
}

#[test]
fn escapes_are_neutralised_and_colour_kept_as_data() {
    let raw = "2025-01-01T00:04:59.000000001Z \u{1b}[2Jclear \u{1b}]0;title\u{7} \u{1b}[1;31mred\u{1b}[0m end\r";
    let line = LogLine::from_raw("app", 3, raw);
    assert_eq!(line.kind, LineKind::Log);
    assert_eq!(line.instance, 3);
    assert_eq!(line.container, "app");
    assert_eq!(line.ts, Some(ts("2025-01-01T00:04:59.000000001Z")));
    assert_eq!(line.text, "␛[2Jclear ␛]0;title␇ red end");
    assert!(!line.text.chars().any(char::is_control), "{:?}", line.text);
    let marks: Vec<(usize, &str)> = line.sgr.iter().map(|m| (m.at, m.params.as_str())).collect();
    let red = line.text.find("red").expect("red");
    assert_eq!(marks, vec![(red, "1;31"), (red + 3, "0")]);
    // For a terminal: colour passes, the rest does not.
    assert_eq!(
        terminal_safe("\u{1b}[32mok\u{1b}[0m \u{1b}[2J\u{9b}"),
        "\u{1b}[32mok\u{1b}[0m ␛[2J\u{fffd}"
    );
    assert_eq!(terminal_safe("plain"), "plain");
    // A RIGHT-TO-LEFT OVERRIDE (no control character to `char::is_control`) is caught too.
    assert_eq!(terminal_safe("exit \u{202e}1"), "exit \u{fffd}1");
    assert_eq!(
        terminal_safe("\u{1b}[31m\u{2067}x\u{2069}"),
        "\u{1b}[31m\u{fffd}x\u{fffd}"
    );
}

#[test]
fn buffer_evicts_oldest_and_counts() {
    assert_eq!(LogBuffer::default().capacity(), DEFAULT_LOG_LINES);
    assert_eq!(DEFAULT_LOG_LINES, 100_000);
    let mut b = LogBuffer::new(3);
    for i in 0..5 {
        b.push(LogLine::from_raw("app", 0, &format!("line {i}")));
    }
    assert_eq!(b.len(), 3);
    assert_eq!(b.evicted(), 2);
    let texts: Vec<&str> = b.lines().iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["line 2", "line 3", "line 4"]);
    b.clear();
    assert_eq!((b.len(), b.evicted()), (0, 0));
}

#[test]
fn a_one_megabyte_line_is_kept_whole() {
    let big = "x".repeat(1 << 20);
    let mut b = LogBuffer::new(10);
    b.push(LogLine::from_raw(
        "app",
        0,
        &format!("2025-01-01T00:00:00.000000000Z {big}"),
    ));
    let kept = &b.lines()[0].text;
    assert_eq!(kept.len(), 1 << 20);
    let shown = display_truncate(kept, 200);
    assert!(shown.starts_with(&big[..200]));
    assert!(
        shown.ends_with(&format!("… [{} bytes more]", (1 << 20) - 200)),
        "{}",
        &shown[190..]
    );
    assert_eq!(display_truncate("short", 200), "short");
    // Never cut inside a character.
    assert_eq!(display_truncate("aé", 2), "a… [2 bytes more]");
}

fn at(t: &str, text: &str) -> LogLine {
    LogLine::from_raw("app", 0, &format!("{t} {text}"))
}

#[test]
fn resume_drops_what_was_already_read() {
    let t1 = "2025-01-01T00:00:10.100000000Z";
    let t2 = "2025-01-01T00:00:10.700000000Z";
    let t3 = "2025-01-01T00:00:11.000000000Z";
    // Read before the stream ended: t1, t2 "a", t2 "b".
    let mut point = None;
    for t in [t1, t2, t2] {
        ResumePoint::observe(&mut point, ts(t));
    }
    let point = point.expect("point");
    assert_eq!((point.last_ts, point.lines_at_last_ts), (ts(t2), 2));
    // Requested from the whole second (kube-rs would round 10.7 s up to 11 s and lose t2 "c").
    assert_eq!(point.since_time(), ts("2025-01-01T00:00:10Z"));
    // The re-fetch returns everything from 10 s on.
    let refetch = vec![
        at(t1, "old"),
        at(t2, "a"),
        at(t2, "b"),
        at(t2, "c"),
        at(t3, "d"),
    ];
    let kept: Vec<String> = drop_before_resume(refetch, Some(point))
        .into_iter()
        .map(|l| l.text)
        .collect();
    assert_eq!(kept, ["c", "d"]);
    // Without a point nothing is dropped; lines without a timestamp always pass.
    let mut f = ResumeFilter::new(Some(point));
    assert!(f.keep(None));
    assert!(!f.keep(Some(ts(t1))));
    assert!(ResumeFilter::new(None).keep(Some(ts(t1))));
}

#[test]
fn tracker_counts_tokens_without_parsing_each() {
    let t2 = b"2025-01-01T00:00:10.700000000Z";
    let mut tr = ResumeTracker::new(None);
    tr.observe(b"2025-01-01T00:00:10.100000000Z");
    tr.observe(t2);
    tr.observe(t2);
    let p = tr.point().expect("point");
    assert_eq!(
        (p.last_ts, p.lines_at_last_ts),
        (ts("2025-01-01T00:00:10.7Z"), 2)
    );
    // Continuing after a resume at the same instant adds up.
    let mut tr = ResumeTracker::new(Some(p));
    tr.observe(t2);
    assert_eq!(tr.point().map(|p| p.lines_at_last_ts), Some(3));
}

#[test]
fn restart_marker_from_case_04() {
    // expected.md: lastState.terminated OOMKilled, exitCode 137, ran 45 s; back-off 2m40s.
    let pod = common::cases::pod("04-crashloop-oomkilled-jvm");
    let c = pod.container("coord").expect("coord");
    let last = c.last_state.as_ref().expect("lastState.terminated");
    let backoff = c.backoff.as_ref().map(|b| b.delay);
    assert_eq!(
        restart_marker(last, backoff),
        "── restarted: OOMKilled, exit 137 (SIGKILL) after 45s, back-off 2m40s ──"
    );
    // The first restart has no back-off (the kubelet restarts at once, protocols.md §5.1).
    assert_eq!(
        restart_marker(last, None),
        "── restarted: OOMKilled, exit 137 (SIGKILL) after 45s ──"
    );
    assert_eq!(
        lost_instances_marker(2),
        "── 2 restarts not seen: their logs are gone (the kubelet keeps only the previous instance) ──"
    );
}

#[test]
fn restart_marker_from_case_01_exit_1() {
    // Case 01: a plain application error, no signal.
    let pod = common::cases::pod("01-crashloop-exit1-db");
    let c = &pod.containers[0];
    let last = c.last_state.as_ref().expect("lastState.terminated");
    let m = restart_marker(last, None);
    assert!(
        m.starts_with(&format!(
            "── restarted: {}, exit {} after ",
            last.reason, last.exit_code
        )),
        "{m}"
    );
    assert!(!m.contains("SIG"), "{m}");
}

fn body(bytes: Vec<u8>) -> podscope::cluster::logs::LogBody {
    Box::pin(futures::io::Cursor::new(bytes))
}

#[tokio::test]
async fn splitter_keeps_huge_lines_and_respects_batch_size() {
    let big = vec![b'y'; 3 << 20];
    let mut data = Vec::new();
    for i in 0..2500 {
        data.extend_from_slice(format!("line {i}\n").as_bytes());
    }
    data.extend_from_slice(&big);
    data.extend_from_slice(b"\ntail without newline");
    let mut b = LineBatcher::new(body(data));
    let mut lines: Vec<Vec<u8>> = Vec::new();
    let mut sizes = Vec::new();
    while let Some(batch) = b
        .next_batch(1000, Duration::from_millis(50))
        .await
        .expect("reads")
    {
        sizes.push(batch.len());
        lines.extend(batch.lines().map(<[u8]>::to_vec));
    }
    assert!(sizes.iter().all(|&n| n <= 1000), "{sizes:?}");
    assert_eq!(lines.len(), 2502);
    assert_eq!(lines[0], b"line 0");
    assert_eq!(lines[2499], b"line 2499");
    assert_eq!(lines[2500].len(), 3 << 20);
    assert_eq!(lines[2501], b"tail without newline");
}

/// The follow state machine on its own (`model::log_follow`), as both drivers run it: an
/// instance that ran 0 s has its marker stamped after its last line (its `finishedAt` has whole
/// seconds), and a container that will not restart ends with `Done` after its tail.
#[test]
fn follow_machine_marks_after_the_last_line_and_stops_for_good() {
    use podscope::model::log_follow::{LogFollow, Reopen, Role, Step};
    use podscope::model::{ContainerKind, ContainerState, Terminated};

    let app = |state, rc, last: Option<Terminated>| {
        let mut c = common::container("app", ContainerKind::Main);
        c.state = state;
        c.restart_count = rc;
        c.last_state = last;
        common::pod("uid-1", vec![c])
    };
    let crash = Terminated {
        reason: "Error".to_owned(),
        exit_code: 1,
        started_at: Some(ts("2025-01-01T00:00:10Z")),
        finished_at: Some(ts("2025-01-01T00:00:10Z")),
        ..Terminated::default()
    };
    let first = app(ContainerState::Running { started_at: None }, 0, None);
    let (mut f, step) = LogFollow::start("app", first.container("app"), false);
    assert_eq!(
        step,
        Step::Open {
            role: Role::Live,
            previous: false,
            since: None
        }
    );
    f.opened(1, Role::Live);
    let dead = app(ContainerState::Terminated(crash.clone()), 0, None);
    assert!(f.advance(&dead, Reopen::Always).is_empty(), "still reading");
    assert!(f.keep(Some(ts("2025-01-01T00:00:10.4Z"))));
    f.ended(false);
    assert!(f.advance(&dead, Reopen::Always).is_empty(), "would race");
    let next = app(
        ContainerState::Running { started_at: None },
        1,
        Some(crash.clone()),
    );
    let tail = Step::Open {
        role: Role::Tail,
        previous: true,
        since: Some(ts("2025-01-01T00:00:10Z")),
    };
    assert_eq!(f.advance(&next, Reopen::Always), [tail]);
    f.opened(2, Role::Tail);
    assert!(!f.keep(Some(ts("2025-01-01T00:00:10.4Z"))), "read before");
    assert!(f.keep(Some(ts("2025-01-01T00:00:10.45Z"))));
    f.ended(false);
    let steps = f.advance(&next, Reopen::Always);
    let [
        Step::Marker(m),
        Step::Open {
            role: Role::Live, ..
        },
    ] = steps.as_slice()
    else {
        panic!("{steps:?}");
    };
    assert_eq!(m.text, "── restarted: Error, exit 1 after 0s ──");
    assert_eq!(m.ts, Some(ts("2025-01-01T00:00:10.45Z")));
    assert_eq!(m.instance, 0, "the marker closes instance 0");

    // restartPolicy Never: the tail is the current log, then nothing more comes.
    f.opened(3, Role::Live);
    f.ended(false);
    let mut done = app(ContainerState::Terminated(crash), 1, None);
    done.restart_policy = "Never".to_owned();
    let steps = f.advance(&done, Reopen::Always);
    assert!(
        matches!(
            steps.as_slice(),
            [Step::Open {
                role: Role::Tail,
                previous: false,
                ..
            }]
        ),
        "{steps:?}"
    );
    f.opened(4, Role::Tail);
    f.ended(false);
    assert_eq!(f.advance(&done, Reopen::Always), [Step::Done]);
}
