//! The layout lock (`rowkey::lock`, DESIGN 12): every change of the contract's list is named
//! (field added, removed, moved, retyped, narrowed, `desc` or `reverse` flipped, salt, hash prefix
//! or tag changed) and fails; the compatible ones (renames, a new variant under a new tag, a
//! higher `max_len`) pass and say so; the file is read back exactly, refused when truncated or of
//! an unknown version, and written only with `ROWKEY_LOCK=update` and never under `CI`.
//!
//! The locks of `tests/keys/` pin rowkey's own byte format: a catalogue of layouts of every kind,
//! so that a change to any byte rule fails here. `ROWKEY_LOCK=update cargo test --test lock`
//! rewrites them.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use rowkey::lock::{self, ChangeKind, LockError, Verdict};
use rowkey::{Hashed, RowKey};

/// The environment is one per process: every test here holds this while it runs, and the tests
/// that change `ROWKEY_LOCK` or `CI` restore them before letting go.
static ENV: Mutex<()> = Mutex::new(());

fn env() -> MutexGuard<'static, ()> {
    ENV.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs `f` with `ROWKEY_LOCK` and `CI` set as given (`None`: unset), then puts them back.
fn with_env<T>(rowkey_lock: Option<&str>, ci: Option<&str>, f: impl FnOnce() -> T) -> T {
    let saved = [("ROWKEY_LOCK", rowkey_lock), ("CI", ci)].map(|(name, value)| {
        let old = std::env::var_os(name);
        match value {
            Some(v) => std::env::set_var(name, v),
            None => std::env::remove_var(name),
        }
        (name, old)
    });
    let out = f();
    for (name, old) in saved {
        match old {
            Some(v) => std::env::set_var(name, v),
            None => std::env::remove_var(name),
        }
    }
    out
}

/// A fresh, empty directory of this test's own, removed when the test passes (kept when it
/// fails, to look at).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("rowkey-lock-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

// ---------------------------------------------------------------------------------------------
// The catalogue: rowkey's byte format, pinned.

mod catalogue {
    use super::*;

    #[derive(RowKey, Debug, Clone, Copy, PartialEq)]
    pub enum Kind {
        View = 1,
        Click = 2,
    }

    #[derive(RowKey)]
    pub struct Fixed {
        pub user: u64,
        #[rowkey(desc)]
        pub ts: i64,
        pub kind: u32,
    }

    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16, hash = "java"))]
    pub struct Salted {
        pub host: String,
        #[rowkey(desc)]
        pub ts: i64,
        pub kind: Kind,
        pub note: Vec<u8>,
    }

    #[derive(RowKey)]
    pub struct HashPrefixed {
        #[rowkey(hash_prefix(len = 4))]
        pub host: String,
        #[rowkey(width = 4, reverse)]
        pub seq: u64,
        pub tail: String,
    }

    #[derive(RowKey)]
    #[rowkey(text, delimiter = ":")]
    pub struct Text {
        #[rowkey(hash_prefix(len = 6, upper))]
        pub user: u32,
        #[rowkey(desc)]
        pub ts: u64,
        #[rowkey(width = 8)]
        pub city: String,
        pub page: String,
    }

    #[derive(RowKey)]
    pub struct Inner {
        pub region: u16,
        pub name: String,
    }

    #[derive(RowKey)]
    #[rowkey(tag = b"obj/", max_len = 256)]
    pub struct Nested {
        pub inner: Inner,
        pub maybe: Option<i32>,
        pub digest: Hashed<4>,
        pub ratio: f64,
        pub flag: bool,
        pub letter: char,
        pub raw: [u8; 3],
        #[rowkey(unit = "s", desc)]
        pub at: std::time::SystemTime,
    }

    #[derive(RowKey)]
    pub enum Versioned {
        #[rowkey(tag = 1)]
        V1 { user: u32 },
        #[rowkey(tag = 2)]
        V2 {
            user: u32,
            kind: Kind,
            #[rowkey(desc)]
            name: Option<String>,
        },
    }
}

/// The samples of the catalogue's salted layout (locked in format 2, and in format 1 in `v1/`).
fn salted_samples() -> [catalogue::Salted; 2] {
    use catalogue::*;
    [
        Salted {
            host: "web-2".into(),
            ts: 1_700_000_000_000,
            kind: Kind::Click,
            note: vec![0, 0xFF, 1],
        },
        Salted {
            host: String::new(),
            ts: 0,
            kind: Kind::View,
            note: vec![],
        },
    ]
}

