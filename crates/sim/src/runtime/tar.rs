//! `tar` in the simulated userlands, as much as `kubectl cp` uses (`docs/protocols.md` §3.5):
//! `tar cf - PATH…` (with `-C DIR`) writes a ustar/GNU archive of the container's files to
//! stdout, and `tar -xmf - -C DIR` (also `xmf`, `--no-same-permissions`, `--no-same-owner`)
//! unpacks one read from stdin into the container's writable layer ([`super::fs`]).
//!
//! Archives are read and written with the `tar` crate. Member names lose their leading `/`,
//! with GNU tar's notice ``tar: Removing leading `/' from member names`` (busybox:
//! `tar: removing leading '/' from member names`) on stderr — kubectl cp prints it, since it
//! copies the exec's stderr to its stdout. Simulated files are owned by root, mode 0644
//! (directories 0755), modification time 0. Other modes and compression are not simulated.

use std::io::Read;

use super::fs::{FsChange, normalize};
use super::process::Action;
use super::userland::{ContainerView, Userland};

/// A parsed `tar` command line.
#[derive(Debug, Default)]
struct Args {
    /// `c`, `x` or `t`.
    mode: Option<char>,
    /// `-f`: the archive (`-` is stdin/stdout).
    file: Option<String>,
    /// `-C`: the directory to work in.
    dir: Option<String>,
    /// Operands.
    paths: Vec<String>,
}

/// Parses GNU/busybox tar's option forms: an old-style first word (`cf`, `xmf`), bundled short
/// options (`-xmf`), `-C DIR`, `--directory=DIR`, `--file=F`, the ignored `--no-same-owner`,
/// `--no-same-permissions`, `--touch`. `Err(option)` for an option it does not simulate.
fn parse(args: &[String]) -> Result<Args, String> {
    let mut out = Args::default();
    let mut rest = args.iter().enumerate().peekable();
    let mut wanted: Vec<char> = Vec::new();
    while let Some((i, a)) = rest.next() {
        let bundle = if i == 0 && !a.starts_with('-') {
            Some(a.as_str())
        } else if a.starts_with('-') && !a.starts_with("--") && a.len() > 1 {
            Some(&a[1..])
        } else {
            None
        };
        if let Some(letters) = bundle {
            for c in letters.chars() {
                match c {
                    'c' | 'x' | 't' => out.mode = Some(c),
                    'f' | 'C' => wanted.push(c),
                    'm' | 'p' | 'o' | 'v' => {}
                    other => return Err(format!("-{other}")),
                }
            }
            for c in wanted.drain(..) {
                let value = rest.next().map(|(_, v)| v.clone());
                if c == 'f' {
                    out.file = value;
                } else {
                    out.dir = value;
                }
            }
            continue;
        }
        match a.as_str() {
            "--no-same-owner" | "--no-same-permissions" | "--touch" => {}
            "--" => out.paths.extend(rest.by_ref().map(|(_, v)| v.clone())),
            long if long.starts_with("--directory=") => {
                out.dir = Some(long["--directory=".len()..].to_owned());
            }
            long if long.starts_with("--file=") => {
                out.file = Some(long["--file=".len()..].to_owned())
            }
            long if long.starts_with("--") => return Err(long.to_owned()),
            path => out.paths.push(path.to_owned()),
        }
    }
    Ok(out)
}

fn is_busybox(view: &ContainerView) -> bool {
    matches!(view.userland, Userland::Busybox | Userland::Alpine)
}

fn fail(actions: &mut Vec<Action>, text: String, code: i32) -> i32 {
    actions.push(Action::Stderr(text.into_bytes()));
    code
}

/// `-C DIR` that does not exist: GNU tar gives up (exit 2), busybox exits 1.
fn no_dir(view: &ContainerView, dir: &str, actions: &mut Vec<Action>) -> i32 {
    if is_busybox(view) {
        let text = format!("tar: can't change directory to '{dir}': No such file or directory\n");
        return fail(actions, text, 1);
    }
    let text = format!(
        "tar: {dir}: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n"
    );
    fail(actions, text, 2)
}

