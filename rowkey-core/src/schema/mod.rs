//! Layouts as data: a layout lock (see [`lock`](crate::lock)) read back as a [`Schema`] that
//! encodes, decodes, explains and plans keys at run time, without the Rust type that wrote them.
//!
//! The lock holds every fact that decides a key's bytes. A schema turns each field back into the
//! Rust type it stands for and calls that type's own `KeyField` and `DecodeField`, the prefix and
//! cursor steps generated code calls, and the scan planner generated builders call: one
//! implementation of every byte rule, so a schema and the derive cannot disagree.
//!
//! ```
//! use rowkey::schema::{Condition, Schema, Value};
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Event {
//!     user_id: u64,
//!     #[rowkey(desc)]
//!     ts: i64,
//!     host: String,
//! }
//!
//! let lock = rowkey::lock::render(&[Event { user_id: 42, ts: 7, host: "web-2".into() }])?;
//! let schema = Schema::parse(&lock)?;
//!
//! // Fields by name, values by the field's text syntax.
//! let values = [("user_id", "42"), ("ts", "7"), ("host", "web-2")]
//!     .map(|(path, text)| Ok::<_, rowkey::schema::SchemaError>((path.to_string(), schema.parse_value(path, text)?)));
//! let values = values.into_iter().collect::<Result<Vec<_>, _>>()?;
//! let key = schema.encode(&values)?;
//! assert_eq!(key, Event { user_id: 42, ts: 7, host: "web-2".into() }.to_vec()?);
//! assert_eq!(schema.decode(&key)?[2], ("host", Value::Str("web-2".into())));
//!
//! // The same ranges as `Event::scan().user_id(42).ts_range(0..10)`.
//! let plan = schema.plan(&[
//!     ("user_id", Condition::Eq(Value::Unsigned(42))),
//!     ("ts", Condition::Range(std::ops::Bound::Included(Value::Signed(0)), std::ops::Bound::Excluded(Value::Signed(10)))),
//! ])?;
//! let typed: Vec<_> = Event::scan().user_id(42).ts_range(0..10).ranges().collect();
//! assert_eq!(plan.ranges().collect::<Vec<_>>(), typed);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Fields are named by dotted paths: a nested struct's field is `outer.inner`, and an enum with
//! data names its variant as a path segment (`Order.user`; a variant without fields by its name
//! alone, with [`Value::Null`]). [`Value`] lists the text syntax of every field type.
//!
//! Schemas read every layout the derive writes, with these limits: a field type of your own
//! (`KeyField`) is opaque, its bytes as they stand in the key; an `Option` inside an `Option` is
//! refused; a range or IN list on a nested key is refused (bind its fields with `=`, which binds
//! the nested key whole, as the typed builder's method for that field does).
//!
//! | file | idea |
//! |---|---|
//! | `nodes.rs` | the lock's layout as nodes and fields, each field's Rust type and mode |
//! | `value.rs` | [`Value`] and its text |
//! | `parse.rs` | a field's value read from its text, and the words for what each field takes |
//! | `convert.rs` | values to and from any Rust type a field stands for, through its own codecs |
//! | `typed.rs` | which Rust type a field stands for, and the types schemas add (arrays, digests) |
//! | `key_walk.rs` | keys walked as generated code walks them, around the fields by `walk/frame.rs` |
//! | `query.rs` | queries bound through the typed builder's planner |
//! | `intern.rs` | names and facts kept for the process, as the codecs take them |

#[cfg(feature = "chrono")]
mod chrono;
mod convert;
mod field_types;
mod intern;
mod key_read;
mod key_walk;
mod nodes;
mod parse;
mod paths;
mod query;
mod stand_ins;
mod typed;
mod value;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use std::path::Path;

pub use query::Condition;
pub use value::Value;

use crate::codec::columns;
use crate::describe::explain::Explained;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::FieldMode;
use crate::lock::locked_key::{LockedKey, LockedLayout};
use crate::prefix::Prefix;
use crate::scan::Scan;
use key_walk::Slots;
use nodes::{Kind, Node};
use paths::{find, join};

/// The longest key `encode` writes out before it gives up: far past any store's row limit
/// (`rowkey::limits`), which `max_len` caps first.
const MAX_ENCODED: usize = 1 << 26;

/// A key layout read from a layout lock: encodes, decodes, explains and plans keys as the derived
/// type does. See the [module docs](self).
#[derive(Debug)]
pub struct Schema {
    root: Node,
    /// The dotted path of every value slot (`Node::number`).
    paths: Vec<&'static str>,
    limit: usize,
    samples: Vec<Vec<u8>>,
}

/// What a schema could not do: read its lock file, take a value or a query, encode a key.
#[derive(Debug)]
#[non_exhaustive]
pub enum SchemaError {
    /// The lock file could not be read: its path, and the line (1-based, 0 for the file) and
    /// what is wrong.
    Lock {
        /// The file, when read from one.
        path: String,
        /// The line, 1-based; 0 when the file could not be opened.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The layout has something schemas do not read.
    Unsupported(String),
    /// A value, a field path or a query that the layout does not take.
    Input(String),
    /// The values make no key (too long for the row limit, a time before the epoch).
    Encode(EncodeError),
}

impl SchemaError {
    fn unsupported(what: String) -> SchemaError {
        SchemaError::Unsupported(what)
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaError::Lock {
                path,
                line: 0,
                reason,
            } => write!(f, "{path}: {reason}"),
            SchemaError::Lock { path, line, reason } if path.is_empty() => {
                write!(f, "line {line}: {reason}")
            }
            SchemaError::Lock { path, line, reason } => write!(f, "{path}:{line}: {reason}"),
            SchemaError::Unsupported(what) => write!(f, "not read by schemas: {what}"),
            SchemaError::Input(what) => f.write_str(what),
            SchemaError::Encode(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SchemaError {}

/// One field a schema takes, for listings such as `rowkey encode --help`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FieldInfo {
    /// The field's dotted path.
    pub path: String,
    /// Its type as written in the struct.
    pub ty: String,
    /// What its values are, in words.
    pub takes: String,
}

impl Schema {
    /// Reads the lock file at `path`.
    pub fn read(path: impl AsRef<Path>) -> Result<Schema, SchemaError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| SchemaError::Lock {
            path: path.display().to_string(),
            line: 0,
            reason: e.to_string(),
        })?;
        Schema::parse(&text).map_err(|e| match e {
            SchemaError::Lock { line, reason, .. } => SchemaError::Lock {
                path: path.display().to_string(),
                line,
                reason,
            },
            e => e,
        })
    }

    /// Reads a lock file's text.
    pub fn parse(text: &str) -> Result<Schema, SchemaError> {
        let key = crate::lock::read::read(text).map_err(|e| SchemaError::Lock {
            path: String::new(),
            line: e.line,
            reason: e.reason,
        })?;
        Schema::of(&key)
    }

    fn of(key: &LockedKey) -> Result<Schema, SchemaError> {
        // A lock of format 1 writes a whole-key salt (`salt(buckets = N)`) and a salt over every
        // field in order alike; the samples tell them apart, and without samples the whole-key
        // salt, the common form, is taken. Format 2 says which (`over=`).
        let fields = Schema::with(&key.layout, key, false)?;
        if key.layout.whole_key.is_some() || !could_be_fields_salt(&key.layout) {
            return Ok(fields);
        }
        let whole = Schema::with(&key.layout, key, true)?;
        let decodes = |s: &Schema| key.samples.iter().all(|k| s.decode(k).is_ok());
        Ok(if !decodes(&whole) && decodes(&fields) {
            fields
        } else {
            whole
        })
    }

    fn with(
        layout: &LockedLayout,
        key: &LockedKey,
        whole_key: bool,
    ) -> Result<Schema, SchemaError> {
        let mut root = Node::of(layout, whole_key, None)?;
        typed::check_widths(&root)?;
        let mut paths = Vec::new();
        root.number("", &mut paths);
        root.place(FieldMode::LAST);
        typed::pick_codecs(&mut root);
        Ok(Schema {
            root,
            paths,
            limit: key.limit,
            samples: key.samples.clone(),
        })
    }

    /// The key type's name.
    pub fn name(&self) -> &str {
        self.root.name
    }

    /// The longest key the layout allows (`max_len`, or the default row limit).
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The sample keys the lock holds.
    pub fn samples(&self) -> &[Vec<u8>] {
        &self.samples
    }

    /// Every field the schema takes, by dotted path, in key order.
    pub fn fields(&self) -> Vec<FieldInfo> {
        let mut out = Vec::new();
        list(&self.root, "", &mut out);
        out
    }

    /// Reads `text` as a value of the field at `path`, in the syntax [`Value`] lists.
    pub fn parse_value(&self, path: &str, text: &str) -> Result<Value, SchemaError> {
        let field = self.field(path)?;
        parse::parse(field, text).map_err(|e| SchemaError::Input(format!("`{path}`: {e}")))
    }

    /// The field at `path`.
    fn field(&self, path: &str) -> Result<&nodes::Field, SchemaError> {
        find(&self.root, path).ok_or_else(|| {
            let paths: Vec<String> = self.fields().into_iter().map(|f| f.path).collect();
            SchemaError::Input(format!(
                "`{}` has no field `{path}`; its fields are {}",
                self.root.name,
                paths.join(", ")
            ))
        })
    }

    /// The value slot of the dotted path `path`.
    fn slot(&self, path: &str) -> Result<usize, SchemaError> {
        match self.paths.iter().position(|p| *p == path) {
            Some(i) => Ok(i),
            None => Err(SchemaError::Input(self.unknown(path))),
        }
    }

    #[cold]
    fn unknown(&self, path: &str) -> String {
        let paths: Vec<String> = self.fields().into_iter().map(|f| f.path).collect();
        format!(
            "`{}` has no field `{path}`; its fields are {}",
            self.root.name,
            paths.join(", ")
        )
    }

    /// Encodes the key whose fields have `values` (by dotted path), as the derived type's
    /// `to_vec` does; a missing field, an unknown one or one given twice is an error.
    pub fn encode<P: AsRef<str>>(&self, values: &[(P, Value)]) -> Result<Vec<u8>, SchemaError> {
        self.with_slots(values, |slots| {
            // Most keys fit on the stack, and then take one allocation of their own length.
            let mut short = [0u8; 64];
            match self.write(slots, &mut short) {
                Ok(n) => Ok(short[..n].to_vec()),
                Err(e) if matches!(e.kind(), EncodeErrorKind::BufferTooSmall { .. }) => {
                    // Longer than the stack's 64 bytes: the growing buffer starts past them.
                    let mut out = alloc::vec![0u8; 256];
                    self.write_growing(slots, &mut out)?;
                    Ok(out)
                }
                Err(e) => Err(self.refused(slots, e)),
            }
        })
    }

    /// [`encode`](Schema::encode) into `out`, replacing what it held: a loop over many keys
    /// reuses one buffer.
    pub fn encode_into<P: AsRef<str>>(
        &self,
        values: &[(P, Value)],
        out: &mut Vec<u8>,
    ) -> Result<(), SchemaError> {
        self.with_slots(values, |slots| self.write_growing(slots, out))
    }

    /// Runs `f` on `values` by slot.
    fn with_slots<P: AsRef<str>, R>(
        &self,
        values: &[(P, Value)],
        f: impl FnOnce(&Slots<'_>) -> Result<R, SchemaError>,
    ) -> Result<R, SchemaError> {
        let mut stack = [None; 16];
        let mut heap = Vec::new();
        let slots: &mut [Option<&Value>] = if self.paths.len() <= stack.len() {
            &mut stack[..self.paths.len()]
        } else {
            heap.resize(self.paths.len(), None);
            &mut heap
        };
        // Values usually come in key order: each path is first compared with the one after the
        // previous value's.
        let mut next = 0;
        for (path, value) in values {
            let path = path.as_ref();
            let i = match self.paths.get(next) {
                Some(p) if value::same_str(p, path) => next,
                _ => self.slot(path)?,
            };
            next = i + 1;
            if slots[i].replace(value).is_some() {
                return Err(SchemaError::Input(format!(
                    "`{path}` is given more than once"
                )));
            }
        }
        f(slots)
    }

    /// Writes the key of `slots` at the start of `out`; returns its length.
    fn write(&self, slots: &Slots<'_>, out: &mut [u8]) -> Result<usize, EncodeError> {
        let n = key_walk::encode_record(&self.root, slots, out, FieldMode::LAST, true)?;
        if n > self.limit {
            return Err(EncodeError::new(EncodeErrorKind::RowTooLong {
                len: n,
                max: self.limit,
            })
            .in_key(self.root.key_name()));
        }
        Ok(n)
    }

    /// Writes the key of `slots` into `out`, replacing what it held, growing it as needed.
    fn write_growing(&self, slots: &Slots<'_>, out: &mut Vec<u8>) -> Result<(), SchemaError> {
        if out.len() < 64 {
            out.resize(64, 0);
        }
        loop {
            match self.write(slots, out) {
                Ok(n) => {
                    out.truncate(n);
                    return Ok(());
                }
                // A key longer than the limit is written whole first, so that the error says
                // how long it is, as the derive's does.
                Err(e)
                    if matches!(e.kind(), EncodeErrorKind::BufferTooSmall { .. })
                        && out.len() < MAX_ENCODED =>
                {
                    let longer = (out.len() * 4).min(MAX_ENCODED);
                    out.resize(longer, 0);
                }
                Err(e) => return Err(self.refused(slots, e)),
            }
        }
    }

    /// The error for a key the encoder refused with `e`: what is wrong with a value, in words,
    /// or `e` itself.
    #[cold]
    fn refused(&self, slots: &Slots<'_>, e: EncodeError) -> SchemaError {
        if matches!(e.kind(), EncodeErrorKind::RowTooLong { .. }) {
            return SchemaError::Encode(e);
        }
        match key_walk::check(&self.root, slots, &self.paths) {
            Err(words) => SchemaError::Input(words),
            Ok(()) => SchemaError::Encode(e.in_key(self.root.key_name())),
        }
    }

    /// Decodes a stored key into its fields' values, by dotted path in key order, as the derived
    /// type's `decode` does (the whole key, its prefix checked).
    pub fn decode(&self, key: &[u8]) -> Result<Vec<(&str, Value)>, DecodeError> {
        let mut out = Vec::with_capacity(self.paths.len());
        self.read_key::<false>(key, FieldMode::LAST, &mut out)?;
        Ok(out)
    }

    /// [`decode`](Schema::decode) into `out`, replacing what it held: a loop over many keys
    /// reuses one list.
    pub fn decode_into<'s>(
        &'s self,
        key: &[u8],
        out: &mut Vec<(&'s str, Value)>,
    ) -> Result<(), DecodeError> {
        out.clear();
        self.read_key::<false>(key, FieldMode::LAST, out)
            .map(|_| ())
    }

    /// Shows each part of a stored key beside its value, as the derived type's `explain` does.
    pub fn explain(&self, key: &[u8]) -> Result<Explained, DecodeError> {
        self.explain_in(key, FieldMode::LAST)
    }

    /// Explains any bytes, as far as they go, as the derived type's `explain_best_effort` does:
    /// what [`explain`](Schema::explain) gives for a key that decodes, and for one that does not,
    /// the parts that can still be told with the error in [`Explained::error`]. A key whose
    /// fields decode but whose salt or hash prefix is not theirs (a salt byte past the bucket
    /// count included) is shown in full, its prefix as found; any other shows the tag and prefix
    /// its layout places, and the rest undecoded.
    ///
    /// ```
    /// use rowkey::DecodeErrorKind;
    /// let lock = rowkey::phoenix::lock_from_ddl(
    ///     "CREATE TABLE T (A VARCHAR NOT NULL CONSTRAINT PK PRIMARY KEY (A)) SALT_BUCKETS = 4",
    /// )?;
    /// let schema = rowkey::schema::Schema::parse(&lock)?;
    /// // Salt byte 09 on a table of 4 buckets: `explain` refuses the key, the best effort shows it.
    /// assert!(schema.explain(b"\x09abc").is_err());
    /// let shown = schema.explain_best_effort(b"\x09abc");
    /// assert_eq!(shown.rows[0].value, "bucket 9, out of range (4 buckets)");
    /// assert_eq!(shown.rows[1].value, r#""abc""#);
    /// let error = shown.error.unwrap();
    /// assert_eq!(error.kind(), DecodeErrorKind::BucketOutOfRange { bucket: 9, buckets: 4, text: false });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explain_best_effort(&self, key: &[u8]) -> Explained {
        crate::describe::explain::best_effort(key, &self.root, self.explain(key), || {
            self.explain_in(key, FieldMode::LAST.with_prefix_unchecked())
        })
    }

    /// [`explain`](Schema::explain), decoding in `mode` (which may leave the prefix unchecked).
    fn explain_in(&self, key: &[u8], mode: FieldMode) -> Result<Explained, DecodeError> {
        let mut out = Vec::new();
        let read = self.read_key::<true>(key, mode, &mut out)?;
        Ok(key_read::explain(&read, key))
    }

    /// The `CREATE TABLE` statement of Phoenix table `table` whose primary key is this schema's
    /// key, as [`rowkey::phoenix::ddl`](crate::phoenix::ddl) gives it for the derived type the
    /// lock was written from; an error for a lock of another format (`rowkey phoenix-ddl LOCK
    /// TABLE` prints it).
    ///
    /// ```
    /// let lock = rowkey::phoenix::lock_from_ddl(
    ///     "CREATE TABLE T (A VARCHAR NOT NULL, B BIGINT NOT NULL CONSTRAINT PK PRIMARY KEY (A, B DESC))",
    /// )?;
    /// let schema = rowkey::schema::Schema::parse(&lock)?;
    /// assert_eq!(
    ///     schema.phoenix_ddl("T")?,
    ///     "CREATE TABLE T (\n    \"A\" VARCHAR NOT NULL,\n    \"B\" BIGINT NOT NULL,\n    CONSTRAINT PK PRIMARY KEY (\"A\", \"B\" DESC)\n) COLUMN_ENCODED_BYTES = 0"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn phoenix_ddl(&self, table: &str) -> Result<String, SchemaError> {
        let root = &self.root;
        if columns::plain(root.format) {
            return Err(SchemaError::unsupported(format!(
                "`{}` is not Apache Phoenix's primary key (its lock says format=binary or text, not phoenix)",
                root.key_name()
            )));
        }
        let columns = root.fields.iter().map(|f| {
            let column = typed::shape_of(f)
                .ok_or("a nested key")
                .and_then(|shape| crate::field::column_type::column(shape, f.placed));
            (f.name, column, f.mode.is_desc())
        });
        let salt = match root.prefix {
            Prefix::Salt(salt) => Some(salt.buckets()),
            _ => None,
        };
        Ok(crate::phoenix::ddl_text(table, columns, salt))
    }

    /// Reads `key` whole into `out`, placed with `mode`; with `SHOW`, as `explain` shows it.
    fn read_key<'s, const SHOW: bool>(
        &'s self,
        key: &[u8],
        mode: FieldMode,
        out: &mut Vec<(&'s str, Value)>,
    ) -> Result<key_read::Read<'s>, DecodeError> {
        if key.len() > self.limit {
            return Err(DecodeError::new(
                DecodeErrorKind::RowTooLong {
                    len: key.len(),
                    max: self.limit,
                },
                0,
            )
            .in_key(self.root.key_name()));
        }
        let read = key_read::read_record::<SHOW>(&self.root, key, mode, &self.paths, out)
            .map_err(|e| e.in_key(self.root.key_name()))?;
        if read.len != key.len() {
            return Err(DecodeError::new(
                DecodeErrorKind::TrailingBytes {
                    count: key.len() - read.len,
                },
                read.len,
            )
            .in_key(self.root.key_name()));
        }
        Ok(read)
    }

    /// Plans a scan: `query` binds fields by dotted path in key order, as the typed builder does
    /// (equalities and IN lists on leading fields, then at most one range or prefix). The plan's
    /// ranges are the typed builder's for the same query.
    pub fn plan<P: AsRef<str>>(
        &self,
        query: &[(P, Condition)],
    ) -> Result<Scan<Schema>, SchemaError> {
        query::plan(self, query)
    }
}

