//! The layout lock: a test that pins a key type's bytes, so that a change to the layout which
//! would orphan stored rows fails in review instead of in production.
//!
//! [`assert_locked`] compares the key type as compiled now with a text file checked in beside
//! the test: the layout as [`LAYOUT`](crate::RowKey::LAYOUT) describes it, complete enough to
//! rebuild the codec without the Rust type, and each sample value's key bytes. A change that
//! keeps every stored key readable with the same meaning passes and says so; any other change
//! fails, naming the field and how it changed, and which samples' bytes changed.
//!
//! ```no_run
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Event {
//!     user_id: u64,
//!     #[rowkey(desc)]
//!     ts: i64,
//!     host: String,
//! }
//!
//! #[test]
//! fn event_keys_stay_readable() {
//!     rowkey::lock::assert_locked("tests/keys/event.lock", &[
//!         Event { user_id: 42, ts: 1_700_000_000_000, host: "web-2".into() },
//!         Event { user_id: 0, ts: 0, host: String::new() },
//!     ]);
//! }
//! ```
//!
//! **Environment**, read at every call:
//!
//! - `ROWKEY_LOCK=update` writes the file when it is missing or differs, and passes:
//!   `ROWKEY_LOCK=update cargo test` records a change you mean, for review with the code.
//! - Without it, a missing file fails, and so does an incompatible change.
//! - With `CI` set (to anything), the file is never written: CI checks the lock that was
//!   committed.
//!
//! **Compatible changes** (the file is left as it is unless `ROWKEY_LOCK=update`): a field,
//! variant or the key renamed at the same place, a field type spelled differently that writes the
//! same bytes, an enum variant added under a new tag, a higher `max_len` (or a lower one that
//! every key of a fixed layout still fits), samples added or dropped. And every locked sample key
//! must still decode. Everything else is incompatible: see [`ChangeKind`].
//!
//! **The file** is text, meant for review: a version line (`rowkey-lock 2`), notes (`#` lines:
//! the layout table and each sample's explanation, for readers), then the schema, one item per
//! line, `keyword key=value ...`, nested layouts indented:
//!
//! - `key name= limit= samples=`: the key type, its `max_len`, how many samples follow the layout.
//! - `layout name= format=binary|text|phoenix [delimiter=] fixed_len= segments= variants=`, then `tag
//!   bytes= delimiter=`, `prefix kind=none|salt|hash` (a salt's `buckets= hash=md5|java|mod
//!   text=yes|no over=key|fields`, a hash prefix's `len= text=no|lower|upper`, and their
//!   `sources=`), then the `segments` segment blocks and the `variants` layout blocks of an
//!   enum's variants.
//! - `segment index= name= type= offset= len= order=asc|desc|reversed form= signed=
//!   natural_len= natural_max= options= inverts= text_rule= width= desc= reverse= delimited=
//!   unit= format= value= nested=yes|no`, followed by the nested key's layout block when
//!   `nested=yes`. `value=` names the Rust type the bytes hold where the form leaves it open:
//!   `plain`, `str` (text content), `uuid`, `system-time`, `datetime`, `naive-datetime`,
//!   `naive-date`, `naive-time`.
//! - `sample index= key=<hex>`: each sample's key as one unbroken lowercase hex string.
//! - `end items=N`, last: the number of schema lines before it, so that a truncated file is told
//!   from a whole one.
//!
//! Strings are quoted as Rust writes them (`"a\"b"`); `-` stands for none.
//!
//! Format 2 added `over=` (a salt over the whole key after it, or over its sources' values: format
//! 1 wrote both alike) and `value=`, which [`schema`](crate::schema) needs to read values as the
//! type that wrote them. Files of format 1 still read and still hold: neither is a change of the
//! key's bytes.

mod change;
mod line;
pub(crate) mod locked_key;
pub(crate) mod read;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use std::io;
use std::path::{Path, PathBuf};

pub use change::{Change, ChangeKind};
use locked_key::{LockedKey, Writer, MAGIC, VERSION};

use crate::error::EncodeError;
use crate::key::RowKey;

/// A lock that holds: the key type is as locked, or changed only compatibly, or the file was
/// written on request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// The layout and every sample's bytes are as locked.
    Unchanged,
    /// Changed, compatibly: every stored key still reads back. The file is left as it is;
    /// `ROWKEY_LOCK=update` records the change.
    Compatible {
        /// What changed.
        changes: Vec<Change>,
    },
    /// `ROWKEY_LOCK=update`: the file was written (`created`: it did not exist), with these
    /// changes from the one it replaced (compatible or not; empty when created or unreadable).
    Written {
        /// Whether the file was new.
        created: bool,
        /// What changed from the file it replaced.
        changes: Vec<Change>,
    },
}

