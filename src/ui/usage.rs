//! The usage block of the container detail (`docs/usage.md` "On screen"): CPU and memory used
//! (as `kubectl top` prints them), each next to the container's request and limit with the
//! share of each and a sparkline of the samples since attach (the pod's QoS class is in the
//! header's pod line, [`super::header`]):
//!
//! ```text
//! CPU        12m    req 100m (12%)    lim 500m (2%)    ▁▂▂▃▅
//! Memory     471Mi  req 256Mi (184%)  lim 512Mi (92%)  ▂▃▄▆█
//! ```
//!
//! Without samples, one line of what was asked for (`Resources  req cpu 100m, memory 256Mi
//! lim memory 512Mi`) and, without the metrics API, one line saying so. A
//! container with neither resources nor samples gets no block.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::detail::field;
use crate::app::state::State;
use crate::model::resources::{Amount, Resources, cpu_text, memory_text, percent};
use crate::model::{ContainerSummary, PodSummary};
use crate::theme::Theme;

/// Most cells of a sparkline.
pub const SPARK_MAX: usize = 24;
/// Fewest cells worth drawing.
const SPARK_MIN: usize = 4;
const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The sparkline of `values` (the last `cells` of them). With a limit `top`: from the smallest
/// shown (`▁`) to `top` (`█`), so a climb toward the limit shows as one however far below it
/// the values started. Without one: from 0 to the largest, so a steady value with a little
/// jitter stays level (`▇█▇`) instead of looking like a collapse (`█▁█`).
#[must_use]
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)] // cell heights
pub fn sparkline(values: &[i64], top: Option<i64>, cells: usize) -> String {
    let shown = &values[values.len().saturating_sub(cells)..];
    let lo = if top.is_some() {
        shown.iter().copied().min().unwrap_or(0).max(0)
    } else {
        0
    };
    let hi = shown
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(top.unwrap_or(0));
    if hi <= lo {
        return BLOCKS[0].to_string().repeat(shown.len());
    }
    shown
        .iter()
        .map(|v| {
            let i = (((*v).max(lo) - lo) as f64 / (hi - lo) as f64 * 7.0).round() as usize;
            BLOCKS[i.min(7)]
        })
        .collect()
}

/// `req 100m (12%)` / `lim 512Mi (92%)`: an amount with the share `used` is of it.
fn share(word: &str, amount: Option<&Amount>, used: Option<i64>, per_unit: f64) -> String {
    let Some(a) = amount else {
        return String::new();
    };
    #[allow(clippy::cast_precision_loss)] // a percentage
    let pct = match (used, a.value) {
        (Some(u), Some(v)) => percent(u as f64, v.as_f64() * per_unit)
            .map(|p| format!(" ({p}%)"))
            .unwrap_or_default(),
        _ => String::new(),
    };
    format!("{word} {}{pct}", a.text)
}

/// Style of a share of the limit: error from 90 %, warn from 75 %.
#[allow(clippy::cast_precision_loss)] // a ratio
fn limit_style(used: Option<i64>, limit: Option<&Amount>, per_unit: f64, t: &Theme) -> Style {
    let ratio = match (used, limit.and_then(|a| a.value)) {
        (Some(u), Some(v)) if v.is_positive() => u as f64 / (v.as_f64() * per_unit),
        _ => return Style::default(),
    };
    if ratio >= 0.9 {
        t.error
    } else if ratio >= 0.75 {
        t.warn
    } else {
        Style::default()
    }
}

/// One `CPU`/`Memory` line.
#[allow(clippy::too_many_arguments)]
fn resource_line(
    label: &str,
    used: Option<String>,
    req: String,
    lim: String,
    spark: Option<String>,
    style: Style,
    t: &Theme,
) -> Line<'static> {
    let mut spans = Vec::new();
    if let Some(u) = used {
        spans.push(Span::styled(format!("{u:<6} "), style));
    }
    for part in [req, lim].into_iter().filter(|p| !p.is_empty()) {
        spans.push(Span::raw(format!("{part:<17} ")));
    }
    if let Some(s) = spark {
        spans.push(Span::styled(s, style.patch(t.gauge)));
    }
    field(label, spans, t.label)
}

