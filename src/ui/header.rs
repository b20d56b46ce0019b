//! The header: the followed workload's block ([`super::workload`]), pod identity, connection
//! state, kubectl's STATUS/READY/RESTARTS/AGE, placement, and a notice line (pod recreated,
//! deletion pending, a replacement offered).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::clock;
use crate::app::state::{Connection, State};
use crate::model::PodSummary;
use crate::model::deletion::diagnose;

/// Rows the header wants at `width` columns: its fixed part ([`fixed_rows`]), then the notice
/// and the deletion hint (how to release a pod stuck on its finalizers), each wrapped to
/// `width`.
#[must_use]
pub fn wanted(state: &State, width: u16) -> u16 {
    let notes = notes_paragraph(state).line_count(width.max(1));
    fixed_rows(state, width).saturating_add(u16::try_from(notes).unwrap_or(u16::MAX))
}

/// Rows of the header's fixed part at `width` columns: the identity line with the connection
/// state wrapped (a long connection error in full), and the kubectl columns and placement
/// fields flowed onto as many lines as they need.
#[must_use]
pub fn fixed_rows(state: &State, width: u16) -> u16 {
    let id = identity_paragraph(state).line_count(width.max(1));
    let fields = field_lines(state, width).len().max(1);
    u16::try_from(id + fields)
        .unwrap_or(u16::MAX)
        .saturating_add(super::workload::rows(state, width))
}

/// Draws the header into `area`: the identity (its wrapped connection text yielding to the
/// fields when short), the fields, then as much of the wrapped notes as fits.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    // The workload's block first, leaving the pod's identity and fields at least two rows.
    let area = match super::workload::paragraph(state, area.width) {
        Some(block) => {
            let want = u16::try_from(block.line_count(area.width.max(1))).unwrap_or(u16::MAX);
            let h = want.min(area.height.saturating_sub(2)).min(area.height);
            frame.render_widget(block, Rect { height: h, ..area });
            Rect {
                y: area.y + h,
                height: area.height - h,
                ..area
            }
        }
        None => area,
    };
    if area.height == 0 {
        return;
    }
    let fields = field_lines(state, area.width);
    let fields_h = u16::try_from(fields.len().max(1)).unwrap_or(u16::MAX);
    let id = identity_paragraph(state);
    let id_rows = u16::try_from(id.line_count(area.width.max(1))).unwrap_or(u16::MAX);
    let id_h = id_rows
        .min(area.height.saturating_sub(fields_h).max(1))
        .min(area.height);
    frame.render_widget(
        id,
        Rect {
            height: id_h,
            ..area
        },
    );
    let fields_h = fields_h.min(area.height - id_h);
    frame.render_widget(
        Paragraph::new(fields),
        Rect {
            y: area.y + id_h,
            height: fields_h,
            ..area
        },
    );
    let fixed = id_h + fields_h;
    let rest = Rect {
        y: area.y + fixed,
        height: area.height - fixed,
        ..area
    };
    if rest.height > 0 {
        frame.render_widget(notes_paragraph(state), rest);
    }
}

/// Separator between two header fields.
const GAP: &str = "  ";

/// The kubectl columns and placement as lines of at most `width` columns: the columns on one
/// line and the placement on the next when the columns fit, else all fields flowed together
/// (60 columns: three lines instead of four). A field wider than `width` is cut at the edge.
fn field_lines(state: &State, width: u16) -> Vec<Line<'static>> {
    let Some(pod) = &state.target.pod else {
        return vec![Line::from("")];
    };
    let width = usize::from(width);
    let columns = columns(pod, state);
    let placement = placement(pod, state);
    let one_line = |fields: &[Vec<Span<'static>>]| {
        fields.iter().map(|f| spans_cells(f)).sum::<usize>()
            + GAP.len() * fields.len().saturating_sub(1)
    };
    let mut out = if one_line(&columns) <= width {
        let mut out = flow(vec![columns], width);
        out.extend(flow(vec![placement], width));
        out
    } else {
        flow(vec![columns, placement], width)
    };
    out.extend(super::node::line(state));
    out
}

fn spans_cells(spans: &[Span<'_>]) -> usize {
    spans.iter().map(|s| super::width::cells(&s.content)).sum()
}

/// Packs the fields of `groups` onto lines of `width` columns, two spaces apart.
fn flow(groups: Vec<Vec<Vec<Span<'static>>>>, width: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for field in groups.into_iter().flatten() {
        let w = spans_cells(&field);
        if !line.is_empty() && used + GAP.len() + w > width {
            out.push(Line::from(std::mem::take(&mut line)));
            used = 0;
        }
        if !line.is_empty() {
            line.push(Span::raw(GAP));
            used += GAP.len();
        }
        line.extend(field);
        used += w;
    }
    if !line.is_empty() {
        out.push(Line::from(line));
    }
    out
}

/// The notes as one wrapped paragraph (empty when there are none).
fn notes_paragraph(state: &State) -> Paragraph<'static> {
    let lines: Vec<Line> = notes(state)
        .into_iter()
        .map(|(text, style)| Line::from(Span::styled(text, style)))
        .collect();
    if lines.is_empty() {
        return Paragraph::new(Vec::<Line>::new());
    }
    Paragraph::new(lines).wrap(Wrap { trim: false })
}

