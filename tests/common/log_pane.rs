//! Log-pane `update` scripts: kubelet lines stamped at fixed times around `t0`, the batches and
//! stream ends the stream tasks send, and `default/web` (proxy + app) with the pane open on app.

use crossterm::event::KeyCode;
use jiff::{SignedDuration, Timestamp};
use podscope::app::{Cmd, Msg, State, update};
use podscope::model::LogLine;

use super::{applied, key, proxy_and_app, t0};

/// 07:19:00 + `s` seconds on the day of `t0`.
pub fn at(s: i64) -> Timestamp {
    t0() - SignedDuration::from_secs(75) + SignedDuration::from_secs(s)
}

/// A raw line of container `c` as the kubelet sends it with `timestamps=true`, stamped `at(s)`.
pub fn raw(c: &str, s: i64, text: &str) -> LogLine {
    let ts = at(s).strftime("%Y-%m-%dT%H:%M:%S.%9fZ");
    LogLine::from_raw(c, 0, &format!("{ts} {text}"))
}

/// A batch of `lines` on `stream`.
pub fn lines_msg(stream: u64, lines: Vec<LogLine>) -> Msg {
    Msg::LogLines { stream, lines }
}

/// `stream` closed by the server without a reason (the kubelet ends a log when its container exits).
pub fn stream_ended(stream: u64) -> Msg {
    Msg::LogStreamEnded {
        stream,
        reason: None,
    }
}

/// `default/web` with proxy + app, app selected, log pane opened (stream 1 for app).
pub fn opened() -> State {
    let mut s = applied(proxy_and_app());
    update(&mut s, key(KeyCode::Char('j')));
    let cmds = update(&mut s, key(KeyCode::Char('l')));
    assert_eq!(
        cmds,
        vec![Cmd::FollowLogs {
            stream: 1,
            container: "app".to_owned(),
            previous: false,
            since: None,
            tail_lines: Some(100_000),
        }]
    );
    s.dirty = false;
    s
}