/// Asserts the lock of each catalogue layout; run with `ROWKEY_LOCK=update` to rewrite them.
#[test]
fn the_catalogue_of_layouts_keeps_its_bytes() {
    use catalogue::*;
    let _env = env();
    let t = 1_700_000_000_000;
    lock::assert_locked(
        "tests/keys/fixed.lock",
        &[
            Fixed {
                user: 42,
                ts: t,
                kind: 7,
            },
            Fixed {
                user: 0,
                ts: i64::MIN,
                kind: 0,
            },
            Fixed {
                user: u64::MAX,
                ts: -1,
                kind: u32::MAX,
            },
        ],
    );
    lock::assert_locked("tests/keys/salted.lock", &salted_samples());
    lock::assert_locked(
        "tests/keys/hash_prefixed.lock",
        &[
            HashPrefixed {
                host: "db-1".into(),
                seq: 0xABCD,
                tail: "x\0y".into(),
            },
            HashPrefixed {
                host: "a\0b".into(),
                seq: 0,
                tail: String::new(),
            },
        ],
    );
    lock::assert_locked(
        "tests/keys/text.lock",
        &[
            Text {
                user: 7,
                ts: 1_700_000_000,
                city: "Seoul".into(),
                page: "/a:b".into(),
            },
            Text {
                user: 0,
                ts: 0,
                city: String::new(),
                page: String::new(),
            },
        ],
    );
    let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
    lock::assert_locked(
        "tests/keys/nested.lock",
        &[
            Nested {
                inner: Inner {
                    region: 3,
                    name: "eu".into(),
                },
                maybe: Some(-5),
                digest: Hashed::of("user-42"),
                ratio: -0.5,
                flag: true,
                letter: 'é',
                raw: [1, 2, 3],
                at,
            },
            Nested {
                inner: Inner {
                    region: 0,
                    name: String::new(),
                },
                maybe: None,
                digest: Hashed::of(""),
                ratio: f64::INFINITY,
                flag: false,
                letter: '\0',
                raw: [0; 3],
                at: std::time::UNIX_EPOCH,
            },
        ],
    );
    lock::assert_locked(
        "tests/keys/versioned.lock",
        &[
            Versioned::V1 { user: 9 },
            Versioned::V2 {
                user: 9,
                kind: Kind::Click,
                name: Some("ann".into()),
            },
            Versioned::V2 {
                user: 0,
                kind: Kind::View,
                name: None,
            },
        ],
    );
}

