//! Reading a lock file back into a [`LockedKey`]: the version line first, then the schema lines
//! [`Writer`](super::locked_key::Writer) writes, each checked as it is read, and the `end` line that
//! tells a whole file from a truncated one. Every error names its line and what was expected.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::locked_key::{Codec, LockedKey, LockedLayout, LockedSegment, MAGIC, ORDERS, VERSION};
use crate::field::{Form, TextRule, ValueKind};
use crate::prefix::{HashPrefix, Prefix, Salt, SaltHash};
use crate::time::unit::TimeUnit;

/// Nested layouts deeper than this are refused: no key the derive accepts comes near it, and a
/// damaged file cannot exhaust the stack.
const MAX_DEPTH: usize = 32;

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

/// Reads a whole lock file.
pub(crate) fn read(text: &str) -> Result<LockedKey, ReadError> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let version = first
        .strip_prefix(MAGIC)
        .and_then(|v| v.strip_prefix(' '))
        .ok_or_else(|| {
            error(
                1,
                format!("not a layout lock: the first line is not `{MAGIC} <version>`"),
            )
        })?;
    let version = match version.trim().parse::<u32>() {
        Ok(v) if (1..=VERSION).contains(&v) => v,
        Ok(v) => {
            return Err(error(
                1,
                format!("format version {v} is newer than this rowkey reads (1 to {VERSION}): upgrade rowkey"),
            ))
        }
        Err(_) => return Err(error(1, format!("unknown format version {:?}", version.trim()))),
    };
    let items: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .skip(1)
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let last_line = text.lines().count().max(1);
    let Some(&(end_line, end)) = items.last() else {
        return Err(error(
            last_line,
            "truncated: the file ends before its `end` line".into(),
        ));
    };
    let mut end_fields = Line::parse(end_line, end)?;
    if end_fields.keyword != "end" {
        return Err(error(
            end_line,
            "truncated: the last line is not the `end` line (`end items=N`)".into(),
        ));
    }
    let count: usize = end_fields.number("items")?;
    end_fields.finish()?;
    if count != items.len() - 1 {
        return Err(error(
            end_line,
            format!(
                "the file holds {} schema lines where its `end` line says {count}: lines are missing or were added",
                items.len() - 1
            ),
        ));
    }
    let mut reader = Reader {
        items: &items[..items.len() - 1],
        at: 0,
        end_line,
        version,
    };
    let mut key = reader.expect("key")?;
    let name: String = key.text("name")?;
    let limit = key.number("limit")?;
    let samples_n: usize = key.number("samples")?;
    key.finish()?;
    let layout = reader.layout(0)?;
    if layout.name != name {
        return Err(error(
            key.line,
            format!("the key is named {name:?} but its layout {:?}", layout.name),
        ));
    }
    let mut samples = Vec::new();
    for i in 0..samples_n {
        let mut s = reader.expect("sample")?;
        let index: usize = s.number("index")?;
        if index != i {
            return Err(error(
                s.line,
                format!("expected sample {i}, found sample {index}"),
            ));
        }
        samples.push(s.hex("key")?);
        s.finish()?;
    }
    if let Some(&(line, rest)) = reader.items.get(reader.at) {
        let keyword = rest.split(' ').next().unwrap_or_default();
        return Err(error(
            line,
            format!("unexpected `{keyword}` line after the last sample"),
        ));
    }
    Ok(LockedKey {
        limit,
        layout,
        samples,
    })
}

fn error(line: usize, reason: String) -> ReadError {
    ReadError { line, reason }
}

struct Reader<'a> {
    items: &'a [(usize, &'a str)],
    at: usize,
    end_line: usize,
    /// The file's format version: format 2 adds `over=` to salts and `value=` to segments.
    version: u32,
}

