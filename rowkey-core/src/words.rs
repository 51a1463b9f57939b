//! Words for messages, so that every message says them alike: a count with its noun in the right
//! number (`1 byte`, `2 bytes`), and the known name nearest a misspelled one (`did you mean`).
//! A leaf, without `alloc`: errors, the phoenix reader and the derive's attribute checks use it.

use core::fmt;

/// A count and its noun, agreeing in number: `Count(1, "byte")` shows `1 byte`, `Count(0,
/// "byte")` and `Count(2, "byte")` show `0 bytes` and `2 bytes`. The nouns of messages take `s`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Count(pub(crate) usize, pub(crate) &'static str);

impl Count {
    /// `is` or `are`, agreeing with the count: `1 byte is left`, `2 bytes are left`.
    pub(crate) const fn is(self) -> &'static str {
        if self.0 == 1 {
            "is"
        } else {
            "are"
        }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.0 == 1 { "" } else { "s" };
        write!(f, "{} {}{s}", self.0, self.1)
    }
}

/// The name of `known` closest to `name`, if it is close enough to be a likely typo: a few edits
/// (at most 2, or a third of the known name), or the known name in full with more after it
/// (`length` for `len`).
pub fn closest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .filter_map(|k| Some((edit_distance(name, k)?, *k)))
        .filter(|(d, k)| *d <= 2.max(k.len() / 3) || (k.len() >= 3 && name.starts_with(k)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// The longest known name [`closest`] compares, in characters (longer ones are never offered).
const LONGEST_KNOWN: usize = 63;

/// Levenshtein's distance from `a` to `b` in characters; `None` when `b` is longer than
/// [`LONGEST_KNOWN`] (the rows live on the stack).
fn edit_distance(a: &str, b: &str) -> Option<usize> {
    let n = b.chars().count();
    if n > LONGEST_KNOWN {
        return None;
    }
    let mut prev = [0usize; LONGEST_KNOWN + 1];
    let mut cur = [0usize; LONGEST_KNOWN + 1];
    for (j, p) in prev.iter_mut().enumerate().take(n + 1) {
        *p = j;
    }
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.chars().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        core::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[n])
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn a_count_agrees_with_its_noun() {
        let cases = [
            (0, "0 bytes", "are"),
            (1, "1 byte", "is"),
            (2, "2 bytes", "are"),
            (32767, "32767 bytes", "are"),
        ];
        for (n, shown, verb) in cases {
            assert_eq!(Count(n, "byte").to_string(), shown);
            assert_eq!(Count(n, "byte").is(), verb, "{n}");
        }
    }

    #[test]
    fn the_closest_known_name_is_offered_only_when_it_is_a_likely_typo() {
        let known = [
            "SALT_BUCKETS",
            "TTL",
            "VERSIONS",
            "len",
            "DATA_BLOCK_ENCODING",
        ];
        let cases = [
            ("SALT_BUCKET", Some("SALT_BUCKETS")),
            ("SALTBUCKETS", Some("SALT_BUCKETS")),
            ("VERSION", Some("VERSIONS")),
            ("TTLS", Some("TTL")),
            ("length", Some("len")),
            ("DATA_BLOCK_ENCODNG", Some("DATA_BLOCK_ENCODING")),
            ("FOO", None),
            ("COMPLETELY_DIFFERENT", None),
            ("", None),
        ];
        for (name, nearest) in cases {
            assert_eq!(closest(name, &known), nearest, "{name}");
        }
    }

    #[test]
    fn edit_distance_counts_characters_and_refuses_overlong_names() {
        assert_eq!(edit_distance("kitten", "sitting"), Some(3));
        assert_eq!(edit_distance("", "abc"), Some(3));
        assert_eq!(edit_distance("é", "e"), Some(1));
        let long = "x".repeat(LONGEST_KNOWN + 1);
        assert_eq!(edit_distance("x", &long), None);
    }
}
