//! Go `time.Duration` text (`2m40s`, `5m0s`, `1.5s`) and kubectl's `HumanDuration` (`4m30s`, `10m`, `3d4h`).
//!
//! The kubelet writes back-off delays with Go's `Duration.String()` (`docs/protocols.md` §5.1) and
//! the server-side printer writes ages with apimachinery's `duration.HumanDuration` (§6.1).

use std::time::Duration;

use jiff::SignedDuration;

const NANOS_PER_SEC: u128 = 1_000_000_000;

/// Parses Go `time.Duration` text (Go's `time.ParseDuration` grammar
/// `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`) into a non-negative [`Duration`].
///
/// Units: `h`, `m`, `s`, `ms`, `us`, `µs` (U+00B5), `μs` (U+03BC), `ns`; decimals (`2.5s`, `.5s`, `1.s`)
/// and compounds (`1m20s`) are allowed; the bare string `0` is zero. Fractions finer than a
/// nanosecond are truncated, as Go does.
///
/// Returns `None` for garbage (`""`, `"10"`, `"s"`, `".s"`, `"1x"`), for negative durations (a
/// `std::time::Duration` cannot hold them; `-0s` is zero) and on overflow.
pub fn parse_go_duration(s: &str) -> Option<Duration> {
    let (negative, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(Duration::ZERO);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: u128 = 0;
    while !rest.is_empty() {
        let b = rest.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return None;
        }
        // Integer part.
        let int_len = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let int_part: u128 = if int_len > 0 {
            rest[..int_len].parse().ok()?
        } else {
            0
        };
        rest = &rest[int_len..];
        // Fraction part.
        let mut frac_digits = "";
        let mut has_frac = false;
        if let Some(after_dot) = rest.strip_prefix('.') {
            let frac_len = after_dot.bytes().take_while(u8::is_ascii_digit).count();
            frac_digits = &after_dot[..frac_len];
            has_frac = frac_len > 0;
            rest = &after_dot[frac_len..];
        }
        if int_len == 0 && !has_frac {
            return None;
        }
        // Unit: everything up to the next digit or dot.
        let unit_len = rest
            .char_indices()
            .find(|(_, c)| *c == '.' || c.is_ascii_digit())
            .map_or(rest.len(), |(i, _)| i);
        if unit_len == 0 {
            return None;
        }
        let unit_nanos: u128 = match &rest[..unit_len] {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => NANOS_PER_SEC,
            "m" => 60 * NANOS_PER_SEC,
            "h" => 3_600 * NANOS_PER_SEC,
            _ => return None,
        };
        rest = &rest[unit_len..];
        let mut value = int_part.checked_mul(unit_nanos)?;
        if has_frac {
            // 19 digits are far below a nanosecond for every unit; the rest cannot matter.
            let kept = &frac_digits[..frac_digits.len().min(19)];
            let numerator: u128 = kept.parse().ok()?;
            let scale = 10u128.pow(u32::try_from(kept.len()).ok()?);
            value = value.checked_add(numerator * unit_nanos / scale)?;
        }
        total = total.checked_add(value)?;
    }
    if negative && total != 0 {
        return None;
    }
    let secs = u64::try_from(total / NANOS_PER_SEC).ok()?;
    let nanos = u32::try_from(total % NANOS_PER_SEC).ok()?;
    Some(Duration::new(secs, nanos))
}