impl<'a> Reader<'a> {
    /// The next schema line, which must start with `keyword`.
    fn expect(&mut self, keyword: &str) -> Result<Line<'a>, ReadError> {
        let Some(&(line, text)) = self.items.get(self.at) else {
            return Err(error(
                self.end_line,
                format!("the file ends where a `{keyword}` line was expected"),
            ));
        };
        self.at += 1;
        let parsed = Line::parse(line, text)?;
        if parsed.keyword != keyword {
            return Err(error(
                line,
                format!("expected a `{keyword}` line, found `{}`", parsed.keyword),
            ));
        }
        Ok(parsed)
    }

    fn layout(&mut self, depth: usize) -> Result<LockedLayout, ReadError> {
        let head = self.layout_head(depth)?;
        let mut t = self.expect("tag")?;
        let tag = t.hex("bytes")?;
        let tag_delimiter = t.text("delimiter")?;
        t.finish()?;
        let mut p = self.expect("prefix")?;
        let (prefix, sources, whole_key) = self.prefix(&mut p)?;
        p.finish()?;

        let mut segments = Vec::new();
        for i in 0..head.segments {
            segments.push(self.segment(depth, i)?);
        }
        let mut variants = Vec::new();
        for _ in 0..head.variants {
            variants.push(self.layout(depth + 1)?);
        }
        Ok(LockedLayout {
            name: head.name,
            text: head.text,
            tag,
            tag_delimiter,
            prefix,
            sources,
            whole_key,
            fixed_len: head.fixed_len,
            segments,
            variants,
        })
    }

    /// A layout's first line: its name, format, fixed length, and how many segments and
    /// variants follow.
    fn layout_head(&mut self, depth: usize) -> Result<LayoutHead, ReadError> {
        let mut l = self.expect("layout")?;
        if depth > MAX_DEPTH {
            return Err(error(
                l.line,
                format!("layouts nested deeper than {MAX_DEPTH}"),
            ));
        }
        let name = l.text("name")?;
        let text = match l.word("format")? {
            "binary" => None,
            "text" => Some(l.text("delimiter")?),
            other => {
                return Err(error(
                    l.line,
                    format!("unknown format `{other}`: expected `binary` or `text`"),
                ))
            }
        };
        let head = LayoutHead {
            name,
            text,
            fixed_len: l.opt_number("fixed_len")?,
            segments: l.number("segments")?,
            variants: l.number("variants")?,
        };
        l.finish()?;
        Ok(head)
    }

    /// The prefix line `p`: the prefix, its sources, and (format 2 on) whether a salt is over
    /// the whole key.
    fn prefix(&self, p: &mut Line<'a>) -> Result<(Prefix, Vec<String>, Option<bool>), ReadError> {
        match p.word("kind")? {
            "none" => Ok((Prefix::None, Vec::new(), None)),
            "salt" => {
                let (salt, whole_key) = self.salt(p)?;
                Ok((Prefix::Salt(salt), p.sources()?, whole_key))
            }
            "hash" => Ok((Prefix::Hash(hash_prefix(p)?), p.sources()?, None)),
            other => Err(error(
                p.line,
                format!("unknown prefix kind `{other}`: expected none, salt or hash"),
            )),
        }
    }

    /// A salt's buckets, hash and text form, and (format 2 on) whether it is over the whole key.
    fn salt(&self, p: &mut Line<'a>) -> Result<(Salt, Option<bool>), ReadError> {
        let buckets: u16 = p.number("buckets")?;
        let hash_name = p.word("hash")?;
        let hash = SaltHash::from_name(hash_name).ok_or_else(|| {
            error(
                p.line,
                format!("unknown salt hash `{hash_name}`: expected md5, java or mod"),
            )
        })?;
        let text = p.yes_no("text")?;
        let salt = Salt::new(buckets, hash).ok_or_else(|| {
            error(
                p.line,
                format!("a salt of {buckets} buckets is not one rowkey writes (2 to 256)"),
            )
        })?;
        let salt = if text { salt.in_text() } else { salt };
        if self.version < 2 {
            return Ok((salt, None));
        }
        let whole_key = match p.word("over")? {
            "key" => true,
            "fields" => false,
            other => {
                return Err(error(
                    p.line,
                    format!("unknown salt source `{other}`: expected key or fields"),
                ))
            }
        };
        Ok((salt, Some(whole_key)))
    }

    fn segment(&mut self, depth: usize, expected: usize) -> Result<LockedSegment, ReadError> {
        let mut s = self.expect("segment")?;
        let index: usize = s.number("index")?;
        if index != expected {
            return Err(error(
                s.line,
                format!("expected segment {expected}, found segment {index}"),
            ));
        }
        let name = s.text("name")?;
        let ty = s.text("type")?;
        let offset = s.opt_number("offset")?;
        let len = s.opt_number("len")?;
        let order_name = s.word("order")?;
        let order = ORDERS
            .iter()
            .find(|(_, n)| *n == order_name)
            .map(|(o, _)| *o)
            .ok_or_else(|| {
                error(
                    s.line,
                    format!("unknown order `{order_name}`: expected asc, desc or reversed"),
                )
            })?;
        let form_name = s.word("form")?;
        let form = Form::from_name(form_name).ok_or_else(|| {
            let known: Vec<&str> = Form::ALL.iter().map(|(_, n)| *n).collect();
            error(
                s.line,
                format!("unknown form `{form_name}`: this build of rowkey knows {} (decimal needs the `decimal` feature)", known.join(", ")),
            )
        })?;
        let codec = Codec {
            form,
            signed: s.yes_no("signed")?,
            natural_len: s.opt_number("natural_len")?,
            natural_max: s.opt_number("natural_max")?,
            options: s.number("options")?,
            inverts: s.yes_no("inverts")?,
            text_rule: s.text_rule("text_rule")?,
            width: s.opt_number("width")?,
            desc: s.yes_no("desc")?,
            reverse: s.yes_no("reverse")?,
            delimited: s.yes_no("delimited")?,
            unit: {
                let unit = s.word("unit")?;
                TimeUnit::from_name(unit).ok_or_else(|| {
                    error(
                        s.line,
                        format!("unknown unit `{unit}`: expected s, ms, us or ns"),
                    )
                })?
            },
            format: s.opt_text("format")?,
            value: if self.version >= 2 {
                let name = s.word("value")?;
                Some(ValueKind::from_name(name).ok_or_else(|| {
                    let known: Vec<&str> = ValueKind::ALL.iter().map(|(_, n)| *n).collect();
                    error(
                        s.line,
                        format!("unknown value `{name}`: expected {}", known.join(", ")),
                    )
                })?)
            } else {
                None
            },
        };
        let nested = s.yes_no("nested")?;
        s.finish()?;
        let nested = if nested {
            Some(self.layout(depth + 1)?)
        } else {
            None
        };
        Ok(LockedSegment {
            name,
            ty,
            offset,
            len,
            order,
            codec,
            nested,
        })
    }
}

