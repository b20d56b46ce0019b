//! Keys are data: one table of `(key, action, description)` rows drives `update`, the footer and
//! the help overlay, so they cannot drift apart (style.md Part 2, rule 13).
//!
//! Rows can apply only in a mode ([`When`]): while the log pane is shown, or while it has focus.
//! The first applicable row for a key wins, so the log-focus rows (↑/↓/j/k scroll, g/G top and
//! bottom) come first and shadow the container rows only while the log pane has focus.

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
    /// Show the log pane (and focus it), or hide it.
    ToggleLogs,
    /// Move the focus between the container list and the log pane.
    SwitchFocus,
    /// Logs: the previous instance of the container, or back to the current one.
    LogPrevious,
    /// Logs: keep the newest line in view as lines arrive (on/off).
    LogFollow,
    /// Logs: every container interleaved by timestamp, or only the selected one.
    LogAll,
    /// Logs: show or hide the kubelet's timestamps.
    LogTimestamps,
    /// Logs: wrap long lines, or cut them at the pane's width.
    LogWrap,
    /// Logs: type a search text (Enter to search, Esc to cancel).
    LogSearch,
    /// Logs: the next match of the search.
    LogNextMatch,
    /// Logs: the previous match of the search.
    LogPrevMatch,
    /// Logs: type a filter; only lines containing it are shown (empty Enter clears it).
    LogFilter,
    /// Logs: weave pod events into the log as marked lines (on/off).
    LogEvents,
    /// Logs: write the loaded lines to `podscope-<pod>-<container>-<time>.log`.
    LogSave,
    /// Logs: scroll one line up (towards older lines).
    LogUp,
    /// Logs: scroll one line down.
    LogDown,
    /// Logs: scroll one page up.
    LogPageUp,
    /// Logs: scroll one page down.
    LogPageDown,
    /// Logs: jump to the oldest loaded line.
    LogTop,
    /// Logs: jump to the newest line (and follow).
    LogBottom,
    /// Open an interactive shell (`bash`, else `sh`, or `--shell`) in the selected container.
    OpenShell,
    /// Add an ephemeral debug container (busybox) targeting the selected container and attach.
    AddDebug,
    /// Show or hide the port-forward panel.
    ToggleForwards,
    /// Open the pod switcher (demo only).
    OpenSwitcher,
    /// Help overlay: scroll one line up.
    HelpUp,
    /// Help overlay: scroll one line down.
    HelpDown,
    /// Help overlay: scroll one page up.
    HelpPageUp,
    /// Help overlay: scroll one page down.
    HelpPageDown,
}

/// When a row applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum When {
    /// In every mode.
    Always,
    /// While the log pane is shown.
    LogPane,
    /// While the log pane is shown; listed in the footer only while it has focus (room).
    LogTools,
    /// While the log pane has focus.
    LogFocus,
    /// When the session can switch pods (the demo's in-process cluster only).
    CanSwitch,
    /// While the help overlay is open (its scroll keys shadow the others).
    Help,
}

/// The mode keys are resolved in, derived from the state by `update`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mode {
    /// The log pane is shown.
    pub log_pane: bool,
    /// The log pane has focus (implies `log_pane`).
    pub log_focus: bool,
    /// The pod switcher is available (demo).
    pub can_switch: bool,
    /// The help overlay is open.
    pub help: bool,
}

impl When {
    fn applies(self, mode: Mode) -> bool {
        match self {
            When::Always => true,
            When::LogPane | When::LogTools => mode.log_pane,
            When::LogFocus => mode.log_focus,
            When::CanSwitch => mode.can_switch,
            When::Help => mode.help,
        }
    }
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
    /// The mode the row applies in.
    pub when: When,
}

const fn row(key: Key, action: Action, description: &'static str, in_footer: bool) -> Binding {
    row_in(When::Always, key, action, description, in_footer)
}

const fn row_in(
    when: When,
    key: Key,
    action: Action,
    description: &'static str,
    in_footer: bool,
) -> Binding {
    Binding {
        key,
        action,
        description,
        in_footer,
        when,
    }
}

const fn ch(c: char) -> Key {
    Key::plain(KeyCode::Char(c))
}

