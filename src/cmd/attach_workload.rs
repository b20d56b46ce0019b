//! `podscope deploy/web` (any workload spelling `model::workload::TargetRef::parse` accepts)
//! and `podscope -l app=web`: the TUI on a workload's pods. Resolves the workload once
//! (`cluster::workload::resolve`: its selector and the pods it matches), chooses the pod to show
//! (`app::workload::begin`), then starts the session on it with the workload's watches; when no
//! pod matches yet the waiting screen names the selector and the pod watch picks up the first
//! one that appears (`docs/workloads.md`, "The workload view").

use std::process::ExitCode;

use super::attach::run_tui_prepared;
use super::cli::AttachArgs;
use super::setup::require_terminal;
use super::setup_error;
use crate::app::workload::{FollowMode, WorkloadView, begin};
use crate::cluster::connect;
use crate::cluster::workload::resolve;
use crate::model::workload::TargetRef;

/// The workload or selector target `args` names (`TargetRef::from_args`); `None` for a pod or
/// no target at all (the pod path and the picker take those).
///
/// # Errors
/// (Inside the `Some`.) An unknown resource type or a malformed selector, in kubectl's words.
#[must_use]
pub fn wanted(args: &AttachArgs) -> Option<Result<TargetRef, String>> {
    match TargetRef::from_args(args.target.as_deref(), args.selector.as_deref()) {
        Ok(Some(TargetRef::Pod(_)) | None) => None,
        Ok(Some(t)) => Some(Ok(t)),
        Err(e) => Some(Err(e)),
    }
}

/// Runs the TUI on `target`'s pods.
///
/// # Errors
/// Only failures inside the TUI loop (terminal IO); setup errors (kubeconfig, a workload that
/// does not exist, RBAC refusing the first read) print their one line and return exit code 2.
pub async fn attach(
    args: &AttachArgs,
    target: &TargetRef,
    all_namespaces: bool,
) -> color_eyre::Result<ExitCode> {
    let opts = args.connect_options();
    let conn = match connect(&opts, "").await {
        Ok(t) => t,
        Err(e) => return Ok(setup_error(&e.to_string())),
    };
    let resolved = match resolve(&conn.client, &conn.namespace, target).await {
        Ok(r) => r,
        Err(e) => return Ok(setup_error(&e.to_string())),
    };
    if let Err(msg) = require_terminal() {
        return Ok(setup_error(&msg));
    }
    let named = resolved.workload.clone();
    let namespace = conn.namespace.clone();
    run_tui_prepared(conn, args, all_namespaces, move |state| {
        let stamp = state.generations.allocate();
        let mut view = WorkloadView::new(
            stamp,
            &namespace,
            named,
            &resolved.selector,
            FollowMode::Auto,
        );
        view.summary = resolved.summary;
        view.errors.extend(resolved.refused);
        begin(state, view, resolved.pods)
    })
    .await
}
