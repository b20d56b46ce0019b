//! The simulator's clock: real, frozen, or virtual time scaled from real time (`--speed`).

use jiff::Timestamp;

/// The simulator's clock: the only place it reads time.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum SimClock {
    /// Wall-clock time.
    #[default]
    Real,
    /// Every timestamp and Table cell (AGE, "(x ago)") uses this instant.
    Frozen(Timestamp),
    /// Virtual time running `speed` times faster than real time from `start`:
    /// `now = start + (real elapsed since origin) × speed`. Build it with [`SimClock::scaled`].
    Scaled {
        /// The virtual instant at `origin`.
        start: Timestamp,
        /// Virtual seconds per real second (> 0; `--speed N`).
        speed: f64,
        /// The real instant the clock started.
        origin: std::time::Instant,
    },
}

// `speed` is never NaN (see `SimClock::scaled`), so equality is an equivalence.
impl Eq for SimClock {}

impl SimClock {
    /// A clock at `start` now, running `speed` times real time (non-finite or non-positive
    /// speeds are taken as 1).
    #[allow(
        clippy::disallowed_methods,
        reason = "the simulator owns its clock: a scaled clock measures real elapsed time"
    )]
    pub fn scaled(start: Timestamp, speed: f64) -> Self {
        let speed = if speed.is_finite() && speed > 0.0 {
            speed
        } else {
            1.0
        };
        SimClock::Scaled {
            start,
            speed,
            origin: std::time::Instant::now(),
        }
    }

    /// The current instant of this clock.
    #[allow(
        clippy::disallowed_methods,
        reason = "the simulator owns its clock: the real clock is the wall clock"
    )]
    pub fn now(&self) -> Timestamp {
        match self {
            SimClock::Real => Timestamp::now(),
            SimClock::Frozen(t) => *t,
            SimClock::Scaled {
                start,
                speed,
                origin,
            } => {
                let real = origin.elapsed().as_secs_f64() * speed;
                let d = jiff::SignedDuration::try_from_secs_f64(real)
                    .unwrap_or(jiff::SignedDuration::ZERO);
                start.checked_add(d).unwrap_or(*start)
            }
        }
    }

    /// How long to sleep in real time until virtual instant `at` (zero if it has passed);
    /// `None` for a frozen clock, where virtual time never reaches a later instant.
    pub fn real_delay_until(&self, at: Timestamp) -> Option<std::time::Duration> {
        let virtual_left = at.duration_since(self.now()).as_secs_f64().max(0.0);
        let speed = match self {
            SimClock::Frozen(t) => return (at <= *t).then_some(std::time::Duration::ZERO),
            SimClock::Real => 1.0,
            SimClock::Scaled { speed, .. } => *speed,
        };
        Some(
            std::time::Duration::try_from_secs_f64(virtual_left / speed)
                .unwrap_or(std::time::Duration::MAX),
        )
    }
}
