//! `update` scripts for the shell `e` and the debug container `d`: what is tried, what the
//! hand-off says, and the status line's words for how it ended.

use crate::common;
use common::{applied, key, proxy_and_app, state};
use crossterm::event::KeyCode;
use podscope::app::msg::ShellEnd;
use podscope::app::{Cmd, Msg, State, update};

/// `default/web` with proxy and app, not dirty.
fn two_containers() -> State {
    applied(proxy_and_app())
}

fn status_line(s: &State) -> String {
    s.target.logs.status.clone().unwrap_or_default()
}

#[test]
fn e_opens_a_shell_in_the_selected_container() {
    let mut s = two_containers();
    update(&mut s, key(KeyCode::Char('j')));
    let cmds = update(&mut s, key(KeyCode::Char('e')));
    assert_eq!(
        cmds,
        vec![Cmd::OpenShell {
            container: "app".into(),
            shells: vec!["bash".into(), "sh".into()],
        }]
    );
}

/// `--shell`/`PODSCOPE_SHELL` replaces the default list: only that command line is tried.
#[test]
fn e_runs_the_configured_shell_only() {
    use podscope::app::shell::shells;
    assert_eq!(shells(None), ["bash", "sh"]);
    assert_eq!(shells(Some("/bin/ash -l")), ["/bin/ash -l"]);
    let mut s = two_containers();
    s.config.shells = shells(Some("zsh"));
    let cmds = update(&mut s, key(KeyCode::Char('e')));
    assert_eq!(
        cmds,
        vec![Cmd::OpenShell {
            container: "proxy".into(),
            shells: vec!["zsh".into()],
        }]
    );
    // zsh is not in the image: the plain offer of a debug container, naming what was tried.
    update(
        &mut s,
        Msg::ShellExited {
            container: "proxy".into(),
            result: ShellEnd::NoShell {
                tried: vec!["zsh".into()],
            },
        },
    );
    assert_eq!(
        status_line(&s),
        "no shell in image example/proxy:1 (tried zsh): press d to add an ephemeral debug container"
    );
}

/// The line printed when the terminal is handed over says how to get back (and, for an attach,
/// that there is no detach).
#[test]
fn the_handoff_says_how_to_return() {
    use podscope::app::shell::handoff_banner;
    assert_eq!(handoff_banner(false), "exit or Ctrl-D returns to podscope");
    assert_eq!(
        handoff_banner(true),
        "exit or Ctrl-D returns to podscope (this ends the debug container: there is no detach)"
    );
}

#[test]
fn e_without_a_pod_does_nothing_but_say_so() {
    let mut s = state();
    assert!(update(&mut s, key(KeyCode::Char('e'))).is_empty());
    assert_eq!(status_line(&s), "no container to open a shell in");
}

#[test]
fn shell_exit_texts_are_kubectls() {
    let mut s = two_containers();
    let exited = |code| Msg::ShellExited {
        container: "app".into(),
        result: ShellEnd::Exited {
            shell: "sh".into(),
            exit_code: code,
        },
    };
    assert!(update(&mut s, exited(3)).is_empty());
    // kubectl exec's wording for a non-zero exit (docs/protocols.md §3), after what ended.
    assert_eq!(
        status_line(&s),
        "shell sh in app: command terminated with exit code 3"
    );
    update(&mut s, exited(0));
    assert_eq!(status_line(&s), "shell sh in app exited 0");
    // An attach (no shell) is the debug container's: it ended with its process.
    update(
        &mut s,
        Msg::ShellExited {
            container: "debugger-x7k2".into(),
            result: ShellEnd::Exited {
                shell: String::new(),
                exit_code: 0,
            },
        },
    );
    assert_eq!(
        status_line(&s),
        "debug container debugger-x7k2 ended (exit 0)"
    );
    update(
        &mut s,
        Msg::ShellExited {
            container: "app".into(),
            result: ShellEnd::Failed("container not found (\"app\")".into()),
        },
    );
    assert_eq!(
        status_line(&s),
        "shell failed: container not found (\"app\")"
    );
}

#[test]
fn no_shell_offers_the_debug_container_and_d_adds_it() {
    let mut s = two_containers();
    update(&mut s, key(KeyCode::Char('j')));
    update(
        &mut s,
        Msg::ShellExited {
            container: "app".into(),
            result: ShellEnd::NoShell {
                tried: vec!["bash".into(), "sh".into()],
            },
        },
    );
    assert_eq!(
        status_line(&s),
        "no shell in image example/app:1 (tried bash, sh): press d to add an ephemeral debug container"
    );
    let cmds = update(&mut s, key(KeyCode::Char('d')));
    assert_eq!(
        cmds,
        vec![Cmd::AddDebugContainer {
            target: "app".into()
        }]
    );
    let cmds = update(
        &mut s,
        Msg::DebugReady {
            name: "debugger-x7k2q".into(),
        },
    );
    assert_eq!(
        cmds,
        vec![Cmd::AttachDebug {
            container: "debugger-x7k2q".into()
        }]
    );
    update(&mut s, Msg::DebugFailed("ImagePullBackOff".into()));
    assert_eq!(status_line(&s), "debug container failed: ImagePullBackOff");
}
