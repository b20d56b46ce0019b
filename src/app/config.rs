//! `Config`: what the command line and environment chose at start. Never changed by `update`,
//! and kept as it is across pod switches and re-created pods.

use crate::theme::Theme;

/// The session's settings (`--shell`/`PODSCOPE_SHELL`, `-c`, `--log-lines`, `NO_COLOR`, the
/// pod picker's reach).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Styles chosen at start (colour or `NO_COLOR`).
    pub theme: Theme,
    /// The shells `e` tries, in order, each a command line (`app::shell::shells`: `--shell`,
    /// else `bash` then `sh`).
    pub shells: Vec<String>,
    /// Lines the log pane keeps (`--log-lines`).
    pub log_lines: usize,
    /// The container named by `-c`: selected when a pod is first seen, if it has it.
    pub preferred_container: Option<String>,
    /// Whether the session can switch pods (`P`/`o`, the pod picker): true in the TUI
    /// (`podscope attach`, `podscope demo`); off in [`Config::new`]'s defaults.
    pub can_switch: bool,
    /// Whether the picker lists every namespace's pods (`-A`, and the demo, whose cases live
    /// in namespaces of their own) rather than the shown pod's namespace.
    pub all_namespaces: bool,
    /// Where `s` writes the log pane's file: the directory podscope was started in, made
    /// absolute at start so the status line can say where the file went (`None`: relative).
    pub save_dir: Option<std::path::PathBuf>,
}

impl Config {
    /// The defaults with `theme`: `bash` then `sh`, the default log capacity, no `-c`, no
    /// switching, the picker in one namespace.
    #[must_use]
    pub fn new(theme: Theme) -> Config {
        Config {
            theme,
            shells: crate::app::shell::shells(None),
            log_lines: crate::model::log::DEFAULT_LOG_LINES,
            preferred_container: None,
            can_switch: false,
            all_namespaces: false,
            save_dir: None,
        }
    }
}