/// Whether a layout's salt lists every field in order: a whole-key salt in a format-1 lock, or a
/// salt over those fields.
fn could_be_fields_salt(l: &LockedLayout) -> bool {
    matches!(l.prefix, Prefix::Salt(_))
        && !l.segments.is_empty()
        && l.sources.len() == l.segments.len()
        && l.sources
            .iter()
            .zip(&l.segments)
            .all(|(s, seg)| *s == seg.name)
}

fn list(node: &Node, at: &str, out: &mut Vec<FieldInfo>) {
    if node.is_enum() {
        for v in &node.variants {
            let path = join(at, v.short_name());
            if v.fields.is_empty() {
                out.push(FieldInfo {
                    path,
                    ty: String::from(v.name),
                    takes: String::from("the variant, named alone"),
                });
            } else {
                list(v, &path, out);
            }
        }
        return;
    }
    for f in &node.fields {
        let path = join(at, f.name);
        match &f.kind {
            Kind::Record(child) => list(child, &path, out),
            kind => {
                let mut takes = String::from(parse::kind_words(kind));
                if let Kind::Enum(variants) = kind {
                    let names: Vec<&str> = variants.iter().map(|(n, _)| *n).collect();
                    takes = format!("one of {}", names.join(", "));
                }
                if f.optional {
                    takes.push_str(", or null");
                }
                out.push(FieldInfo {
                    path,
                    ty: String::from(f.ty),
                    takes,
                });
            }
        }
    }
}
