//! The syntax of the simulated shell ([`super::exec_shell`]): a line split into commands at `;`,
//! `&&`, `||` outside quotes; a command split into words with single/double quotes, backslash
//! escapes, `#` comments and `$NAME`, `${NAME}`, `$?`, `$0` expanded; `>`/`>>`/`2>`/`2>&1`
//! redirections taken out and reported (files are not written: output to a file is discarded).

use super::process::Action;

/// What `$` expands to: the container's environment, the last status, the shell's `$0`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Vars<'a> {
    /// `NAME=value` pairs.
    pub(super) env: &'a [(String, String)],
    /// `$?`.
    pub(super) status: i32,
    /// `$0`.
    pub(super) argv0: &'a str,
}

/// Splits a command into words with quote handling and `$` expansion; drops redirections and
/// reports where stdout and stderr go.
pub(super) fn words(cmd: &str, vars: &Vars<'_>) -> (Vec<String>, Redirect) {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '#') if !in_word => break,
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, '\'') | (None, '"') => {
                quote = Some(c);
                in_word = true;
            }
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (_, '$') => {
                in_word = true;
                cur.push_str(&expand(&mut chars, vars));
            }
            (_, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    let mut out = Vec::new();
    let mut redirect = Redirect {
        stdout: Dest::Stdout,
        stderr: Dest::Stderr,
    };
    let mut iter = words.into_iter();
    while let Some(w) = iter.next() {
        let target = w.trim_start_matches(['1', '2']);
        if !target.starts_with('>') {
            out.push(w);
            continue;
        }
        let slot = if w.starts_with('2') {
            &mut redirect.stderr
        } else {
            &mut redirect.stdout
        };
        *slot = match target.trim_start_matches('>') {
            "&1" => Dest::Stdout,
            "&2" => Dest::Stderr,
            "" => {
                iter.next();
                Dest::Null
            }
            _ => Dest::Null,
        };
    }
    (out, redirect)
}

/// Expands the `$…` after `$` (`?`, `0`, `{NAME}`, `NAME`; a lone `$` stays).
fn expand(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, vars: &Vars<'_>) -> String {
    let mut name = String::new();
    match chars.peek() {
        Some('?') => {
            chars.next();
            return vars.status.to_string();
        }
        Some('0') => {
            chars.next();
            return vars.argv0.to_owned();
        }
        Some('{') => {
            chars.next();
            for c in chars.by_ref() {
                if c == '}' {
                    break;
                }
                name.push(c);
            }
        }
        _ => {
            while let Some(&c) = chars.peek() {
                if c.is_ascii_alphanumeric() || c == '_' {
                    name.push(c);
                    chars.next();
                } else {
                    break;
                }
            }
            if name.is_empty() {
                return "$".to_string();
            }
        }
    }
    vars.env
        .iter()
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

/// Where a command's output stream goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dest {
    Stdout,
    Stderr,
    Null,
}

impl Dest {
    /// The action writing `bytes` there (`None`: discarded).
    pub(super) fn apply(self, bytes: Vec<u8>) -> Option<Action> {
        match self {
            Dest::Stdout => Some(Action::Stdout(bytes)),
            Dest::Stderr => Some(Action::Stderr(bytes)),
            Dest::Null => None,
        }
    }
}

/// Where a command's stdout and stderr go after its redirections.
#[derive(Debug, Clone, Copy)]
pub(super) struct Redirect {
    /// stdout's destination.
    pub(super) stdout: Dest,
    /// stderr's destination.
    pub(super) stderr: Dest,
}

/// What joins a command to the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sep {
    Start,
    Semi,
    And,
    Or,
}

/// Splits a line at `;`, `&&`, `||` outside quotes.
pub(super) fn split_commands(line: &str) -> Vec<(Sep, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut sep = Sep::Start;
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            (None, ';') => {
                out.push((sep, std::mem::take(&mut cur)));
                sep = Sep::Semi;
            }
            (None, '&') if chars.peek() == Some(&'&') => {
                chars.next();
                out.push((sep, std::mem::take(&mut cur)));
                sep = Sep::And;
            }
            (None, '|') if chars.peek() == Some(&'|') => {
                chars.next();
                out.push((sep, std::mem::take(&mut cur)));
                sep = Sep::Or;
            }
            (None, c) => cur.push(c),
        }
    }
    out.push((sep, cur));
    out.retain(|(_, c)| !c.trim().is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(env: &[(String, String)]) -> Vars<'_> {
        Vars {
            env,
            status: 3,
            argv0: "/bin/sh",
        }
    }

    #[test]
    fn quotes_expansion_and_redirections() {
        let env = [("HOME".to_owned(), "/root".to_owned())];
        let (w, r) = words(
            r#"echo 'a $HOME' "b $HOME" ${HOME}x $? $0 \$ # gone"#,
            &vars(&env),
        );
        assert_eq!(
            w,
            ["echo", "a $HOME", "b /root", "/rootx", "3", "/bin/sh", "$"]
        );
        assert_eq!((r.stdout, r.stderr), (Dest::Stdout, Dest::Stderr));
        let (w, r) = words("ls /nope >/dev/null 2>&1", &vars(&env));
        assert_eq!(w, ["ls", "/nope"]);
        assert_eq!((r.stdout, r.stderr), (Dest::Null, Dest::Stdout));
        let (_, r) = words("x > out.txt", &vars(&env));
        assert_eq!(r.stdout, Dest::Null);
    }

    #[test]
    fn lines_split_at_separators_outside_quotes() {
        let parts = split_commands("a; b && 'c;d' || e");
        let seps: Vec<Sep> = parts.iter().map(|(s, _)| *s).collect();
        assert_eq!(seps, [Sep::Start, Sep::Semi, Sep::And, Sep::Or]);
        assert_eq!(parts[2].1.trim(), "'c;d'");
    }
}
