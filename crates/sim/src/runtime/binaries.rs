//! The simulated binaries of exec/attach, per [`Userland`]: `hostname` (the pod's hostname, in
//! every container, as the seed shows), `env`/`printenv`, `cat [FILE…]`, `ls [DIR…]`, `ps`
//! (busybox/alpine only), `sleep N`, `echo`, `true`, `false`, `pwd`, `id`, `whoami`,
//! `uname [-a]`, `stty` (without a terminal; with one the shell or [`super::process::start`]
//! runs it), `test -d|-f|-e PATH`, `tar c` ([`super::tar`]; `tar x` reads stdin and is started
//! by [`super::process::start`]), `nginx -T`/`-v` (nginx images), `sh`, and on Debian-based
//! images `bash` and `tput` (ncurses-bin is essential there; busybox has no `tput`). A
//! distroless image ([`Userland::None`]) has none of them.

use jiff::SignedDuration;

use super::image::{App, SimImage};
use super::process::Action;
use super::stty::stty;
use super::userland::{ContainerView, Userland};

/// Whether `name` is an executable in the container.
pub(crate) fn has_binary(view: &ContainerView, name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    let common = [
        "hostname", "env", "printenv", "cat", "ls", "sleep", "echo", "true", "false", "pwd", "id",
        "whoami", "uname", "sh", "stty", "tar", "test",
    ];
    match view.userland {
        Userland::None => false,
        Userland::Busybox | Userland::Alpine => common.contains(&base) || base == "ps",
        Userland::Debian => {
            common.contains(&base)
                || base == "bash"
                || base == "tput"
                || (base == "nginx" && SimImage::of(&view.image).app == App::Nginx)
        }
    }
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
                match view.read(f) {
                    Some(bytes) => actions.push(Action::Stdout(bytes)),
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
        "tar" => super::tar::create(view, args, actions),
        "test" => {
            let ok = match args {
                [flag, path] if flag == "-d" => view.is_dir(path),
                [flag, path] if flag == "-f" => view.read(path).is_some(),
                [flag, path] if flag == "-e" => view.is_dir(path) || view.read(path).is_some(),
                [word] => !word.is_empty(),
                _ => false,
            };
            i32::from(!ok)
        }
        "tput" => {
            let (acts, code) = super::stty::tput(args, None, view);
            actions.extend(acts);
            code
        }
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
        if view.read(d).is_some() {
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
    let tag = SimImage::of(&view.image).tag;
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
