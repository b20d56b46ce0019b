//! Tests that need a tool podscope does not ship (kubectl, its versioned `kubectl.1.NN`
//! binaries, tmux). When the tool is missing, the test (or its part that needs the tool) is
//! skipped with a printed `SKIP` on a developer's machine, and fails where the tools are required:
//! CI sets `PODSCOPE_REQUIRE_TOOLS=1` (see `.ci/run`), so a missing tool cannot pass as green.
//! Every skip is also appended to the file `PODSCOPE_SKIP_LOG` names, so a run can count them.
//!
//! Standard library only: `stream_support` includes this file by path.

use std::io::Write as _;

/// Environment variable: `1` turns a missing tool into a test failure.
pub const REQUIRE_TOOLS: &str = "PODSCOPE_REQUIRE_TOOLS";
/// Environment variable: a file each skip appends one line to (`binary::test: what: reason`).
pub const SKIP_LOG: &str = "PODSCOPE_SKIP_LOG";

/// The running test as `binary::test` (libtest names each test's thread after the test; a run
/// with one test thread may give `main`).
pub fn test_name() -> String {
    let thread = std::thread::current();
    format!(
        "{}::{}",
        env!("CARGO_CRATE_NAME"),
        thread.name().unwrap_or("unnamed")
    )
}

/// The running test cannot do `what` (e.g. `the kubectl comparison`) because of `reason` (e.g.
/// `kubectl is not on PATH`): records the skip in `PODSCOPE_SKIP_LOG` (when set), then prints
/// `SKIP: …` and returns, so the caller skips.
///
/// # Panics
/// With `PODSCOPE_REQUIRE_TOOLS=1`: the test fails, naming the test, `what` and `reason`. Also
/// when the skip log cannot be written.
pub fn skip(what: &str, reason: &str) {
    let line = format!("{}: {what}: {reason}", test_name());
    if let Some(path) = std::env::var_os(SKIP_LOG) {
        let mut log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap_or_else(|e| panic!("{SKIP_LOG}={}: {e}", path.to_string_lossy()));
        // One write per line: appends from parallel tests do not interleave.
        log.write_all(format!("{line}\n").as_bytes())
            .unwrap_or_else(|e| panic!("{SKIP_LOG}={}: {e}", path.to_string_lossy()));
    }
    assert!(
        std::env::var(REQUIRE_TOOLS).as_deref() != Ok("1"),
        "{line}; {REQUIRE_TOOLS}=1 requires the tool (install it, or unset the variable to skip)"
    );
    eprintln!("SKIP: {line}");
}
