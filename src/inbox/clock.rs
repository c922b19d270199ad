//! The watcher's only view of time, behind a trait so that the settle logic and the log can be
//! tested without waiting on the wall clock.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Time as the watcher sees it.
pub trait Clock {
    /// A monotonic instant, for the settle window and the retry delays.
    fn now(&self) -> Instant;
    /// Waits (between two looks at the inbox).
    fn sleep(&self, d: Duration);
    /// The time of day that opens each log line, `HH:MM:SS`.
    fn time_of_day(&self) -> String;
}

/// The real clock. Its time of day is UTC: the standard library knows no time zone.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
    fn sleep(&self, d: Duration) {
        std::thread::sleep(d);
    }
    fn time_of_day(&self) -> String {
        let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        hh_mm_ss(secs)
    }
}

/// `HH:MM:SS` of a count of seconds since midnight of some day.
pub(crate) fn hh_mm_ss(secs: u64) -> String {
    let s = secs % 86_400;
    format!("{:02}:{:02}:{:02}", s / 3600, s % 3600 / 60, s % 60)
}

/// A clock for tests: time moves only when it sleeps, and the log shows the fake time of day
/// counted from midnight.
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct FakeClock {
    start: Instant,
    elapsed: std::cell::Cell<Duration>,
}

#[cfg(test)]
impl FakeClock {
    pub(crate) fn new() -> Self {
        FakeClock { start: Instant::now(), elapsed: std::cell::Cell::new(Duration::ZERO) }
    }
}

#[cfg(test)]
impl Clock for FakeClock {
    fn now(&self) -> Instant {
        self.start + self.elapsed.get()
    }
    fn sleep(&self, d: Duration) {
        self.elapsed.set(self.elapsed.get() + d);
    }
    fn time_of_day(&self) -> String {
        hh_mm_ss(self.elapsed.get().as_secs())
    }
}

/// A clock for tests against the real file system: real time, a fixed time of day in the log.
#[cfg(test)]
#[derive(Debug, Clone, Copy)]
pub(crate) struct SteadyClock;

#[cfg(test)]
impl Clock for SteadyClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
    fn sleep(&self, d: Duration) {
        std::thread::sleep(d);
    }
    fn time_of_day(&self) -> String {
        "12:00:00".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_of_day_is_two_digit_hours_minutes_seconds() {
        assert_eq!(hh_mm_ss(0), "00:00:00");
        assert_eq!(hh_mm_ss(3600 * 13 + 60 * 5 + 9), "13:05:09");
        assert_eq!(hh_mm_ss(86_400 + 61), "00:01:01");
        assert_eq!(SystemClock.time_of_day().len(), 8);
    }

    #[test]
    fn the_fake_clock_moves_only_when_it_sleeps() {
        let c = FakeClock::new();
        let t0 = c.now();
        assert_eq!(c.now(), t0);
        c.sleep(Duration::from_secs(61));
        assert_eq!(c.now() - t0, Duration::from_secs(61));
        assert_eq!(c.time_of_day(), "00:01:01");
    }
}
