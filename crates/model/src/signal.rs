//! Exit codes and signals: `137` → `SIGKILL`, `127` → command not found.
//!
//! A process killed by signal N exits with 128 + N (shell and container-runtime convention);
//! signal numbers are Linux's (x86/arm `signal(7)` numbering).

/// Linux signal names by number, index = signal number (0 unused).
const SIGNALS: [&str; 32] = [
    "",
    "SIGHUP",
    "SIGINT",
    "SIGQUIT",
    "SIGILL",
    "SIGTRAP",
    "SIGABRT",
    "SIGBUS",
    "SIGFPE",
    "SIGKILL",
    "SIGUSR1",
    "SIGSEGV",
    "SIGUSR2",
    "SIGPIPE",
    "SIGALRM",
    "SIGTERM",
    "SIGSTKFLT",
    "SIGCHLD",
    "SIGCONT",
    "SIGSTOP",
    "SIGTSTP",
    "SIGTTIN",
    "SIGTTOU",
    "SIGURG",
    "SIGXCPU",
    "SIGXFSZ",
    "SIGVTALRM",
    "SIGPROF",
    "SIGWINCH",
    "SIGIO",
    "SIGPWR",
    "SIGSYS",
];

/// The Linux name of signal number `signal` (1..=31), e.g. `9` → `SIGKILL`; `None` otherwise.
///
/// Use for `state.terminated.signal`, which runtimes report as the raw number.
pub fn signal_by_number(signal: i32) -> Option<&'static str> {
    usize::try_from(signal)
        .ok()
        .filter(|n| (1..SIGNALS.len()).contains(n))
        .map(|n| SIGNALS[n])
}

/// The signal an exit code stands for when it is 128 + N (129..=159), e.g. `137` → `SIGKILL`,
/// `139` → `SIGSEGV`, `143` → `SIGTERM`; `None` for other codes.
pub fn signal_name(exit_code: i32) -> Option<&'static str> {
    if (129..=159).contains(&exit_code) {
        signal_by_number(exit_code - 128)
    } else {
        None
    }
}

/// A short human hint for `exitCode` (with `terminated.reason`, which disambiguates 128 and 137).
///
/// 0 success, 1 application error, 126 not executable, 127 command not found, 128 + `StartError`
/// runtime could not start the process, 137 + `OOMKilled` memory limit, 137 otherwise SIGKILL,
/// 139 segfault, 143 SIGTERM. `None` for codes without a well-known meaning (callers may still
/// show [`signal_name`]).
pub fn exit_code_meaning(exit_code: i32, reason: &str) -> Option<&'static str> {
    match (exit_code, reason) {
        (0, _) => Some("success"),
        (1, _) => Some("application error"),
        (126, _) => Some("command found but not executable"),
        (127, _) => Some("command not found"),
        (128, "StartError") => Some("the runtime could not start the process"),
        (137, "OOMKilled") => Some("killed by the kernel: memory limit exceeded"),
        (137, _) => Some("killed (SIGKILL): grace period ended or OOM"),
        (139, _) => Some("segmentation fault (SIGSEGV)"),
        (143, _) => Some("stopped by SIGTERM (e.g. liveness probe failure or deletion)"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_names_follow_linux_numbering() {
        assert_eq!(signal_name(129), Some("SIGHUP"));
        assert_eq!(signal_name(130), Some("SIGINT"));
        assert_eq!(signal_name(131), Some("SIGQUIT"));
        assert_eq!(signal_name(134), Some("SIGABRT"));
        assert_eq!(signal_name(137), Some("SIGKILL"));
        assert_eq!(signal_name(139), Some("SIGSEGV"));
        assert_eq!(signal_name(141), Some("SIGPIPE"));
        assert_eq!(signal_name(143), Some("SIGTERM"));
        assert_eq!(signal_name(159), Some("SIGSYS"));
        for code in [-1, 0, 1, 127, 128, 160, 255] {
            assert_eq!(signal_name(code), None, "{code}");
        }
        assert_eq!(signal_by_number(9), Some("SIGKILL"));
        assert_eq!(signal_by_number(0), None);
        assert_eq!(signal_by_number(32), None);
    }

    #[test]
    fn exit_code_hints() {
        assert_eq!(exit_code_meaning(0, "Completed"), Some("success"));
        assert_eq!(exit_code_meaning(1, "Error"), Some("application error"));
        assert_eq!(
            exit_code_meaning(126, "Error"),
            Some("command found but not executable")
        );
        assert_eq!(exit_code_meaning(127, "Error"), Some("command not found"));
        assert_eq!(
            exit_code_meaning(128, "StartError"),
            Some("the runtime could not start the process")
        );
        assert_eq!(exit_code_meaning(128, "Error"), None);
        assert_eq!(
            exit_code_meaning(137, "OOMKilled"),
            Some("killed by the kernel: memory limit exceeded")
        );
        assert_eq!(
            exit_code_meaning(137, "Error"),
            Some("killed (SIGKILL): grace period ended or OOM")
        );
        assert_eq!(
            exit_code_meaning(143, "Error"),
            Some("stopped by SIGTERM (e.g. liveness probe failure or deletion)")
        );
        assert_eq!(exit_code_meaning(2, "Error"), None);
    }
}
