//! Reading the table: which action a key has in a mode, and the rows grouped by action for the
//! footer, the help overlay and the overlays' hint lines.

use crossterm::event::{KeyEvent, KeyEventKind};

use super::{Action, Binding, KEYMAP, Mode, When};

/// Resolves a key event against [`KEYMAP`] in the default mode (no log pane); see
/// [`action_in`].
#[must_use]
pub fn action_for(event: &KeyEvent) -> Option<Action> {
    action_in(event, Mode::default())
}

/// Resolves a key event in `mode`: the first row that applies and matches. Only presses (and
/// repeats) count, releases do not.
#[must_use]
pub fn action_in(event: &KeyEvent, mode: Mode) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    KEYMAP
        .iter()
        .find(|b| b.when.applies(mode) && b.key.matches(event))
        .map(|b| b.action)
}

/// Whether row `i` of [`KEYMAP`] is what its key does in `mode` (it applies and no earlier
/// applicable row has the same key).
fn active(i: usize, mode: Mode) -> bool {
    let b = &KEYMAP[i];
    b.when.applies(mode)
        && !KEYMAP[..i]
            .iter()
            .any(|e| e.when.applies(mode) && e.key == b.key)
}

/// The keymap grouped by action, in table order: `(["j", "↓"], "next container")`, for the
/// default mode (no log pane); see [`grouped_in`].
#[must_use]
pub fn grouped(footer_only: bool) -> Vec<(Vec<String>, &'static str)> {
    grouped_in(footer_only, None)
}

/// The keymap grouped by action, in table order. `mode = None` lists every row (the help
/// overlay); `Some(mode)` lists the rows active in it. With `footer_only`, only footer rows,
/// and [`When::LogTools`] rows only while the log pane has focus.
#[must_use]
pub fn grouped_in(footer_only: bool, mode: Option<Mode>) -> Vec<(Vec<String>, &'static str)> {
    grouped_actions(footer_only, mode)
        .into_iter()
        .map(|(_, k, d)| (k, d))
        .collect()
}

/// [`grouped_in`] with each group's action: `(Action::NextContainer, ["j", "↓"], "next
/// container")`.
#[must_use]
pub fn grouped_actions(
    footer_only: bool,
    mode: Option<Mode>,
) -> Vec<(Action, Vec<String>, &'static str)> {
    let mode_or_default = mode.unwrap_or_default();
    let shown = KEYMAP.iter().enumerate().filter(|(i, b)| {
        if footer_only {
            b.in_footer
                && active(*i, mode_or_default)
                && (b.when != When::LogTools || mode_or_default.log_focus)
        } else {
            mode.is_none_or(|m| active(*i, m))
        }
    });
    group(shown.map(|(_, b)| b))
}

/// Rows grouped by action in order of first appearance, each key label listed once.
fn group<'a>(rows: impl Iterator<Item = &'a Binding>) -> Vec<(Action, Vec<String>, &'static str)> {
    let mut groups: Vec<(Action, Vec<String>, &'static str)> = Vec::new();
    for b in rows {
        let label = b.key.label();
        match groups.iter_mut().find(|g| g.0 == b.action) {
            Some(g) if !g.1.contains(&label) => g.1.push(label),
            Some(_) => {}
            None => groups.push((b.action, vec![label], b.description)),
        }
    }
    groups
}

/// The footer rows of one layer of the table (e.g. [`When::ForwardPanel`]) as the one-line hint
/// an overlay shows: `a add a forward  x/Delete remove selected  f/Esc close`.
#[must_use]
pub fn hint_text(when: When) -> String {
    group(KEYMAP.iter().filter(|b| b.when == when && b.in_footer))
        .into_iter()
        .map(|(_, keys, description)| format!("{} {description}", keys.join("/")))
        .collect::<Vec<_>>()
        .join("  ")
}