/// The field types behind features: chrono times (counted and formatted), decimals and UUIDs.
#[cfg(all(feature = "chrono", feature = "decimal", feature = "uuid"))]
#[test]
fn the_catalogue_of_feature_types_keeps_its_bytes() {
    use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
    use rust_decimal::Decimal;

    #[derive(RowKey)]
    #[rowkey(text, delimiter = ":")]
    struct Message {
        #[rowkey(format = "%y%m%d")]
        day: NaiveDate,
        #[rowkey(format = "%H%M%S")]
        time: NaiveTime,
        #[rowkey(width = 7)]
        id: u32,
    }

    #[derive(RowKey)]
    struct Priced {
        id: uuid::Uuid,
        price: Decimal,
        #[rowkey(unit = "us", desc)]
        at: DateTime<Utc>,
        #[rowkey(desc)]
        discount: Option<Decimal>,
    }

    let _env = env();
    let day = NaiveDate::from_ymd_opt(2023, 6, 11).unwrap();
    lock::assert_locked(
        "tests/keys/chrono_text.lock",
        &[
            Message {
                day,
                time: NaiveTime::from_hms_opt(6, 30, 31).unwrap(),
                id: 1_231_231,
            },
            Message {
                day: NaiveDate::from_ymd_opt(2000, 1, 1).unwrap(),
                time: NaiveTime::MIN,
                id: 0,
            },
        ],
    );
    let at = DateTime::<Utc>::from_timestamp(1_700_000_000, 123_456_000).unwrap();
    lock::assert_locked(
        "tests/keys/priced.lock",
        &[
            Priced {
                id: uuid::Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef),
                price: Decimal::new(-12_345, 2),
                at,
                discount: Some(Decimal::new(5, 1)),
            },
            Priced {
                id: uuid::Uuid::nil(),
                price: Decimal::ZERO,
                at: DateTime::UNIX_EPOCH,
                discount: None,
            },
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// Evolution: one locked layout, and the same key changed in each way the contract names.

/// The locked layout: `tests/keys/evolution/event.lock`.
mod v1 {
    use rowkey::RowKey;

    #[derive(RowKey, Debug, Clone, Copy, PartialEq)]
    pub enum Kind {
        View = 1,
        Click = 2,
    }

    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event {
        pub user: u32,
        #[rowkey(desc)]
        pub ts: i64,
        pub kind: Kind,
        pub host: String,
    }

    impl Kind {
        pub fn of(click: bool) -> Kind {
            if click {
                Kind::Click
            } else {
                Kind::View
            }
        }
    }

    /// The samples of every version: user, ts, whether the kind is a click, host.
    pub const SAMPLES: [(u32, i64, bool, &str); 2] =
        [(42, 1_700_000_000_000, true, "web-2"), (0, 0, false, "")];

    pub fn samples() -> Vec<Event> {
        SAMPLES
            .iter()
            .map(|&(user, ts, click, host)| Event {
                user,
                ts,
                kind: Kind::of(click),
                host: host.into(),
            })
            .collect()
    }
}

const EVOLUTION: &str = "tests/keys/evolution/event.lock";

#[test]
fn the_locked_layout_of_the_evolution_cases_holds() {
    let _env = env();
    lock::assert_locked(EVOLUTION, &v1::samples());
}

/// Declares a module holding one changed version of `v1::Event` and the same samples
/// (`v1::SAMPLES`), built by `make` (by default the fields of `v1::Event`, whatever their types).
macro_rules! version {
    ($module:ident { $($item:item)* }) => {
        version!($module { $($item)* } make: |user, ts, click, host| Event {
            user: user as _,
            ts,
            kind: Kind::of(click),
            host: host.into(),
        });
    };
    ($module:ident { $($item:item)* } make: |$user:ident, $ts:ident, $click:ident, $host:ident| $make:expr) => {
        mod $module {
            #![allow(dead_code, unused_variables)]
            use rowkey::RowKey;
            #[allow(unused_imports)]
            pub use super::v1::Kind;
            $($item)*
            pub fn samples() -> Vec<Event> {
                super::v1::SAMPLES
                    .iter()
                    .map(|&($user, $ts, $click, $host)| $make)
                    .collect()
            }
        }
    };
}

version!(unchanged_but_notes {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
});

version!(field_renamed {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user_id: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
} make: |user, ts, click, host| Event { user_id: user, ts, kind: Kind::of(click), host: host.into() });

version!(type_alias {
    pub type UserId = u32;
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user: UserId, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
});

version!(max_len_raised {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 4096)]
    pub struct Event { pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
});

version!(variant_added {
    #[derive(RowKey, Debug, Clone, Copy, PartialEq)]
    pub enum Kind2 { View = 1, Click = 2, Buy = 3 }
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind2, pub host: String }
} make: |user, ts, click, host| Event { user, ts, kind: if click { Kind2::Click } else { Kind2::View }, host: host.into() });

version!(key_renamed {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Hit { pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
    pub type Event = Hit;
});

version!(field_moved {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { #[rowkey(desc)] pub ts: i64, pub user: u32, pub kind: Kind, pub host: String }
});

version!(desc_removed {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user: u32, pub ts: i64, pub kind: Kind, pub host: String }
});

version!(reverse_added {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { #[rowkey(reverse)] pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
});

version!(widened {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user: u64, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
});

version!(narrowed {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { #[rowkey(width = 2)] pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
});

version!(retyped {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user: i32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
});

version!(field_added {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub shard: u8, pub host: String }
} make: |user, ts, click, host| Event { user, ts, kind: Kind::of(click), shard: 0, host: host.into() });

version!(field_removed {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user: u32, #[rowkey(desc)] pub ts: i64, pub host: String }
} make: |user, ts, click, host| Event { user, ts, host: host.into() });

version!(salt_changed {
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 32), max_len = 64)]
    pub struct Event { pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
});

