//! The TUI's clock: the one clock `app/` and `ui/` see, as `Msg::Tick(now)` from the loop
//! (`docs/architecture.md` §3). `--now T` starts it at T.

/// The TUI's clock: the wall clock shifted so that it read `start` when the loop began
/// (`--now T` starts it at T and lets it run from there; without `--now`, `start` is the wall
/// clock and the offset is zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// `start` minus the wall clock at the start.
    offset: jiff::SignedDuration,
}

impl Clock {
    /// A clock reading `start` when the wall clock reads `wall`.
    #[must_use]
    pub fn starting_at(start: jiff::Timestamp, wall: jiff::Timestamp) -> Clock {
        Clock {
            offset: start.duration_since(wall),
        }
    }

    /// The clock's reading when the wall clock reads `wall` (saturating at the ends of time).
    #[must_use]
    pub fn at(&self, wall: jiff::Timestamp) -> jiff::Timestamp {
        wall.checked_add(self.offset).unwrap_or(wall)
    }

    /// The clock's reading now.
    #[must_use]
    #[allow(
        clippy::disallowed_methods,
        reason = "the loop owns the clock: the 1 Hz tick"
    )]
    pub fn now(&self) -> jiff::Timestamp {
        self.at(jiff::Timestamp::now())
    }
}

#[cfg(test)]
mod tests {
    use super::Clock;

    #[test]
    fn a_clock_started_at_now_runs_from_there_at_the_wall_clocks_pace() {
        let start: jiff::Timestamp = "2020-07-16T08:08:48Z".parse().expect("time");
        let wall: jiff::Timestamp = "2026-12-01T13:00:00Z".parse().expect("time");
        let clock = Clock::starting_at(start, wall);
        assert_eq!(clock.at(wall), start);
        let later = wall + jiff::SignedDuration::from_secs(90);
        assert_eq!(
            clock.at(later).to_string(),
            "2020-07-16T08:10:18Z",
            "90 s of wall clock later"
        );
    }

    #[test]
    fn without_now_the_clock_is_the_wall_clock() {
        let wall: jiff::Timestamp = "2026-12-01T13:00:00Z".parse().expect("time");
        let clock = Clock::starting_at(wall, wall);
        let later = wall + jiff::SignedDuration::from_secs(5);
        assert_eq!(clock.at(later), later);
    }
}
