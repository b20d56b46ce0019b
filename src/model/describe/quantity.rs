//! Reading a Kubernetes `resource.Quantity` string as a number, for the QoS class and the
//! downward-API resource values kubectl prints (`k8s.io/apimachinery/pkg/api/resource`).

/// The quantity's value in base units (`500m` → 0.5, `128Mi` → 134217728, `1e3` → 1000):
/// a decimal number with an optional binary suffix (`Ki` … `Ei`), decimal suffix (`n`, `u`,
/// `m`, `k`, `M`, `G`, `T`, `P`, `E`) or exponent (`e3`, `E-2`). `None` when malformed.
pub(super) fn parse(s: &str) -> Option<f64> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(s.len());
    let (number, suffix) = s.split_at(split);
    let n: f64 = number.parse().ok()?;
    let factor = match suffix {
        "" => 1.0,
        "Ki" => 1024f64,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        exp if exp.starts_with(['e', 'E']) => 10f64.powi(exp[1..].parse().ok()?),
        _ => return None,
    };
    Some(n * factor)
}

/// Go's `Quantity.MilliValue()` of a value: thousandths, rounded up (after rounding away the
/// floating-point noise below a millionth of a thousandth).
pub(super) fn ceil_milli(v: f64) -> f64 {
    let milli = (v * 1e9).round() / 1e6;
    // `+ 0.0` turns a `-0` into `0`.
    milli.ceil() + 0.0
}