/// Why a lock does not hold.
#[derive(Debug)]
#[non_exhaustive]
pub enum LockError {
    /// No lock file at `path` (and `ROWKEY_LOCK=update` was not given, or `CI` is set).
    Missing {
        /// The lock file's path.
        path: PathBuf,
    },
    /// The file exists but is not a whole lock file of a version this rowkey reads.
    Unreadable {
        /// The lock file's path.
        path: PathBuf,
        /// The line at fault, when it is one line's.
        line: Option<usize>,
        /// What is wrong.
        reason: String,
    },
    /// The key type changed in a way that breaks keys stored under the locked layout.
    Incompatible {
        /// The lock file's path.
        path: PathBuf,
        /// Every change, the incompatible ones first.
        changes: Vec<Change>,
    },
    /// A sample could not be encoded.
    Sample {
        /// The sample's index in the slice.
        index: usize,
        /// Why.
        error: EncodeError,
    },
    /// `ROWKEY_LOCK=update` could not write the file.
    Write {
        /// The lock file's path.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

/// Checks the key type `K` and `samples` against the lock file at `path`: the verdict when the
/// lock holds, the reason when it does not. Reads `ROWKEY_LOCK` and `CI` (see the [module
/// docs](self)).
///
/// ```
/// use rowkey::lock::{self, LockError};
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Hit { page: u32 }
///
/// let path = std::env::temp_dir().join("rowkey-doc-missing.lock");
/// # std::env::remove_var("ROWKEY_LOCK");
/// match lock::check(&path, &[Hit { page: 1 }]) {
///     Err(LockError::Missing { .. }) => {}
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn check<K: RowKey>(path: impl AsRef<Path>, samples: &[K]) -> Result<Verdict, LockError> {
    let path = path.as_ref();
    let now = locked_key(samples)?;
    let text = render_key::<K>(&now);
    let update = std::env::var_os("ROWKEY_LOCK").is_some_and(|v| v == "update");
    let may_write = update && std::env::var_os("CI").is_none();
    let write = |changes: Vec<Change>, created: bool| {
        write_file(path, &text).map(|()| Verdict::Written { created, changes })
    };

    let found = match std::fs::read_to_string(path) {
        Ok(found) => found,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return if may_write {
                write(Vec::new(), true)
            } else {
                Err(LockError::Missing { path: path.into() })
            };
        }
        Err(e) => {
            return Err(LockError::Unreadable {
                path: path.into(),
                line: None,
                reason: alloc::format!("{e}"),
            })
        }
    };
    let locked = match read::read(&found) {
        Ok(locked) => locked,
        Err(_) if may_write => return write(Vec::new(), false),
        Err(e) => {
            return Err(LockError::Unreadable {
                path: path.into(),
                line: Some(e.line),
                reason: e.reason,
            })
        }
    };
    let mut changes = change::changes(&locked, &now);
    for (i, key) in locked.samples.iter().enumerate() {
        if let Err(e) = K::explain(key) {
            changes.push(Change {
                kind: ChangeKind::SampleUnreadable,
                at: alloc::format!("sample {i}"),
                detail: alloc::format!(
                    "the locked key {} no longer decodes: {e}",
                    locked_key::Hex(key)
                ),
            });
        }
    }
    changes.sort_by_key(Change::is_compatible);
    if may_write {
        return if found == text {
            Ok(Verdict::Unchanged)
        } else {
            write(changes, false)
        };
    }
    match changes.first() {
        None => Ok(Verdict::Unchanged),
        Some(c) if c.is_compatible() => Ok(Verdict::Compatible { changes }),
        Some(_) => Err(LockError::Incompatible {
            path: path.into(),
            changes,
        }),
    }
}

/// Asserts that the lock at `path` holds for `K` and `samples` ([`check`]), for use in a
/// `#[test]`: panics with the reason when it does not, and prints a note when the key changed
/// compatibly or the file was written.
///
/// ```no_run
/// # use rowkey::RowKey;
/// # #[derive(RowKey)] struct Hit { page: u32 }
/// rowkey::lock::assert_locked("tests/keys/hit.lock", &[Hit { page: 1 }, Hit { page: u32::MAX }]);
/// ```
#[track_caller]
pub fn assert_locked<K: RowKey>(path: impl AsRef<Path>, samples: &[K]) {
    let path = path.as_ref();
    match check(path, samples) {
        Ok(Verdict::Unchanged) => {}
        Ok(verdict) => std::eprintln!("layout lock {}: {verdict}", path.display()),
        Err(e) => panic!("{e}"),
    }
}

/// The lock file of `K` with `samples`, as [`check`] writes it under `ROWKEY_LOCK=update`: to
/// read into a [`Schema`](crate::schema::Schema) without a file, or to write elsewhere.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Hit { page: u32 }
///
/// let text = rowkey::lock::render(&[Hit { page: 7 }])?;
/// assert!(text.starts_with("rowkey-lock 2\n"));
/// assert!(text.contains("sample index=0 key=00000007"));
/// # Ok::<(), rowkey::lock::LockError>(())
/// ```
pub fn render<K: RowKey>(samples: &[K]) -> Result<String, LockError> {
    Ok(render_key::<K>(&locked_key(samples)?))
}

/// `K`'s layout and limit, and the keys of `samples`.
fn locked_key<K: RowKey>(samples: &[K]) -> Result<LockedKey, LockError> {
    let keys = samples
        .iter()
        .enumerate()
        .map(|(index, s)| {
            s.to_vec()
                .map_err(|error| LockError::Sample { index, error })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(LockedKey::new(&K::LAYOUT, K::ROW_LIMIT, keys))
}

/// The whole lock file of `key`: version, notes, schema, end.
fn render_key<K: RowKey>(key: &LockedKey) -> String {
    let mut out = alloc::format!("{MAGIC} {VERSION}\n");
    let mut w = Writer::new(&mut out);
    let header = alloc::format!(
        "The layout lock of `{}` (rowkey::lock). A change to the lines below is a change to the\n\
         bytes of stored keys: review it as one. `ROWKEY_LOCK=update cargo test` rewrites it.\n\
         Lines starting with # are notes for readers; the others are the schema.\n\n{}",
        key.layout.name,
        K::LAYOUT
    );
    header.lines().for_each(|line| w.note(line));
    w.key(key);
    for (i, bytes) in key.samples.iter().enumerate() {
        w.sample(i, bytes);
        let note = match K::explain(bytes) {
            Ok(explained) => alloc::format!("{explained}"),
            Err(e) => alloc::format!("does not decode: {e}"),
        };
        note.lines()
            .for_each(|line| w.note(&alloc::format!("  {line}")));
    }
    w.end();
    out
}

/// Writes `text` to `path` through a temporary file beside it, so that a reader never sees half a
/// lock.
fn write_file(path: &Path, text: &str) -> Result<(), LockError> {
    let fail = |error| LockError::Write {
        path: path.into(),
        error,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    let mut tmp = std::ffi::OsString::from(path.as_os_str());
    tmp.push(".tmp");
    std::fs::write(&tmp, text).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Unchanged => f.write_str("unchanged"),
            Verdict::Compatible { changes } => {
                f.write_str(
                    "changed compatibly (every stored key still reads back); \
                     `ROWKEY_LOCK=update cargo test` records it:",
                )?;
                list(f, changes)
            }
            Verdict::Written { created: true, .. } => f.write_str("written (ROWKEY_LOCK=update)"),
            Verdict::Written { changes, .. } if changes.is_empty() => {
                f.write_str("rewritten (ROWKEY_LOCK=update)")
            }
            Verdict::Written { changes, .. } => {
                f.write_str("rewritten (ROWKEY_LOCK=update), with these changes:")?;
                list(f, changes)
            }
        }
    }
}

fn list(f: &mut fmt::Formatter<'_>, changes: &[Change]) -> fmt::Result {
    for c in changes {
        let mark = if c.is_compatible() {
            ""
        } else {
            " (breaks stored keys)"
        };
        write!(f, "\n  - {c}{mark}")?;
    }
    Ok(())
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LockError::Missing { path } => {
                write!(f, "layout lock {} is missing: ", path.display())?;
                if std::env::var_os("CI").is_some() {
                    f.write_str("CI is set, so it is not written; ")?;
                }
                f.write_str("run `ROWKEY_LOCK=update cargo test` to write it, and commit it")
            }
            LockError::Unreadable { path, line, reason } => {
                write!(f, "layout lock {} cannot be read", path.display())?;
                if let Some(line) = line {
                    write!(f, " (line {line})")?;
                }
                write!(
                    f,
                    ": {reason}; restore it from version control, or rewrite it from the code \
                     with `ROWKEY_LOCK=update cargo test`"
                )
            }
            LockError::Incompatible { path, changes } => {
                write!(
                    f,
                    "layout lock {}: the key changed in a way that breaks keys already stored:",
                    path.display()
                )?;
                list(f, changes)?;
                f.write_str(
                    "\nKeep the old layout, or declare old and new as variants of an enum key \
                     behind their tags and migrate (README, \"Changing a layout\"). If no stored \
                     key must survive, record the new layout with `ROWKEY_LOCK=update cargo test`.",
                )
            }
            LockError::Sample { index, error } => {
                write!(f, "layout lock: sample {index} does not encode: {error}")
            }
            LockError::Write { path, error } => {
                write!(
                    f,
                    "layout lock {} could not be written: {error}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for LockError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LockError::Sample { error, .. } => Some(error),
            LockError::Write { error, .. } => Some(error),
            _ => None,
        }
    }
}
