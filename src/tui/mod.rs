//! The one impure loop of the TUI (`docs/architecture.md` §1): it wires the pure core
//! (`app::update`) and the pure view (`ui::view`) to the terminal, the clock and the cluster
//! adapters (`cluster::Session`).

pub mod clipboard;
pub mod clock;
pub mod run;

pub use clock::Clock;
pub use run::{DRAIN_MAX, TICK_INTERVAL, run};
