//! `s`: the pane's lines to a file, as the pane lists them, and what was saved in the status
//! line. Pure: the file is written by the loop (`Cmd::SaveLogs`), its result comes back as
//! `Msg::LogsSaved`.

use crate::app::Cmd;
use crate::app::state::State;
use crate::model::LineKind;

/// `Msg::LogsSaved`: the result in the status line, saying what was saved, e.g.
/// `saved 12 lines (filter "disk", timestamps off) to PATH`.
pub fn saved(state: &mut State, path: &str, result: Result<usize, String>) {
    let pane = &mut state.target.logs;
    let what = pane
        .saving
        .iter()
        .position(|(p, _)| p == path)
        .map(|i| pane.saving.remove(i).1);
    pane.status = Some(match (result, what) {
        (Ok(_), Some(what)) => format!("saved {what} to {path}"),
        (Ok(bytes), None) => format!("saved {bytes} bytes to {path}"),
        (Err(e), _) => format!(
            "cannot save {path}: {}",
            crate::model::sanitize::sanitize(&e)
        ),
    });
    state.dirty = true;
}

/// `s`: the lines the pane lists (only those the filter passes when one is set, markers and
/// woven-in events included), with the kubelet's timestamps when `t` shows them and container
/// prefixes when all containers are shown, to `podscope-<pod>-<container>-<time>.log` in `Config::save_dir`. What was
/// written is remembered for the status line ([`saved`]).
pub fn save(state: &mut State) -> Vec<Cmd> {
    let pane = &state.target.logs;
    let container = if pane.all {
        "all".to_owned()
    } else {
        pane.follows
            .first()
            .map_or_else(|| "none".to_owned(), |f| f.container().to_owned())
    };
    let stamp = state.now.strftime("%Y%m%dT%H%M%SZ").to_string();
    let safe = |s: &str| s.replace(['/', '\\'], "_");
    let name = format!(
        "podscope-{}-{}-{stamp}.log",
        safe(&state.target.name),
        safe(&container)
    );
    let path = match &state.config.save_dir {
        Some(dir) => dir.join(&name).display().to_string(),
        None => name,
    };
    let mut contents = String::new();
    let n = pane.view_len();
    for pos in 0..n {
        let Some((_, l)) = pane.view_line(pos) else {
            continue;
        };
        if pane.timestamps
            && let Some(ts) = l.ts
        {
            contents.push_str(&ts.strftime("%Y-%m-%dT%H:%M:%S.%9fZ").to_string());
            contents.push(' ');
        }
        if (pane.all || l.kind == LineKind::Event) && !l.container.is_empty() {
            contents.push('[');
            contents.push_str(&l.container);
            contents.push_str("] ");
        }
        contents.push_str(&l.text);
        contents.push('\n');
    }
    let mut what = Vec::new();
    if let Some(f) = &pane.filter {
        what.push(format!("filter \"{}\"", f.text));
    }
    what.push(format!(
        "timestamps {}",
        if pane.timestamps { "on" } else { "off" }
    ));
    let summary = format!(
        "{n} line{} ({})",
        if n == 1 { "" } else { "s" },
        what.join(", ")
    );
    state.target.logs.saving.push((path.clone(), summary));
    vec![Cmd::SaveLogs { path, contents }]
}
