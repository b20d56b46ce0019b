//! `podscope logs -f` across restarts: the async driver of the model's state machine
//! ([`crate::model::log_follow`]). When the kubelet ends a follow stream (the container stopped,
//! `docs/protocols.md` §2.4), watch the pod and feed its status to the machine, which says when
//! to fetch the tail of the instance that died, which markers to write on stderr, and when to
//! open the next instance from where the last one left off.

use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::api::LogParams;
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event as WatchEvent};

use super::{Ctx, Out, PumpError, pump};
use crate::cluster::watch::pod_selector;
use crate::model::PodSummary;
use crate::model::log_follow::{LogFollow, Reopen, Role, Step};

/// How long to wait before reopening the stream of an instance that still runs.
const REOPEN_DELAY: Duration = Duration::from_secs(1);

/// A stream to read next: what it reads and its request.
struct Read {
    role: Role,
    params: LogParams,
}

/// Follows `container` from `initial` (the pod as fetched at start) until the pod is deleted,
/// the container finished for good, or an error on the first request (reported as kubectl does).
pub(super) async fn follow(
    ctx: &Ctx,
    container: &str,
    initial: &Pod,
    first: LogParams,
) -> Result<(), PumpError> {
    let summary = PodSummary::from_pod(initial);
    let (mut machine, _) = LogFollow::start(container, summary.container(container), false);
    let mut next = Read {
        role: Role::Live,
        params: first,
    };
    let mut stream = 0;
    loop {
        stream += 1;
        let first_request = stream == 1;
        let error = match read(ctx, &mut machine, stream, &next).await {
            Ok(()) => false,
            Err(PumpError::Log(e)) if first_request => return Err(PumpError::Log(e)),
            Err(PumpError::OutputClosed) => return Err(PumpError::OutputClosed),
            Err(PumpError::Log(e)) => {
                tracing::info!("log stream of {container} ended: {e}");
                true
            }
        };
        machine.ended(error);
        let before = machine.instance();
        let Some(read) = wait(ctx, &mut machine, &mut stream).await? else {
            return Ok(());
        };
        if machine.instance() == before {
            // The same instance again: the stream broke off, or the status lagged behind.
            tokio::time::sleep(REOPEN_DELAY).await;
        }
        next = read;
    }
}

/// Reads one stream of `machine` to its end (lines already written are dropped).
async fn read(
    ctx: &Ctx,
    machine: &mut LogFollow,
    stream: u64,
    next: &Read,
) -> Result<(), PumpError> {
    machine.opened(stream, next.role);
    let fmt = ctx.format(machine.container(), !ctx.args.timestamps);
    let (filter, tracker) = machine.reader();
    pump(ctx, &next.params, &fmt, filter, Some(tracker)).await
}

/// The request for a [`Step::Open`].
fn params(container: &str, role: Role, previous: bool, since: Option<jiff::Timestamp>) -> Read {
    Read {
        role,
        params: LogParams {
            container: Some(container.to_owned()),
            follow: role == Role::Live,
            previous,
            timestamps: true,
            since_time: since,
            ..LogParams::default()
        },
    }
}

/// Watches the pod after a stream ended and carries out the machine's steps: reads the tail of
/// the instance that died, writes markers, and returns the next stream to follow; `None` when
/// the pod is gone or the container will not run again.
async fn wait(
    ctx: &Ctx,
    machine: &mut LogFollow,
    stream: &mut u64,
) -> Result<Option<Read>, PumpError> {
    let container = machine.container().to_owned();
    let cfg = watcher::Config::default().fields(&pod_selector(&ctx.pod));
    let mut events = watcher::watcher(ctx.api.clone(), cfg)
        .default_backoff()
        .boxed();
    let mut listed = false;
    while let Some(ev) = events.next().await {
        let pod = match ev {
            Ok(WatchEvent::Init) => {
                listed = false;
                continue;
            }
            Ok(WatchEvent::InitDone) if !listed => return Ok(None),
            Ok(WatchEvent::InitDone) => continue,
            Ok(WatchEvent::Delete(_)) => return Ok(None),
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
        let summary = PodSummary::from_pod(&pod);
        // A tail read changes what the same status means: advance again until nothing is left.
        loop {
            let steps = machine.advance(&summary, Reopen::Always);
            if steps.is_empty() {
                break;
            }
            for step in steps {
                match step {
                    Step::Open {
                        role: Role::Live,
                        previous,
                        since,
                    } => return Ok(Some(params(&container, Role::Live, previous, since))),
                    Step::Open {
                        role,
                        previous,
                        since,
                    } => {
                        *stream += 1;
                        let tail = params(&container, role, previous, since);
                        let error = match read(ctx, machine, *stream, &tail).await {
                            Ok(()) => false,
                            Err(PumpError::OutputClosed) => return Err(PumpError::OutputClosed),
                            Err(PumpError::Log(e)) => {
                                tracing::info!("tail of the ended {container} instance: {e}");
                                true
                            }
                        };
                        machine.ended(error);
                    }
                    Step::Marker(line) => marker(ctx, &container, &line.text).await?,
                    Step::Done => return Ok(None),
                }
            }
        }
    }
    Ok(None)
}

/// Writes one marker line on stderr (with the `--prefix` of the container's lines).
async fn marker(ctx: &Ctx, container: &str, text: &str) -> Result<(), PumpError> {
    let prefix = if ctx.args.prefix {
        format!("[pod/{}/{container}] ", ctx.pod)
    } else {
        String::new()
    };
    ctx.out
        .send(Out::Stderr(format!("{prefix}{text}")))
        .await
        .map_err(|_| PumpError::OutputClosed)
}