/// An option the simulator does not implement.
fn unsupported(what: &str, actions: &mut Vec<Action>) -> i32 {
    fail(
        actions,
        format!("tar: {what}: not supported by the simulator\n"),
        126,
    )
}

/// Runs `tar c…` (the only mode that needs no stdin) and returns its exit status.
pub(crate) fn create(view: &ContainerView, args: &[String], actions: &mut Vec<Action>) -> i32 {
    let a = match parse(args) {
        Ok(a) => a,
        Err(opt) => return unsupported(&opt, actions),
    };
    if a.mode != Some('c') {
        return unsupported(&args.join(" "), actions);
    }
    if a.paths.is_empty() {
        let text = "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n";
        return fail(actions, text.to_owned(), 2);
    }
    let cwd = a.dir.clone().unwrap_or_else(|| "/".to_owned());
    if !view.is_dir(&cwd) {
        return no_dir(view, &cwd, actions);
    }
    let all = view.all_files();
    let mut builder = tar::Builder::new(Vec::new());
    let (mut missing, mut warned) = (false, false);
    for p in &a.paths {
        let abs = if p.starts_with('/') {
            normalize(p)
        } else {
            normalize(&format!("{cwd}/{p}"))
        };
        let name = p.trim_start_matches('/').trim_end_matches('/');
        if p.starts_with('/') && !warned {
            warned = true;
            let text = if is_busybox(view) {
                "tar: removing leading '/' from member names\n"
            } else {
                "tar: Removing leading `/' from member names\n"
            };
            actions.push(Action::Stderr(text.as_bytes().to_vec()));
        }
        if let Some(data) = all.get(&abs) {
            append(&mut builder, name, Some(data));
        } else if view.is_dir(&abs) {
            append(&mut builder, &format!("{name}/"), None);
            let below = format!("{abs}/");
            let mut dirs_done = std::collections::BTreeSet::new();
            for (path, data) in all
                .range(below.clone()..)
                .take_while(|(k, _)| k.starts_with(&below))
            {
                let inner = &path[below.len()..];
                let mut at = 0;
                while let Some(cut) = inner[at..].find('/') {
                    let sub = &inner[..at + cut];
                    if dirs_done.insert(sub.to_owned()) {
                        append(&mut builder, &format!("{name}/{sub}/"), None);
                    }
                    at += cut + 1;
                }
                append(&mut builder, &format!("{name}/{inner}"), Some(data));
            }
        } else {
            missing = true;
            let text = if is_busybox(view) {
                format!("tar: {p}: No such file or directory\n")
            } else {
                format!("tar: {p}: Cannot stat: No such file or directory\n")
            };
            actions.push(Action::Stderr(text.into_bytes()));
        }
    }
    let archive = builder.into_inner().unwrap_or_default();
    match a.file.as_deref() {
        None | Some("-") => actions.push(Action::Stdout(archive)),
        Some(f) => actions.push(Action::Write(FsChange::File {
            path: normalize(&format!("{cwd}/{f}")),
            data: archive,
        })),
    }
    match (missing, is_busybox(view)) {
        (false, _) => 0,
        (true, true) => 1,
        (true, false) => {
            let text = "tar: Exiting with failure status due to previous errors\n";
            fail(actions, text.to_owned(), 2)
        }
    }
}

/// Appends a file (`data`) or a directory (`None`, `name` ending in `/`).
fn append(builder: &mut tar::Builder<Vec<u8>>, name: &str, data: Option<&Vec<u8>>) {
    let mut h = tar::Header::new_gnu();
    let body: &[u8] = data.map_or(&[], Vec::as_slice);
    h.set_entry_type(if data.is_some() {
        tar::EntryType::Regular
    } else {
        tar::EntryType::Directory
    });
    h.set_mode(if data.is_some() { 0o644 } else { 0o755 });
    h.set_size(body.len() as u64);
    h.set_mtime(0);
    h.set_uid(0);
    h.set_gid(0);
    let _ = h.set_username("root");
    let _ = h.set_groupname("root");
    let _ = builder.append_data(&mut h, name, body);
}

