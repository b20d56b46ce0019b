//! Drives the real TUI in tmux against the simulator: the pod's STATUS appears and the
//! CrashLoopBackOff countdown moves; `q` quits and leaves the shell usable; `e` and `d` hand the
//! terminal to a shell (which follows a window resize) and take it back; a port-forward is added
//! and removed through the panel.

use crate::common;
use common::tmux::{CAPTURE_EVERY, missing, screen_within, tmux, wait_gone};
use common::wait::wait_until_blocking;

use std::time::{Duration, Instant};

use podscope::sim::{SimConfig, Simulator};

const CASE: &str = "04-crashloop-oomkilled-jvm";

/// Whether tmux is not installed (after printing that the test is skipped).
fn tmux_missing() -> bool {
    missing("the TUI-in-tmux test")
}

/// Starts `cmd` in a detached 120×40 tmux session named `session`.
fn new_session(session: &str, cmd: &str) {
    common::tmux::new_session(session, 120, 40, cmd);
}

/// Seconds in the first "restart in …" on screen (`1m30s` → 90).
fn countdown_seconds(screen: &str) -> Option<u64> {
    let at = screen.find("restart in ")? + "restart in ".len();
    let word: String = screen[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    let mut total = 0;
    let mut num = 0;
    for ch in word.chars() {
        if let Some(d) = ch.to_digit(10) {
            num = num * 10 + u64::from(d);
        } else {
            total += num
                * match ch {
                    'h' => 3600,
                    'm' => 60,
                    _ => 1,
                };
            num = 0;
        }
    }
    Some(total)
}

/// The screen once `f` holds (20 s at most).
fn wait_for(session: &str, what: &str, f: impl Fn(&str) -> bool) -> String {
    common::tmux::wait_for(session, what, 20, f)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tui_shows_status_and_a_moving_countdown() {
    if tmux_missing() {
        return;
    }
    let exp = common::cases::expected(CASE);
    let (sim, cmd) = common::sim::start_case_live(CASE).await;
    let session = format!("podscope-test-{}", std::process::id());
    tokio::task::block_in_place(|| {
        new_session(&session, &cmd);
        let first = wait_for(&session, "STATUS and countdown", |s| {
            s.contains("CrashLoopBackOff") && countdown_seconds(s).is_some()
        });
        assert!(first.contains(&exp.name), "{first}");
        assert!(first.contains("OOMKilled"), "{first}");
        let t1 = countdown_seconds(&first).expect("countdown");
        assert!(
            (80..=91).contains(&t1),
            "countdown near 90 s at start, got {t1}: {first}"
        );
        let second = wait_for(&session, "the countdown to move", |s| {
            countdown_seconds(s).is_some_and(|t2| t2 < t1)
        });
        let t2 = countdown_seconds(&second).expect("countdown");
        assert!(t2 < t1, "countdown moves: {t1} then {t2}");
        quit_with_q(&session);
    });
    sim.shutdown().await;
}

/// The shell hand-off: `e` hands the terminal to a shell in the seed's proxy sidecar
/// (`hostname` prints the pod name, as the seed shows), `exit` gives the pod view back. A Ctrl-C
/// typed right after `e`, while the exec is still connecting, goes to the shell: it does not
/// kill podscope (the hand-off keeps the terminal in raw mode).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e_opens_a_shell_and_exit_returns_to_the_pod_view() {
    let Some((sim, session)) = hello_in_tmux("podscope-shell", &[]).await else {
        return;
    };
    tokio::task::block_in_place(|| {
        tmux(&["send-keys", "-t", &session, "e"]);
        // The hand-off began (the pod view is gone) before the prompt shows: Ctrl-C now.
        wait_for(&session, "the hand-off to start", |s| !s.contains("READY"));
        tmux(&["send-keys", "-t", &session, "C-c"]);
        let shell = wait_for(&session, "a shell prompt", |s| {
            s.contains('#') && !s.contains("READY")
        });
        assert!(
            shell.contains("exit or Ctrl-D returns to podscope"),
            "{shell}"
        );
        hostname_prints_the_pod_name(&session);
        tmux(&["send-keys", "-t", &session, "exit", "Enter"]);
        let back = wait_for(&session, "the pod view again", |s| {
            s.contains("READY 2/2") && s.contains(" in proxy exited 0")
        });
        assert!(back.contains("default/hello"), "{back}");
        quit_with_q(&session);
    });
    sim.shutdown().await;
}

/// Whether process `pid` has ended (gone, or a zombie waiting for tmux to reap it).
fn ended(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|r| r.trim_start().starts_with('Z'))
    })
}

