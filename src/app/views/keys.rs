//! What the keys do while a text view is open (`docs/views.md` §3): scroll by a line, a page or
//! to the ends, `/` types a search (Enter finds it, Esc cancels), `n`/`N` the next and previous
//! match, `m` shows or hides `managedFields` (YAML), `s` saves the text to `<pod>.yaml` (or
//! `<pod>.describe.txt`) in `Config::save_dir` (the loop writes it, `Cmd::SaveLogs`; the result
//! is the status line, as for the log pane), `Esc`/`q` closes.

use crossterm::event::{KeyEvent, KeyEventKind};

use super::{TextView, ViewKind, page};
use crate::app::Cmd;
use crate::app::keymap::Action;
use crate::app::prompt::{Outcome, Prompt};
use crate::app::state::{Overlay, State};

/// `y` / `D`: opens the view of `kind` over the pod (replacing any other overlay).
pub fn open(state: &mut State, kind: ViewKind) {
    state.overlay = Overlay::View(Box::new(TextView::open(kind, state)));
    state.dirty = true;
}

/// A key while the search is typed: the prompt edits; Enter searches and moves to the first
/// match at or after the scroll (the status line says when nothing matches); Esc cancels.
pub fn input_key(state: &mut State, key: &KeyEvent) -> Vec<Cmd> {
    if key.kind == KeyEventKind::Release {
        return Vec::new();
    }
    let page = page(state);
    let Overlay::View(view) = &mut state.overlay else {
        return Vec::new();
    };
    let Some(input) = view.input.as_mut() else {
        return Vec::new();
    };
    state.dirty = true;
    match input.key(key) {
        Outcome::Editing => {}
        Outcome::Cancelled => view.input = None,
        Outcome::Accepted(text) => {
            view.input = None;
            view.query = (!text.is_empty()).then_some(text.clone());
            view.current = None;
            view.find_matches();
            match view.current.and_then(|i| view.matches.get(i)) {
                Some(&line) => view.scroll = line.min(view.max_scroll(page)),
                None if !text.is_empty() => {
                    state.target.logs.status = Some(format!(
                        "no match for \"{}\"",
                        crate::model::sanitize::sanitize(&text)
                    ));
                }
                None => {}
            }
        }
    }
    Vec::new()
}

/// Applies a view action (see [`crate::app::keymap::KEYMAP`]); `OpenYaml`/`OpenDescribe`
/// open one.
pub fn apply(state: &mut State, action: Action) -> Vec<Cmd> {
    match action {
        Action::OpenYaml => {
            open(state, ViewKind::Yaml);
            return Vec::new();
        }
        Action::OpenDescribe => {
            open(state, ViewKind::Describe);
            return Vec::new();
        }
        Action::OpenTimeline => {
            open(state, ViewKind::Timeline);
            return Vec::new();
        }
        Action::CloseView => {
            state.overlay = Overlay::None;
            state.dirty = true;
            return Vec::new();
        }
        Action::ViewSave => return save(state),
        Action::ViewCopy => return copy(state),
        Action::ViewManagedFields => {
            if let Overlay::View(view) = &mut state.overlay
                && view.kind == ViewKind::Yaml
            {
                view.managed_fields = !view.managed_fields;
            }
            super::refresh(state);
            return Vec::new();
        }
        _ => {}
    }
    let page = page(state);
    let Overlay::View(view) = &mut state.overlay else {
        return Vec::new();
    };
    let before = (**view).clone();
    let max = view.max_scroll(page);
    match action {
        Action::ViewDown => view.scroll = (view.scroll + 1).min(max),
        Action::ViewUp => view.scroll = view.scroll.saturating_sub(1),
        Action::ViewPageDown => view.scroll = (view.scroll + page).min(max),
        Action::ViewPageUp => view.scroll = view.scroll.saturating_sub(page),
        Action::ViewTop => view.scroll = 0,
        Action::ViewBottom => view.scroll = max,
        Action::ViewSearch => view.input = Some(Prompt::default()),
        Action::ViewNextMatch | Action::ViewPrevMatch if !view.matches.is_empty() => {
            let n = view.matches.len();
            let next = match (view.current, action == Action::ViewNextMatch) {
                (None, _) => 0,
                (Some(i), true) => (i + 1) % n,
                (Some(i), false) => (i + n - 1) % n,
            };
            view.current = Some(next);
            view.scroll = view.matches[next].min(max);
        }
        _ => {}
    }
    state.dirty |= super::open_view(state) != Some(&before);
    Vec::new()
}

/// `s`: the view's real text to `<pod>.yaml` / `<pod>.describe.txt`.
fn save(state: &mut State) -> Vec<Cmd> {
    let Some(view) = super::open_view(state) else {
        return Vec::new();
    };
    if view.text.is_empty() {
        state.target.logs.status = Some("nothing to save yet".to_owned());
        state.dirty = true;
        return Vec::new();
    }
    let safe = state.target.name.replace(['/', '\\'], "_");
    let name = match view.kind {
        ViewKind::Yaml => format!("{safe}.yaml"),
        ViewKind::Describe => format!("{safe}.describe.txt"),
        ViewKind::Timeline => format!("{safe}.timeline.txt"),
    };
    let path = match &state.config.save_dir {
        Some(dir) => dir.join(&name).display().to_string(),
        None => name,
    };
    vec![Cmd::SaveLogs {
        path,
        contents: view.text.clone(),
    }]
}

/// The most a copy sends, in bytes of text (under 100 kB once base64-encoded): some terminals
/// cap an OSC 52 sequence and drop a larger one whole, without a word.
pub const COPY_MAX: usize = 74_000;

/// `C`: the view's lines (as shown: sanitised) to the clipboard through OSC 52; the status line
/// says how much, or why not (too large: `s` saves it instead).
fn copy(state: &mut State) -> Vec<Cmd> {
    let Some(view) = super::open_view(state) else {
        return Vec::new();
    };
    let text = view.lines.join("\n");
    let lines = view.lines.len();
    let (status, cmds) = if text.len() > COPY_MAX {
        (
            format!(
                "too large for the clipboard: {} bytes (OSC 52 carries {COPY_MAX}); s saves it to a file",
                text.len()
            ),
            Vec::new(),
        )
    } else {
        (
            format!("copied {lines} lines to the clipboard (OSC 52; in tmux: set-clipboard on)"),
            vec![Cmd::Copy { text }],
        )
    };
    state.target.logs.status = Some(status);
    state.dirty = true;
    cmds
}
