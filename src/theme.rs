//! `Theme`: every style the view uses, chosen once at start (colour, or `NO_COLOR` monochrome).
//!
//! The view never reads the environment; `main` calls [`Theme::from_env`] and stores the result
//! in `app::Config`. Pure data (ratatui styles), outside `ui` so the core may hold it without
//! depending on the view; `ui::theme` re-exports it. Monochrome keeps meaning through bold /
//! reversed / underline (no-color.org).

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
    /// The colour theme (16 ANSI colours only, so it follows the terminal's palette).
    #[must_use]
    pub fn colored() -> Self {
        Self {
            color: true,
            title: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            label: Style::new().fg(Color::Gray),
            dim: Style::new().fg(Color::DarkGray),
            ok: Style::new().fg(Color::Green),
            warn: Style::new().fg(Color::Yellow),
            error: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            selected: Style::new()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            notice: Style::new().fg(Color::Black).bg(Color::Yellow),
            gauge: Style::new().fg(Color::Yellow),
            key: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
        }
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

    /// Reads `NO_COLOR` once; call at start (from `main`), never from the view.
    #[must_use]
    pub fn from_env() -> Self {
        Self::for_no_color(std::env::var_os("NO_COLOR").as_deref())
    }
}

impl Default for Theme {
    fn default() -> Self {
        Self::colored()
    }
}
