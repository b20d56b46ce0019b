//! The simulated command set of exec/attach: a pure function of (container view, argv, stdin)
//! to output actions and an exit code. No IO, no clock: `sleep` is an [`Action::Sleep`] the
//! session performs.
//!
//! Binaries (only where the [`Userland`] has them; otherwise [`start`] fails with the runtime's
//! `executable file not found in $PATH`): `hostname` (the pod's hostname, in every container, as
//! the seed shows), `env`/`printenv`, `cat [FILE…]` (no file: copies stdin), `ls [DIR…]`, `ps`
//! (busybox/alpine only), `sleep N`, `echo`, `true`, `false`, `pwd`, `id`, `whoami`,
//! `uname [-a]`, `stty` (see [`super::stty`]; the size is the session's, so an exec of `stty`
//! itself sees `0 0`: no resize has arrived when it runs), `nginx -T`/`-v` (nginx images),
//! `sh`/`bash` (`-c SCRIPT`, or an interactive shell reading stdin lines; `bash` only on
//! Debian-based images). `exit N` is a shell builtin.

use jiff::SignedDuration;

use super::shell::{Flavour, Shell};
use super::stty::{WinSize, stty};
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
    /// failed: unable to start container process: exec: "sh": executable file not found in $PATH`
    /// (seed 000, `kubectl exec -it hello -- sh`; case 30's expected.md).
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
            "failed to exec in container: failed to start exec {exec_id:?}: OCI runtime exec failed: exec failed: unable to start container process: exec: {:?}: {detail}",
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
    /// An interactive shell.
    Shell(Box<Shell>),
}

impl Process {
    /// The actions produced before any input (a batch's whole output, a shell's first prompt).
    pub fn begin(&mut self) -> Vec<Action> {
        match self {
            Process::Batch(actions) => std::mem::take(actions),
            Process::Cat => Vec::new(),
            Process::Shell(sh) => sh.begin(),
        }
    }

    /// Feeds stdin bytes (raw terminal bytes when tty).
    pub fn input(&mut self, bytes: &[u8]) -> Vec<Action> {
        match self {
            Process::Batch(_) => Vec::new(),
            Process::Cat => vec![Action::Stdout(bytes.to_vec())],
            Process::Shell(sh) => sh.input(bytes),
        }
    }

    /// The client resized the terminal (channel 4); only a shell keeps it (for `stty size`).
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
            Process::Shell(sh) => sh.eof(),
        }
    }
}

/// Whether `name` is an executable in the container.
pub fn has_binary(view: &ContainerView, name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    let common = [
        "hostname", "env", "printenv", "cat", "ls", "sleep", "echo", "true", "false", "pwd", "id",
        "whoami", "uname", "sh", "stty",
    ];
    match view.userland {
        Userland::None => false,
        Userland::Busybox | Userland::Alpine => common.contains(&base) || base == "ps",
        Userland::Debian => {
            common.contains(&base)
                || base == "bash"
                || (base == "nginx" && view.image.contains("nginx"))
        }
    }
}

/// Starts `argv` in the container. `tty` selects an interactive shell's prompt and echo.
/// Errors: [`NotFound`] when the executable is not in the image (always for distroless).
pub fn start(view: &ContainerView, argv: &[String], tty: bool) -> Result<Process, NotFound> {
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
    let base = first.rsplit('/').next().unwrap_or(first);
    let flavour = match (base, view.userland) {
        ("bash", _) => Some(Flavour::Bash),
        ("sh", Userland::Debian) => Some(Flavour::Dash),
        ("sh", _) => Some(Flavour::Ash),
        _ => None,
    };
    if let Some(flavour) = flavour {
        let mut sh = Shell::new(view.clone(), flavour, tty).invoked_as(first);
        return Ok(match argv.get(1).map(String::as_str) {
            Some("-c") => {
                let script = argv.get(2).cloned().unwrap_or_default();
                Process::Batch(sh.run_script(&script))
            }
            _ => Process::Shell(Box::new(sh)),
        });
    }
    if base == "cat" && argv.len() == 1 {
        return Ok(Process::Cat);
    }
    if base == "stty" {
        let (mut actions, code) = stty(&argv[1..], tty.then(WinSize::default), view.userland);
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
    let mut p = start(view, argv, false)?;
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
            Action::Sleep(_) => {}
            Action::Exit(c) => {
                code = c;
                break;
            }
        }
    }
    Ok((out, err, code))
}

fn out(actions: &mut Vec<Action>, text: impl Into<String>) {
    actions.push(Action::Stdout(text.into().into_bytes()));
}

fn err(actions: &mut Vec<Action>, text: impl Into<String>) {
    actions.push(Action::Stderr(text.into().into_bytes()));
}

