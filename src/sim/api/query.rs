//! Query strings as the API server reads them: tolerant of kube-rs' `?&` prefix, percent-decoded,
//! `+` as space, the last value of a repeated key wins for scalars.

use super::status::ApiError;

/// Decoded query parameters in request order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Parses a raw query string (without `?`); empty components are skipped.
    pub fn parse(raw: Option<&str>) -> Self {
        let pairs = raw
            .unwrap_or("")
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| match p.split_once('=') {
                Some((k, v)) => (decode(k), decode(v)),
                None => (decode(p), String::new()),
            })
            .collect();
        Query { pairs }
    }

    /// The last value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of `key`, in request order (repeated params such as exec's `command`).
    pub fn all(&self, key: &str) -> Vec<&str> {
        self.pairs
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// A boolean parameter: absent/empty/`false`/`0` → false, `true`/`1` → true.
    /// Errors: 400 for other text (as strconv.ParseBool would).
    pub fn flag(&self, key: &str) -> Result<bool, ApiError> {
        match self.get(key) {
            None | Some("") | Some("false") | Some("0") | Some("False") | Some("FALSE")
            | Some("f") => Ok(false),
            Some("true") | Some("1") | Some("True") | Some("TRUE") | Some("t") => Ok(true),
            Some(other) => Err(ApiError::bad_request(format!(
                "invalid value for {key}: {other:?}"
            ))),
        }
    }

    /// A non-negative integer parameter. Errors: 400 for non-numbers.
    pub fn number(&self, key: &str) -> Result<Option<u64>, ApiError> {
        match self.get(key) {
            None | Some("") => Ok(None),
            Some(v) => v
                .parse::<u64>()
                .map(Some)
                .map_err(|_| ApiError::bad_request(format!("invalid value for {key}: {v:?}"))),
        }
    }
}

/// Percent-decoding with `+` as space; invalid escapes are kept literally.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kube_rs_prefix_and_escapes() {
        let q = Query::parse(Some(
            "&fieldSelector=metadata.name%3Dweb%2Cx%21%3Dy&watch=1&limit=500&bad=%zz&t=%4",
        ));
        assert_eq!(q.get("fieldSelector"), Some("metadata.name=web,x!=y"));
        assert_eq!(q.flag("watch"), Ok(true));
        assert_eq!(q.number("limit"), Ok(Some(500)));
        assert_eq!(q.get("bad"), Some("%zz"));
        assert_eq!(q.get("t"), Some("%4"));
        assert!(q.flag("limit").is_err());
    }
}
