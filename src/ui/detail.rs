//! The selected container in full, diagnosis first: state with message (and, waiting, the
//! runtime's answer), the back-off countdown and gauge, lastState with exit-code meaning, the
//! findings about it ([`super::detail_findings`]), ready/started/restarts, image, the command
//! and the rest of the spec ([`super::container_spec`], compact or full by the room), ports,
//! probes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::container_spec::{self, Form};
use super::containers::{kind_label, state_text};
use super::{clock, countdown, exit_hint, section};
use crate::app::state::State;
use crate::model::{BackoffSource, ContainerState, ContainerSummary, PodSummary, Terminated};

/// Width of the label column.
pub const LABEL_W: usize = 11;
/// Cells of the back-off gauge.
const GAUGE_W: u16 = 20;

/// Rows the detail wants: title + its lines with the spec's command line only (0 when no
/// container is selected).
#[must_use]
pub fn wanted(state: &State, width: u16) -> u16 {
    wanted_forms(state, width)[0]
}

/// Rows the detail wants with the spec in each form, `[Command, Compact, Full]`
/// ([`super::container_spec`]): the detail's lines are built once, the spec's forms counted
/// alone (the draw path is hot).
#[must_use]
pub fn wanted_forms(state: &State, width: u16) -> [u16; 3] {
    let (Some(pod), Some(c)) = (&state.target.pod, state.selected_container()) else {
        return [0; 3];
    };
    let t = &state.config.theme;
    let base = lines(c, pod, state, width, Form::Command).len() + 1;
    let command = container_spec::rows(c, Form::Command, t, width);
    [Form::Command, Form::Compact, Form::Full].map(|form| {
        let rows = base - command + container_spec::rows(c, form, t, width);
        u16::try_from(rows).unwrap_or(u16::MAX)
    })
}

/// Draws the selected container's detail, the spec in the fullest form that fits.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let (Some(pod), Some(c)) = (&state.target.pod, state.selected_container()) else {
        return;
    };
    let title = format!("{} ({})", c.name, kind_label(c.kind));
    let [_, compact, full] = wanted_forms(state, area.width);
    let form = if full <= area.height {
        Form::Full
    } else if compact <= area.height {
        Form::Compact
    } else {
        Form::Command
    };
    let body = lines(c, pod, state, area.width, form);
    let widget = Paragraph::new(body).block(section(&title, &state.config.theme));
    frame.render_widget(widget, area);
}