/// The notice (pod recreated, deletion pending) and the deletion hint, with their styles; no
/// deletion diagnosis once the pod is gone.
fn notes(state: &State) -> Vec<(String, Style)> {
    // Once the watch has seen the pod go, why it was still present no longer applies.
    let gone = matches!(state.target.connection, Connection::Deleted { .. });
    let deletion = state
        .target
        .pod
        .as_ref()
        .filter(|_| !gone)
        .and_then(|pod| diagnose(pod, &state.target.owner, state.now));
    let (headline, hint) = match deletion {
        Some(d) => (Some(d.headline), d.hint),
        None => (None, None),
    };
    let notice = match (state.target.notice.clone(), headline) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    };
    let mut out = Vec::new();
    out.extend(super::workload::offer_text(state).map(|n| (n, state.config.theme.notice)));
    out.extend(notice.map(|n| (n, state.config.theme.notice)));
    out.extend(hint.map(|h| (h, state.config.theme.dim)));
    out
}

/// `namespace/name  <connection>`, wrapped at the width: a long connection error is read in
/// full rather than cut.
fn identity_paragraph(state: &State) -> Paragraph<'static> {
    Paragraph::new(identity(state)).wrap(Wrap { trim: true })
}

fn identity(state: &State) -> Line<'static> {
    let t = &state.config.theme;
    let connection = match &state.target.connection {
        Connection::Connecting if let Some(text) = super::workload::waiting_text(state) => {
            Span::styled(text, t.warn)
        }
        Connection::Connecting => Span::styled("connecting…", t.dim),
        Connection::Live => Span::styled("● live", t.ok),
        Connection::Reconnecting(reason) => Span::styled(format!("reconnecting: {reason}"), t.warn),
        Connection::NotFound if state.target.namespace_missing => Span::styled(
            format!(
                "namespace \"{}\" not found (kubectl get namespaces)",
                state.target.namespace
            ),
            t.error,
        ),
        Connection::NotFound => Span::styled(
            format!(
                "pod \"{}\" not found in {}: waiting for it to appear",
                state.target.name, state.target.namespace
            ),
            t.warn,
        ),
        Connection::Deleted { at } => Span::styled(
            format!(
                "pod deleted at {} ({}), last state kept",
                at.strftime("%H:%M:%SZ"),
                clock::ago(*at, state.now)
            ),
            t.error,
        ),
    };
    // A workload none of whose pods exists yet: no pod name to show.
    let who = if state.target.name.is_empty() {
        state.target.namespace.clone()
    } else {
        format!("{}/{}", state.target.namespace, state.target.name)
    };
    Line::from(vec![
        Span::styled(who, t.title),
        Span::raw("  "),
        connection,
    ])
}

/// The kubectl columns `STATUS`, `READY`, `RESTARTS`, `AGE` at `state.now`, one field each;
/// a deleted pod's STATUS is `Deleted`, the last one seen after it in dim.
fn columns(pod: &PodSummary, state: &State) -> Vec<Vec<Span<'static>>> {
    let t = &state.config.theme;
    let p = &pod.print;
    let status_style = match p.status.as_str() {
        "Running" | "Completed" | "Succeeded" => t.ok,
        "Pending" | "ContainerCreating" | "PodInitializing" | "Terminating" => t.warn,
        s if s.starts_with("Init:") && s.contains('/') => t.warn,
        _ => t.error,
    };
    let ready_style = if p.ready == p.total { t.ok } else { t.warn };
    let row = pod.row(state.now);
    // Gone from the API: kubectl would list nothing; say so, the last STATUS seen in dim.
    let status = if matches!(state.target.connection, Connection::Deleted { .. }) {
        vec![
            Span::styled("Deleted", t.error),
            Span::styled(format!(" (was {})", row.status), t.dim),
        ]
    } else {
        vec![Span::styled(row.status, status_style)]
    };
    let mut status_field = vec![Span::styled("STATUS ", t.label)];
    status_field.extend(status);
    vec![
        status_field,
        vec![
            Span::styled("READY ", t.label),
            Span::styled(row.ready, ready_style),
        ],
        vec![Span::styled("RESTARTS ", t.label), Span::raw(row.restarts)],
        vec![Span::styled("AGE ", t.label), Span::raw(row.age)],
    ]
}

/// `phase`, `QoS`, `node` (unless the node line shows it), `IP`, one field each.
fn placement(pod: &PodSummary, state: &State) -> Vec<Vec<Span<'static>>> {
    let t = &state.config.theme;
    let or_none = |v: &Option<String>| v.clone().unwrap_or_else(|| "<none>".to_owned());
    let phase = if pod.phase.is_empty() {
        "<none>"
    } else {
        &pod.phase
    };
    let mut fields = vec![
        vec![Span::styled("phase ", t.label), Span::raw(phase.to_owned())],
        vec![
            Span::styled("QoS ", t.label),
            // status.qosClass, else computed as the API server does.
            Span::raw(crate::model::resources::qos_class(pod)),
        ],
        vec![
            Span::styled("node ", t.label),
            Span::raw(or_none(&pod.node)),
        ],
        vec![
            Span::styled("IP ", t.label),
            Span::raw(or_none(&pod.pod_ip)),
        ],
    ];
    if state.target.node.shown().is_some() {
        fields.remove(2);
    }
    fields
}
