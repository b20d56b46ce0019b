//! `stty` in the simulated userlands, reading the session's terminal: `stty size` prints
//! `ROWS COLS` from the last resize message the client sent on channel 4 (`{"Width":…,
//! "Height":…}`, `docs/protocols.md` §3.2), `0 0` before any (a fresh pty), as real stty does.
//!
//! Also: `stty` (`speed 38400 baud; line = 0;`), `stty -a` (its first line, with rows and
//! columns), and the usual mode words (`raw`, `-echo`, `sane`, …) accepted without effect.
//! Without a terminal (exec without `-t`, or stdin from a pipe) it fails as stty does on a
//! non-tty stdin: GNU coreutils `stty: 'standard input': Inappropriate ioctl for device`,
//! busybox `stty: standard input: …` (musl's `Not a tty` on Alpine); exit 1.
//!
//! [`tput`] (ncurses, Debian-based images): `cols`/`lines` from the terminal when there is one,
//! else from `$COLUMNS`/`$LINES`, else xterm's terminfo defaults 80/24; `colors` is 8. Without
//! `$TERM` (an exec without a tty, where the runtime sets none) it fails as ncurses does.

use super::process::Action;
use super::userland::{ContainerView, Userland};

/// A terminal size as the resize channel carries it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WinSize {
    /// Rows (`Height`).
    pub rows: u16,
    /// Columns (`Width`).
    pub cols: u16,
}

impl WinSize {
    /// Parses a resize frame's payload, `{"Width":120,"Height":40}` with or without a trailing
    /// newline; `None` for anything else.
    #[must_use]
    pub fn parse(payload: &[u8]) -> Option<WinSize> {
        let v: serde_json::Value = serde_json::from_slice(payload).ok()?;
        let get = |k: &str| v.get(k)?.as_u64().and_then(|n| u16::try_from(n).ok());
        Some(WinSize {
            rows: get("Height")?,
            cols: get("Width")?,
        })
    }
}

/// Mode words accepted (and ignored) like real stty accepts them.
const MODES: [&str; 10] = [
    "raw", "-raw", "cooked", "sane", "echo", "-echo", "icanon", "-icanon", "isig", "-isig",
];

/// Runs `stty ARGS` on a terminal of size `tty` (`None`: stdin is not a terminal); the output
/// actions and the exit status.
#[must_use]
pub fn stty(args: &[String], tty: Option<WinSize>, userland: Userland) -> (Vec<Action>, i32) {
    let Some(size) = tty else {
        let text = match userland {
            Userland::Debian => "stty: 'standard input': Inappropriate ioctl for device\n",
            Userland::Alpine => "stty: standard input: Not a tty\n",
            Userland::Busybox | Userland::None => {
                "stty: standard input: Inappropriate ioctl for device\n"
            }
        };
        return (vec![Action::Stderr(text.as_bytes().to_vec())], 1);
    };
    let out = |s: String| (vec![Action::Stdout(s.into_bytes())], 0);
    match args.first().map(String::as_str) {
        None => out("speed 38400 baud; line = 0;\n".to_owned()),
        Some("size") => out(format!("{} {}\n", size.rows, size.cols)),
        Some("-a" | "--all") => out(format!(
            "speed 38400 baud; rows {}; columns {}; line = 0;\n",
            size.rows, size.cols
        )),
        Some(_) => match args.iter().find(|a| !MODES.contains(&a.as_str())) {
            None => (Vec::new(), 0),
            Some(bad) => {
                let mut text = format!("stty: invalid argument '{bad}'\n");
                if userland == Userland::Debian {
                    text.push_str("Try 'stty --help' for more information.\n");
                }
                (vec![Action::Stderr(text.into_bytes())], 1)
            }
        },
    }
}

/// Runs `tput ARGS` on a terminal of size `tty` (`None`: stdout is not a terminal) in `view`'s
/// environment; the output actions and the exit status.
#[must_use]
pub fn tput(args: &[String], tty: Option<WinSize>, view: &ContainerView) -> (Vec<Action>, i32) {
    let env = |k: &str| {
        view.env
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
    };
    if env("TERM").is_none_or(|t| t.is_empty()) {
        let text = "tput: No value for $TERM and no -T specified\n";
        return (vec![Action::Stderr(text.as_bytes().to_vec())], 2);
    }
    let from_env = |k: &str| env(k).and_then(|v| v.parse::<u16>().ok());
    let value = match args.first().map(String::as_str) {
        Some("cols") => tty
            .map(|s| s.cols)
            .filter(|c| *c > 0)
            .or_else(|| from_env("COLUMNS"))
            .unwrap_or(80),
        Some("lines") => tty
            .map(|s| s.rows)
            .filter(|r| *r > 0)
            .or_else(|| from_env("LINES"))
            .unwrap_or(24),
        Some("colors") => 8,
        Some(cap) => {
            let text = format!("tput: unknown terminfo capability '{cap}'\n");
            return (vec![Action::Stderr(text.into_bytes())], 4);
        }
        None => {
            let text = "usage: tput [-V] [-S] [-T term] capname\n";
            return (vec![Action::Stderr(text.as_bytes().to_vec())], 2);
        }
    };
    (vec![Action::Stdout(format!("{value}\n").into_bytes())], 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str], tty: Option<WinSize>, u: Userland) -> (String, String, i32) {
        let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        let (actions, code) = stty(&args, tty, u);
        let (mut out, mut err) = (String::new(), String::new());
        for a in actions {
            match a {
                Action::Stdout(b) => out.push_str(&String::from_utf8_lossy(&b)),
                Action::Stderr(b) => err.push_str(&String::from_utf8_lossy(&b)),
                _ => {}
            }
        }
        (out, err, code)
    }

    #[test]
    fn size_is_rows_then_columns() {
        let s = WinSize::parse(b"{\"Width\":120,\"Height\":40}\n").expect("kubectl's frame");
        assert_eq!(
            s,
            WinSize {
                rows: 40,
                cols: 120
            }
        );
        assert_eq!(
            run(&["size"], Some(s), Userland::Debian),
            ("40 120\n".into(), String::new(), 0)
        );
        assert_eq!(
            run(&["size"], Some(WinSize::default()), Userland::Busybox).0,
            "0 0\n"
        );
        assert_eq!(
            run(&["-a"], Some(s), Userland::Debian).0,
            "speed 38400 baud; rows 40; columns 120; line = 0;\n"
        );
        assert_eq!(WinSize::parse(b"{\"Width\":\"x\"}"), None);
    }

    #[test]
    fn no_terminal_and_bad_words_fail_as_stty_does() {
        assert_eq!(
            run(&["size"], None, Userland::Debian),
            (
                String::new(),
                "stty: 'standard input': Inappropriate ioctl for device\n".into(),
                1
            )
        );
        assert_eq!(
            run(&["size"], None, Userland::Alpine).1,
            "stty: standard input: Not a tty\n"
        );
        let tty = Some(WinSize::default());
        assert_eq!(run(&["raw", "-echo"], tty, Userland::Debian).2, 0);
        assert_eq!(
            run(&["bogus"], tty, Userland::Busybox),
            (String::new(), "stty: invalid argument 'bogus'\n".into(), 1)
        );
    }
}
