//! One key of the keymap: a code plus required modifiers, how it is labelled, and whether a
//! terminal key event is that key.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// One key: a code plus the modifiers that must be held (Shift is ignored for characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// The key code.
    pub code: KeyCode,
    /// Required modifiers (`NONE` or `CONTROL`).
    pub modifiers: KeyModifiers,
}

impl Key {
    /// `code` with no modifier.
    #[must_use]
    pub const fn plain(code: KeyCode) -> Self {
        Self {
            code,
            modifiers: KeyModifiers::NONE,
        }
    }

    /// Control plus the character `c` (`Ctrl-C`).
    #[must_use]
    pub const fn ctrl(c: char) -> Self {
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
            KeyCode::Char(c) if c != ' ' => c.to_string(),
            KeyCode::Up => "↑".to_owned(),
            KeyCode::Down => "↓".to_owned(),
            KeyCode::Home => "Home".to_owned(),
            KeyCode::End => "End".to_owned(),
            KeyCode::Esc => "Esc".to_owned(),
            KeyCode::Tab => "Tab".to_owned(),
            KeyCode::PageUp => "PgUp".to_owned(),
            KeyCode::PageDown => "PgDn".to_owned(),
            KeyCode::Char(' ') => "space".to_owned(),
            other => format!("{other:?}"),
        }
    }

    /// Whether `event` is this key: the same code, Control held exactly when required, no Alt.
    #[must_use]
    pub fn matches(&self, event: &KeyEvent) -> bool {
        let wanted_ctrl = self.modifiers.contains(KeyModifiers::CONTROL);
        let has_ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        let has_alt = event.modifiers.contains(KeyModifiers::ALT);
        self.code == event.code && wanted_ctrl == has_ctrl && !has_alt
    }
}
