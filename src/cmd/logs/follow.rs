//! `podscope logs -f` across restarts: when the kubelet ends a follow stream (the container
//! stopped, `docs/protocols.md` §2.4), watch the pod, fetch the tail of the instance that died,
//! and open the next instance from where the last one left off, with a marker on stderr.

use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ContainerStatus, Pod};
use kube::api::LogParams;
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event as WatchEvent};

use super::{Ctx, Out, PumpError, pump};
use crate::cluster::logs::LogError;
use crate::cluster::watch::pod_selector;
use crate::model::PodSummary;
use crate::model::log_resume::{
    ResumeFilter, ResumeTracker, lost_instances_marker, restart_marker,
};
use crate::model::pod::Terminated;

/// One container instance: its `containerID` and the `restartCount` it ran with.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Instance {
    id: String,
    restart_count: i32,
}

fn status<'a>(pod: &'a Pod, container: &str) -> Option<&'a ContainerStatus> {
    let s = pod.status.as_ref()?;
    [
        &s.init_container_statuses,
        &s.container_statuses,
        &s.ephemeral_container_statuses,
    ]
    .into_iter()
    .flat_map(|l| l.iter().flatten())
    .find(|c| c.name == container)
}

fn non_empty(id: Option<&String>) -> Option<String> {
    id.filter(|i| !i.is_empty()).cloned()
}

/// The instance the kubelet serves for `previous=false` (running, else terminated, else the last
/// terminated one), as in its `validateContainerLogStatus`.
fn served(cs: &ContainerStatus) -> Option<Instance> {
    let state = cs.state.as_ref();
    let last = cs.last_state.as_ref().and_then(|l| l.terminated.as_ref());
    let id = if state.is_some_and(|s| s.running.is_some()) {
        non_empty(cs.container_id.as_ref())
    } else if let Some(t) = state.and_then(|s| s.terminated.as_ref()) {
        non_empty(t.container_id.as_ref())
            .or_else(|| last.and_then(|l| non_empty(l.container_id.as_ref())))
    } else {
        last.and_then(|l| non_empty(l.container_id.as_ref()))
    }?;
    Some(Instance {
        id,
        restart_count: cs.restart_count,
    })
}

/// What the pod watch told us after a stream ended.
enum Next {
    /// The pod is gone or the container will not run again.
    Done,
    /// The same instance still runs (the stream broke off or the status lags): reopen it.
    Same,
    /// A new instance exists.
    New(Instance),
}

/// Follows `container` from `initial` (the pod as fetched at start) until the pod is deleted,
/// the container finished for good, or an error on the first request (reported as kubectl does).
pub(super) async fn follow(
    ctx: &Ctx,
    container: &str,
    initial: &Pod,
    first: LogParams,
) -> Result<(), PumpError> {
    let fmt = ctx.format(container, !ctx.args.timestamps);
    let mut current = status(initial, container).and_then(served);
    let mut tracker = ResumeTracker::new(None);
    let mut params = first;
    let mut first_request = true;
    loop {
        let filter = ResumeFilter::new(if first_request { None } else { tracker.point() });
        match pump(ctx, &params, &fmt, filter, Some(&mut tracker)).await {
            Ok(()) => {}
            Err(PumpError::Log(e)) if first_request => return Err(PumpError::Log(e)),
            Err(PumpError::OutputClosed) => return Err(PumpError::OutputClosed),
            Err(PumpError::Log(e)) => tracing::info!("log stream of {container} ended: {e}"),
        }
        first_request = false;
        let next = wait(ctx, container, current.as_ref(), &mut tracker).await?;
        let resume_from = tracker.point().map(|p| p.since_time());
        params = LogParams {
            container: Some(container.to_owned()),
            follow: true,
            timestamps: true,
            since_time: resume_from,
            ..LogParams::default()
        };
        match next {
            Next::Done => return Ok(()),
            Next::Same => tokio::time::sleep(Duration::from_secs(1)).await,
            Next::New(inst) => current = Some(inst),
        }
    }
}

