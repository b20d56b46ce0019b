//! The simulated processes of exec/attach: a pure function of (container view, argv, stdin)
//! to output actions and an exit code. No IO, no clock: `sleep` is an [`Action::Sleep`] the
//! session performs.
//!
//! [`start`] fails with the runtime's `executable file not found in $PATH` for a binary the
//! image lacks ([`super::binaries`] lists them); `sh`/`bash` start the [`Shell`] (`-c SCRIPT`,
//! or interactive, reading stdin lines), `cat` without files copies stdin, `tar x` reads its
//! archive from stdin ([`super::tar`]), everything else runs to the end at once.
//!
//! With a tty the process starts on a terminal of the size the client sent first (the session
//! waits for it, as containerd sizes the exec's console before starting the process), so
//! `stty size`, `tput cols`/`lines` and an interactive bash's `$COLUMNS`/`$LINES` see it from
//! the start; later resizes reach an interactive shell. The runtime sets `TERM=xterm` in a tty
//! exec's environment (`docs/protocols.md` §3.5).

use jiff::SignedDuration;

use super::binaries::{has_binary, run_binary};
use super::exec_shell::{Flavour, Shell};
use super::fs::FsChange;
use super::stty::{WinSize, stty, tput};
use super::userland::{ContainerView, Userland};

/// One thing the process does, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Bytes on stdout.
    Stdout(Vec<u8>),
    /// Bytes on stderr.
    Stderr(Vec<u8>),
    /// Wait this long before the next action.
    Sleep(SignedDuration),
    /// A write to the container's writable layer ([`super::fs`]).
    Write(FsChange),
    /// The process ends with this exit code (no action follows).
    Exit(i32),
}

/// The runtime could not start the process: the executable is not in the image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFound {
    /// `argv[0]` as requested.
    pub executable: String,
}

impl NotFound {
    /// containerd/runc's text as the kubelet reports it (before the apiserver's prefixes), e.g.
    /// `failed to exec in container: failed to start exec "<id>": OCI runtime exec failed: exec
    /// failed: unable to start container process: exec: "sh": executable file not found in
    /// $PATH: unknown` (seed 000, `kubectl exec -it hello -- sh`; case 30's expected.md). The
    /// trailing `: unknown` is containerd's rendering of the gRPC code runc's error maps to
    /// (`docs/protocols.md` §3.5).
    pub fn runtime_message(&self, exec_id: &str) -> String {
        let detail = if self.executable.contains('/') {
            format!(
                "stat {}: no such file or directory",
                self.executable.trim_end_matches('/')
            )
        } else {
            "executable file not found in $PATH".to_string()
        };
        format!(
            "failed to exec in container: failed to start exec {exec_id:?}: OCI runtime exec failed: exec failed: unable to start container process: exec: {:?}: {detail}: unknown",
            self.executable
        )
    }
}

/// A started process: feed it stdin and collect its actions.
#[derive(Debug, Clone)]
pub enum Process {
    /// Runs to the end without reading stdin; the actions are returned by [`Process::begin`].
    Batch(Vec<Action>),
    /// `cat` without files: copies stdin to stdout, exit 0 at EOF.
    Cat,
    /// `tar x…f -`: collects the archive from stdin and unpacks it at EOF.
    Untar(Box<super::tar::Untar>),
    /// An interactive shell.
    Shell(Box<Shell>),
}

impl Process {
    /// The actions produced before any input (a batch's whole output, a shell's first prompt).
    pub fn begin(&mut self) -> Vec<Action> {
        match self {
            Process::Batch(actions) => std::mem::take(actions),
            Process::Cat | Process::Untar(_) => Vec::new(),
            Process::Shell(sh) => sh.begin(),
        }
    }

    /// Feeds stdin bytes (raw terminal bytes when tty).
    pub fn input(&mut self, bytes: &[u8]) -> Vec<Action> {
        match self {
            Process::Batch(_) => Vec::new(),
            Process::Cat => vec![Action::Stdout(bytes.to_vec())],
            Process::Untar(t) => {
                t.input(bytes);
                Vec::new()
            }
            Process::Shell(sh) => sh.input(bytes),
        }
    }

