//! [`TargetTx`]: the sending end of the loop's channel for a task started for one target; every
//! message it sends is stamped with that target's generation (`Msg::ForTarget`), so `update`
//! drops it once the pod was switched away from or re-created (see `app::generation`).

use tokio::sync::mpsc::Sender;
use tokio::sync::mpsc::error::SendError;

use crate::app::Msg;
use crate::app::generation::Generation;

/// A sender into the loop's channel that stamps with one generation.
#[derive(Debug, Clone)]
pub struct TargetTx {
    tx: Sender<Msg>,
    generation: Generation,
}

impl TargetTx {
    /// Stamps what is sent through `tx` with `generation`.
    #[must_use]
    pub fn new(tx: Sender<Msg>, generation: Generation) -> TargetTx {
        TargetTx { tx, generation }
    }

    /// The generation this sender stamps with.
    #[must_use]
    pub fn generation(&self) -> Generation {
        self.generation
    }

    /// Sends `msg` stamped, waiting for room in the channel.
    ///
    /// # Errors
    /// The loop is gone (the receiver was dropped); the stamped message comes back.
    pub async fn send(&self, msg: Msg) -> Result<(), SendError<Msg>> {
        self.tx.send(Msg::for_target(self.generation, msg)).await
    }
}
