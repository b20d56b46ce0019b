//! The port-forward panel (`f`): one row per forward with its local address (`localhost:PORT`
//! while both loopbacks listen), the remote port (`http (8080)`: a name with the number it
//! resolved to), its state (listening / active / broken), open connections, bytes from and to
//! the pod, and under it a loopback it could not bind, how long it has been broken or the last
//! gap it recovered from, and the last error; `a` types a new spec. Durations are computed from
//! `state.now`; the key hint comes from the keymap table.

use jiff::{SignedDuration, Timestamp};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::forwards::{ForwardEntry, declared_port};
use crate::app::keymap::{self, When};
use crate::app::state::State;
use crate::model::sanitize::sanitize;
use crate::ui::clock;

/// `1234` → `1.2 KiB` (binary units, one decimal from KiB up; plain bytes below).
#[must_use]
pub fn bytes(n: u64) -> String {
    const UNITS: &[&str] = &["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    #[allow(clippy::cast_precision_loss)] // display only
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// A length of time for the panel: kubectl's `HumanDuration` (`12s`, `3m20s`), `<1s` below a
/// second (and for a negative length: the forwarder's clock may be a tick ahead of `now`).
fn length(d: SignedDuration) -> String {
    if d < SignedDuration::from_secs(1) {
        "<1s".to_owned()
    } else {
        clock::human(d)
    }
}

/// The lines under a forward's row at `now` (sanitised cluster text), first
/// `not listening on [::1]:8080: <why>` for a loopback that could not be bound, then:
/// - while broken: `broken for 12s: <last error>`;
/// - after a recovery: `recovered after a 12s gap (3m ago)`, then `last error: <text>`;
/// - otherwise `last error: <text>` if a connection ever failed, else nothing.
#[must_use]
pub fn notes(e: &ForwardEntry, now: Timestamp) -> Vec<String> {
    let error = e.last_error().map(sanitize);
    let status = e.status.as_ref();
    let mut lines: Vec<String> = status
        .map(|s| s.unbound.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|(addr, why)| format!("not listening on {addr}: {}", sanitize(why)))
        .collect();
    if let Some(since) = status.and_then(|s| s.broken_since) {
        let broken = length(now.duration_since(since));
        lines.push(match error {
            Some(t) => format!("broken for {broken}: {t}"),
            None => format!("broken for {broken}"),
        });
        return lines;
    }
    if let Some(gap) = status.and_then(|s| s.last_gap) {
        let ago = length(now.duration_since(gap.to));
        lines.push(format!(
            "recovered after a {} gap ({ago} ago)",
            length(gap.length())
        ));
    }
    lines.extend(error.map(|t| format!("last error: {t}")));
    lines
}

/// Widest the panel gets, columns (borders included).
pub(crate) const MAX_WIDTH: u16 = 100;
/// Lines a note may wrap to (a kubelet error is about 300 characters; its end names the cause).
const NOTE_LINES: usize = 4;

/// `text` wrapped at spaces into lines of at most `width` columns (a word longer than a line is
/// broken), at most `max_lines` of them (the last one ending in `…` when text is left over).
fn wrap(text: &str, width: usize, max_lines: usize) -> Vec<String> {
    let width = width.max(2);
    let mut lines = super::width::words(text, width);
    if lines.len() > max_lines {
        lines.truncate(max_lines);
        if let Some(last) = lines.last_mut() {
            let (end, _) = super::width::prefix(last, width - 1);
            last.truncate(end);
            last.push('…');
        }
    }
    lines
}

/// The LOCAL column: `localhost:PORT` while both loopbacks listen (or, before binding, will be
/// tried: no address given), else the one bound address (or the given one).
fn local_text(e: &ForwardEntry) -> String {
    let status = e.status.as_ref();
    let both = match status {
        Some(s) => s.locals.len() > 1 && s.locals.iter().all(|a| a.ip().is_loopback()),
        None => e.spec.address.is_none(),
    };
    let first = status
        .and_then(|s| s.local)
        .unwrap_or_else(|| e.spec.bind_addr());
    if both {
        format!("localhost:{}", first.port())
    } else {
        first.to_string()
    }
}

/// The REMOTE column: the number as given, or the name with the number it resolves to:
/// the forwarder's last resolution, else the shown pod's declared port (`http (8080)`; just
/// `http` while neither knows it). Sanitised.
#[must_use]
pub fn remote_text(state: &State, e: &ForwardEntry) -> String {
    match &e.spec.remote {
        crate::model::forward::RemotePort::Number(n) => n.to_string(),
        crate::model::forward::RemotePort::Name(name) => {
            let port = e
                .status
                .as_ref()
                .and_then(|s| s.remote_port)
                .or_else(|| declared_port(state, name));
            let name = sanitize(name);
            port.map_or_else(|| name.to_string(), |p| format!("{name} ({p})"))
        }
    }
}

/// The column headers. The byte columns name their direction: `FROM POD` counts bytes received
/// from the pod (written to local clients), `TO POD` bytes read from local clients and sent on.
const HEADERS: [&str; 7] = [
    "LOCAL", "REMOTE", "STATE", "OPEN", "TOTAL", "FROM POD", "TO POD",
];

fn row(e: &ForwardEntry, remote: &str, remote_width: usize) -> String {
    let local = local_text(e);
    let (open, total, din, dout) = e.status.as_ref().map_or((0, 0, 0, 0), |s| {
        (
            s.open_connections,
            s.total_connections,
            s.bytes_in,
            s.bytes_out,
        )
    });
    format!(
        "{:<22} {:<remote_width$} {:<10} {:>4} {:>6} {:>10} {:>10}",
        local,
        remote,
        e.state_word(),
        open,
        total,
        bytes(din),
        bytes(dout)
    )
}

/// Draws the panel centred in `area`.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.config.theme;
    let p = &state.target.forwards;
    let remotes: Vec<String> = p.entries.iter().map(|e| remote_text(state, e)).collect();
    let remote_width = remotes
        .iter()
        .map(|r| super::width::cells(r))
        .chain([HEADERS[1].len()])
        .max()
        .unwrap_or_default()
        + 1;
    let [local, remote, st, open, total, from_pod, to_pod] = HEADERS;
    let mut lines = vec![Line::from(Span::styled(
        format!(
            "  {local:<22} {remote:<remote_width$} {st:<10} {open:>4} {total:>6} {from_pod:>10} {to_pod:>10}"
        ),
        t.title,
    ))];
    if p.entries.is_empty() {
        lines.push(Line::from(Span::styled(
            "no forwards — press a to add one (e.g. 8080:80)",
            t.dim,
        )));
    }
    for (i, (e, remote)) in p.entries.iter().zip(&remotes).enumerate() {
        let text = row(e, remote, remote_width);
        let marker = if i == p.selected { "▶ " } else { "  " };
        let style = if i == p.selected {
            t.key
        } else {
            ratatui::style::Style::new()
        };
        lines.push(Line::from(vec![
            Span::raw(marker),
            Span::styled(text, style),
        ]));
        let room = usize::from(area.width.min(MAX_WIDTH).saturating_sub(2 + 4));
        for note in notes(e, state.now) {
            for part in wrap(&note, room, NOTE_LINES) {
                lines.push(Line::from(Span::styled(format!("    {part}"), t.dim)));
            }
        }
    }
    lines.push(Line::from(""));
    if let Some(prompt) = state.overlay.forward_input() {
        let cols = usize::from(area.width.min(MAX_WIDTH).saturating_sub(2));
        lines.push(super::prompt::line(
            "forward [ADDR:]LOCAL:REMOTE: ",
            t.key,
            prompt,
            ratatui::style::Style::new(),
            cols,
        ));
    } else if let Some(status) = &p.status {
        lines.push(Line::from(Span::styled(status.clone(), t.notice)));
    } else {
        lines.push(Line::from(Span::styled(
            keymap::hint_text(When::ForwardPanel),
            t.dim,
        )));
    }
    popup(frame, area, " port-forwards ", lines, t);
}

/// Draws `lines` in a bordered, cleared box centred in `area` (at most 100 columns wide).
pub fn popup(
    frame: &mut Frame,
    area: Rect,
    title: &str,
    lines: Vec<Line<'_>>,
    t: &crate::ui::theme::Theme,
) {
    let width = area.width.min(MAX_WIDTH);
    let height = area.height.min(
        u16::try_from(lines.len())
            .unwrap_or(u16::MAX)
            .saturating_add(2),
    );
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let block = Block::new()
        .borders(Borders::ALL)
        .title(Span::styled(title.to_owned(), t.title));
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::forward_status::{ForwardGap, ForwardState, ForwardStatus};

    fn at(s: &str) -> Timestamp {
        s.parse().expect("timestamp")
    }

    fn entry(f: impl FnOnce(&mut ForwardStatus)) -> ForwardEntry {
        let spec: crate::model::forward::PortSpec = "8080:80".parse().expect("spec");
        let mut status = ForwardStatus::new(spec.clone());
        f(&mut status);
        ForwardEntry {
            id: 0,
            spec,
            status: Some(status),
        }
    }

    #[test]
    fn broken_for_counts_from_broken_since_at_now() {
        let e = entry(|s| {
            s.state = ForwardState::Broken;
            s.broken_since = Some(at("2025-01-01T00:00:00Z"));
            s.last_error = Some("pods \"web\" not found\x1b[31m".into());
        });
        // Cluster text is sanitised: the escape sequence is shown, not obeyed.
        assert_eq!(
            notes(&e, at("2025-01-01T00:00:12Z")),
            vec!["broken for 12s: pods \"web\" not found␛[31m"]
        );
        assert_eq!(
            notes(&e, at("2025-01-01T00:03:20Z")),
            vec!["broken for 3m20s: pods \"web\" not found␛[31m"]
        );
        // The forwarder's clock a little ahead of the view's: not a negative age.
        assert_eq!(
            notes(&e, at("2024-12-31T23:59:59.5Z")),
            vec!["broken for <1s: pods \"web\" not found␛[31m"]
        );
    }

    #[test]
    fn recovered_shows_the_gap_and_its_age_then_the_last_error() {
        let e = entry(|s| {
            s.last_gap = Some(ForwardGap {
                from: at("2025-01-01T00:00:00Z"),
                to: at("2025-01-01T00:00:12Z"),
            });
            s.last_error = Some("connection refused".into());
        });
        assert_eq!(
            notes(&e, at("2025-01-01T00:03:12Z")),
            vec![
                "recovered after a 12s gap (3m ago)",
                "last error: connection refused"
            ]
        );
        let quick = entry(|s| {
            s.last_gap = Some(ForwardGap {
                from: at("2025-01-01T00:00:00Z"),
                to: at("2025-01-01T00:00:00.4Z"),
            });
        });
        assert_eq!(
            notes(&quick, at("2025-01-01T00:00:05Z")),
            vec!["recovered after a <1s gap (4s ago)"]
        );
    }

    #[test]
    fn notes_wrap_and_say_when_they_are_cut() {
        assert_eq!(wrap("abcdefg", 3, 4), vec!["abc", "def", "g"]);
        assert_eq!(wrap("abcdefghijklm", 3, 2), vec!["abc", "de…"]);
        assert_eq!(wrap("", 3, 2), Vec::<String>::new());
        // At spaces, not inside words.
        assert_eq!(
            wrap("pods \"hello\" is forbidden: cannot create", 12, 6),
            vec!["pods \"hello\"", "is", "forbidden:", "cannot", "create"]
        );
        assert_eq!(wrap("a bb cc dd ee", 5, 2), vec!["a bb", "cc d…"]);
    }

    #[test]
    fn healthy_forwards_have_no_notes_and_an_unbound_loopback_one() {
        assert!(notes(&entry(|_| {}), at("2025-01-01T00:00:00Z")).is_empty());
        let v4_only = entry(|s| {
            s.local = Some("127.0.0.1:8080".parse().expect("addr"));
            s.locals = vec!["127.0.0.1:8080".parse().expect("addr")];
            s.unbound = vec![(
                "[::1]:8080".parse().expect("addr"),
                "address not available on this host".into(),
            )];
            s.broken_since = Some(at("2025-01-01T00:00:00Z"));
        });
        assert_eq!(
            notes(&v4_only, at("2025-01-01T00:00:03Z")),
            vec![
                "not listening on [::1]:8080: address not available on this host",
                "broken for 3s"
            ]
        );
        assert_eq!(local_text(&v4_only), "127.0.0.1:8080");
        let both = entry(|s| {
            s.locals = vec![
                "127.0.0.1:8080".parse().expect("addr"),
                "[::1]:8080".parse().expect("addr"),
            ];
            s.local = s.locals.first().copied();
        });
        assert_eq!(local_text(&both), "localhost:8080");
        let mut pending = entry(|_| {});
        pending.status = None;
        assert_eq!(local_text(&pending), "localhost:8080");
        pending.spec = "0.0.0.0:8080:80".parse().expect("spec");
        assert_eq!(local_text(&pending), "0.0.0.0:8080");
    }
}