/// One `Label      value` line of the detail.
#[must_use]
pub fn field(label: &str, spans: Vec<Span<'static>>, style: Style) -> Line<'static> {
    let mut all = vec![Span::styled(format!("{label:<LABEL_W$}"), style)];
    all.extend(spans);
    Line::from(all)
}

/// Indented continuation lines for `text`, word-wrapped to `width` columns.
fn cont(out: &mut Vec<Line<'static>>, text: &str, style: Style, width: u16) {
    let indent = LABEL_W + 2;
    let room = usize::from(width).saturating_sub(indent).max(20);
    for piece in super::width::words(text, room) {
        out.push(Line::from(vec![
            Span::raw(" ".repeat(indent)),
            Span::styled(piece, style),
        ]));
    }
}

/// The detail lines for container `c` of `pod` at `state.now`, the spec in `form`.
#[must_use]
pub fn lines(
    c: &ContainerSummary,
    pod: &PodSummary,
    state: &State,
    width: u16,
    form: Form,
) -> Vec<Line<'static>> {
    let t = &state.config.theme;
    let now = state.now;
    let mut out = Vec::new();
    let (text, style) = state_text(&c.state, t);
    let pod_finished = matches!(pod.phase.as_str(), "Succeeded" | "Failed");
    let deleted = matches!(
        state.target.connection,
        crate::app::state::Connection::Deleted { .. }
    );
    match &c.state {
        ContainerState::Waiting { message, .. } => {
            out.push(field("State", vec![Span::styled(text, style)], t.label));
            // The kubelet's back-off message is restated by the Back-off line below.
            let restated = c
                .backoff
                .as_ref()
                .is_some_and(|b| b.source == BackoffSource::Message);
            for m in message.iter().filter(|_| !restated).flat_map(|m| m.lines()) {
                cont(&mut out, m, t.dim, width);
            }
            if let Some(answer) = super::detail_findings::runtime_answer(state, c) {
                cont(&mut out, &answer, t.error, width);
            }
        }
        ContainerState::Running { started_at } => {
            let since = started_at
                .map_or_else(String::new, |s| format!(", started {}", clock::ago(s, now)));
            out.push(field(
                "State",
                vec![Span::styled(text, style), Span::raw(since)],
                t.label,
            ));
        }
        ContainerState::Terminated(term) => {
            out.push(field("State", vec![Span::styled(text, style)], t.label));
            terminated(&mut out, term, c, pod_finished, state, width);
        }
        ContainerState::Unknown => {
            out.push(field("State", vec![Span::styled(text, style)], t.label));
        }
    }
    if let Some(b) = c.backoff.as_ref().filter(|_| deleted) {
        // Nothing restarts a deleted pod's containers: no clock, no gauge.
        out.push(field(
            "Back-off",
            vec![Span::styled(countdown::deleted_text(b), t.dim)],
            t.label,
        ));
    } else if let Some(b) = &c.backoff {
        // The countdown's words first in priority: the gauge only where both fit.
        let mut words = countdown::text(b, now);
        // Without the watch the kubelet may well have restarted it already: say the clock runs
        // on the last state seen rather than blame the kubelet with "overdue".
        if matches!(
            state.target.connection,
            crate::app::state::Connection::Reconnecting(_)
        ) {
            words.push_str(" · not connected: last state seen");
        }
        let room = usize::from(width).saturating_sub(LABEL_W);
        let mut spans = Vec::new();
        if room >= usize::from(GAUGE_W) + 1 + super::width::cells(&words) {
            spans = countdown::gauge(b, now, GAUGE_W, t);
            spans.push(Span::raw(" "));
        }
        spans.push(Span::styled(words, t.warn));
        out.push(field("Back-off", spans, t.label));
    }
    if let Some(last) = &c.last_state {
        let reason = if last.reason.is_empty() {
            "Terminated"
        } else {
            &last.reason
        };
        let style = if last.exit_code == 0 { t.ok } else { t.error };
        out.push(field(
            "Last State",
            vec![Span::styled(
                format!("{reason}, {}", exit_hint::exit_text(last.exit_code)),
                style,
            )],
            t.label,
        ));
        terminated(&mut out, last, c, pod_finished, state, width);
    }
    super::detail_findings::findings(&mut out, c, state, width);
    let flag = |v: bool| {
        if v {
            Span::styled("True", t.ok)
        } else {
            Span::styled("False", t.warn)
        }
    };
    out.push(field(
        "Ready",
        vec![
            flag(c.ready),
            Span::styled("   Started ", t.label),
            c.started.map_or_else(|| Span::styled("-", t.dim), flag),
            Span::styled("   Restart Count ", t.label),
            Span::raw(c.restart_count.to_string()),
        ],
        t.label,
    ));
    out.extend(super::usage::lines(c, pod, state, width));
    out.push(field("Image", vec![Span::raw(c.image.clone())], t.label));
    super::container_spec::lines(&mut out, c, form, t, width);
    if !c.ports.is_empty() {
        let ports: Vec<String> = c
            .ports
            .iter()
            .map(|(name, port, proto)| match name {
                Some(n) => format!("{port}/{proto} ({n})"),
                None => format!("{port}/{proto}"),
            })
            .collect();
        out.push(field("Ports", vec![Span::raw(ports.join(", "))], t.label));
    }
    for (label, probe) in [
        ("Startup", &c.probes.startup),
        ("Liveness", &c.probes.liveness),
        ("Readiness", &c.probes.readiness),
    ] {
        if let Some(p) = probe {
            out.push(field(label, vec![Span::raw(p.clone())], t.label));
        }
    }
    out
}

/// The lines under a terminated state: times, memory limit for OOMKilled, meaning, message.
fn terminated(
    out: &mut Vec<Line<'static>>,
    term: &Terminated,
    c: &ContainerSummary,
    pod_finished: bool,
    state: &State,
    width: u16,
) {
    let t = &state.config.theme;
    let now = state.now;
    // The Unix epoch as startedAt means the process never started (StartError).
    let started = term.started_at.filter(|s| s.as_second() > 0);
    let mut times = Vec::new();
    if let Some(f) = term.finished_at {
        times.push(format!("finished {}", clock::ago(f, now)));
    }
    match (started, term.finished_at) {
        (Some(s), Some(f)) => times.push(format!("ran {}", clock::ran(s, f))),
        (None, _) if term.started_at.is_some() => times.push("never started".to_owned()),
        _ => {}
    }
    if term.reason == "OOMKilled" {
        let limit = c.memory_limit.as_deref().unwrap_or("none");
        times.push(format!("memory limit {limit}"));
    }
    if !times.is_empty() {
        cont(out, &times.join(", "), t.dim, width);
    }
    // The exit code's one-line meaning, unless a finding about this container explains it
    // (with the events and spec the meaning alone cannot see).
    let explained = state
        .target
        .diagnosis
        .iter()
        .any(|f| f.container.as_deref() == Some(c.name.as_str()));
    if let Some(h) = exit_hint::hint(term, c.kind, c.memory_limit.as_deref(), pod_finished)
        && !explained
    {
        cont(out, &format!("→ {h}"), t.warn, width);
    }
    for (i, m) in term.message.iter().flat_map(|m| m.lines()).enumerate() {
        let prefix = if i == 0 { "message: " } else { "         " };
        cont(out, &format!("{prefix}{m}"), t.error, width);
    }
}
