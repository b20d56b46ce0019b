//! `Theme`: every style the view uses, chosen once at start (colour, or monochrome under
//! `NO_COLOR` or `TERM=dumb`).
//!
//! The view never reads the environment; `main` calls [`Theme::from_env`] and stores the result
//! in `app::Config`. Pure data (ratatui styles), outside `ui` so the core may hold it without
//! depending on the view; `ui::theme` re-exports it. Monochrome keeps meaning through bold /
//! reversed / underline (no-color.org).
//!
//! The colour theme must read on dark and on light backgrounds alike: plain text and labels use
//! the terminal's own foreground (with bold or dim), colours are red, green, blue, magenta and
//! cyan only, and no foreground is grey, white or yellow (ANSI 7, 8, 15, 3, 11: close to
//! invisible on a light background, or on a dark one for black). [`Theme::unreadable`] names
//! the excluded foregrounds for tests.

use ratatui::style::{Color, Modifier, Style};

/// Styles for each role in the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Whether colours are used (false under `NO_COLOR`).
    pub color: bool,
    /// Section titles and the pod name.
    pub title: Style,
    /// Field labels (`Image`, `READY`).
    pub label: Style,
    /// Secondary text (ages, images, hints).
    pub dim: Style,
    /// Healthy values (Running, ready, True, live).
    pub ok: Style,
    /// Values that need attention (Waiting, reconnecting, Warning events, countdown).
    pub warn: Style,
    /// Failures (CrashLoopBackOff, OOMKilled, non-zero exit, deleted).
    pub error: Style,
    /// The selected container's name in the list (the row also gets a `▶` marker).
    pub selected: Style,
    /// The one-line notice (pod recreated) and the status line.
    pub notice: Style,
    /// The back-off gauge's filled part.
    pub gauge: Style,
    /// Key names in the footer and help.
    pub key: Style,
}

impl Theme {
    /// The colour theme (16 ANSI colours only, so it follows the terminal's palette), readable
    /// on dark and light backgrounds: labels in the default foreground, bold; secondary text
    /// dimmed; attention in magenta; reversed blocks for the selection and the notice (their
    /// text takes the terminal's background colour).
    #[must_use]
    pub fn colored() -> Self {
        Self {
            color: true,
            title: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            label: Style::new().add_modifier(Modifier::BOLD),
            dim: Style::new().add_modifier(Modifier::DIM),
            ok: Style::new().fg(Color::Green),
            warn: Style::new().fg(Color::Magenta),
            error: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            selected: Style::new()
                .fg(Color::Cyan)
                .add_modifier(Modifier::REVERSED | Modifier::BOLD),
            notice: Style::new()
                .fg(Color::Magenta)
                .add_modifier(Modifier::REVERSED | Modifier::BOLD),
            gauge: Style::new().fg(Color::Magenta),
            key: Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
        }
    }

    /// Foregrounds the colour theme never uses: grey and white (ANSI 7, 8, 15) and yellow
    /// (ANSI 3, 11), unreadable on one of the two usual backgrounds.
    #[must_use]
    pub fn unreadable(color: Color) -> bool {
        matches!(
            color,
            Color::Gray | Color::DarkGray | Color::White | Color::Yellow | Color::LightYellow
        )
    }

    /// The monochrome theme for `NO_COLOR`: modifiers only, no foreground or background colours.
    #[must_use]
    pub fn monochrome() -> Self {
        let plain = Style::new();
        Self {
            color: false,
            title: plain.add_modifier(Modifier::BOLD),
            label: plain,
            dim: plain,
            ok: plain,
            warn: plain.add_modifier(Modifier::BOLD),
            error: plain.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            selected: plain.add_modifier(Modifier::REVERSED | Modifier::BOLD),
            notice: plain.add_modifier(Modifier::REVERSED),
            gauge: plain.add_modifier(Modifier::BOLD),
            key: plain.add_modifier(Modifier::BOLD),
        }
    }

    /// Picks the theme from the value of `NO_COLOR`: present and non-empty means monochrome
    /// (no-color.org). Pure, for tests; see [`Theme::from_env`].
    #[must_use]
    pub fn for_no_color(no_color: Option<&std::ffi::OsStr>) -> Self {
        match no_color {
            Some(v) if !v.is_empty() => Self::monochrome(),
            _ => Self::colored(),
        }
    }

    /// Picks the theme from `NO_COLOR` and `TERM`: monochrome when `NO_COLOR` is set and
    /// non-empty (no-color.org) or `TERM` is `dumb` (a terminal that declares no capabilities,
    /// e.g. Emacs' shell buffer), colour otherwise. Pure, for tests; see [`Theme::from_env`].
    #[must_use]
    pub fn for_env(no_color: Option<&std::ffi::OsStr>, term: Option<&std::ffi::OsStr>) -> Self {
        if term.is_some_and(|t| t == "dumb") {
            return Self::monochrome();
        }
        Self::for_no_color(no_color)
    }

    /// Reads `NO_COLOR` and `TERM` once; call at start (from `main`), never from the view.
    #[must_use]
    pub fn from_env() -> Self {
        Self::for_env(
            std::env::var_os("NO_COLOR").as_deref(),
            std::env::var_os("TERM").as_deref(),
        )
    }
}

impl Default for Theme {
    fn default() -> Self {
        Self::colored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn no_color_and_dumb_terminals_get_the_monochrome_theme() {
        let pick = |n: Option<&str>, t: Option<&str>| {
            Theme::for_env(n.map(OsStr::new), t.map(OsStr::new)).color
        };
        assert!(pick(None, Some("xterm-256color")));
        assert!(pick(Some(""), Some("xterm")));
        assert!(pick(None, None));
        assert!(!pick(Some("1"), Some("xterm")));
        assert!(!pick(None, Some("dumb")));
        assert!(!pick(Some(""), Some("dumb")));
    }

    #[test]
    fn the_colour_theme_sets_no_unreadable_foreground() {
        let t = Theme::colored();
        for (name, s) in [
            ("title", t.title),
            ("label", t.label),
            ("dim", t.dim),
            ("ok", t.ok),
            ("warn", t.warn),
            ("error", t.error),
            ("selected", t.selected),
            ("notice", t.notice),
            ("gauge", t.gauge),
            ("key", t.key),
        ] {
            assert!(!s.fg.is_some_and(Theme::unreadable), "{name}: {s:?}");
            assert!(!s.bg.is_some_and(Theme::unreadable), "{name}: {s:?}");
        }
    }
}
