//! One line of a lock file: its keyword and its `key=value` fields, each read and checked as
//! it is taken, and the error of a file that cannot be read, located at its line.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::locked_key::ORDERS;
use crate::field::layout::Order;
use crate::field::{Form, TextRule, ValueKind};
use crate::time::unit::TimeUnit;

/// Why a lock file could not be read: the line (1-based) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ReadError {
    pub(crate) line: usize,
    pub(crate) reason: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

/// The error at `line`.
pub(super) fn error(line: usize, reason: String) -> ReadError {
    ReadError { line, reason }
}

/// One schema line: its keyword and its `key=value` fields, taken one by one; `finish` refuses
/// any field left over.
pub(super) struct Line<'a> {
    pub(super) line: usize,
    pub(super) keyword: &'a str,
    fields: Vec<(&'a str, Value<'a>)>,
}

enum Value<'a> {
    Bare(&'a str),
    Quoted(String),
}

impl<'a> Line<'a> {
    pub(super) fn parse(line: usize, text: &'a str) -> Result<Line<'a>, ReadError> {
        let (keyword, mut rest) = text.split_once(' ').unwrap_or((text, ""));
        let mut fields = Vec::new();
        loop {
            rest = rest.trim_start_matches(' ');
            if rest.is_empty() {
                break;
            }
            let (key, after) = rest.split_once('=').ok_or_else(|| {
                error(
                    line,
                    format!(
                        "expected `key=value`, found {:?}",
                        rest.split(' ').next().unwrap_or(rest)
                    ),
                )
            })?;
            if key.is_empty() || key.contains(' ') {
                return Err(error(line, format!("expected `key=value`, found {key:?}")));
            }
            let (value, after) = if let Some(quoted) = after.strip_prefix('"') {
                let (value, n) = unquote(quoted)
                    .map_err(|reason| error(line, format!("in `{key}`: {reason}")))?;
                (Value::Quoted(value), &quoted[n..])
            } else {
                let end = after.find(' ').unwrap_or(after.len());
                (Value::Bare(&after[..end]), &after[end..])
            };
            if !after.is_empty() && !after.starts_with(' ') {
                return Err(error(
                    line,
                    format!("`{key}`: expected a space after the value"),
                ));
            }
            fields.push((key, value));
            rest = after;
        }
        Ok(Line {
            line,
            keyword,
            fields,
        })
    }

    fn take(&mut self, key: &str) -> Result<Value<'a>, ReadError> {
        match self.fields.iter().position(|(k, _)| *k == key) {
            Some(i) => Ok(self.fields.remove(i).1),
            None => Err(error(
                self.line,
                format!("a `{}` line needs `{key}=`", self.keyword),
            )),
        }
    }