/// Closing the terminal (tmux kill-session hangs the pty up: SIGHUP) while a shell has it ends
/// podscope, rather than leaving it reading a dead terminal in a loop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_terminal_during_a_shell_ends_podscope() {
    let Some((sim, session)) = hello_in_tmux("podscope-hangup", &[]).await else {
        return;
    };
    tokio::task::block_in_place(|| {
        // `env … podscope` execs podscope: the pane's process is podscope itself.
        let pid = tmux(&["list-panes", "-t", &session, "-F", "#{pane_pid}"])
            .expect("pane pid")
            .trim()
            .to_owned();
        tmux(&["send-keys", "-t", &session, "e"]);
        let shell = wait_for(&session, "a shell prompt", |s| {
            s.contains('#') && !s.contains("READY")
        });
        assert!(
            shell.contains("exit or Ctrl-D returns to podscope"),
            "{shell}"
        );
        assert!(!ended(&pid), "pid {pid} is podscope's");
        let _ = tmux(&["kill-session", "-t", &session]);
        assert!(
            wait_until_blocking(Duration::from_secs(5), CAPTURE_EVERY, || ended(&pid)),
            "podscope (pid {pid}) still runs 5 s after its terminal closed"
        );
    });
    sim.shutdown().await;
}

/// `d` (ephemeral debug container, then attach): the hand-off reaches kubectl's prompt hint
/// without a key press, and the first key typed after it reaches the shell (`hostname` runs
/// whole and prints the pod name).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d_attaches_without_waiting_for_a_key_and_keeps_the_first_one() {
    let Some((sim, session)) = hello_in_tmux("podscope-debug", &[]).await else {
        return;
    };
    tokio::task::block_in_place(|| {
        tmux(&["send-keys", "-t", &session, "d"]);
        let attached = wait_for(&session, "kubectl's attach hint", |s| {
            s.contains("If you don't see a command prompt")
        });
        assert!(
            attached.contains("exit or Ctrl-D returns to podscope (this ends the debug"),
            "{attached}"
        );
        hostname_prints_the_pod_name(&session);
        tmux(&["send-keys", "-t", &session, "exit", "Enter"]);
        // The pod view comes back first; the line about the debug container follows when its
        // end is read (the wait gives its screen if it never comes).
        let ended =
            regex::Regex::new(r"debug container debugger-\w+ ended \(exit 0\)").expect("regex");
        let back = wait_for(&session, "the debug container's end on the pod view", |s| {
            s.contains("READY") && ended.is_match(s)
        });
        assert!(ended.is_match(&back), "{back}");
        tmux(&["send-keys", "-t", &session, "q"]);
        let _ = tmux(&["kill-session", "-t", &session]);
    });
    sim.shutdown().await;
}

/// The local port of the panel row forwarding to 8081 while it is listening, from the screen
/// (`localhost:PORT` while both loopbacks listen, `127.0.0.1:PORT` on a host without IPv6).
fn listening_port(screen: &str) -> Option<u16> {
    let re =
        regex::Regex::new(r"(?:localhost|127\.0\.0\.1):(\d+)\s+8081\s+listening").expect("regex");
    re.captures(screen)?.get(1)?.as_str().parse().ok()
}

/// A blocking HTTP/1.1 `GET /` with `Connection: close` to 127.0.0.1:`port`; the response body.
fn http_get_body(port: u16) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    s.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .expect("writes");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("reads the answer");
    out.split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_owned())
}

/// The port-forward panel: `f` opens it, `a`, `9999`, Ctrl-U (kills it),
/// `:8081`, Enter adds a forward to the seed's proxy sidecar; it is listed as listening on a
/// random local port, `hello from hello` comes back through it (counted in TOTAL), and `x`
/// removes it: the port stops accepting connections.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn f_panel_adds_a_forward_that_answers_and_x_removes_it() {
    let Some((sim, session)) = hello_in_tmux("podscope-forward", &[]).await else {
        return;
    };
    tokio::task::block_in_place(|| {
        tmux(&["send-keys", "-t", &session, "f"]);
        wait_for(&session, "the empty panel", |s| {
            s.contains("port-forwards") && s.contains("no forwards")
        });
        tmux(&["send-keys", "-t", &session, "a"]);
        wait_for(&session, "the spec prompt", |s| {
            s.contains("forward [ADDR:]LOCAL:REMOTE:")
        });
        // A real terminal's Ctrl-U kills what was typed (it once typed a literal `u`).
        tmux(&["send-keys", "-t", &session, "-l", "9999"]);
        wait_for(&session, "the typed text", |s| {
            s.contains("forward [ADDR:]LOCAL:REMOTE: 9999▏")
        });
        tmux(&["send-keys", "-t", &session, "C-u"]);
        tmux(&["send-keys", "-t", &session, "-l", ":8081"]);
        tmux(&["send-keys", "-t", &session, "Enter"]);
        let screen = wait_for(&session, "the forward listening", |s| {
            listening_port(s).is_some()
        });
        let port = listening_port(&screen).expect("a local port");
        assert_eq!(http_get_body(port), "hello from hello\n");
        let counted = regex::Regex::new(r"8081\s+listening\s+0\s+1\s").expect("regex");
        wait_for(&session, "the connection counted, closed", |s| {
            counted.is_match(s)
        });
        tmux(&["send-keys", "-t", &session, "x"]);
        wait_for(&session, "the forward gone from the panel", |s| {
            s.contains("no forwards")
        });
        let closed = wait_until_blocking(Duration::from_secs(5), CAPTURE_EVERY, || {
            std::net::TcpStream::connect(("127.0.0.1", port)).is_err()
        });
        assert!(closed, "127.0.0.1:{port} still accepts connections after x");
        quit_with_q(&session);
    });
    sim.shutdown().await;
}