/// The usage lines for container `c` of `pod` (empty when there is nothing to say).
#[must_use]
pub fn lines(
    c: &ContainerSummary,
    pod: &PodSummary,
    state: &State,
    width: u16,
) -> Vec<Line<'static>> {
    let t = &state.config.theme;
    let usage = &state.target.usage;
    let resources = Resources::of_container(pod, &c.name);
    let history = usage.history.of(&c.name).filter(|h| !h.samples.is_empty());
    let absent = usage.api.line();
    if resources.is_empty() && history.is_none() && absent.is_none() {
        return Vec::new();
    }
    let Some(h) = history else {
        // No samples: what was asked for on one line, and why there is no usage.
        let pair = |p: &crate::model::resources::Pair| {
            [("cpu", &p.cpu), ("memory", &p.memory)]
                .iter()
                .filter_map(|(k, a)| a.as_ref().map(|a| format!("{k} {}", a.text)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let parts: Vec<String> = [
            ("req", pair(&resources.requests)),
            ("lim", pair(&resources.limits)),
        ]
        .into_iter()
        .filter(|(_, p)| !p.is_empty())
        .map(|(k, p)| format!("{k} {p}"))
        .collect();
        let mut out = Vec::new();
        if !parts.is_empty() {
            out.push(field(
                "Resources",
                vec![Span::raw(parts.join("  "))],
                t.label,
            ));
        }
        if let Some(line) = absent {
            out.push(field("Usage", vec![Span::styled(line, t.dim)], t.label));
        }
        return out;
    };
    let last = h.samples.back();
    // The borders, the label, used, req, lim and their gaps take 56 cells.
    let room = usize::from(width).saturating_sub(super::detail::LABEL_W + 45);
    let cells = room.min(SPARK_MAX);
    let spark = |pick: fn(&crate::model::usage::Sample) -> i64, top: Option<i64>| {
        let values: Vec<i64> = h.samples.iter().map(pick).collect();
        (cells >= SPARK_MIN).then(|| sparkline(&values, top, cells))
    };
    let mut out = Vec::new();
    let cpu_used = last.map(|s| s.cpu_millicores);
    let cpu_limit = resources.limits.cpu.as_ref();
    let cpu_top = cpu_limit.and_then(|a| a.value).map(|q| q.millis());
    let cpu = resource_line(
        "CPU",
        cpu_used.map(cpu_text),
        share("req", resources.requests.cpu.as_ref(), cpu_used, 1000.0),
        share("lim", cpu_limit, cpu_used, 1000.0),
        spark(|s| s.cpu_millicores, cpu_top),
        limit_style(cpu_used, cpu_limit, 1000.0, t),
        t,
    );
    out.push(cpu);
    let mem_used = last.map(|s| s.memory_bytes);
    let mem_limit = resources.limits.memory.as_ref();
    out.push(resource_line(
        "Memory",
        mem_used.map(memory_text),
        share("req", resources.requests.memory.as_ref(), mem_used, 1.0),
        share("lim", mem_limit, mem_used, 1.0),
        spark(|s| s.memory_bytes, resources.memory_limit_bytes()),
        limit_style(mem_used, mem_limit, 1.0, t),
        t,
    ));
    // A stopped container has no current usage: the numbers above are its last instance's.
    if !matches!(c.state, crate::model::ContainerState::Running { .. })
        && let Some(s) = last
    {
        out.push(field(
            "Usage",
            vec![Span::styled(
                format!(
                    "last sample {} UTC; not running now",
                    s.at.strftime("%H:%M:%S")
                ),
                t.dim,
            )],
            t.label,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sparkline;

    #[test]
    fn sparkline_scales_to_the_limit() {
        assert_eq!(sparkline(&[0, 256, 512], Some(512), 8), "▁▅█");
        assert_eq!(sparkline(&[384, 448, 512], Some(512), 8), "▁▅█");
        assert_eq!(sparkline(&[400, 430], Some(512), 8), "▁▃");
        assert_eq!(sparkline(&[1, 2, 3, 4], None, 2), "▆█");
        assert_eq!(sparkline(&[11, 12, 11], None, 8), "▇█▇");
        assert_eq!(sparkline(&[0, 0], None, 8), "▁▁");
    }
}
