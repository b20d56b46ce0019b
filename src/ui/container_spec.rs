//! The container's spec in its detail: the command line, then env, envFrom, volume mounts and
//! the securityContext essentials ([`crate::model::container_spec`]).
//!
//! Three forms, chosen by the room the detail gets, so nothing needs a key:
//! - [`Form::Command`], counted in the detail's normal height ([`super::detail::wanted`]): the
//!   `Command` line alone, when `command` or `args` is set (the other forms say
//!   `image default` when neither is). At 80×24
//!   the detail's eight rows go to the state, the back-off and the findings first; the spec
//!   comes after them and shows when the container's state is short.
//! - [`Form::Full`], the lists one entry a line (`Env`, `Env From`, `Mounts`, `Security`),
//!   each bounded to [`SHOWN`] entries and `… N more`, when the frame has room for them after
//!   the full conditions table (`ui::layout`, whole or not at all; more events come after);
//! - else [`Form::Compact`], `Command` and one `Spec` line of counts and security words
//!   (`env 3 · envFrom 1 · mounts 2 · runAsUser 1000 (pod), readOnlyRootFilesystem true`),
//!   when that one more row fits.
//!
//! The detail draws the fullest form its area holds.
//!
//! A `valueFrom` shows the object and key it reads (`DB_PASSWORD ← Secret db key password`),
//! never a value: podscope does not read Secrets.

use ratatui::text::{Line, Span};

use super::detail::{LABEL_W, field};
use super::theme::Theme;
use super::width;
use crate::model::ContainerSummary;
use crate::model::container_spec::ContainerSpec;

/// Entries each list shows in [`Form::Full`] before `… N more`.
pub const SHOWN: usize = 12;
/// Rows the command line may wrap to in [`Form::Full`].
const COMMAND_ROWS: usize = 3;

/// Which form of the spec the detail draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The `Command` line only, and only when `command` or `args` is set.
    Command,
    /// `Command` and one `Spec` line.
    Compact,
    /// `Command` and every list, one entry a line.
    Full,
}

/// Appends the spec lines of `c` in `form`, at most `width` columns each.
pub fn lines(
    out: &mut Vec<Line<'static>>,
    c: &ContainerSummary,
    form: Form,
    t: &Theme,
    width: u16,
) {
    let spec = &c.spec;
    let room = usize::from(width).saturating_sub(LABEL_W).max(1);
    let command = spec.command_line();
    let style = if spec.command.is_empty() && spec.args.is_empty() {
        t.dim
    } else {
        ratatui::style::Style::default()
    };
    match form {
        Form::Command | Form::Compact => {
            let image_default = spec.command.is_empty() && spec.args.is_empty();
            if form == Form::Compact || !image_default {
                out.push(field(
                    "Command",
                    vec![Span::styled(width::ellipsis(&command, room), style)],
                    t.label,
                ));
            }
            if form == Form::Command {
                return;
            }
            let summary = summary(spec);
            if !summary.is_empty() {
                out.push(field(
                    "Spec",
                    vec![Span::raw(width::ellipsis(&summary, room))],
                    t.label,
                ));
            }
        }
        Form::Full => {
            let mut rows = width::words(&command, room);
            if rows.len() > COMMAND_ROWS {
                rows.truncate(COMMAND_ROWS);
                if let Some(last) = rows.last_mut() {
                    *last = width::ellipsis(&format!("{last} …"), room);
                }
            }
            for (i, row) in rows.into_iter().enumerate() {
                let label = if i == 0 { "Command" } else { "" };
                out.push(field(label, vec![Span::styled(row, style)], t.label));
            }
            full(out, spec, t, room);
        }
    }
}

/// Rows [`lines`] appends for `c` in `form`.
#[must_use]
pub fn rows(c: &ContainerSummary, form: Form, t: &Theme, width: u16) -> usize {
    let mut out = Vec::new();
    lines(&mut out, c, form, t, width);
    out.len()
}

