//! Keys are data: one table of `(key, action, description)` rows drives `update`, the footer and
//! the help overlay, so they cannot drift apart (style.md Part 2, rule 13).

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// A user intent, resolved from a key by [`action_for`] inside `update`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Leave podscope (`q`, Ctrl-C).
    Quit,
    /// Select the next container in kubelet order.
    NextContainer,
    /// Select the previous container in kubelet order.
    PrevContainer,
    /// Select the first container.
    FirstContainer,
    /// Select the last container.
    LastContainer,
    /// Show or hide the help overlay.
    ToggleHelp,
    /// Hide the help overlay.
    CloseHelp,
}

/// One key: a code plus the modifiers that must be held (Shift is ignored for characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// The key code.
    pub code: KeyCode,
    /// Required modifiers (`NONE` or `CONTROL`).
    pub modifiers: KeyModifiers,
}

impl Key {
    const fn plain(code: KeyCode) -> Self {
        Self {
            code,
            modifiers: KeyModifiers::NONE,
        }
    }

    const fn ctrl(c: char) -> Self {
        Self {
            code: KeyCode::Char(c),
            modifiers: KeyModifiers::CONTROL,
        }
    }

    /// The key as shown in the footer and the help overlay, e.g. `q`, `↓`, `Ctrl-C`.
    #[must_use]
    pub fn label(&self) -> String {
        match self.code {
            KeyCode::Char(c) if self.modifiers.contains(KeyModifiers::CONTROL) => {
                format!("Ctrl-{}", c.to_ascii_uppercase())
            }
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Up => "↑".to_owned(),
            KeyCode::Down => "↓".to_owned(),
            KeyCode::Home => "Home".to_owned(),
            KeyCode::End => "End".to_owned(),
            KeyCode::Esc => "Esc".to_owned(),
            other => format!("{other:?}"),
        }
    }

    fn matches(&self, event: &KeyEvent) -> bool {
        let wanted_ctrl = self.modifiers.contains(KeyModifiers::CONTROL);
        let has_ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        let has_alt = event.modifiers.contains(KeyModifiers::ALT);
        self.code == event.code && wanted_ctrl == has_ctrl && !has_alt
    }
}

/// One row of the keymap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    /// The key.
    pub key: Key,
    /// What it does.
    pub action: Action,
    /// Short description for the footer and help (lower case, no full stop).
    pub description: &'static str,
    /// Whether the footer shows this row (help shows every row).
    pub in_footer: bool,
}

const fn row(key: Key, action: Action, description: &'static str, in_footer: bool) -> Binding {
    Binding {
        key,
        action,
        description,
        in_footer,
    }
}

/// The default keymap. Rows with the same action are shown together (`j/↓ next container`).
pub const KEYMAP: &[Binding] = &[
    row(
        Key::plain(KeyCode::Char('j')),
        Action::NextContainer,
        "next container",
        true,
    ),
    row(
        Key::plain(KeyCode::Down),
        Action::NextContainer,
        "next container",
        true,
    ),
    row(
        Key::plain(KeyCode::Char('k')),
        Action::PrevContainer,
        "previous container",
        true,
    ),
    row(
        Key::plain(KeyCode::Up),
        Action::PrevContainer,
        "previous container",
        true,
    ),
    row(
        Key::plain(KeyCode::Char('g')),
        Action::FirstContainer,
        "first container",
        false,
    ),
    row(
        Key::plain(KeyCode::Home),
        Action::FirstContainer,
        "first container",
        false,
    ),
    row(
        Key::plain(KeyCode::Char('G')),
        Action::LastContainer,
        "last container",
        false,
    ),
    row(
        Key::plain(KeyCode::End),
        Action::LastContainer,
        "last container",
        false,
    ),
    row(
        Key::plain(KeyCode::Char('?')),
        Action::ToggleHelp,
        "help",
        true,
    ),
    row(
        Key::plain(KeyCode::Esc),
        Action::CloseHelp,
        "close help",
        false,
    ),
    row(Key::plain(KeyCode::Char('q')), Action::Quit, "quit", true),
    row(Key::ctrl('c'), Action::Quit, "quit", false),
];

/// Resolves a key event against [`KEYMAP`]; only presses (and repeats) count, releases do not.
#[must_use]
pub fn action_for(event: &KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    KEYMAP
        .iter()
        .find(|b| b.key.matches(event))
        .map(|b| b.action)
}

/// The keymap grouped by action, in table order: `(["j", "↓"], "next container", in_footer)`.
/// A group is in the footer when any of its rows is; only those rows' keys are listed there.
#[must_use]
pub fn grouped(footer_only: bool) -> Vec<(Vec<String>, &'static str)> {
    let mut groups: Vec<(Action, Vec<String>, &'static str)> = Vec::new();
    for b in KEYMAP.iter().filter(|b| b.in_footer || !footer_only) {
        if let Some(g) = groups.iter_mut().find(|g| g.0 == b.action) {
            g.1.push(b.key.label());
        } else {
            groups.push((b.action, vec![b.key.label()], b.description));
        }
    }
    groups.into_iter().map(|(_, k, d)| (k, d)).collect()
}
