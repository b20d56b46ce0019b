//! The default keymap: one row per key, in precedence order (the first row that applies to a
//! key wins), grouped by mode: the modal overlays first, then help, the expanded diagnosis and
//! the focused events or log pane, quit last. Edit here to change a key; the footer and the help overlay follow.

use crossterm::event::KeyCode as K;

use super::{Action as A, Binding, Key, When as W};

/// The row is listed in the footer (when active) and in the help overlay.
const FOOTER: bool = true;
/// The row is listed in the help overlay only.
const HELP_ONLY: bool = false;

const fn b(when: W, key: Key, action: A, description: &'static str, in_footer: bool) -> Binding {
    Binding {
        key,
        action,
        description,
        in_footer,
        when,
    }
}

const fn k(code: K) -> Key {
    Key::plain(code)
}

const fn ch(c: char) -> Key {
    Key::plain(K::Char(c))
}

const fn ctrl(c: char) -> Key {
    Key::ctrl(c)
}

/// The default keymap. Rows with the same action are shown together (`j/↓ next container`).
#[rustfmt::skip]
pub const KEYMAP: &[Binding] = &[
    b(W::View,         k(K::Down),     A::ViewDown,         "scroll down",        HELP_ONLY),
    b(W::View,         ch('j'),        A::ViewDown,         "scroll down",        HELP_ONLY),
    b(W::View,         k(K::Up),       A::ViewUp,           "scroll up",          HELP_ONLY),
    b(W::View,         ch('k'),        A::ViewUp,           "scroll up",          HELP_ONLY),
    b(W::View,         k(K::PageDown), A::ViewPageDown,     "page down",          HELP_ONLY),
    b(W::View,         ch(' '),        A::ViewPageDown,     "page down",          HELP_ONLY),
    b(W::View,         k(K::PageUp),   A::ViewPageUp,       "page up",            HELP_ONLY),
    b(W::View,         ch('g'),        A::ViewTop,          "top",                HELP_ONLY),
    b(W::View,         k(K::Home),     A::ViewTop,          "top",                HELP_ONLY),
    b(W::View,         ch('G'),        A::ViewBottom,       "bottom",             HELP_ONLY),
    b(W::View,         k(K::End),      A::ViewBottom,       "bottom",             HELP_ONLY),
    b(W::View,         ch('/'),        A::ViewSearch,       "search",             FOOTER),
    b(W::View,         ch('n'),        A::ViewNextMatch,    "next match",         FOOTER),
    b(W::View,         ch('N'),        A::ViewPrevMatch,    "previous match",     HELP_ONLY),
    b(W::YamlView,     ch('m'),        A::ViewManagedFields, "managedFields",     FOOTER),
    b(W::View,         ch('s'),        A::ViewSave,         "save to file",       FOOTER),
    b(W::View,         ch('C'),        A::ViewCopy,         "copy all",           HELP_ONLY),
    b(W::View,         k(K::Esc),      A::CloseView,        "back to the pod",    FOOTER),
    b(W::View,         ch('q'),        A::CloseView,        "back to the pod",    FOOTER),
    b(W::Switcher,     k(K::Down),     A::SwitcherNext,     "next pod",           FOOTER),
    b(W::Switcher,     k(K::Up),       A::SwitcherPrev,     "previous pod",       FOOTER),
    b(W::Switcher,     k(K::PageDown), A::SwitcherPageDown, "page down",          HELP_ONLY),
    b(W::Switcher,     k(K::PageUp),   A::SwitcherPageUp,   "page up",            HELP_ONLY),
    b(W::Switcher,     k(K::Enter),    A::SwitchToSelected, "switch to it",       FOOTER),
    b(W::Switcher,     k(K::Esc),      A::CloseSwitcher,    "clear filter, close", FOOTER),
    b(W::ForwardPanel, ch('a'),        A::ForwardAdd,       "add a forward",      FOOTER),
    b(W::ForwardPanel, ch('x'),        A::ForwardRemove,    "remove selected",    FOOTER),
    b(W::ForwardPanel, k(K::Delete),   A::ForwardRemove,    "remove selected",    FOOTER),
    b(W::ForwardPanel, k(K::Down),     A::ForwardNext,      "next",               FOOTER),
    b(W::ForwardPanel, ch('j'),        A::ForwardNext,      "next",               FOOTER),
    b(W::ForwardPanel, k(K::Up),       A::ForwardPrev,      "previous",           FOOTER),
    b(W::ForwardPanel, ch('k'),        A::ForwardPrev,      "previous",           FOOTER),
    b(W::ForwardPanel, ch('f'),        A::CloseForwards,    "close",              FOOTER),
    b(W::ForwardPanel, k(K::Esc),      A::CloseForwards,    "close",              FOOTER),
    b(W::Help,         k(K::Down),     A::HelpDown,         "scroll help down",   HELP_ONLY),
    b(W::Help,         ch('j'),        A::HelpDown,         "scroll help down",   HELP_ONLY),
    b(W::Help,         k(K::Up),       A::HelpUp,           "scroll help up",     HELP_ONLY),
    b(W::Help,         ch('k'),        A::HelpUp,           "scroll help up",     HELP_ONLY),
    b(W::Help,         k(K::PageDown), A::HelpPageDown,     "help page down",     HELP_ONLY),
    b(W::Help,         k(K::PageUp),   A::HelpPageUp,       "help page up",       HELP_ONLY),
    b(W::Help,         k(K::Esc),      A::CloseHelp,        "close help",         HELP_ONLY),
    b(W::Diagnosis,    k(K::Down),     A::DiagnosisDown,    "scroll down",        FOOTER),
    b(W::Diagnosis,    ch('j'),        A::DiagnosisDown,    "scroll down",        FOOTER),
    b(W::Diagnosis,    k(K::Up),       A::DiagnosisUp,      "scroll up",          FOOTER),
    b(W::Diagnosis,    ch('k'),        A::DiagnosisUp,      "scroll up",          FOOTER),
    b(W::Diagnosis,    k(K::PageDown), A::DiagnosisPageDown, "page down",         HELP_ONLY),
    b(W::Diagnosis,    k(K::PageUp),   A::DiagnosisPageUp,  "page up",            HELP_ONLY),
    b(W::Diagnosis,    k(K::Enter),    A::CloseDiagnosis,   "back to the pod",    FOOTER),
    b(W::Diagnosis,    k(K::Esc),      A::CloseDiagnosis,   "back to the pod",    FOOTER),
    b(W::EventsFocus,  k(K::Down),     A::EventNext,        "next event",         FOOTER),
    b(W::EventsFocus,  ch('j'),        A::EventNext,        "next event",         FOOTER),
    b(W::EventsFocus,  k(K::Up),       A::EventPrev,        "previous event",     FOOTER),
    b(W::EventsFocus,  ch('k'),        A::EventPrev,        "previous event",     FOOTER),
    b(W::EventsFocus,  k(K::Tab),      A::FocusContainers,  "back to containers", FOOTER),
    b(W::EventsFocus,  k(K::Esc),      A::FocusContainers,  "back to containers", FOOTER),
    b(W::LogFocus,     k(K::Up),       A::LogUp,            "scroll up",          HELP_ONLY),
    b(W::LogFocus,     ch('k'),        A::LogUp,            "scroll up",          HELP_ONLY),
    b(W::LogFocus,     k(K::Down),     A::LogDown,          "scroll down",        HELP_ONLY),
    b(W::LogFocus,     ch('j'),        A::LogDown,          "scroll down",        HELP_ONLY),
    b(W::LogFocus,     ch('g'),        A::LogTop,           "oldest line",        HELP_ONLY),
    b(W::LogFocus,     k(K::Home),     A::LogTop,           "oldest line",        HELP_ONLY),
    b(W::LogFocus,     ch('G'),        A::LogBottom,        "newest line",        HELP_ONLY),
    b(W::LogFocus,     k(K::End),      A::LogBottom,        "newest line",        HELP_ONLY),
    b(W::Always,       ch('j'),        A::NextContainer,    "next container",     FOOTER),
    b(W::Always,       k(K::Down),     A::NextContainer,    "next container",     FOOTER),
    b(W::Always,       ch('k'),        A::PrevContainer,    "previous container", FOOTER),
    b(W::Always,       k(K::Up),       A::PrevContainer,    "previous container", FOOTER),
    b(W::Always,       ch('g'),        A::FirstContainer,   "first container",    HELP_ONLY),
    b(W::Always,       k(K::Home),     A::FirstContainer,   "first container",    HELP_ONLY),
    b(W::Always,       ch('G'),        A::LastContainer,    "last container",     HELP_ONLY),
    b(W::Always,       k(K::End),      A::LastContainer,    "last container",     HELP_ONLY),
    b(W::Offer,        ch('R'),        A::FollowReplacement, "follow replacement", FOOTER),
    b(W::Workload,     ch(']'),        A::NextSibling,      "next pod",           FOOTER),
    b(W::Workload,     ch('['),        A::PrevSibling,      "previous pod",       HELP_ONLY),
    b(W::Workload,     ch('P'),        A::WorkloadPods,     "workload pods",      FOOTER),
    b(W::Always,       ch('l'),        A::ToggleLogs,       "logs",               FOOTER),
    b(W::Always,       ch('e'),        A::OpenShell,        "shell",              FOOTER),
    b(W::Always,       ch('d'),        A::AddDebug,         "debug container",    FOOTER),
    b(W::Always,       ch('f'),        A::ToggleForwards,   "port-forwards",      FOOTER),
    b(W::Always,       k(K::Enter),    A::ExpandDiagnosis,  "diagnosis",          FOOTER),
    b(W::Always,       ch('y'),        A::OpenYaml,         "YAML",               FOOTER),
    b(W::Always,       ch('D'),        A::OpenDescribe,     "describe",           FOOTER),
    b(W::Always,       ch('T'),        A::OpenTimeline,     "timeline",           HELP_ONLY),
    b(W::LogPane,      k(K::Tab),      A::SwitchFocus,      "focus",              FOOTER),
    b(W::Always,       k(K::Tab),      A::FocusEvents,      "events",             FOOTER),
    b(W::CanSwitch,    ch('P'),        A::OpenSwitcher,     "switch pod",         FOOTER),
    b(W::CanSwitch,    ch('o'),        A::OpenSwitcher,     "switch pod",         HELP_ONLY),
    b(W::LogTools,     k(K::PageUp),   A::LogPageUp,        "page up",            HELP_ONLY),
    b(W::LogTools,     k(K::PageDown), A::LogPageDown,      "page down",          HELP_ONLY),
    b(W::LogTools,     ch('p'),        A::LogPrevious,      "previous instance",  FOOTER),
    b(W::LogTools,     ch('F'),        A::LogFollow,        "follow",             FOOTER),
    b(W::LogTools,     ch(' '),        A::LogFollow,        "follow",             HELP_ONLY),
    b(W::LogTools,     ch('a'),        A::LogAll,           "all containers",     HELP_ONLY),
    b(W::LogTools,     ch('t'),        A::LogTimestamps,    "timestamps",         HELP_ONLY),
    b(W::LogTools,     ch('w'),        A::LogWrap,          "wrap",               HELP_ONLY),
    b(W::LogTools,     ch('/'),        A::LogSearch,        "search",             FOOTER),
    b(W::LogTools,     ch('n'),        A::LogNextMatch,     "next match",         HELP_ONLY),
    b(W::LogTools,     ch('N'),        A::LogPrevMatch,     "previous match",     HELP_ONLY),
    b(W::LogTools,     ch('&'),        A::LogFilter,        "filter",             FOOTER),
    b(W::LogTools,     ch('E'),        A::LogEvents,        "events inline",      HELP_ONLY),
    b(W::LogTools,     ch('s'),        A::LogSave,          "save to file",       HELP_ONLY),
    b(W::Always,       ch('?'),        A::ToggleHelp,       "help",               FOOTER),
    b(W::Always,       k(K::Esc),      A::CloseHelp,        "close help",         HELP_ONLY),
    b(W::Global,       ch('q'),        A::Quit,             "quit",               FOOTER),
    b(W::Global,       ctrl('c'),      A::Quit,             "quit",               HELP_ONLY),
];
