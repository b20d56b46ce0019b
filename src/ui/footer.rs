//! The footer: key hints generated from the keymap table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::keymap;
use crate::app::state::State;

/// What a key RBAC refuses says after its description (`e shell (forbidden)`, dimmed whole;
/// `app::access`).
pub const FORBIDDEN: &str = " (forbidden)";

/// Rows the footer wants at `width` columns: one for the key hints, the status line wrapped
/// (a failed shell's whole error).
#[must_use]
pub fn wanted(state: &State, width: u16) -> u16 {
    match &state.target.logs.status {
        Some(status) => u16::try_from(status_paragraph(status, state).line_count(width.max(1)))
            .unwrap_or(u16::MAX)
            .max(1),
        None => 1,
    }
}

/// The status line, wrapped at words.
fn status_paragraph(status: &str, state: &State) -> Paragraph<'static> {
    Paragraph::new(Span::styled(status.to_owned(), state.config.theme.notice))
        .wrap(Wrap { trim: true })
}

/// Draws `j/↓ next container  k/↑ previous container  l logs  e shell  …  ? help  q quit` (the
/// rows active in the current mode: the port-forward panel's or the pod switcher's keys while one is open),
/// or the log pane's status line (saved file, no match, how a shell ended) when there is one,
/// wrapped onto the rows the layout gave it. A key the access reviews refused (`e`, `d`, `f`:
/// `app::access::refused`) is drawn dimmed, key included, with [`FORBIDDEN`] after it.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.config.theme;
    if let Some(status) = &state.target.logs.status {
        frame.render_widget(status_paragraph(status, state), area);
        return;
    }
    let mode = state.key_mode();
    let mut groups = keymap::grouped_actions(true, Some(mode));
    // The open switcher reads `q` as filter text (`app::switcher::reads_key`): no `q quit`.
    if mode.switcher {
        groups.retain(|(a, _, _)| *a != keymap::Action::Quit);
    }
    // A workload with no pod yet: the pod's keys would do nothing, only help and quit stay.
    if state.workload.is_some() && state.target.name.is_empty() && !mode.switcher {
        groups.retain(|(a, _, _)| matches!(a, keymap::Action::ToggleHelp | keymap::Action::Quit));
    }
    let refused = |a: keymap::Action| crate::app::access::refused(state, a);
    let width = |g: &[(keymap::Action, Vec<String>, &str)]| -> usize {
        g.iter()
            .map(|(a, k, d)| {
                let suffix = if refused(*a) { FORBIDDEN.len() } else { 0 };
                super::width::cells(&k.join("/")) + 1 + super::width::cells(d) + suffix + 2
            })
            .sum()
    };
    // Too narrow: first drop the container moves (the arrow keys are guessable), then the YAML
    // and describe views (help lists them), then `Enter diagnosis` (the diagnosis block's title
    // says it), then hints from the middle (the front
    // while the log pane has focus), never `? help` and `q quit` (the table's last two), and
    // last of all the keys of the focused events pane or of the expanded diagnosis and `P
    // switch pod` (the one way to another pod: nothing else on screen says it).
    let fits = |g: &[(keymap::Action, Vec<String>, &str)]| width(g) <= usize::from(area.width) + 2;
    for drop in [
        &[keymap::Action::NextContainer, keymap::Action::PrevContainer][..],
        &[keymap::Action::OpenYaml, keymap::Action::OpenDescribe][..],
        &[keymap::Action::ExpandDiagnosis][..],
    ] {
        if !fits(&groups) {
            groups.retain(|(a, _, _)| !drop.contains(a));
        }
    }
    // With the log pane focused its own keys matter most: drop from the front instead.
    while groups.len() > 2 && !fits(&groups) {
        let end = groups.len() - 2;
        let droppable = |g: &(keymap::Action, Vec<String>, &str)| !kept_longest(g.0);
        let at = if mode.log_focus {
            groups[..end].iter().position(droppable)
        } else {
            groups[..end].iter().rposition(droppable)
        };
        groups.remove(at.unwrap_or(end - 1));
    }
    let mut spans = Vec::new();
    for (action, keys, description) in groups {
        if !spans.is_empty() {
            spans.push(Span::raw("  "));
        }
        if refused(action) {
            let greyed = t.dim.add_modifier(ratatui::style::Modifier::DIM);
            spans.push(Span::styled(keys.join("/"), greyed));
            spans.push(Span::styled(format!(" {description}{FORBIDDEN}"), greyed));
        } else {
            spans.push(Span::styled(keys.join("/"), t.key));
            spans.push(Span::styled(format!(" {description}"), t.dim));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// Keys of the focused events pane and of the expanded diagnosis, and the pod switcher's `P`:
/// kept in the footer longest.
fn kept_longest(action: keymap::Action) -> bool {
    use keymap::Action as A;
    matches!(
        action,
        A::EventNext
            | A::EventPrev
            | A::FocusContainers
            | A::DiagnosisUp
            | A::DiagnosisDown
            | A::CloseDiagnosis
            | A::OpenSwitcher
    )
}