/// Runs one non-shell binary that exists in the image; returns its exit status.
pub(crate) fn run_binary(view: &ContainerView, argv: &[String], actions: &mut Vec<Action>) -> i32 {
    let Some(first) = argv.first() else { return 0 };
    let base = first.rsplit('/').next().unwrap_or(first);
    let args = &argv[1..];
    let busybox = matches!(view.userland, Userland::Busybox | Userland::Alpine);
    match base {
        "hostname" => {
            out(actions, format!("{}\n", view.hostname));
            0
        }
        "env" | "printenv" => {
            let text: String = match args.first() {
                Some(name) if base == "printenv" => {
                    match view.env.iter().find(|(k, _)| k == name) {
                        Some((_, v)) => format!("{v}\n"),
                        None => return 1,
                    }
                }
                _ => view.env.iter().map(|(k, v)| format!("{k}={v}\n")).collect(),
            };
            out(actions, text);
            0
        }
        "echo" => {
            let (newline, words) = match args.first().map(String::as_str) {
                Some("-n") => (false, &args[1..]),
                _ => (true, args),
            };
            out(actions, words.join(" ") + if newline { "\n" } else { "" });
            0
        }
        "true" => 0,
        "false" => 1,
        "pwd" => {
            out(actions, "/\n");
            0
        }
        "id" => {
            out(actions, "uid=0(root) gid=0(root) groups=0(root)\n");
            0
        }
        "whoami" => {
            out(actions, "root\n");
            0
        }
        "uname" => {
            let text = if args.iter().any(|a| a == "-a") {
                format!(
                    "Linux {} 6.8.0-sim #1 SMP x86_64 GNU/Linux\n",
                    view.hostname
                )
            } else {
                "Linux\n".to_string()
            };
            out(actions, text);
            0
        }
        "sleep" => match args.first().and_then(|a| a.parse::<f64>().ok()) {
            Some(s) if s >= 0.0 => {
                actions.push(Action::Sleep(
                    SignedDuration::try_from_secs_f64(s).unwrap_or(SignedDuration::ZERO),
                ));
                0
            }
            _ => {
                let arg = args.first().cloned().unwrap_or_default();
                if busybox {
                    err(actions, format!("sleep: invalid number '{arg}'\n"));
                } else {
                    err(actions, format!("sleep: invalid time interval '{arg}'\n"));
                }
                1
            }
        },
        "cat" => {
            let mut code = 0;
            for f in args {
                match view.files.get(f.as_str()) {
                    Some(text) => out(actions, text.clone()),
                    None if view.is_dir(f) => {
                        err(actions, "cat: read error: Is a directory\n");
                        code = 1;
                    }
                    None if busybox => {
                        err(
                            actions,
                            format!("cat: can't open '{f}': No such file or directory\n"),
                        );
                        code = 1;
                    }
                    None => {
                        err(actions, format!("cat: {f}: No such file or directory\n"));
                        code = 1;
                    }
                }
            }
            code
        }
        "ls" => ls(view, args, busybox, actions),
        "ps" => {
            let mut text = "PID   USER     TIME  COMMAND\n".to_string();
            let mut pid = 1;
            for p in &view.processes {
                text.push_str(&format!("{pid:>5} root      0:00 {p}\n"));
                pid += 6;
            }
            text.push_str(&format!("{pid:>5} root      0:00 {}\n", argv.join(" ")));
            out(actions, text);
            0
        }
        "nginx" => nginx(view, args, actions),
        "stty" => {
            // Reached only without a terminal (the shell runs stty itself when it has one).
            let (acts, code) = stty(args, None, view.userland);
            actions.extend(acts);
            code
        }
        other => {
            err(
                actions,
                format!("{other}: not supported by the simulator\n"),
            );
            126
        }
    }
}

fn ls(view: &ContainerView, args: &[String], busybox: bool, actions: &mut Vec<Action>) -> i32 {
    let dirs: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let dirs = if dirs.is_empty() { vec!["/"] } else { dirs };
    let mut code = 0;
    for d in &dirs {
        if view.files.contains_key(*d) {
            out(actions, format!("{d}\n"));
        } else if view.is_dir(d) {
            if dirs.len() > 1 {
                out(actions, format!("{d}:\n"));
            }
            let entries: String = view.list_dir(d).iter().map(|e| format!("{e}\n")).collect();
            out(actions, entries);
        } else if busybox {
            err(actions, format!("ls: {d}: No such file or directory\n"));
            code = 1;
        } else {
            err(
                actions,
                format!("ls: cannot access '{d}': No such file or directory\n"),
            );
            code = 2;
        }
    }
    code
}

fn nginx(view: &ContainerView, args: &[String], actions: &mut Vec<Action>) -> i32 {
    let (_, tag) = super::userland::split_image(&view.image);
    match args.first().map(String::as_str) {
        Some("-v") => {
            err(actions, format!("nginx version: nginx/{tag}\n"));
            0
        }
        Some("-T") | Some("-t") => {
            err(
                actions,
                "nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\nnginx: configuration file /etc/nginx/nginx.conf test is successful\n",
            );
            if args[0] == "-T" {
                let main = view.files.get_key_value("/etc/nginx/nginx.conf");
                let included = view
                    .files
                    .iter()
                    .filter(|(p, _)| p.starts_with("/etc/nginx/conf.d/") && p.ends_with(".conf"));
                let text: String = main
                    .into_iter()
                    .chain(included)
                    .map(|(path, body)| format!("# configuration file {path}:\n{body}\n"))
                    .collect();
                out(actions, text);
            }
            0
        }
        _ => {
            err(
                actions,
                "nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)\n",
            );
            1
        }
    }
}