/// `tar x…f -`: the archive arrives on stdin; unpacked at EOF.
#[derive(Debug, Clone)]
pub struct Untar {
    view: ContainerView,
    dir: String,
    data: Vec<u8>,
}

impl Untar {
    /// The extraction `argv` asks for, when it is `tar` in mode `x` reading stdin; `None`
    /// for anything else (which runs as a batch binary).
    pub(crate) fn for_argv(view: &ContainerView, argv: &[String]) -> Option<Untar> {
        let a = parse(argv.get(1..)?).ok()?;
        (a.mode == Some('x') && matches!(a.file.as_deref(), None | Some("-"))).then(|| Untar {
            view: view.clone(),
            dir: a.dir.unwrap_or_else(|| "/".to_owned()),
            data: Vec::new(),
        })
    }

    /// More of the archive.
    pub(crate) fn input(&mut self, bytes: &[u8]) {
        self.data.extend_from_slice(bytes);
    }

    /// stdin ended: the writes, then the exit.
    pub(crate) fn finish(&mut self) -> Vec<Action> {
        let mut actions = Vec::new();
        if !self.view.is_dir(&self.dir) {
            let code = no_dir(&self.view, &self.dir, &mut actions);
            actions.push(Action::Exit(code));
            return actions;
        }
        let base = normalize(&self.dir);
        let code = match unpack(&self.data, &base) {
            Ok(changes) => {
                actions.extend(changes.into_iter().map(Action::Write));
                0
            }
            Err(()) if is_busybox(&self.view) => {
                fail(&mut actions, "tar: short read\n".to_owned(), 1)
            }
            Err(()) => fail(
                &mut actions,
                "tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n".to_owned(),
                2,
            ),
        };
        actions.push(Action::Exit(code));
        actions
    }
}

/// The files and directories of archive `data` placed under `base`; `Err` when it is not a
/// tar archive.
fn unpack(data: &[u8], base: &str) -> Result<Vec<FsChange>, ()> {
    let mut changes = Vec::new();
    if data.is_empty() {
        return Ok(changes);
    }
    let mut archive = tar::Archive::new(data);
    for entry in archive.entries().map_err(|_| ())? {
        let mut entry = entry.map_err(|_| ())?;
        let name = entry.path().map_err(|_| ())?.to_string_lossy().into_owned();
        let path = normalize(&format!("{base}/{name}"));
        match entry.header().entry_type() {
            tar::EntryType::Directory => changes.push(FsChange::Dir(path)),
            t if t.is_file() => {
                let mut body = Vec::new();
                entry.read_to_end(&mut body).map_err(|_| ())?;
                changes.push(FsChange::File { path, data: body });
            }
            _ => {}
        }
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn kubectl_cp_command_lines_parse() {
        let x = parse(&words(
            "--no-same-permissions --no-same-owner -xmf - -C /tmp",
        ))
        .expect("x");
        assert_eq!(
            (x.mode, x.file.as_deref(), x.dir.as_deref()),
            (Some('x'), Some("-"), Some("/tmp"))
        );
        let c = parse(&words("cf - /etc/nginx/nginx.conf")).expect("c");
        assert_eq!(
            (c.mode, c.file.as_deref(), c.paths),
            (
                Some('c'),
                Some("-"),
                vec!["/etc/nginx/nginx.conf".to_owned()]
            )
        );
        assert!(parse(&words("czf - x")).is_err());
    }

    #[test]
    fn what_is_archived_unpacks_to_the_same_files() {
        let mut b = tar::Builder::new(Vec::new());
        append(&mut b, "d/", None);
        append(&mut b, "d/f", Some(&b"bytes\x00\xff".to_vec()));
        let data = b.into_inner().expect("archive");
        let changes = unpack(&data, "/tmp").expect("unpacks");
        assert_eq!(
            changes,
            [
                FsChange::Dir("/tmp/d".into()),
                FsChange::File {
                    path: "/tmp/d/f".into(),
                    data: b"bytes\x00\xff".to_vec()
                }
            ]
        );
        assert!(unpack(b"not a tar archive, certainly not 512 bytes", "/").is_err());
    }
}
