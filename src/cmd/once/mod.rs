//! `--once`: one snapshot of the pod, read by [`crate::cluster::one_shot`], printed as text
//! ([`to_text`]) or JSON ([`to_json`]) at a given `now`, its diagnosis first; or the pod object
//! as `kubectl get pod -o yaml` prints it ([`yaml`], `-o yaml`).
//!
//! The JSON document uses Kubernetes field names where the concept is the same; `status`,
//! `ready`, `restarts` and `age` are exactly what `kubectl get pod` prints (`docs/protocols.md`
//! §6). Its `"diagnosis"` is the list of
//! [`crate::model::diagnosis::Finding`]s, each `{"rule", "severity", "container", "headline",
//! "evidence", "action", "confidence", "basis"}`; the text starts with a `Diagnosis:` section.

pub mod json;
mod spec;
pub mod text;
pub mod workload;
pub mod yaml;

use std::process::ExitCode;

use jiff::Timestamp;

pub use json::to_json;
pub use text::to_text;

use super::cli::OutputFormat;
use super::setup_error;
use crate::cluster::Target;
use crate::cluster::one_shot::{ReadError, confirm, read_snapshot};
use crate::model::pod_ref::did_you_mean;

/// Reads `target`'s pod once and prints it in `format` on stdout; exit 0. A missing pod is
/// kubectl's `Error from server (NotFound): …` with the namespace's closest names
/// (`; did you mean crash?`, [`super::attach::closest_pods`]) and exit 1; other failures exit 2
/// ([`super::EXIT_SETUP_ERROR`]). `now` pins the clock (`--now`), else the one clock read.
pub async fn print(target: &Target, format: OutputFormat, now: Option<Timestamp>) -> ExitCode {
    #[allow(clippy::disallowed_methods)] // the one clock read of --once
    let now = now.unwrap_or_else(Timestamp::now);
    if format == OutputFormat::Yaml {
        return yaml::print(target).await;
    }
    match read_snapshot(target).await {
        Ok(mut snap) => {
            // One GET of the pod's PodMetrics, no probe and no polling (`docs/usage.md`); its
            // sample feeds the diagnosis (`memory-near-limit`) and the usage fields.
            let metrics = match crate::cluster::metrics::read(
                &target.client,
                &snap.pod.namespace,
                &snap.pod.name,
            )
            .await
            {
                crate::cluster::metrics::Read::Metrics(m) => Some(*m),
                _ => None,
            };
            if let Some(m) = &metrics {
                snap.usage.push(m);
            }
            let diagnosis = confirm(target, &mut snap, now).await;
            let (pod, events, owner) = (&snap.pod, &snap.events, &snap.owner);
            let out = match format {
                OutputFormat::Json => {
                    let mut doc = to_json(pod, events, owner, &diagnosis, now);
                    json::add_usage(&mut doc, metrics.as_ref());
                    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
                }
                OutputFormat::Text | OutputFormat::Yaml => {
                    text::to_text_with_usage(pod, events, owner, &diagnosis, metrics.as_ref(), now)
                }
            };
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e @ ReadError::NotFound { .. }) => {
            let closest = super::attach::closest_pods(target).await;
            match did_you_mean(&closest) {
                Some(hint) => eprintln!("Error from server (NotFound): {e}; {hint}"),
                None => eprintln!("Error from server (NotFound): {e}"),
            }
            ExitCode::FAILURE
        }
        Err(e) => setup_error(&e.to_string()),
    }
}