    /// The client resized the terminal (channel 4); a process that already ran keeps what it
    /// printed, an interactive shell sees the new size from its next command.
    pub fn resize(&mut self, size: WinSize) {
        if let Process::Shell(sh) = self {
            sh.resize(size);
        }
    }

    /// stdin reached EOF (or there is no stdin).
    pub fn eof(&mut self) -> Vec<Action> {
        match self {
            Process::Batch(_) => Vec::new(),
            Process::Cat => vec![Action::Exit(0)],
            Process::Untar(t) => t.finish(),
            Process::Shell(sh) => sh.eof(),
        }
    }
}

/// Starts `argv` in the container, on a terminal of size `terminal` (`None`: no tty; a tty
/// also selects an interactive shell's prompt and echo and adds `TERM=xterm`).
/// Errors: [`NotFound`] when the executable is not in the image (always for distroless).
pub fn start(
    view: &ContainerView,
    argv: &[String],
    terminal: Option<WinSize>,
) -> Result<Process, NotFound> {
    let Some(first) = argv.first() else {
        return Err(NotFound {
            executable: String::new(),
        });
    };
    if !has_binary(view, first) {
        return Err(NotFound {
            executable: first.clone(),
        });
    }
    let tty = terminal.is_some();
    let with_term;
    let view = if tty {
        let mut v = view.clone();
        v.env.retain(|(k, _)| k != "TERM");
        v.env.push(("TERM".to_owned(), "xterm".to_owned()));
        with_term = v;
        &with_term
    } else {
        view
    };
    let base = first.rsplit('/').next().unwrap_or(first);
    let flavour = match (base, view.userland) {
        ("bash", _) => Some(Flavour::Bash),
        ("sh", Userland::Debian) => Some(Flavour::Dash),
        ("sh", _) => Some(Flavour::Ash),
        _ => None,
    };
    if let Some(flavour) = flavour {
        let mut sh = Shell::new(view.clone(), flavour, tty)
            .invoked_as(first)
            .sized(terminal.unwrap_or_default());
        return Ok(match argv.get(1).map(String::as_str) {
            Some("-c") => {
                let script = argv.get(2).cloned().unwrap_or_default();
                Process::Batch(sh.run_script(&script))
            }
            _ => Process::Shell(Box::new(sh.interactive())),
        });
    }
    if base == "cat" && argv.len() == 1 {
        return Ok(Process::Cat);
    }
    if base == "tar"
        && let Some(untar) = super::tar::Untar::for_argv(view, argv)
    {
        return Ok(Process::Untar(Box::new(untar)));
    }
    if base == "stty" || base == "tput" {
        let (mut actions, code) = if base == "stty" {
            stty(&argv[1..], terminal, view.userland)
        } else {
            tput(&argv[1..], terminal, view)
        };
        actions.push(Action::Exit(code));
        return Ok(Process::Batch(actions));
    }
    let mut actions = Vec::new();
    let code = run_binary(view, argv, &mut actions);
    actions.push(Action::Exit(code));
    Ok(Process::Batch(actions))
}

/// Runs `argv` to the end with all of `stdin` (the pure entry point tests use).
/// Errors: [`NotFound`] as [`start`].
pub fn run_to_end(
    view: &ContainerView,
    argv: &[String],
    stdin: &[u8],
) -> Result<(Vec<u8>, Vec<u8>, i32), NotFound> {
    let mut p = start(view, argv, None)?;
    let mut actions = p.begin();
    if !actions.iter().any(|a| matches!(a, Action::Exit(_))) {
        actions.extend(p.input(stdin));
    }
    if !actions.iter().any(|a| matches!(a, Action::Exit(_))) {
        actions.extend(p.eof());
    }
    let (mut out, mut err, mut code) = (Vec::new(), Vec::new(), 0);
    for a in actions {
        match a {
            Action::Stdout(b) => out.extend(b),
            Action::Stderr(b) => err.extend(b),
            Action::Sleep(_) | Action::Write(_) => {}
            Action::Exit(c) => {
                code = c;
                break;
            }
        }
    }
    Ok((out, err, code))
}