/// The default keymap. Rows with the same action are shown together (`j/↓ next container`).
pub const KEYMAP: &[Binding] = &[
    row_in(
        When::Help,
        Key::plain(KeyCode::Down),
        Action::HelpDown,
        "scroll help down",
        false,
    ),
    row_in(
        When::Help,
        ch('j'),
        Action::HelpDown,
        "scroll help down",
        false,
    ),
    row_in(
        When::Help,
        Key::plain(KeyCode::Up),
        Action::HelpUp,
        "scroll help up",
        false,
    ),
    row_in(When::Help, ch('k'), Action::HelpUp, "scroll help up", false),
    row_in(
        When::Help,
        Key::plain(KeyCode::PageDown),
        Action::HelpPageDown,
        "help page down",
        false,
    ),
    row_in(
        When::Help,
        Key::plain(KeyCode::PageUp),
        Action::HelpPageUp,
        "help page up",
        false,
    ),
    row_in(
        When::LogFocus,
        Key::plain(KeyCode::Up),
        Action::LogUp,
        "scroll up",
        false,
    ),
    row_in(When::LogFocus, ch('k'), Action::LogUp, "scroll up", false),
    row_in(
        When::LogFocus,
        Key::plain(KeyCode::Down),
        Action::LogDown,
        "scroll down",
        false,
    ),
    row_in(
        When::LogFocus,
        ch('j'),
        Action::LogDown,
        "scroll down",
        false,
    ),
    row_in(
        When::LogFocus,
        ch('g'),
        Action::LogTop,
        "oldest line",
        false,
    ),
    row_in(
        When::LogFocus,
        Key::plain(KeyCode::Home),
        Action::LogTop,
        "oldest line",
        false,
    ),
    row_in(
        When::LogFocus,
        ch('G'),
        Action::LogBottom,
        "newest line",
        false,
    ),
    row_in(
        When::LogFocus,
        Key::plain(KeyCode::End),
        Action::LogBottom,
        "newest line",
        false,
    ),
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
    row(ch('l'), Action::ToggleLogs, "logs", true),
    row(ch('e'), Action::OpenShell, "shell", false),
    row(ch('d'), Action::AddDebug, "debug container", false),
    row(ch('f'), Action::ToggleForwards, "port-forwards", false),
    row_in(
        When::CanSwitch,
        ch('P'),
        Action::OpenSwitcher,
        "switch pod",
        true,
    ),
    row_in(
        When::CanSwitch,
        ch('o'),
        Action::OpenSwitcher,
        "switch pod",
        false,
    ),
    row_in(
        When::LogPane,
        Key::plain(KeyCode::Tab),
        Action::SwitchFocus,
        "focus",
        true,
    ),
    row_in(
        When::LogTools,
        Key::plain(KeyCode::PageUp),
        Action::LogPageUp,
        "page up",
        false,
    ),
    row_in(
        When::LogTools,
        Key::plain(KeyCode::PageDown),
        Action::LogPageDown,
        "page down",
        false,
    ),
    row_in(
        When::LogTools,
        ch('p'),
        Action::LogPrevious,
        "previous run",
        true,
    ),
    row_in(When::LogTools, ch('F'), Action::LogFollow, "follow", true),
    row_in(When::LogTools, ch(' '), Action::LogFollow, "follow", false),
    row_in(
        When::LogTools,
        ch('a'),
        Action::LogAll,
        "all containers",
        false,
    ),
    row_in(
        When::LogTools,
        ch('t'),
        Action::LogTimestamps,
        "timestamps",
        false,
    ),
    row_in(When::LogTools, ch('w'), Action::LogWrap, "wrap", false),
    row_in(When::LogTools, ch('/'), Action::LogSearch, "search", true),
    row_in(
        When::LogTools,
        ch('n'),
        Action::LogNextMatch,
        "next match",
        false,
    ),
    row_in(
        When::LogTools,
        ch('N'),
        Action::LogPrevMatch,
        "previous match",
        false,
    ),
    row_in(When::LogTools, ch('&'), Action::LogFilter, "filter", true),
    row_in(
        When::LogTools,
        ch('E'),
        Action::LogEvents,
        "events inline",
        false,
    ),
    row_in(
        When::LogTools,
        ch('s'),
        Action::LogSave,
        "save to file",
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
    let mut groups: Vec<(Action, Vec<String>, &'static str)> = Vec::new();
    for (i, b) in KEYMAP.iter().enumerate() {
        let shown = if footer_only {
            b.in_footer
                && active(i, mode_or_default)
                && (b.when != When::LogTools || mode_or_default.log_focus)
        } else {
            mode.is_none_or(|m| active(i, m))
        };
        if !shown {
            continue;
        }
        if let Some(g) = groups.iter_mut().find(|g| g.0 == b.action) {
            g.1.push(b.key.label());
        } else {
            groups.push((b.action, vec![b.key.label()], b.description));
        }
    }
    groups
}
