//! The pod's events grouped once per diagnosis by the container they are about, so each rule
//! reads only its container's events instead of scanning them all (10 containers and 500 events
//! would otherwise be tens of thousands of comparisons on every update).

use super::Inputs;
use super::facts::container_of;
use crate::event::EventSummary;

/// Events by container name (`involvedObject.fieldPath` `spec.containers{NAME}` and the like),
/// and those about the pod as a whole; each list keeps the input order (newest first).
#[derive(Debug, Default)]
pub struct EventIndex<'a> {
    /// `(hash of the name, name, events)`: the hash spares a string comparison per bucket.
    by_container: Vec<(u64, &'a str, Vec<&'a EventSummary>)>,
    pod: Vec<&'a EventSummary>,
}

/// FNV-1a over the name's bytes: a few instructions for a container name, and a mismatch is
/// almost always told by it alone.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl<'a> EventIndex<'a> {
    /// Groups `events` in one pass.
    #[must_use]
    pub fn new(events: &'a [EventSummary]) -> Self {
        let mut index = EventIndex::default();
        for e in events {
            if e.field_path.is_empty() {
                index.pod.push(e);
            } else if let Some(name) = container_of(&e.field_path) {
                let hash = name_hash(name);
                match index
                    .by_container
                    .iter_mut()
                    .find(|(h, n, _)| *h == hash && *n == name)
                {
                    Some((_, _, list)) => list.push(e),
                    None => index.by_container.push((hash, name, vec![e])),
                }
            }
        }
        index
    }

    fn of(&self, name: &str) -> &[&'a EventSummary] {
        let hash = name_hash(name);
        self.by_container
            .iter()
            .find(|(h, n, _)| *h == hash && *n == name)
            .map_or(&[], |(_, _, list)| list.as_slice())
    }
}

impl<'a> Inputs<'a> {
    /// Events about container `name`, newest first.
    pub fn events_of<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'a EventSummary> + 's {
        self.select(self.index.map(|i| i.of(name)), move |e| {
            container_of(&e.field_path) == Some(name)
        })
    }

    /// Events about the pod as a whole (no `fieldPath`), newest first.
    pub fn pod_events(&self) -> impl Iterator<Item = &'a EventSummary> + '_ {
        self.select(self.index.map(|i| i.pod.as_slice()), |e| {
            e.field_path.is_empty()
        })
    }

    /// The index's list when [`super::diagnose`] built one, else a scan of every event
    /// through `keep` (inputs used outside a diagnosis, e.g. by the view).
    fn select<'s>(
        &'s self,
        indexed: Option<&'a [&'a EventSummary]>,
        keep: impl Fn(&EventSummary) -> bool + 's,
    ) -> impl Iterator<Item = &'a EventSummary> + 's {
        let scan = if indexed.is_none() {
            Some(self.events)
        } else {
            None
        };
        indexed
            .into_iter()
            .flatten()
            .copied()
            .chain(scan.into_iter().flatten().filter(move |e| keep(e)))
    }

    /// The newest event about container `name` with `reason`.
    #[must_use]
    pub fn newest(&self, name: &str, reason: &str) -> Option<&'a EventSummary> {
        self.events_of(name).find(|e| e.reason == reason)
    }
}
