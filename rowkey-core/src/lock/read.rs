//! Reading a lock file back into a [`LockedKey`]: the version line first, then the schema lines
//! [`Writer`](super::locked_key::Writer) writes, each checked as it is read, and the `end` line that
//! tells a whole file from a truncated one. Every error names its line and what was expected.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::line::{error, Line, ReadError};
use super::locked_key::{
    Codec, LockedFormat, LockedKey, LockedLayout, LockedSegment, MAGIC, VERSION,
};
use crate::prefix::{HashPrefix, Prefix, Salt, SaltHash};

/// Nested layouts deeper than this are refused: no key the derive accepts comes near it, and a
/// damaged file cannot exhaust the stack.
const MAX_DEPTH: usize = 32;

/// Reads a whole lock file.
pub(crate) fn read(text: &str) -> Result<LockedKey, ReadError> {
    let version = version(text.lines().next().unwrap_or_default())?;
    let items = schema_lines(text);
    let end_line = check_end(text, &items)?;
    let mut reader = Reader {
        items: &items[..items.len() - 1],
        at: 0,
        end_line,
        version,
    };
    let key = reader.key_line()?;
    let layout = reader.layout(0)?;
    let name = &key.name;
    if layout.name != *name {
        return Err(error(
            key.line,
            format!("the key is named {name:?} but its layout {:?}", layout.name),
        ));
    }
    let samples = reader.samples(key.samples)?;
    reader.nothing_after_samples()?;
    Ok(LockedKey {
        limit: key.limit,
        layout,
        samples,
    })
}

/// The format version the first line names, when this build reads it.
fn version(first: &str) -> Result<u32, ReadError> {
    let version = first
        .strip_prefix(MAGIC)
        .and_then(|v| v.strip_prefix(' '))
        .ok_or_else(|| {
            error(
                1,
                format!("not a layout lock: the first line is not `{MAGIC} <version>`"),
            )
        })?;
    match version.trim().parse::<u32>() {
        Ok(v) if (1..=VERSION).contains(&v) => Ok(v),
        Ok(v) => Err(error(
            1,
            format!("format version {v} is newer than this rowkey reads (1 to {VERSION}): upgrade rowkey"),
        )),
        Err(_) => Err(error(1, format!("unknown format version {:?}", version.trim()))),
    }
}

/// The lines after the first that are neither blank nor comments, with their 1-based numbers.
fn schema_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .skip(1)
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The number of the `end` line, which must be the last of `items` and count the lines before
/// it: a file cut short or with lines lost or added is refused.
fn check_end(text: &str, items: &[(usize, &str)]) -> Result<usize, ReadError> {
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
    Ok(end_line)
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

    /// The `key` line: the key's name, its row limit and how many samples follow the layout.
    fn key_line(&mut self) -> Result<KeyLine, ReadError> {
        let mut key = self.expect("key")?;
        let head = KeyLine {
            line: key.line,
            name: key.text("name")?,
            limit: key.number("limit")?,
            samples: key.number("samples")?,
        };
        key.finish()?;
        Ok(head)
    }

    /// The `count` sample lines, numbered from 0: each sample's key.
    fn samples(&mut self, count: usize) -> Result<Vec<Vec<u8>>, ReadError> {
        let mut samples = Vec::new();
        for i in 0..count {
            let mut s = self.expect("sample")?;
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
        Ok(samples)
    }

    /// Refuses a schema line between the last sample and the `end` line.
    fn nothing_after_samples(&self) -> Result<(), ReadError> {
        if let Some(&(line, rest)) = self.items.get(self.at) {
            let keyword = rest.split(' ').next().unwrap_or_default();
            return Err(error(
                line,
                format!("unexpected `{keyword}` line after the last sample"),
            ));
        }
        Ok(())
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
            format: head.format,
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
        let word = l.word("format")?;
        let Some(format) = LockedFormat::from_lock_word(word, || l.text("delimiter"))? else {
            return Err(error(
                l.line,
                format!(
                    "unknown format `{word}`: expected {}",
                    LockedFormat::LOCK_WORDS
                ),
            ));
        };
        let head = LayoutHead {
            name,
            format,
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
        let order = s.order()?;
        let codec = self.codec(&mut s)?;
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

    /// How the segment line `s` writes its value, from `form=` to (format 2 on) `value=`.
    fn codec(&self, s: &mut Line<'a>) -> Result<Codec, ReadError> {
        Ok(Codec {
            form: s.form()?,
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
            unit: s.unit()?,
            format: s.opt_text("format")?,
            value: if self.version >= 2 {
                Some(s.value_kind()?)
            } else {
                None
            },
        })
    }
}

/// A lock file's `key` line.
struct KeyLine {
    line: usize,
    name: String,
    limit: usize,
    samples: usize,
}

/// A layout's first line.
struct LayoutHead {
    name: String,
    format: LockedFormat,
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
