//! What the container detail takes from the diagnosis: the findings about the selected container
//! (headline and hint, compactly), and for a waiting container the answer of the registry or the
//! kubelet behind its reason (`rpc error: code = NotFound …`), not only `Back-off pulling image`.

use ratatui::text::{Line, Span};

use super::detail::{LABEL_W, field};
use super::diagnosis::{marker, severity_style};
use super::{clock, width};
use crate::app::state::State;
use crate::model::diagnosis::images;
use crate::model::{ContainerState, ContainerSummary};

/// Appends the findings about `c` (`finding.container == Some(c.name)`) other than the pod's
/// first finding, which the diagnosis block above always shows: the first under a `Diagnosis`
/// label, each headline wrapped after its marker, its hint `→ …` under it on one line (cut
/// with `…`: the diagnosis block and its expanded view have it whole).
pub fn findings(out: &mut Vec<Line<'static>>, c: &ContainerSummary, state: &State, width: u16) {
    let t = &state.config.theme;
    let cols = usize::from(width);
    let about = state
        .target
        .diagnosis
        .iter()
        .skip(1)
        .filter(|f| f.container.as_deref() == Some(c.name.as_str()));
    for (i, f) in about.enumerate() {
        let label = if i == 0 { "Diagnosis" } else { "" };
        let lead = LABEL_W + 2;
        let mut pieces = width::hanging(&f.headline, cols, lead, lead).into_iter();
        let first = pieces.next().unwrap_or_default();
        out.push(field(
            label,
            vec![
                Span::styled(marker(f.severity), severity_style(f.severity, t)),
                Span::raw(" "),
                Span::raw(first),
            ],
            t.label,
        ));
        for piece in pieces {
            out.push(indented(lead, vec![Span::raw(piece)]));
        }
        if let Some(h) = &f.action {
            let room = cols.saturating_sub(lead + 2).max(1);
            out.push(indented(
                lead,
                vec![
                    Span::styled("→ ", t.key),
                    Span::styled(width::ellipsis(h, room), t.label),
                ],
            ));
        }
    }
}

/// `spans` after `n` spaces.
fn indented(n: usize, spans: Vec<Span<'static>>) -> Line<'static> {
    let mut all = vec![Span::raw(" ".repeat(n))];
    all.extend(spans);
    Line::from(all)
}

/// The answer of the registry, the runtime or the kubelet for a waiting container
/// ([`images::runtime_answer`]: `Failed to pull image "…": rpc error: code = NotFound …`),
/// prefixed by the event's source and age when an event says it (`kubelet 3m ago: …`). `None`
/// when there is none, or when it only repeats the waiting message the detail already shows.
#[must_use]
pub fn runtime_answer(state: &State, c: &ContainerSummary) -> Option<String> {
    let ContainerState::Waiting { message, .. } = &c.state else {
        return None;
    };
    let pod = state.target.pod.as_ref()?;
    let inputs = crate::app::diagnosis::inputs(state, pod);
    let answer = images::runtime_answer(&inputs, c)?;
    let repeated = message
        .as_deref()
        .map(str::trim)
        .is_some_and(|m| !m.is_empty() && answer.contains(m));
    if repeated {
        return None;
    }
    let event = state.target.events.iter().find(|e| e.message == answer);
    let prefix = event.map_or_else(String::new, |e| {
        let source = if e.source.is_empty() {
            "event"
        } else {
            &e.source
        };
        let when = e
            .last_timestamp
            .map_or_else(String::new, |at| format!(" {}", clock::ago(at, state.now)));
        format!("{source}{when}: ")
    });
    Some(format!("{prefix}{answer}"))
}
