//! Generations: which target (the pod shown, see [`super::target::Target`]) a cluster task was
//! started for.
//!
//! Every target gets the next [`Generation`] from the one [`Generations`] allocator in `State`,
//! which only grows: across pod switches and re-created pods alike. The session stamps every
//! message its tasks send with the generation they were started for (`Msg::ForTarget`), and
//! `update` drops, in one guard at its top, whatever is stamped for another generation: a queued
//! `LogLines{stream: 1}` of the old pod never lands in the new pod's stream 1.

/// The number of one target; stamps the messages of the tasks started for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Generation(pub u64);

impl Generation {
    /// The first target's generation: the pod named on the command line, whose watch
    /// `cluster::Session::start` starts.
    pub const FIRST: Generation = Generation(1);
}

/// The allocator of generations; each one handed out is greater than every earlier one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generations {
    /// The last generation handed out.
    last: Generation,
}

impl Generations {
    /// An allocator that has handed out [`Generation::FIRST`] (to the first target).
    #[must_use]
    pub fn new() -> Generations {
        Generations {
            last: Generation::FIRST,
        }
    }

    /// The next generation (for a pod switched to, or a re-created pod).
    pub fn allocate(&mut self) -> Generation {
        self.last = Generation(self.last.0 + 1);
        self.last
    }
}

impl Default for Generations {
    fn default() -> Self {
        Self::new()
    }
}