/// `env 3 · envFrom 1 · mounts 2 · runAsUser 1000, …`: the non-empty counts, then the
/// securityContext words; empty when the spec has none of them.
#[must_use]
pub fn summary(spec: &ContainerSpec) -> String {
    let mut parts = Vec::new();
    for (name, n) in [
        ("env", spec.env.len() + spec.env_omitted),
        ("envFrom", spec.env_from.len() + spec.env_from_omitted),
        ("mounts", spec.mounts.len() + spec.mounts_omitted),
    ] {
        if n > 0 {
            parts.push(format!("{name} {n}"));
        }
    }
    let security = spec.security_context.words();
    if !security.is_empty() {
        parts.push(security.join(", "));
    }
    parts.join(" · ")
}

/// The lists of [`Form::Full`].
fn full(out: &mut Vec<Line<'static>>, spec: &ContainerSpec, t: &Theme, room: usize) {
    let env: Vec<String> = spec
        .env
        .iter()
        .map(crate::model::container_spec::Env::text)
        .collect();
    list(out, "Env", &env, spec.env_omitted, t, room);
    let env_from: Vec<String> = spec.env_from.iter().map(|e| e.text()).collect();
    list(out, "Env From", &env_from, spec.env_from_omitted, t, room);
    for (i, m) in spec.mounts.iter().take(SHOWN).enumerate() {
        let label = if i == 0 { "Mounts" } else { "" };
        out.push(field(label, mount_spans(m, t, room), t.label));
    }
    let hidden = spec.mounts.len().saturating_sub(SHOWN) + spec.mounts_omitted;
    more(out, hidden, spec.mounts.is_empty(), "Mounts", t);
    let words = spec.security_context.words().join(", ");
    for (i, row) in width::words(&words, room).into_iter().enumerate() {
        let label = if i == 0 { "Security" } else { "" };
        out.push(field(label, vec![Span::raw(row)], t.label));
    }
}

/// One labelled list: each entry on a line cut to `room`, then `… N more`.
fn list(
    out: &mut Vec<Line<'static>>,
    label: &str,
    items: &[String],
    omitted: usize,
    t: &Theme,
    room: usize,
) {
    for (i, text) in items.iter().take(SHOWN).enumerate() {
        let label = if i == 0 { label } else { "" };
        out.push(field(
            label,
            vec![Span::raw(width::ellipsis(text, room))],
            t.label,
        ));
    }
    let hidden = items.len().saturating_sub(SHOWN) + omitted;
    more(out, hidden, items.is_empty(), label, t);
}

/// `… N more` under a list (labelled when the list showed nothing).
fn more(out: &mut Vec<Line<'static>>, hidden: usize, empty: bool, label: &str, t: &Theme) {
    if hidden > 0 {
        let label = if empty { label } else { "" };
        out.push(field(
            label,
            vec![Span::styled(format!("… {hidden} more"), t.dim)],
            t.label,
        ));
    }
}

/// `path ← source (ro)`: the source whole when it fits, the path cut in its middle first
/// (`/var/run/secrets/…/serviceaccount`), since the source is what the line is for.
fn mount_spans(
    m: &crate::model::container_spec::Mount,
    t: &Theme,
    room: usize,
) -> Vec<Span<'static>> {
    let source = format!(" ← {}", m.source_text());
    let path_room = room.saturating_sub(width::cells(&source));
    let path = if width::cells(&m.path) <= path_room {
        m.path.clone()
    } else {
        middle(&m.path, path_room.max(8))
    };
    let line = format!("{path}{source}");
    if width::cells(&line) <= room {
        vec![Span::raw(path), Span::styled(source, t.dim)]
    } else {
        vec![Span::raw(width::ellipsis(&line, room))]
    }
}

/// `s` cut to `cols` columns by replacing its middle with `…`.
fn middle(s: &str, cols: usize) -> String {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= cols {
        return s.to_owned();
    }
    let keep = cols.saturating_sub(1);
    let head = keep.div_ceil(2);
    let tail = keep - head;
    let start: String = chars[..head].iter().collect();
    let end: String = chars[chars.len() - tail..].iter().collect();
    format!("{start}…{end}")
}
