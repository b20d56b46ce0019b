//! Kubernetes resource quantities (`100m`, `0.5`, `2398029n`, `512Mi`, `1G`, `14624Ki`, `1e3`),
//! parsed exactly and printed as `kubectl top` prints usage (`docs/usage.md` "Quantities").
//!
//! `k8s_openapi`'s `Quantity` is only the string; the grammar and the rounding come from
//! apimachinery's `pkg/api/resource/quantity.go`: a signed decimal number, then a binary suffix
//! (`Ki` `Mi` `Gi` `Ti` `Pi` `Ei`, powers of 1024), a decimal suffix (`n` `u` `m` `` `k` `M` `G`
//! `T` `P` `E`) or a decimal exponent (`e3`, `E-2`). Values are held in nano-units (10⁻⁹), the
//! finest scale the API server keeps, so every quantity a cluster writes is held exactly.

use std::fmt;

/// Nano-units in one unit.
const NANO: i128 = 1_000_000_000;
/// Bytes in one mebibyte.
pub const MI: i64 = 1024 * 1024;

/// A parsed quantity, exact to 10⁻⁹ of its unit (cores for CPU, bytes for memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Quantity {
    nanos: i128,
}

/// Why a quantity did not parse: the text, as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuantityError(pub String);

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': {:?}",
            self.0
        )
    }
}

impl std::error::Error for QuantityError {}

/// `(numerator, denominator)` of a suffix's factor.
fn suffix_factor(suffix: &str) -> Option<(i128, i128)> {
    let pow2 = |n: u32| (1i128 << (10 * n), 1);
    let pow10 = |n: i32| {
        if n >= 0 {
            (10i128.pow(n.unsigned_abs()), 1)
        } else {
            (1, 10i128.pow(n.unsigned_abs()))
        }
    };
    Some(match suffix {
        "Ki" => pow2(1),
        "Mi" => pow2(2),
        "Gi" => pow2(3),
        "Ti" => pow2(4),
        "Pi" => pow2(5),
        "Ei" => pow2(6),
        "n" => pow10(-9),
        "u" => pow10(-6),
        "m" => pow10(-3),
        "" => pow10(0),
        "k" => pow10(3),
        "M" => pow10(6),
        "G" => pow10(9),
        "T" => pow10(12),
        "P" => pow10(15),
        "E" => pow10(18),
        _ => {
            let exp = suffix.strip_prefix(['e', 'E'])?;
            let n: i32 = exp.parse().ok()?;
            if !(-18..=18).contains(&n) {
                return None;
            }
            pow10(n)
        }
    })
}

impl Quantity {
    /// Parses `text` (surrounding spaces ignored). Fractions finer than 10⁻⁹ round up, as the
    /// API server rounds a quantity it stores.
    ///
    /// # Errors
    /// [`QuantityError`] for text outside the grammar (`""`, `"1.2.3"`, `"12x"`, `"Mi"`).
    pub fn parse(text: &str) -> Result<Quantity, QuantityError> {
        let err = || QuantityError(text.to_owned());
        let s = text.trim();
        let (negative, body) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        let num_len = body
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(body.len());
        let (number, suffix) = body.split_at(num_len);
        let (int, frac) = number.split_once('.').unwrap_or((number, ""));
        if (int.is_empty() && frac.is_empty()) || frac.contains('.') {
            return Err(err());
        }
        let (num, den) = suffix_factor(suffix).ok_or_else(err)?;
        let digits = format!("{int}{frac}");
        let mantissa: i128 = digits
            .trim_start_matches('0')
            .parse()
            .or_else(|e| {
                if digits.chars().all(|c| c == '0') {
                    Ok(0)
                } else {
                    Err(e)
                }
            })
            .map_err(|_| err())?;
        let scale = 10i128
            .checked_pow(u32::try_from(frac.len()).map_err(|_| err())?)
            .ok_or_else(err)?;
        // value = mantissa / scale * num / den, in nano-units, rounded up.
        let top = mantissa
            .checked_mul(num)
            .and_then(|v| v.checked_mul(NANO))
            .ok_or_else(err)?;
        let bottom = scale.checked_mul(den).ok_or_else(err)?;
        let nanos = (top + bottom - 1) / bottom;
        Ok(Quantity {
            nanos: if negative { -nanos } else { nanos },
        })
    }

