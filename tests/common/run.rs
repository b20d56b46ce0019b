//! Running the podscope binary against the simulator with the kubeconfig it wrote (KUBECONFIG
//! unset): to completion, or in the background with its stdout and stderr lines collected.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use podscope::sim::Simulator;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The lines a background process printed so far, shared with the task reading them.
pub type Lines = Arc<Mutex<Vec<String>>>;

/// `podscope ARGS --kubeconfig K` for `sim`.
fn command(sim: &Simulator, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_podscope"));
    cmd.args(args)
        .arg("--kubeconfig")
        .arg(sim.kubeconfig_path())
        .env_remove("KUBECONFIG");
    cmd
}

/// Runs podscope with `args` (at most 60 s): (exit code, stdout bytes, stderr).
pub async fn podscope_bytes(sim: &Simulator, args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = tokio::time::timeout(Duration::from_secs(60), command(sim, args).output())
        .await
        .expect("podscope finishes within 60 s")
        .expect("podscope runs");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`podscope_bytes`] with stdout as text: (exit code, stdout, stderr).
pub async fn podscope(sim: &Simulator, args: &[&str]) -> (i32, String, String) {
    let (code, out, err) = podscope_bytes(sim, args).await;
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

/// Starts podscope with `args` in the background (killed when dropped); its stdout and stderr
/// lines are collected as they come.
pub fn spawn_podscope(sim: &Simulator, args: &[&str]) -> (Child, Lines, Lines) {
    let mut child = command(sim, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("podscope starts");
    let out = collect(child.stdout.take().expect("stdout"));
    let err = collect(child.stderr.take().expect("stderr"));
    (child, out, err)
}

/// Collects the lines of `pipe` in the background until it closes.
pub fn collect(pipe: impl tokio::io::AsyncRead + Unpin + Send + 'static) -> Lines {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let b = buf.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(pipe).lines();
        while let Ok(Some(l)) = lines.next_line().await {
            b.lock().expect("lock").push(l);
        }
    });
    buf
}

/// Waits (at most 20 s) until the pipe `buf` collects from has closed and its last line is in:
/// the collecting task of [`collect`] holds the only other handle to `buf` and drops it then.
pub async fn wait_closed(buf: &Lines) {
    let closed =
        super::wait::wait_until(Duration::from_secs(20), || Arc::strong_count(buf) == 1).await;
    assert!(
        closed,
        "the pipe is still open after 20 s; got {:?}",
        buf.lock().expect("lock")
    );
}

/// Waits (at most 20 s) until a line of `buf` contains `what`.
pub async fn wait_for_line(buf: &Lines, what: &str) {
    let found = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            if buf.lock().expect("lock").iter().any(|l| l.contains(what)) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(
        found.is_ok(),
        "{what:?} did not appear; got {:?}",
        buf.lock().expect("lock")
    );
}