/// A layout's first line.
struct LayoutHead {
    name: String,
    text: Option<String>,
    fixed_len: Option<usize>,
    segments: usize,
    variants: usize,
}

/// A hash prefix's length and text form, from the prefix line `p`.
fn hash_prefix(p: &mut Line<'_>) -> Result<HashPrefix, ReadError> {
    let len: usize = p.number("len")?;
    let hash = match p.word("text")? {
        "no" => HashPrefix::new(len),
        "lower" => HashPrefix::text(len, false),
        "upper" => HashPrefix::text(len, true),
        other => {
            return Err(error(
                p.line,
                format!("unknown hash prefix text `{other}`: expected no, lower or upper"),
            ))
        }
    };
    hash.ok_or_else(|| {
        error(
            p.line,
            format!("an md5 prefix of {len} is not one rowkey writes"),
        )
    })
}

/// One schema line: its keyword and its `key=value` fields, taken one by one; `finish` refuses
/// any field left over.
struct Line<'a> {
    line: usize,
    keyword: &'a str,
    fields: Vec<(&'a str, Value<'a>)>,
}

enum Value<'a> {
    Bare(&'a str),
    Quoted(String),
}

impl<'a> Line<'a> {
    fn parse(line: usize, text: &'a str) -> Result<Line<'a>, ReadError> {
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

    fn word(&mut self, key: &str) -> Result<&'a str, ReadError> {
        match self.take(key)? {
            Value::Bare(v) => Ok(v),
            Value::Quoted(_) => Err(error(
                self.line,
                format!("`{key}` takes a bare word, not a quoted string"),
            )),
        }
    }

    fn text(&mut self, key: &str) -> Result<String, ReadError> {
        match self.take(key)? {
            Value::Quoted(v) => Ok(v),
            Value::Bare(_) => Err(error(self.line, format!("`{key}` takes a quoted string"))),
        }
    }

    fn opt_text(&mut self, key: &str) -> Result<Option<String>, ReadError> {
        match self.take(key)? {
            Value::Quoted(v) => Ok(Some(v)),
            Value::Bare("-") => Ok(None),
            Value::Bare(_) => Err(error(
                self.line,
                format!("`{key}` takes a quoted string or `-`"),
            )),
        }
    }

    fn number<N: core::str::FromStr>(&mut self, key: &str) -> Result<N, ReadError> {
        let word = self.word(key)?;
        word.parse().map_err(|_| {
            error(
                self.line,
                format!("`{key}`: {word:?} is not a number in range"),
            )
        })
    }

    fn opt_number(&mut self, key: &str) -> Result<Option<usize>, ReadError> {
        if matches!(
            self.fields.iter().find(|(k, _)| *k == key),
            Some((_, Value::Bare("-")))
        ) {
            self.take(key)?;
            return Ok(None);
        }
        self.number(key).map(Some)
    }

    fn yes_no(&mut self, key: &str) -> Result<bool, ReadError> {
        match self.word(key)? {
            "yes" => Ok(true),
            "no" => Ok(false),
            other => Err(error(
                self.line,
                format!("`{key}`: expected yes or no, found {other:?}"),
            )),
        }
    }

    fn hex(&mut self, key: &str) -> Result<Vec<u8>, ReadError> {
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

    fn text_rule(&mut self, key: &str) -> Result<TextRule, ReadError> {
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

    fn sources(&mut self) -> Result<Vec<String>, ReadError> {
        Ok(match self.word("sources")? {
            "-" => Vec::new(),
            list => list.split(',').map(ToOwned::to_owned).collect(),
        })
    }

    fn finish(&self) -> Result<(), ReadError> {
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