/// Watches the pod after a stream of `current` ended: fetches the tail of `current` once its
/// termination is visible, tracks the back-off, prints markers, and says what to do next.
async fn wait(
    ctx: &Ctx,
    container: &str,
    current: Option<&Instance>,
    tracker: &mut ResumeTracker,
) -> Result<Next, PumpError> {
    let cfg = watcher::Config::default().fields(&pod_selector(&ctx.pod));
    let mut events = watcher::watcher(ctx.api.clone(), cfg)
        .default_backoff()
        .boxed();
    let mut ended: Option<Terminated> = None;
    let mut backoff: Option<Duration> = None;
    let mut listed = false;
    while let Some(ev) = events.next().await {
        let pod = match ev {
            Ok(WatchEvent::Init) => {
                listed = false;
                continue;
            }
            Ok(WatchEvent::InitDone) if !listed => return Ok(Next::Done),
            Ok(WatchEvent::InitDone) => continue,
            Ok(WatchEvent::Delete(_)) => return Ok(Next::Done),
            Ok(WatchEvent::InitApply(pod)) => {
                listed = true;
                pod
            }
            Ok(WatchEvent::Apply(pod)) => pod,
            Err(e) => {
                tracing::info!("pod watch while following {container}: {e}");
                continue;
            }
        };
        let Some(cs) = status(&pod, container) else {
            continue;
        };
        let summary = PodSummary::from_pod(&pod);
        let Some(c) = summary.container(container) else {
            continue;
        };
        if let Some(b) = &c.backoff {
            backoff = Some(b.delay);
        }
        if let (Some(cur), None) = (current, &ended) {
            let state_id = cs
                .state
                .as_ref()
                .and_then(|s| s.terminated.as_ref())
                .and_then(|t| non_empty(t.container_id.as_ref()));
            let last_id = cs
                .last_state
                .as_ref()
                .and_then(|s| s.terminated.as_ref())
                .and_then(|t| non_empty(t.container_id.as_ref()));
            let previous = if state_id.as_ref() == Some(&cur.id) {
                Some(false)
            } else if last_id.as_ref() == Some(&cur.id) {
                Some(true)
            } else {
                None
            };
            // The current log of a terminated instance the kubelet restarts would race the
            // restart (the first is immediate): read it as `previous` once the restart shows.
            let racing = previous == Some(false)
                && matches!(&c.state, crate::model::ContainerState::Terminated(t)
                    if summary.will_restart(c, t.exit_code));
            if let Some(previous) = previous.filter(|_| !racing) {
                catch_up(ctx, container, previous, tracker).await?;
                ended = match (&c.state, &c.last_state) {
                    (crate::model::ContainerState::Terminated(t), _) if !previous => {
                        Some(t.clone())
                    }
                    (_, Some(t)) => Some(t.clone()),
                    _ => None,
                };
            }
        }
        let Some(now) = served(cs) else {
            continue;
        };
        if let Some(cur) = current
            && now.id == cur.id
        {
            if cs.state.as_ref().is_some_and(|s| s.running.is_some()) {
                return Ok(Next::Same);
            }
            if let Some(t) = cs.state.as_ref().and_then(|s| s.terminated.as_ref())
                && !summary.will_restart(c, t.exit_code)
            {
                return Ok(Next::Done);
            }
            continue;
        }
        // Another instance is served now (running, or it already ended while unwatched).
        let prev = ended.or_else(|| c.last_state.clone());
        announce(ctx, container, current, &now, prev.as_ref(), backoff).await?;
        return Ok(Next::New(now));
    }
    Ok(Next::Done)
}

/// Fetches what is left of the instance that just ended (`previous` as the kubelet needs it),
/// starting at the resume point; already written lines are dropped.
async fn catch_up(
    ctx: &Ctx,
    container: &str,
    previous: bool,
    tracker: &mut ResumeTracker,
) -> Result<(), PumpError> {
    let point = tracker.point();
    let params = LogParams {
        container: Some(container.to_owned()),
        previous,
        timestamps: true,
        since_time: point.map(|p| p.since_time()),
        ..LogParams::default()
    };
    let fmt = ctx.format(container, !ctx.args.timestamps);
    match pump(ctx, &params, &fmt, ResumeFilter::new(point), Some(tracker)).await {
        Err(PumpError::OutputClosed) => Err(PumpError::OutputClosed),
        Err(PumpError::Log(LogError::Server { message, .. } | LogError::Transport(message))) => {
            tracing::info!("tail of the ended {container} instance: {message}");
            Ok(())
        }
        Ok(()) => Ok(()),
    }
}

/// Writes the markers between two instances on stderr.
async fn announce(
    ctx: &Ctx,
    container: &str,
    before: Option<&Instance>,
    now: &Instance,
    ended: Option<&Terminated>,
    backoff: Option<Duration>,
) -> Result<(), PumpError> {
    let prefix = if ctx.args.prefix {
        format!("[pod/{}/{container}] ", ctx.pod)
    } else {
        String::new()
    };
    let mut lines = Vec::new();
    if let Some(b) = before {
        let lost = now
            .restart_count
            .saturating_sub(b.restart_count)
            .saturating_sub(1);
        if let Ok(lost) = u32::try_from(lost)
            && lost > 0
        {
            lines.push(lost_instances_marker(lost));
        }
    }
    if let Some(t) = ended {
        lines.push(restart_marker(t, backoff));
    }
    for l in lines {
        let text = format!("{prefix}{l}");
        if ctx.out.send(Out::Stderr(text)).await.is_err() {
            return Err(PumpError::OutputClosed);
        }
    }
    Ok(())
}
