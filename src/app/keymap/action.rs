//! The user intents keys resolve to.

/// A user intent, resolved from a key by [`super::action_in`] inside `update`.
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
    /// Open the pod switcher.
    OpenSwitcher,
    /// Workload: list its pods in the switcher (from the pod watch, nothing asked).
    WorkloadPods,
    /// Workload: show the previous pod of the workload (choice order).
    PrevSibling,
    /// Workload: show the next pod of the workload (choice order).
    NextSibling,
    /// A pod attached by name was deleted: follow the replacement its controller made.
    FollowReplacement,
    /// Help overlay: scroll one line up.
    HelpUp,
    /// Help overlay: scroll one line down.
    HelpDown,
    /// Help overlay: scroll one page up.
    HelpPageUp,
    /// Help overlay: scroll one page down.
    HelpPageDown,
    /// Port-forward panel: type a new `[ADDR:]LOCAL:REMOTE` spec (Enter adds it, Esc cancels).
    ForwardAdd,
    /// Port-forward panel: stop the selected forward and remove it from the list.
    ForwardRemove,
    /// Port-forward panel: select the next forward.
    ForwardNext,
    /// Port-forward panel: select the previous forward.
    ForwardPrev,
    /// Port-forward panel: hide it (the forwards keep running).
    CloseForwards,
    /// Pod switcher: highlight the next pod.
    SwitcherNext,
    /// Pod switcher: highlight the previous pod.
    SwitcherPrev,
    /// Pod switcher: highlight the pod a screen further down.
    SwitcherPageDown,
    /// Pod switcher: highlight the pod a screen further up.
    SwitcherPageUp,
    /// Pod switcher: aim podscope at the highlighted pod.
    SwitchToSelected,
    /// Pod switcher: close it without switching.
    CloseSwitcher,
    /// Expand the diagnosis block over the pod view: every finding with its evidence and hint.
    ExpandDiagnosis,
    /// Expanded diagnosis: back to the pod view.
    CloseDiagnosis,
    /// Expanded diagnosis: scroll one line up.
    DiagnosisUp,
    /// Expanded diagnosis: scroll one line down.
    DiagnosisDown,
    /// Expanded diagnosis: scroll one page up.
    DiagnosisPageUp,
    /// Expanded diagnosis: scroll one page down.
    DiagnosisPageDown,
    /// Move the focus to the events pane (↑/↓ select an event, shown in full).
    FocusEvents,
    /// Move the focus from the events pane back to the container list.
    FocusContainers,
    /// Events focused: select the next (older) event.
    EventNext,
    /// Events focused: select the previous (newer) event.
    EventPrev,
    /// Open the pod object as YAML (`app::views`).
    OpenYaml,
    /// Open the pod as `kubectl describe pod` prints it.
    OpenDescribe,
    /// Open the pod's timeline as a table (`docs/timeline.md`).
    OpenTimeline,
    /// Text view: back to the pod view.
    CloseView,
    /// Text view: scroll one line down.
    ViewDown,
    /// Text view: scroll one line up.
    ViewUp,
    /// Text view: scroll one page down.
    ViewPageDown,
    /// Text view: scroll one page up.
    ViewPageUp,
    /// Text view: to the first line.
    ViewTop,
    /// Text view: to the last page.
    ViewBottom,
    /// Text view: type a search (Enter finds it, Esc cancels).
    ViewSearch,
    /// Text view: the next match.
    ViewNextMatch,
    /// Text view: the previous match.
    ViewPrevMatch,
    /// YAML view: show or hide `metadata.managedFields`.
    ViewManagedFields,
    /// Text view: save the text to `<pod>.yaml` / `<pod>.describe.txt`.
    ViewSave,
    /// Text view: copy the whole text to the clipboard (OSC 52).
    ViewCopy,
}