/// Formats like Go's `time.Duration.String()`: `0s`, `500ms`, `1.5µs`, `100ns`, `1.5s`, `10s`,
/// `1m20s`, `5m0s`, `1h0m0s`, `2h3m4.5s`.
///
/// Below one second the largest fitting sub-second unit is used; from one second on the form is
/// `[<h>h][<m>m]<s>[.<frac>]s` with trailing fraction zeros dropped.
pub fn format_go_duration(d: Duration) -> String {
    let nanos = d.as_nanos();
    if nanos == 0 {
        return "0s".to_string();
    }
    if nanos < NANOS_PER_SEC {
        let (value, unit, prec) = if nanos < 1_000 {
            (nanos, "ns", 0)
        } else if nanos < 1_000_000 {
            (nanos, "µs", 3)
        } else {
            (nanos, "ms", 6)
        };
        return format!("{}{unit}", fixed_point(value, prec));
    }
    let seconds_text = fixed_point(nanos % (60 * NANOS_PER_SEC), 9);
    let total_minutes = nanos / (60 * NANOS_PER_SEC);
    if total_minutes == 0 {
        return format!("{seconds_text}s");
    }
    let hours = total_minutes / 60;
    let minutes = total_minutes % 60;
    if hours == 0 {
        format!("{minutes}m{seconds_text}s")
    } else {
        format!("{hours}h{minutes}m{seconds_text}s")
    }
}

/// `value / 10^prec` as decimal text without trailing fraction zeros (Go's `fmtFrac` + `fmtInt`).
fn fixed_point(value: u128, prec: u32) -> String {
    let scale = 10u128.pow(prec);
    let int = value / scale;
    let frac = value % scale;
    if frac == 0 {
        return int.to_string();
    }
    let digits = format!("{frac:0width$}", width = prec as usize);
    format!("{int}.{}", digits.trim_end_matches('0'))
}

/// apimachinery's `duration.HumanDuration`: the AGE / "(x ago)" text for an elapsed time.
///
/// Whole seconds are truncated toward zero first. `< -1s` → `<invalid>`; `< 0` → `0s`;
/// `< 120s` → `Ns`; `< 10m` → `NmSs` (`Nm` when S = 0); `< 3h` → `Nm`; `< 8h` → `NhMm` (`Nh`);
/// `< 48h` → `Nh`; `< 8d` → `NdHh` (`Nd`); `< 2y` → `Nd`; `< 8y` → `NyDd` (`Ny`); else `Ny`.
/// Years are 365 days. See `docs/protocols.md` §6.1.
pub fn human_duration(d: SignedDuration) -> String {
    let seconds = d.as_secs();
    if seconds < -1 {
        return "<invalid>".to_string();
    }
    if seconds < 0 {
        return "0s".to_string();
    }
    if seconds < 120 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    }
    if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = minutes / 60;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    let days = hours / 24;
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 {
            format!("{days}d")
        } else {
            format!("{days}d{h}h")
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{days}d");
    }
    let years = days / 365;
    if hours < 24 * 365 * 8 {
        let dy = days % 365;
        return if dy == 0 {
            format!("{years}y")
        } else {
            format!("{years}y{dy}d")
        };
    }
    format!("{years}y")
}