    pub(super) fn word(&mut self, key: &str) -> Result<&'a str, ReadError> {
        match self.take(key)? {
            Value::Bare(v) => Ok(v),
            Value::Quoted(_) => Err(error(
                self.line,
                format!("`{key}` takes a bare word, not a quoted string"),
            )),
        }
    }

    pub(super) fn text(&mut self, key: &str) -> Result<String, ReadError> {
        match self.take(key)? {
            Value::Quoted(v) => Ok(v),
            Value::Bare(_) => Err(error(self.line, format!("`{key}` takes a quoted string"))),
        }
    }

    pub(super) fn opt_text(&mut self, key: &str) -> Result<Option<String>, ReadError> {
        match self.take(key)? {
            Value::Quoted(v) => Ok(Some(v)),
            Value::Bare("-") => Ok(None),
            Value::Bare(_) => Err(error(
                self.line,
                format!("`{key}` takes a quoted string or `-`"),
            )),
        }
    }

    pub(super) fn number<N: core::str::FromStr>(&mut self, key: &str) -> Result<N, ReadError> {
        let word = self.word(key)?;
        word.parse().map_err(|_| {
            error(
                self.line,
                format!("`{key}`: {word:?} is not a number in range"),
            )
        })
    }

    pub(super) fn opt_number(&mut self, key: &str) -> Result<Option<usize>, ReadError> {
        if matches!(
            self.fields.iter().find(|(k, _)| *k == key),
            Some((_, Value::Bare("-")))
        ) {
            self.take(key)?;
            return Ok(None);
        }
        self.number(key).map(Some)
    }

    pub(super) fn yes_no(&mut self, key: &str) -> Result<bool, ReadError> {
        match self.word(key)? {
            "yes" => Ok(true),
            "no" => Ok(false),
            other => Err(error(
                self.line,
                format!("`{key}`: expected yes or no, found {other:?}"),
            )),
        }
    }

    pub(super) fn hex(&mut self, key: &str) -> Result<Vec<u8>, ReadError> {
        let word = self.word(key)?;
        if word == "-" {
            return Ok(Vec::new());
        }
        let digit = |c: u8| (c as char).to_digit(16);
        if word.len() % 2 != 0 {
            return Err(error(
                self.line,
                format!("`{key}`: an odd number of hex digits ({})", word.len()),
            ));
        }
        word.as_bytes()
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| match (digit(pair[0]), digit(pair[1])) {
                (Some(h), Some(l)) => Ok((h * 16 + l) as u8),
                _ => Err(error(
                    self.line,
                    format!("`{key}`: not a hex digit at position {}", 2 * i),
                )),
            })
            .collect()
    }

    pub(super) fn text_rule(&mut self, key: &str) -> Result<TextRule, ReadError> {
        let word = self.word(key)?;
        let bad = || {
            error(
                self.line,
                format!("`{key}`: expected none, str, digits:N or chars:N, found {word:?}"),
            )
        };
        Ok(match word.split_once(':') {
            None if word == "none" => TextRule::None,
            None if word == "str" => TextRule::Str,
            Some(("digits", n)) => TextRule::Digits(n.parse().map_err(|_| bad())?),
            Some(("chars", n)) => TextRule::Chars(n.parse().map_err(|_| bad())?),
            _ => return Err(bad()),
        })
    }

    pub(super) fn sources(&mut self) -> Result<Vec<String>, ReadError> {
        Ok(match self.word("sources")? {
            "-" => Vec::new(),
            list => list.split(',').map(ToOwned::to_owned).collect(),
        })
    }

    /// A segment's `order=`.
    pub(super) fn order(&mut self) -> Result<Order, ReadError> {
        let order_name = self.word("order")?;
        ORDERS
            .iter()
            .find(|(_, n)| *n == order_name)
            .map(|(o, _)| *o)
            .ok_or_else(|| {
                error(
                    self.line,
                    format!("unknown order `{order_name}`: expected asc, desc or reversed"),
                )
            })
    }

    /// A segment's `form=`, among those this build knows.
    pub(super) fn form(&mut self) -> Result<Form, ReadError> {
        let form_name = self.word("form")?;
        Form::from_name(form_name).ok_or_else(|| {
            let known: Vec<&str> = Form::ALL.iter().map(|(_, n)| *n).collect();
            error(
                self.line,
                format!("unknown form `{form_name}`: this build of rowkey knows {} (decimal needs the `decimal` feature)", known.join(", ")),
            )
        })
    }

    /// A segment's time `unit=`.
    pub(super) fn unit(&mut self) -> Result<TimeUnit, ReadError> {
        let unit = self.word("unit")?;
        TimeUnit::from_name(unit).ok_or_else(|| {
            error(
                self.line,
                format!("unknown unit `{unit}`: expected s, ms, us or ns"),
            )
        })
    }

    /// A segment's `value=` (format 2 on): the Rust type it stands for.
    pub(super) fn value_kind(&mut self) -> Result<ValueKind, ReadError> {
        let name = self.word("value")?;
        ValueKind::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = ValueKind::ALL.iter().map(|(_, n)| *n).collect();
            error(
                self.line,
                format!("unknown value `{name}`: expected {}", known.join(", ")),
            )
        })
    }

    pub(super) fn finish(&self) -> Result<(), ReadError> {
        match self.fields.first() {
            None => Ok(()),
            Some((key, _)) => Err(error(
                self.line,
                format!("unknown field `{key}` in a `{}` line", self.keyword),
            )),
        }
    }
}

/// A string as `{:?}` writes it, after its opening quote: the content and the bytes read up to
/// and including the closing quote.
fn unquote(s: &str) -> Result<(String, usize), String> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, i + 1)),
            '\\' => match chars.next().map(|(_, c)| c) {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some('0') => out.push('\0'),
                Some(c @ ('\\' | '"' | '\'')) => out.push(c),
                Some('u') => {
                    let rest = &s[i + 2..];
                    let close = rest.find('}').ok_or("an unclosed \\u{...} escape")?;
                    let hex = rest
                        .get(1..close)
                        .filter(|_| rest.starts_with('{'))
                        .ok_or("a \\u escape without braces")?;
                    let c = u32::from_str_radix(hex, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or_else(|| format!("\\u{{{hex}}} is not a character"))?;
                    out.push(c);
                    // Skip the escape's `{hex}`.
                    for _ in 0..=close {
                        chars.next();
                    }
                }
                Some(c) => return Err(format!("unknown escape \\{c}")),
                None => return Err("a string ends with a backslash".into()),
            },
            c => out.push(c),
        }
    }
    Err("a string without its closing quote".into())
}
