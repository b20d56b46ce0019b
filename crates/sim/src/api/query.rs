//! Query strings as the API server reads them: tolerant of kube-rs' `?&` prefix, percent-decoded,
//! `+` as space (`application/x-www-form-urlencoded`, decoded by the `form_urlencoded` crate;
//! invalid escapes stay literal), the last value of a repeated key wins for scalars.

use super::status::ApiError;

/// Decoded query parameters in request order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Parses a raw query string (without `?`); empty components are skipped.
    pub fn parse(raw: Option<&str>) -> Self {
        let pairs = form_urlencoded::parse(raw.unwrap_or("").as_bytes())
            .into_owned()
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
        let q = Query::parse(Some("command=sh&command=-c&command=echo+a%20b&&x"));
        assert_eq!(q.all("command"), ["sh", "-c", "echo a b"]);
        assert_eq!(q.get("x"), Some(""));
    }
}