/// How long a container instance ran, from its `startedAt` and `finishedAt`: both arrive in
/// whole seconds, truncated (`metav1.Time` is RFC 3339 without a fraction), so their
/// difference `d` is off by up to a second either way. `<1s` when they fall in the same second
/// (the run was under a second), `≈1s` one second apart (anywhere between 0 and 2 s: a 0.1 s
/// run that crosses a second boundary), else [`human_duration`] of `d`.
pub fn run_duration(d: SignedDuration) -> String {
    match d.as_secs() {
        0 => "<1s".to_owned(),
        1 => "≈1s".to_owned(),
        _ => human_duration(d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn parse_go_duration_units_decimals_compounds() {
        let cases: &[(&str, Option<Duration>)] = &[
            ("10s", Some(Duration::from_secs(10))),
            ("2m40s", Some(Duration::from_secs(160))),
            ("5m0s", Some(Duration::from_secs(300))),
            ("1m20s", Some(Duration::from_secs(80))),
            ("1h0m0s", Some(Duration::from_secs(3600))),
            ("2.5s", Some(ms(2500))),
            (".5s", Some(ms(500))),
            ("1.s", Some(Duration::from_secs(1))),
            ("500ms", Some(ms(500))),
            ("1.5us", Some(Duration::from_nanos(1500))),
            ("3µs", Some(Duration::from_nanos(3000))),
            ("3μs", Some(Duration::from_nanos(3000))),
            ("7ns", Some(Duration::from_nanos(7))),
            ("1h1m1s1ms", Some(Duration::from_millis(3_661_001))),
            ("0", Some(Duration::ZERO)),
            ("+1s", Some(Duration::from_secs(1))),
            ("-0s", Some(Duration::ZERO)),
            ("0.000000001s", Some(Duration::from_nanos(1))),
            ("", None),
            ("10", None),
            ("s", None),
            (".s", None),
            ("1x", None),
            ("1m 20s", None),
            ("-1s", None),
            ("1s garbage", None),
            ("abc", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_go_duration(text), *want, "parsing {text:?}");
        }
    }

    #[test]
    fn format_go_duration_matches_go_string() {
        let cases: &[(Duration, &str)] = &[
            (Duration::ZERO, "0s"),
            (Duration::from_secs(10), "10s"),
            (Duration::from_secs(80), "1m20s"),
            (Duration::from_secs(160), "2m40s"),
            (Duration::from_secs(300), "5m0s"),
            (Duration::from_secs(60), "1m0s"),
            (Duration::from_secs(3600), "1h0m0s"),
            (ms(500), "500ms"),
            (ms(1500), "1.5s"),
            (ms(2500), "2.5s"),
            (Duration::from_nanos(1500), "1.5µs"),
            (Duration::from_nanos(100), "100ns"),
            (Duration::from_nanos(3_723_004_000_000), "1h2m3.004s"),
        ];
        for (d, want) in cases {
            assert_eq!(format_go_duration(*d), *want, "formatting {d:?}");
            assert_eq!(parse_go_duration(want), Some(*d), "round trip {want}");
        }
    }

    #[test]
    fn human_duration_matches_apimachinery() {
        let cases: &[(i64, &str)] = &[
            (-3, "<invalid>"),
            (-2, "<invalid>"),
            (-1, "0s"),
            (0, "0s"),
            (16, "16s"),
            (119, "119s"),
            (120, "2m"),
            (270, "4m30s"),
            (599, "9m59s"),
            (600, "10m"),
            (179 * 60 + 59, "179m"),
            (3 * 3600, "3h"),
            (3 * 3600 + 24 * 60, "3h24m"),
            (8 * 3600, "8h"),
            (47 * 3600 + 59 * 60, "47h"),
            (48 * 3600, "2d"),
            (4 * 86_400 + 3 * 3600, "4d3h"),
            (8 * 86_400, "8d"),
            (41 * 86_400 + 5000, "41d"),
            (729 * 86_400, "729d"),
            (730 * 86_400, "2y"),
            (731 * 86_400, "2y1d"),
            (8 * 365 * 86_400, "8y"),
            (9 * 365 * 86_400 + 100 * 86_400, "9y"),
        ];
        for (secs, want) in cases {
            assert_eq!(
                human_duration(SignedDuration::from_secs(*secs)),
                *want,
                "{secs}s"
            );
        }
        // Sub-second negatives truncate toward zero.
        assert_eq!(human_duration(SignedDuration::from_millis(-1500)), "0s");
        assert_eq!(human_duration(SignedDuration::from_millis(-500)), "0s");
        assert_eq!(human_duration(SignedDuration::from_millis(1999)), "1s");
    }

    #[test]
    fn run_duration_says_what_whole_second_timestamps_allow() {
        let text = |s: i64| run_duration(SignedDuration::from_secs(s));
        assert_eq!(text(0), "<1s");
        assert_eq!(text(1), "≈1s");
        assert_eq!(text(2), "2s");
        assert_eq!(text(45), "45s");
        assert_eq!(text(270), "4m30s");
    }
}
