//! Reading a Kubernetes `resource.Quantity` string as a number, for the QoS class and the
//! downward-API resource values kubectl prints (`k8s.io/apimachinery/pkg/api/resource`).

/// The quantity's value in base units (`500m` → 0.5, `128Mi` → 134217728, `1e3` → 1000):
/// a decimal number with an optional binary suffix (`Ki` … `Ei`), decimal suffix (`n`, `u`,
/// `m`, `k`, `M`, `G`, `T`, `P`, `E`) or exponent (`e3`, `E-2`). `None` when malformed.
#[must_use]
pub fn parse(s: &str) -> Option<f64> {
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

/// The quantity written as apimachinery's `Quantity.String()` writes it (kubectl prints every
/// quantity that way, whatever text the server sent): `0.5` → `500m`, `1024Mi` → `1Gi`,
/// `1200000` → `1200k`, `1e6` stays `1e6`, zero is `0`.
///
/// The rules: the suffix gives the format (binary `Ki`…`Ei`, exponent `eN`, else decimal SI);
/// the value is rounded up to nano units. A binary value prints with the largest power-of-1024
/// suffix that divides it exactly, unless it lies strictly between −1024 and 1024 or is not a
/// whole number (then it prints as decimal SI). A decimal value drops trailing zeros into its
/// exponent, lowers the exponent to a multiple of 3 (multiplying the digits back) and prints
/// with the SI suffix of that exponent (`n u m "" k M G T P E`), or `eN` in exponent format.
/// Text it cannot read (or too large for 128-bit arithmetic) is returned unchanged.
pub fn canonical(s: &str) -> String {
    canonical_of(s).unwrap_or_else(|| s.to_string())
}

#[derive(PartialEq)]
enum Format {
    Binary,
    Exponent,
    Decimal,
}

fn canonical_of(s: &str) -> Option<String> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(s.len());
    let (number, suffix) = s.split_at(split);
    let (negative, digits) = match number.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, number.strip_prefix('+').unwrap_or(number)),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    let mut mantissa: i128 = format!("{whole}{frac}").parse().ok()?;
    let mut scale: i32 = -i32::try_from(frac.len()).ok()?;
    let binary = |k: u32| 1024i128.checked_pow(k);
    let format = match suffix {
        "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei" => {
            let k = match suffix {
                "Ki" => 1,
                "Mi" => 2,
                "Gi" => 3,
                "Ti" => 4,
                "Pi" => 5,
                _ => 6,
            };
            mantissa = mantissa.checked_mul(binary(k)?)?;
            Format::Binary
        }
        "" | "n" | "u" | "m" | "k" | "M" | "G" | "T" | "P" | "E" => {
            scale += match suffix {
                "n" => -9,
                "u" => -6,
                "m" => -3,
                "k" => 3,
                "M" => 6,
                "G" => 9,
                "T" => 12,
                "P" => 15,
                "E" => 18,
                _ => 0,
            };
            Format::Decimal
        }
        e if e.starts_with(['e', 'E']) => {
            scale += e[1..].parse::<i32>().ok()?;
            Format::Exponent
        }
        _ => return None,
    };
    if negative {
        mantissa = -mantissa;
    }
    // Round up to nano units.
    if scale < -9 {
        let div = 10i128.checked_pow(u32::try_from(-9 - scale).ok()?)?;
        mantissa = mantissa.div_euclid(div) + i128::from(mantissa.rem_euclid(div) != 0);
        scale = -9;
    }
    if mantissa == 0 {
        return Some("0".to_string());
    }
    if format == Format::Binary
        && let Some(whole) = whole_value(mantissa, scale)
        && !(-1024 < whole && whole < 1024)
    {
        let (mut v, mut k) = (whole, 0);
        while k < 6 && v % 1024 == 0 {
            v /= 1024;
            k += 1;
        }
        let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][k];
        return Some(format!("{v}{suffix}"));
    }
    // Decimal: trailing zeros into the exponent, the exponent down to a multiple of 3.
    while mantissa % 10 == 0 {
        mantissa /= 10;
        scale += 1;
    }
    let down = scale.rem_euclid(3);
    mantissa = mantissa.checked_mul(10i128.pow(u32::try_from(down).ok()?))?;
    scale -= down;
    let suffix = if format == Format::Exponent {
        if scale == 0 {
            String::new()
        } else {
            format!("e{scale}")
        }
    } else {
        match scale {
            -9 => "n",
            -6 => "u",
            -3 => "m",
            0 => "",
            3 => "k",
            6 => "M",
            9 => "G",
            12 => "T",
            15 => "P",
            18 => "E",
            _ => return None,
        }
        .to_string()
    };
    Some(format!("{mantissa}{suffix}"))
}

/// `mantissa × 10^scale` when it is a whole number.
fn whole_value(mantissa: i128, scale: i32) -> Option<i128> {
    if scale >= 0 {
        mantissa.checked_mul(10i128.checked_pow(u32::try_from(scale).ok()?)?)
    } else {
        let div = 10i128.checked_pow(u32::try_from(-scale).ok()?)?;
        (mantissa % div == 0).then_some(mantissa / div)
    }
}

#[cfg(test)]
mod tests {
    use super::canonical;

    #[test]
    fn quantities_print_as_apimachinery_prints_them() {
        for (input, want) in [
            ("0.5", "500m"),
            ("1024Mi", "1Gi"),
            ("1536Mi", "1536Mi"),
            ("1e6", "1e6"),
            ("1200000", "1200k"),
            ("100m", "100m"),
            ("1000m", "1"),
            ("0", "0"),
            ("512Ki", "512Ki"),
            ("0.5Ki", "512"),
            ("1.5Gi", "1536Mi"),
            ("128974848", "128974848"),
            ("129e6", "129e6"),
            ("123Mi", "123Mi"),
            ("1.1", "1100m"),
            ("0.0000000001", "1n"),
        ] {
            assert_eq!(canonical(input), want, "{input}");
        }
    }
}