version!(hash_prefix_instead {
    #[derive(RowKey)]
    #[rowkey(max_len = 64)]
    pub struct Event { #[rowkey(hash_prefix(len = 1))] pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
});

version!(tag_added {
    #[derive(RowKey)]
    #[rowkey(tag = 1, salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
});

version!(variant_retagged {
    #[derive(RowKey, Debug, Clone, Copy, PartialEq)]
    pub enum Kind2 { View = 1, Click = 5 }
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind2, pub host: String }
} make: |user, ts, click, host| Event { user, ts, kind: if click { Kind2::Click } else { Kind2::View }, host: host.into() });

version!(text_format {
    #[derive(RowKey)]
    #[rowkey(text, delimiter = ":", salt(buckets = 16), max_len = 64)]
    pub struct Event { pub user: u32, #[rowkey(desc)] pub ts: i64, pub kind: Kind, pub host: String }
});

/// Checks `samples` of a changed version against a copy of the evolution lock, neither writing
/// nor reading the environment's `ROWKEY_LOCK`.
fn check_version<K: RowKey>(test: &str, samples: &[K]) -> Result<Verdict, LockError> {
    let dir = scratch(test);
    let copy = dir.join("event.lock");
    std::fs::copy(EVOLUTION, &copy).unwrap();
    let verdict = with_env(None, None, || lock::check(&copy, samples));
    let after = std::fs::read(&copy).unwrap();
    assert_eq!(
        after,
        std::fs::read(EVOLUTION).unwrap(),
        "{test}: the lock was written"
    );
    verdict
}

/// The samples whose keys differ between `v1` and another version, by encoding both.
fn differing<K: RowKey>(samples: &[K]) -> Vec<String> {
    let old = v1::samples();
    (0..old.len())
        .filter(|&i| old[i].to_vec().unwrap() != samples[i].to_vec().unwrap())
        .map(|i| format!("sample {i}"))
        .collect()
}

/// `(name, verdict)` of the version `$module` checked against the evolution lock.
macro_rules! checked {
    ($module:ident) => {
        (
            stringify!($module),
            check_version(stringify!($module), &$module::samples()),
        )
    };
}

/// `checked!`, and the samples whose keys differ from `v1`'s.
macro_rules! changed {
    ($module:ident) => {{
        let (name, verdict) = checked!($module);
        (name, verdict, differing(&$module::samples()))
    }};
}

fn kinds(changes: &[lock::Change]) -> Vec<ChangeKind> {
    changes.iter().map(|c| c.kind).collect()
}

#[test]
fn compatible_changes_pass_and_name_the_change() {
    let _env = env();
    type Case = (
        (&'static str, Result<Verdict, LockError>),
        &'static [(ChangeKind, &'static str, &'static str)],
    );
    let cases: [Case; 6] = [
        (checked!(unchanged_but_notes), &[]),
        (
            checked!(field_renamed),
            &[(
                ChangeKind::FieldRenamed,
                "Event.user_id",
                "renamed from `user`",
            )],
        ),
        (
            checked!(type_alias),
            &[(
                ChangeKind::TypeRenamed,
                "Event.user",
                "type `UserId`, was `u32`",
            )],
        ),
        (
            checked!(max_len_raised),
            &[(
                ChangeKind::LimitRaised,
                "Event",
                "max_len 4096 bytes, was 64",
            )],
        ),
        (
            checked!(variant_added),
            &[
                (
                    ChangeKind::TypeRenamed,
                    "Event.kind",
                    "type `Kind2`, was `Kind`",
                ),
                (
                    ChangeKind::VariantAdded,
                    "Kind2::Buy",
                    "added under the new tag 03",
                ),
            ],
        ),
        (
            checked!(key_renamed),
            &[(ChangeKind::KeyRenamed, "Hit", "renamed from `Event`")],
        ),
    ];
    for ((name, verdict), expected) in cases {
        let changes = match verdict {
            Ok(Verdict::Unchanged) => vec![],
            Ok(Verdict::Compatible { changes }) => changes,
            other => panic!("{name}: {other:?}"),
        };
        let got: Vec<(ChangeKind, &str, &str)> = changes
            .iter()
            .map(|c| (c.kind, c.at.as_str(), c.detail.as_str()))
            .collect();
        let mut want = expected.to_vec();
        want.sort_by_key(|(kind, ..)| !kind.is_compatible());
        assert_eq!(got, want, "{name}");
        assert!(changes.iter().all(|c| c.is_compatible()), "{name}");
    }
}

#[test]
fn incompatible_changes_fail_naming_the_field_and_the_samples() {
    let _env = env();
    type Case = (
        (&'static str, Result<Verdict, LockError>, Vec<String>),
        Vec<(ChangeKind, &'static str)>,
    );
    let cases: Vec<Case> = vec![
        (
            changed!(field_moved),
            vec![
                (ChangeKind::FieldMoved, "Event.ts"),
                (ChangeKind::FieldMoved, "Event.user"),
            ],
        ),
        (
            changed!(desc_removed),
            vec![(ChangeKind::DescFlipped, "Event.ts")],
        ),
        (
            changed!(reverse_added),
            vec![(ChangeKind::ReverseFlipped, "Event.user")],
        ),
        (
            changed!(widened),
            vec![(ChangeKind::FieldWidened, "Event.user")],
        ),
        (
            changed!(narrowed),
            vec![(ChangeKind::FieldNarrowed, "Event.user")],
        ),
        (
            changed!(retyped),
            vec![(ChangeKind::FieldRetyped, "Event.user")],
        ),
        (
            changed!(field_added),
            vec![
                (ChangeKind::PrefixChanged, "Event"),
                (ChangeKind::FieldAdded, "Event.shard"),
            ],
        ),
        (
            changed!(field_removed),
            vec![
                (ChangeKind::PrefixChanged, "Event"),
                (ChangeKind::FieldRemoved, "Event.kind"),
            ],
        ),
        (
            changed!(salt_changed),
            vec![(ChangeKind::PrefixChanged, "Event")],
        ),
        (
            changed!(hash_prefix_instead),
            vec![(ChangeKind::PrefixChanged, "Event")],
        ),
        (changed!(tag_added), vec![(ChangeKind::TagChanged, "Event")]),
        (
            changed!(variant_retagged),
            vec![(ChangeKind::VariantRetagged, "Kind2::Click")],
        ),
        (
            changed!(text_format),
            vec![
                (ChangeKind::FormatChanged, "Event"),
                // The salt is written as decimal digits in text.
                (ChangeKind::PrefixChanged, "Event"),
            ],
        ),
    ];
    for ((name, verdict, differ), expected) in cases {
        let (path, changes) = match verdict {
            Err(LockError::Incompatible { path, changes }) => (path, changes),
            other => panic!("{name}: expected an incompatible change, got {other:?}"),
        };
        let breaking: Vec<(ChangeKind, &str)> = changes
            .iter()
            .filter(|c| {
                !c.is_compatible()
                    && !matches!(
                        c.kind,
                        ChangeKind::SampleChanged | ChangeKind::SampleUnreadable
                    )
            })
            .map(|c| (c.kind, c.at.as_str()))
            .collect();
        assert_eq!(breaking, expected, "{name}: {changes:#?}");
        // The samples whose bytes changed are named (a salt over the whole key moves with any
        // byte).
        let samples: Vec<&str> = changes
            .iter()
            .filter(|c| c.kind == ChangeKind::SampleChanged)
            .map(|c| c.at.as_str())
            .collect();
        assert!(
            !differ.is_empty(),
            "{name}: no sample tells the versions apart"
        );
        assert_eq!(samples, differ, "{name}: {changes:#?}");
        let message = LockError::Incompatible {
            path,
            changes: changes.clone(),
        }
        .to_string();
        for c in &changes {
            assert!(message.contains(&c.to_string()), "{name}: {message}");
        }
        assert!(message.contains("ROWKEY_LOCK=update"), "{message}");
    }
}

#[test]
fn a_locked_key_that_no_longer_decodes_is_named() {
    let _env = env();
    // `Click` moved to tag 5: the locked sample 0 holds tag 2, which no variant has now.
    let err = check_version("variant_unreadable", &variant_retagged::samples()).unwrap_err();
    let LockError::Incompatible { changes, .. } = err else {
        panic!("{err:?}")
    };
    let unreadable: Vec<&lock::Change> = changes
        .iter()
        .filter(|c| c.kind == ChangeKind::SampleUnreadable)
        .collect();
    assert_eq!(unreadable.len(), 1, "{changes:#?}");
    assert_eq!(unreadable[0].at, "sample 0");
}

#[test]
fn assert_locked_panics_with_the_verdict() {
    let _env = env();
    let dir = scratch("assert_panics");
    let copy = dir.join("event.lock");
    std::fs::copy(EVOLUTION, &copy).unwrap();
    let panic = with_env(None, None, || {
        std::panic::catch_unwind(|| lock::assert_locked(&copy, &desc_removed::samples()))
            .unwrap_err()
    });
    let message = panic.downcast_ref::<String>().expect("a formatted message");
    assert!(
        message.contains("Event.ts: `desc` removed: order asc, was desc"),
        "{message}"
    );
    assert!(message.contains("sample 0: bytes changed"), "{message}");
}

// ---------------------------------------------------------------------------------------------
// The environment: when the file is written.

#[test]
fn a_missing_lock_fails_unless_update_is_asked_and_ci_is_not_set() {
    let _env = env();
    let dir = scratch("missing");
    let path = dir.join("keys/new.lock");
    let samples = v1::samples();
    for (update, ci) in [
        (None, None),
        (Some("update"), Some("true")),
        (Some("yes"), None),
    ] {
        match with_env(update, ci, || lock::check(&path, &samples)) {
            Err(LockError::Missing { path: p }) => assert_eq!(p, path),
            other => panic!("{update:?} {ci:?}: {other:?}"),
        }
        assert!(!path.exists(), "{update:?} {ci:?}");
    }
    let message = with_env(None, Some("true"), || {
        LockError::Missing { path: path.clone() }.to_string()
    });
    assert!(message.contains("CI is set"), "{message}");
    let verdict = with_env(Some("update"), None, || lock::check(&path, &samples));
    assert!(
        matches!(verdict, Ok(Verdict::Written { created: true, .. })),
        "{verdict:?}"
    );
    // What was written is the committed lock of the same key, byte for byte.
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(EVOLUTION).unwrap()
    );
    let verdict = with_env(None, Some("true"), || lock::check(&path, &samples));
    assert!(matches!(verdict, Ok(Verdict::Unchanged)), "{verdict:?}");
}

#[test]
fn a_salt_over_other_fields_names_them_before_and_after() {
    let _env = env();
    // v1 salts the whole key, so adding a field changes what the salt is computed from.
    let (name, verdict) = checked!(field_added);
    let Err(LockError::Incompatible { changes, .. }) = verdict else {
        panic!("{name}: expected an incompatible change, got {verdict:?}");
    };
    let prefix = changes
        .iter()
        .find(|c| c.kind == ChangeKind::PrefixChanged)
        .unwrap_or_else(|| panic!("{name}: no prefix change in {changes:#?}"));
    assert!(
        prefix.detail.starts_with("a salt of 16 buckets")
            && prefix.detail.ends_with(
                " computed from user + ts + kind + shard + host, was from user + ts + kind + host"
            ),
        "{name}: {}",
        prefix.detail
    );
}

#[test]
fn update_rewrites_an_incompatible_lock_and_ci_never_does() {
    let _env = env();
    let dir = scratch("update");
    let path = dir.join("event.lock");
    std::fs::copy(EVOLUTION, &path).unwrap();
    let samples = desc_removed::samples();
    let under_ci = with_env(Some("update"), Some("true"), || {
        lock::check(&path, &samples)
    });
    assert!(
        matches!(under_ci, Err(LockError::Incompatible { .. })),
        "{under_ci:?}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(EVOLUTION).unwrap()
    );
    match with_env(Some("update"), None, || lock::check(&path, &samples)) {
        Ok(Verdict::Written {
            created: false,
            changes,
        }) => {
            assert!(
                kinds(&changes).contains(&ChangeKind::DescFlipped),
                "{changes:?}"
            )
        }
        other => panic!("{other:?}"),
    }
    let now = with_env(None, None, || lock::check(&path, &samples));
    assert!(matches!(now, Ok(Verdict::Unchanged)), "{now:?}");
    assert!(!path.with_extension("lock.tmp").exists());
}

// ---------------------------------------------------------------------------------------------
// Reading the file.

/// The committed evolution lock with `edit` applied, checked against `v1`.
fn check_edited(test: &str, edit: impl FnOnce(String) -> String) -> Result<Verdict, LockError> {
    let text = std::fs::read_to_string(EVOLUTION).unwrap();
    let dir = scratch(test);
    let path = dir.join("event.lock");
    std::fs::write(&path, edit(text)).unwrap();
    with_env(None, None, || lock::check(&path, &v1::samples()))
}

#[test]
fn notes_are_for_readers_and_do_not_change_the_verdict() {
    let _env = env();
    let verdict = check_edited("notes", |text| {
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .chain(["# a note added in review", ""])
            .collect::<Vec<_>>()
            .join("\n")
    });
    assert!(matches!(verdict, Ok(Verdict::Unchanged)), "{verdict:?}");
}

#[test]
fn a_damaged_lock_is_refused_with_its_line() {
    let _env = env();
    let text = std::fs::read_to_string(EVOLUTION).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let schema_line = |keyword: &str| {
        lines
            .iter()
            .position(|l| l.trim_start().starts_with(keyword))
            .unwrap()
    };
    let seg = schema_line("segment");
    type Edit = Box<dyn Fn(&[&str]) -> String>;
    let cases: Vec<(&str, Edit, Option<usize>, &str)> = vec![
        (
            "truncated",
            Box::new(|l| l[..l.len() - 3].join("\n")),
            None,
            "truncated",
        ),
        (
            "empty",
            Box::new(|_| String::new()),
            Some(1),
            "not a layout lock",
        ),
        (
            "newer",
            Box::new(|l| [&["rowkey-lock 3"], &l[1..]].concat().join("\n")),
            Some(1),
            "newer than this rowkey reads",
        ),
        (
            "version",
            Box::new(|l| [&["rowkey-lock one"], &l[1..]].concat().join("\n")),
            Some(1),
            "unknown format version",
        ),
        (
            "line dropped",
            Box::new(move |l| [&l[..seg], &l[seg + 1..]].concat().join("\n")),
            Some(lines.len() - 1),
            "lines are missing or were added",
        ),
        (
            "unknown format",
            Box::new(|l| {
                let mut l: Vec<String> = l.iter().map(|s| s.to_string()).collect();
                let at = l.iter().position(|s| s.starts_with("layout")).unwrap();
                l[at] = l[at].replace("format=binary", "format=avro");
                l.join("\n")
            }),
            None,
            "unknown format `avro`: expected `binary`, `text` or `phoenix`",
        ),
        (
            "unknown form",
            Box::new(move |l| {
                let mut l: Vec<String> = l.iter().map(|s| s.to_string()).collect();
                l[seg] = l[seg].replace("form=int", "form=bigint");
                l.join("\n")
            }),
            Some(seg + 1),
            "unknown form `bigint`",
        ),
        (
            "bad hex",
            Box::new(|l| {
                let mut l: Vec<String> = l.iter().map(|s| s.to_string()).collect();
                let at = l.iter().position(|s| s.starts_with("sample")).unwrap();
                l[at] = l[at].replace("key=", "key=zz");
                l.join("\n")
            }),
            None,
            "not a hex digit",
        ),
    ];
    for (name, edit, line, words) in cases {
        let edited = edit(&lines);
        match check_edited(name, |_| edited) {
            Err(LockError::Unreadable {
                line: got, reason, ..
            }) => {
                if line.is_some() {
                    assert_eq!(got, line, "{name}: {reason}");
                }
                assert!(reason.contains(words), "{name}: {reason}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// A lock written by format 1 (before `over=` and `value=`) still reads, and still holds for the
/// key that wrote it: what format 2 adds is not a change of the key.
#[test]
fn a_lock_of_format_1_still_holds() {
    let _env = env();
    let text = std::fs::read_to_string("tests/keys/v1/salted.lock").unwrap();
    assert!(text.starts_with("rowkey-lock 1\n"));
    let verdict = with_env(None, Some("true"), || {
        lock::check("tests/keys/v1/salted.lock", &salted_samples())
    });
    assert!(matches!(verdict, Ok(Verdict::Unchanged)), "{verdict:?}");
}
