//! `--once -o yaml`: the pod object as `kubectl get pod -o yaml` prints it — the same fields and
//! values, keys sorted, `managedFields` hidden as kubectl hides them by default
//! (`docs/views.md` §1). One GET of the pod read as raw JSON, so fields podscope's API types do
//! not know are printed too.

use std::process::ExitCode;

use serde_json::Value;

use super::super::setup_error;
use crate::cluster::Target;
use crate::cluster::config::describe_error;
use crate::model::yaml::to_yaml;

/// GETs `target`'s pod once and prints it as YAML on stdout; exit 0. A missing pod prints
/// kubectl's `Error from server (NotFound): pods "x" not found` line and exits 1; other failures
/// exit 2.
pub async fn print(target: &Target) -> ExitCode {
    let path = format!(
        "/api/v1/namespaces/{}/pods/{}",
        target.namespace, target.pod
    );
    let request = match http::Request::get(path).body(Vec::new()) {
        Ok(r) => r,
        Err(e) => return setup_error(&e.to_string()),
    };
    match target.client.request::<Value>(request).await {
        Ok(pod) => {
            print!("{}", to_yaml(&pod, false));
            ExitCode::SUCCESS
        }
        Err(kube::Error::Api(status)) if status.code == 404 => {
            let closest = super::super::attach::closest_pods(target).await;
            let line = format!(
                "Error from server (NotFound): pods \"{}\" not found in namespace \"{}\"",
                target.pod, target.namespace
            );
            match crate::model::pod_ref::did_you_mean(&closest) {
                Some(hint) => eprintln!("{line}; {hint}"),
                None => eprintln!("{line}"),
            }
            ExitCode::FAILURE
        }
        Err(e) => setup_error(&format!(
            "{} (server {})",
            describe_error(&e, "get", "pods", &target.namespace),
            target.server
        )),
    }
}
