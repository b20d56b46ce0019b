//! Usage numbers as the canonical `resource.Quantity` strings metrics-server writes
//! (`docs/metrics.md` §2): CPU is a `DecimalSI` quantity built from nanocores, memory a
//! `BinarySI` quantity built from bytes. apimachinery's `Quantity.String()` prints the
//! shortest exact form: the mantissa an integer, the exponent a multiple of 3 (decimal) or of
//! 10 bits (binary).

/// The decimal suffixes by power of ten, from nano up (`pkg/api/resource/suffix.go`).
const DECIMAL: [(i32, &str); 7] = [
    (-9, "n"),
    (-6, "u"),
    (-3, "m"),
    (0, ""),
    (3, "k"),
    (6, "M"),
    (9, "G"),
];

/// The binary suffixes by power of 1024.
const BINARY: [&str; 7] = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];

/// `nanocores` (CPU usage in 10⁻⁹ cores) as metrics-server prints it: `"2398029n"`,
/// `"5m"` for 5 000 000, `"1"` for a whole core, `"0"` for none.
#[must_use]
pub fn cpu(nanocores: u64) -> String {
    if nanocores == 0 {
        return "0".to_string();
    }
    let (mut mantissa, mut exp) = (nanocores, -9);
    while mantissa % 1000 == 0 && exp < 9 {
        mantissa /= 1000;
        exp += 3;
    }
    let suffix = DECIMAL
        .iter()
        .find(|(e, _)| *e == exp)
        .map_or("", |(_, s)| *s);
    format!("{mantissa}{suffix}")
}

/// `bytes` of memory as metrics-server prints it: `"14624Ki"` for 14 974 976, `"12Mi"`,
/// plain bytes (`"1023"`, `"14974977"`) when not a multiple of 1024 — below 1024 apimachinery
/// switches to the decimal form, whose canonical text for these values is the same digits
/// (or `"0"`) unless they end in three zeros (`"1k"`).
#[must_use]
pub fn memory(bytes: u64) -> String {
    if bytes < 1024 {
        return decimal_bytes(bytes);
    }
    let (mut mantissa, mut step) = (bytes, 0usize);
    while mantissa % 1024 == 0 && step + 1 < BINARY.len() {
        mantissa /= 1024;
        step += 1;
    }
    format!("{mantissa}{}", BINARY[step])
}

/// The decimal canonical form of a whole number (`0`, `999`, `1k` for 1000).
fn decimal_bytes(value: u64) -> String {
    if value == 0 {
        return "0".to_string();
    }
    let (mut mantissa, mut exp) = (value, 0);
    while mantissa % 1000 == 0 && exp < 9 {
        mantissa /= 1000;
        exp += 3;
    }
    let suffix = DECIMAL
        .iter()
        .find(|(e, _)| *e == exp)
        .map_or("", |(_, s)| *s);
    format!("{mantissa}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_is_canonical_decimal() {
        assert_eq!(cpu(0), "0");
        assert_eq!(cpu(2_398_029), "2398029n");
        assert_eq!(cpu(2_398_000), "2398u");
        assert_eq!(cpu(5_000_000), "5m");
        assert_eq!(cpu(1_500_000_000), "1500m");
        assert_eq!(cpu(2_000_000_000), "2");
    }

    #[test]
    fn memory_is_canonical_binary() {
        assert_eq!(memory(0), "0");
        assert_eq!(memory(1000), "1k");
        assert_eq!(memory(1023), "1023");
        assert_eq!(memory(14_974_976), "14624Ki");
        assert_eq!(memory(12 * 1024 * 1024), "12Mi");
        assert_eq!(memory(14_974_977), "14974977");
        assert_eq!(memory(512 * 1024 * 1024), "512Mi");
    }
}