    /// A quantity of `millis` thousandths (CPU millicores).
    #[must_use]
    pub fn from_millis(millis: i64) -> Quantity {
        Quantity {
            nanos: i128::from(millis) * 1_000_000,
        }
    }

    /// A quantity of `units` whole units (bytes for memory).
    #[must_use]
    pub fn from_units(units: i64) -> Quantity {
        Quantity {
            nanos: i128::from(units) * NANO,
        }
    }

    /// The value in thousandths, rounded up (apimachinery's `MilliValue`): millicores of CPU.
    #[must_use]
    pub fn millis(&self) -> i64 {
        clamp_i64(ceil_div(self.nanos, 1_000_000))
    }

    /// The value in whole units, rounded up (apimachinery's `Value`): bytes of memory.
    #[must_use]
    pub fn units(&self) -> i64 {
        clamp_i64(ceil_div(self.nanos, NANO))
    }

    /// The value as a float of units (for rates and ratios only).
    #[must_use]
    #[allow(clippy::cast_precision_loss)] // ratios and rates, not stored values
    pub fn as_f64(&self) -> f64 {
        self.nanos as f64 / NANO as f64
    }

    /// `a + b` (saturating).
    #[must_use]
    pub fn sum(a: Quantity, b: Quantity) -> Quantity {
        Quantity {
            nanos: a.nanos.saturating_add(b.nanos),
        }
    }

    /// Whether it is above zero.
    #[must_use]
    pub fn is_positive(&self) -> bool {
        self.nanos > 0
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b > 0 { q + 1 } else { q }
}

fn clamp_i64(v: i128) -> i64 {
    i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
}

/// CPU as `kubectl top` prints it: millicores, rounded up, `12m`
/// (`staging/src/k8s.io/kubectl/pkg/metricsutil/metrics_printer.go`).
#[must_use]
pub fn cpu_text(millicores: i64) -> String {
    format!("{millicores}m")
}

/// Memory as `kubectl top` prints it: whole mebibytes, truncated, `34Mi` (same source).
#[must_use]
pub fn memory_text(bytes: i64) -> String {
    format!("{}Mi", bytes / MI)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).expect(s)
    }

    #[test]
    fn cpu_forms() {
        assert_eq!(q("100m").millis(), 100);
        assert_eq!(q("0.5").millis(), 500);
        assert_eq!(q("2").millis(), 2000);
        assert_eq!(q("1e3").millis(), 1_000_000);
        assert_eq!(q("2398029n").millis(), 3, "MilliValue rounds up");
        assert_eq!(q("1000000n").millis(), 1);
        assert_eq!(q("250u").millis(), 1);
        assert_eq!(q("0").millis(), 0);
        assert_eq!(q(".5").millis(), 500);
    }

    #[test]
    fn memory_forms() {
        assert_eq!(q("512Mi").units(), 512 * MI);
        assert_eq!(q("14624Ki").units(), 14624 * 1024);
        assert_eq!(q("1G").units(), 1_000_000_000);
        assert_eq!(q("1.5Gi").units(), 1536 * MI);
        assert_eq!(q("128974848").units(), 128_974_848);
        assert_eq!(q("129e6").units(), 129_000_000);
        assert_eq!(q("0.1Ki").units(), 103, "102.4 bytes rounds up");
        assert_eq!(memory_text(q("14624Ki").units()), "14Mi");
        assert_eq!(memory_text(35_651_584), "34Mi");
        assert_eq!(cpu_text(12), "12m");
    }

    #[test]
    fn garbage_is_refused() {
        for bad in ["", "Mi", "1.2.3", "12x", "1Kii", "e3", "1e99", "--1"] {
            assert!(Quantity::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(q("-1").units(), -1);
    }
}
