//! The loops programs run while they wait for something in the cluster
//! ([`crate::runtime::loops`]): each check runs at its instant against the Services the
//! driver last read from the store ([`super::config_refs::ConfigSources::services`]) — a
//! failed one prints its lines and queues the next check; a successful one prints its lines and
//! goes on with what the program does afterwards (a script's rest, e.g. its exit 0).

use jiff::Timestamp;

use super::instance::follow_plan;
use super::pod_state::PodRun;
use super::{Node, Work, after};
use crate::runtime::loops::check;

/// One check of the loop of instance `generation` of container `i`, at `at`.
pub(crate) fn check_now(
    node: &mut Node,
    run: &mut PodRun,
    i: usize,
    generation: u64,
    at: Timestamp,
) {
    let c = &run.containers[i];
    if c.generation != generation || !c.is_running() {
        return;
    }
    let Some(l) = c.looping.clone() else {
        return;
    };
    match check(&l, &run.namespace, &node.mounts.sources.services) {
        Err(lines) => {
            for line in &lines {
                node.log(run, i, at, line, l.stamped);
            }
            node.schedule(run, after(at, l.every), Work::Check { c: i, generation });
        }
        Ok(lines) => {
            for line in &lines {
                node.log(run, i, at, line, l.stamped);
            }
            run.containers[i].looping = None;
            follow_plan(node, run, i, generation, *l.then, at);
        }
    }
}