/// The shell hand-off with `PODSCOPE_SHELL=/bin/sh`: `e` runs that shell (`echo $0`), the simulated
/// shell's `stty size` follows `tmux resize-window` (the resize reached it over channel 4), and
/// `exit 3` gives the pod view back with kubectl's `command terminated with exit code 3`, still
/// live (a deletion made afterwards shows up).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shell_follows_a_resize_and_exit_3_returns_to_a_live_view() {
    let env = [("PODSCOPE_SHELL", "/bin/sh")];
    let Some((sim, session)) = hello_in_tmux("podscope-resize", &env).await else {
        return;
    };
    let line = |want: &'static str| move |s: &str| s.lines().any(|l| l.trim() == want);
    tokio::task::block_in_place(|| {
        tmux(&["send-keys", "-t", &session, "e"]);
        wait_for(&session, "dash's prompt", |s| {
            // capture-pane drops the prompt's trailing space.
            s.lines().any(|l| l.trim_end() == "#") && !s.contains("READY")
        });
        tmux(&["send-keys", "-t", &session, "echo $0", "Enter"]);
        wait_for(&session, "$0 of the configured shell", line("/bin/sh"));
        tmux(&["send-keys", "-t", &session, "stty size", "Enter"]);
        wait_for(&session, "the first size", line("40 120"));
        tmux(&["resize-window", "-t", &session, "-x", "100", "-y", "30"]).expect("resized");
        // The resize and the keys reach the simulator by different routes: ask until it shows
        // (each answer waited for up to 2 s, 20 s in all).
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            tmux(&["send-keys", "-t", &session, "stty size", "Enter"]);
            match screen_within(&session, Duration::from_secs(2), line("30 100")) {
                Ok(_) => break,
                Err(screen) => {
                    assert!(Instant::now() < deadline, "no 30 100; screen:\n{screen}");
                }
            }
        }
        tmux(&["send-keys", "-t", &session, "exit 3", "Enter"]);
        wait_for(&session, "the pod view again", |s| {
            s.contains("READY 2/2")
                && s.contains("live")
                && s.contains("command terminated with exit code 3")
        });
    });
    sim.store().delete_pod("default", "hello").expect("deleted");
    tokio::task::block_in_place(|| {
        wait_for(&session, "the deletion", |s| s.contains("pod deleted at"));
        quit_with_q(&session);
    });
    sim.shutdown().await;
}

/// Types `hostname` into the shell on screen; it must print the pod's name, `hello`.
fn hostname_prints_the_pod_name(session: &str) {
    tmux(&["send-keys", "-t", session, "hostname", "Enter"]);
    let screen = wait_for(session, "hostname output", |s| {
        s.lines().any(|l| l.trim() == "hello")
    });
    assert!(screen.contains("hostname"), "{screen}");
}

/// `q`, then the tmux session must end within 5 s (the TUI quit and restored the terminal).
fn quit_with_q(session: &str) {
    tmux(&["send-keys", "-t", session, "q"]);
    wait_gone(session, "q did not quit");
}

/// The seed's hello scenario on a fresh simulator, and podscope attached to it (`-c proxy`, with
/// the environment variables `env`, values without spaces) in a 120×40 tmux session named
/// `PREFIX-<pid>`, waited until `READY 2/2` and live. `None` (after the skip of
/// `common::tools::skip`) when tmux is not installed.
async fn hello_in_tmux(prefix: &str, env: &[(&str, &str)]) -> Option<(Simulator, String)> {
    if tmux_missing() {
        return None;
    }
    let sim = Simulator::start(SimConfig {
        scenarios: vec!["hello".into()],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    let session = format!("{prefix}-{}", std::process::id());
    // `env K=V podscope …` (tmux runs the command with sh -c; `new-session -e` needs tmux 3.2).
    let vars: String = env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
    let cmd = format!(
        "env {vars}{} --kubeconfig {} -n default hello -c proxy",
        env!("CARGO_BIN_EXE_podscope"),
        sim.kubeconfig_path().display(),
    );
    tokio::task::block_in_place(|| {
        new_session(&session, &cmd);
        wait_for(&session, "hello running 2/2", |s| {
            s.contains("READY 2/2") && s.contains("live")
        });
    });
    Some((sim, session))
}
