//! The `rowkey` binary end to end (DESIGN 14): encode, decode, explain and scan on the quickstart's
//! key and a salted, a text and an enum layout, in each key form, against the derive's own output;
//! 100,000 keys streamed through stdin; and bad input of every kind, each a message naming what
//! and where, with exit status 2 and no panic.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use rowkey::{hbase, RowKey};

#[path = "../../tests/common/quickstart.rs"]
mod quickstart;
use quickstart::{EventKey, EventKind};

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 16))]
struct Metric {
    host: String,
    #[rowkey(desc)]
    ts: u64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct Message {
    #[rowkey(width = 6)]
    day: u32,
    user: String,
    seq: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
enum Row {
    #[rowkey(tag = b"o")]
    Order { user: u32, id: u64 },
    #[rowkey(tag = b"u")]
    User { user: u32 },
}

fn rowkey(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rowkey binary runs");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.map(<[u8]>::to_vec);
    let writer = std::thread::spawn(move || {
        if let Some(data) = data {
            let _ = input.write_all(&data);
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Runs `rowkey` and returns its stdout, failing with its stderr unless it exits with 0.
fn ok(args: &[&str]) -> String {
    let out = rowkey(args, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "rowkey {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `rowkey` expecting bad input: exit status 2, a message on stderr that holds every piece
/// of `says`, and no panic.
fn refused(args: &[&str], stdin: Option<&[u8]>, says: &[&str]) {
    let out = rowkey(args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "rowkey {args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for piece in says {
        assert!(
            stderr.contains(piece),
            "rowkey {args:?}: {stderr:?} does not say {piece:?}"
        );
    }
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

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("rowkey-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn lock_of<K: RowKey>(dir: &Path, name: &str, samples: &[K]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, rowkey::lock::render(samples).unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

const FORMS: [&str; 3] = ["hbase", "hex", "base64"];

fn write(form: &str, key: &[u8]) -> String {
    match form {
        "hbase" => hbase::to_string_binary(key),
        "hex" => key.iter().map(|b| format!("{b:02x}")).collect(),
        _ => STANDARD.encode(key),
    }
}

fn quickstart_lock() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/keys/examples/quickstart.lock");
    path.to_str().unwrap().to_string()
}

fn json_of(k: &EventKey) -> String {
    format!(
        r#"{{"user_id":{},"ts_millis":{},"kind":"{:?}","host":{}}}"#,
        k.user_id,
        k.ts_millis,
        k.kind,
        serde_json::to_string(&k.host).unwrap()
    )
}

#[test]
fn the_quickstart_key_in_every_form_is_the_derives() {
    let lock = quickstart_lock();
    let k = EventKey {
        user_id: 42,
        ts_millis: 1_700_000_005_000,
        kind: EventKind::Click,
        host: "web-2".into(),
    };
    let key = k.to_vec().unwrap();
    assert_eq!(
        hbase::to_string_binary(&key),
        r"\x00\x00\x00\x00\x00\x00\x00*\x7F\xFF\xFEt0\x1A\x84w\x02web-2"
    );
    let values = [
        "user_id=42",
        "ts_millis=1700000005000",
        "kind=Click",
        "host=web-2",
    ];
    let explained = EventKey::explain(&key).unwrap().to_string();
    same_in_every_form(&lock, &values, &key, &json_of(&k), &explained);
    // The scan of one user's hour, as the typed builder plans it.
    let (a, b) = (1_700_000_000_000i64, 1_700_003_600_000i64);
    let typed: Vec<_> = EventKey::scan()
        .user_id(42)
        .ts_millis_range(a..b)
        .ranges()
        .collect();
    for form in FORMS {
        let lines = ok(&[
            "scan",
            &lock,
            "user_id=42",
            &format!("ts_millis={a}..{b}"),
            "--out",
            form,
        ]);
        assert_eq!(lines, range_lines(&typed, form), "{form}");
    }
    let shell = ok(&[
        "scan",
        &lock,
        "user_id=42",
        &format!("ts_millis={a}..{b}"),
        "--shell",
        "hbase",
        "events",
    ]);
    let expected: String = typed
        .iter()
        .map(|r| format!("{}\n", hbase::scan_command("events", r.start(), r.stop())))
        .collect();
    assert_eq!(shell, expected);
    // Every bound shape; a prefix; the whole table.
    let cases: Vec<(Vec<String>, Vec<rowkey::KeyRange>)> = vec![
        (
            vec!["user_id=42".into(), format!("ts_millis={a}..={b}")],
            EventKey::scan()
                .user_id(42)
                .ts_millis_range(a..=b)
                .ranges()
                .collect(),
        ),
        (
            vec!["user_id=42".into(), format!("ts_millis=..{b}")],
            EventKey::scan()
                .user_id(42)
                .ts_millis_range(..b)
                .ranges()
                .collect(),
        ),
        (
            vec!["user_id=42".into(), format!("ts_millis={a}..")],
            EventKey::scan()
                .user_id(42)
                .ts_millis_range(a..)
                .ranges()
                .collect(),
        ),
        (
            vec![
                "user_id=7".into(),
                format!("ts_millis={a}"),
                "kind=Purchase".into(),
                "host^=web".into(),
            ],
            EventKey::scan()
                .user_id(7)
                .ts_millis(a)
                .kind(EventKind::Purchase)
                .host_prefix("web")
                .ranges()
                .collect(),
        ),
        (vec![], EventKey::scan().ranges().collect()),
    ];
    for (conditions, typed) in cases {
        let mut args = vec![
            "scan".to_string(),
            lock.clone(),
            "--out".into(),
            "hex".into(),
        ];
        args.extend(conditions.iter().cloned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(ok(&args), range_lines(&typed, "hex"), "{conditions:?}");
    }
}

/// `encode` of `values` prints `key`, `decode` of it prints `json`, and `explain` prints
/// `explained`, in every key form.
fn same_in_every_form(lock: &str, values: &[&str], key: &[u8], json: &str, explained: &str) {
    for form in FORMS {
        let mut encode = vec!["encode", lock, "--out", form];
        encode.extend_from_slice(values);
        assert_eq!(ok(&encode), format!("{}\n", write(form, key)), "{form}");
        let written = write(form, key);
        assert_eq!(
            ok(&["decode", lock, "--in", form, &written]),
            format!("{json}\n")
        );
        assert_eq!(ok(&["explain", lock, "--in", form, &written]), explained);
    }
}

/// What `scan --out FORM` prints for `ranges`: `START<TAB>STOP` a line.
fn range_lines(ranges: &[rowkey::KeyRange], form: &str) -> String {
    ranges
        .iter()
        .map(|r| format!("{}\t{}\n", write(form, r.start()), write(form, r.stop())))
        .collect()
}

#[test]
fn salted_text_and_enum_layouts_are_the_derives() {
    let dir = scratch("layouts");
    let m = Metric {
        host: "web-7".into(),
        ts: 1_700_000_000,
    };
    let lock = lock_of(&dir, "metric.lock", std::slice::from_ref(&m));
    let key = m.to_vec().unwrap();
    let explained = Metric::explain(&key).unwrap().to_string();
    let json = r#"{"host":"web-7","ts":1700000000}"#;
    same_in_every_form(
        &lock,
        &["host=web-7", "ts=1700000000"],
        &key,
        json,
        &explained,
    );
    // A salted scan: one range a bucket, as the typed builder plans it.
    let typed: Vec<_> = Metric::scan().host_prefix("web").ranges().collect();
    assert_eq!(typed.len(), 16);
    assert_eq!(
        ok(&["scan", &lock, "host^=web"]),
        range_lines(&typed, "hbase")
    );

    let t = Message {
        day: 240_131,
        user: "kim".into(),
        seq: 7,
    };
    let lock = lock_of(&dir, "message.lock", std::slice::from_ref(&t));
    let key = t.to_vec().unwrap();
    assert_eq!(key, b"240131:kim:00007");
    let explained = Message::explain(&key).unwrap().to_string();
    let json = r#"{"day":240131,"user":"kim","seq":7}"#;
    same_in_every_form(
        &lock,
        &["day=240131", "user=kim", "seq=7"],
        &key,
        json,
        &explained,
    );
    let typed: Vec<_> = Message::scan()
        .day(240_131)
        .user("kim")
        .seq_range(1..9)
        .ranges()
        .collect();
    let printed = ok(&["scan", &lock, "day=240131", "user=kim", "seq=1..9"]);
    assert_eq!(printed, range_lines(&typed, "hbase"));

    let rows = [Row::Order { user: 3, id: 99 }, Row::User { user: 3 }];
    let lock = lock_of(&dir, "row.lock", &rows);
    let order = rows[0].to_vec().unwrap();
    let explained = Row::explain(&order).unwrap().to_string();
    let json = r#"{"Order.user":3,"Order.id":99}"#;
    same_in_every_form(
        &lock,
        &["Order.user=3", "Order.id=99"],
        &order,
        json,
        &explained,
    );
    let typed: Vec<_> = Row::scan().order().user(3).ranges().collect();
    assert_eq!(
        ok(&["scan", &lock, "Order.user=3"]),
        range_lines(&typed, "hbase")
    );
}

#[test]
fn keys_stream_through_stdin() {
    let lock = quickstart_lock();
    let keys: Vec<EventKey> = (0..100_000u64)
        .map(|i| EventKey {
            user_id: i % 97,
            ts_millis: 1_700_000_000_000 + i as i64 * 1_000,
            kind: [EventKind::PageView, EventKind::Click, EventKind::Purchase][i as usize % 3],
            host: format!("web-{}\n\\{}", i % 13, i % 7),
        })
        .collect();
    let mut input = Vec::new();
    let mut expected = String::new();
    for k in &keys {
        input.extend_from_slice(hbase::to_string_binary(&k.to_vec().unwrap()).as_bytes());
        input.push(b'\n');
        expected.push_str(&json_of(k));
        expected.push('\n');
    }
    let out = rowkey(&["decode", &lock, "-"], Some(&input));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(printed.lines().count(), 100_000);
    assert!(
        printed == expected,
        "stdin decode differs from the derive's values"
    );
    // A line of the HBase shell's scan output gives its row.
    let k = &keys[5];
    let line = format!(
        " {} column=d:v, timestamp=1, value=x\n",
        hbase::to_string_binary(&k.to_vec().unwrap())
    );
    let out = rowkey(&["decode", &lock, "-"], Some(line.as_bytes()));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}\n", json_of(k))
    );
}

#[test]
fn bad_input_is_named_with_status_2() {
    let lock = quickstart_lock();
    let dir = scratch("bad");
    // Malformed keys, in each form and through stdin (the good ones around it still print).
    refused(
        &["decode", &lock, "--in", "hex", "0g"],
        None,
        &["key: 0g", "not hex"],
    );
    refused(
        &["decode", &lock, "--in", "hex", "abc"],
        None,
        &["odd number"],
    );
    refused(
        &["decode", &lock, "--in", "base64", "!!!"],
        None,
        &["not base64"],
    );
    refused(
        &["decode", &lock, r"\x00\x01"],
        None,
        &["user_id", "ends early"],
    );
    refused(
        &[
            "explain",
            &lock,
            r"\x00\x00\x00\x00\x00\x00\x00*\x7F\xFF\xFEt0\x1A\x84w\x09web",
        ],
        None,
        &["kind"],
    );
    let good = hbase::to_string_binary(
        &EventKey {
            user_id: 1,
            ts_millis: 2,
            kind: EventKind::Click,
            host: "h".into(),
        }
        .to_vec()
        .unwrap(),
    );
    let out = rowkey(
        &["decode", &lock, "-"],
        Some(format!("{good}\nzz\n{good}\n").as_bytes()),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("stdin, line 2: "));
    assert!(String::from_utf8_lossy(&out.stderr).contains("\n  key: zz\n"));
    // Unknown fields, wrong types, out of range, a missing field.
    refused(
        &["encode", &lock, "user=1"],
        None,
        &["no field `user`", "user_id, ts_millis, kind, host"],
    );
    refused(
        &[
            "encode",
            &lock,
            "user_id=x",
            "ts_millis=1",
            "kind=Click",
            "host=h",
        ],
        None,
        &["`user_id`", "\"x\" is not an unsigned integer"],
    );
    refused(
        &[
            "encode",
            &lock,
            "user_id=18446744073709551616",
            "ts_millis=1",
            "kind=Click",
            "host=h",
        ],
        None,
        &["out of range", "u64"],
    );
    refused(
        &[
            "encode",
            &lock,
            "user_id=1",
            "ts_millis=1",
            "kind=Tap",
            "host=h",
        ],
        None,
        &["\"Tap\"", "PageView, Click, Purchase"],
    );
    refused(
        &["encode", &lock, "user_id=1", "ts_millis=1", "kind=Click"],
        None,
        &["no value for `host`"],
    );
    // Bounds the layout does not allow.
    refused(
        &["scan", &lock, "ts_millis=1..2"],
        None,
        &["bind fields in key order"],
    );
    refused(
        &["scan", &lock, "user_id=1..2", "ts_millis=3"],
        None,
        &["`ts_millis`", "ends the query"],
    );
    refused(
        &["scan", &lock, "user_id^=1"],
        None,
        &["`user_id` takes no prefix"],
    );
    refused(&["scan", &lock, "--shell", "sql", "t"], None, &["hbase"]);
    // Lock files: truncated, of an unknown version, missing.
    let text = std::fs::read_to_string(&lock).unwrap();
    let truncated = dir.join("truncated.lock");
    std::fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    let truncated = truncated.to_str().unwrap();
    refused(&["decode", truncated, "x"], None, &[truncated]);
    let newer = dir.join("newer.lock");
    let (_, rest) = text.split_once('\n').unwrap();
    std::fs::write(&newer, format!("rowkey-lock 9\n{rest}")).unwrap();
    let newer = newer.to_str().unwrap();
    refused(&["decode", newer, "x"], None, &[newer, ":1:", "version 9"]);
    refused(&["decode", "/no/such.lock", "x"], None, &["/no/such.lock"]);
    // Arguments clap refuses: also status 2.
    refused(&["decode", &lock], None, &["KEY"]);
    refused(&["decode", &lock, "--in", "octal", "x"], None, &["octal"]);
}

#[test]
fn a_bad_key_is_echoed_as_it_was_given_and_long_ones_in_part() {
    let lock = quickstart_lock();
    let out = rowkey(&["decode", &lock, r"\x00\x00(\xD9"], None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.ends_with("\n  key: \\x00\\x00(\\xD9\n"), "{stderr}");
    // A 5 MB line: a message of a few hundred bytes, its start and end.
    let mut line = vec![b'x'; 5_000_000];
    line.push(b'\n');
    let out = rowkey(&["decode", &lock, "-"], Some(&line));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.len() < 700, "{} bytes", stderr.len());
    assert!(
        stderr.contains("[5000000 characters, the middle 4999800 not shown]"),
        "{stderr}"
    );
    // A control character shows as the HBase shell writes it, and pastes back as the same byte.
    let out = rowkey(&["decode", &lock, "--in", "hex", "0\t1"], None);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("key: 0\\x091"));
}

#[test]
fn an_empty_line_is_the_empty_key_and_lines_can_be_numbered() {
    let lock = quickstart_lock();
    let key = |user_id| {
        hbase::to_string_binary(
            &EventKey {
                user_id,
                ts_millis: 5,
                kind: EventKind::Click,
                host: "h".into(),
            }
            .to_vec()
            .unwrap(),
        )
    };
    // `decode ''` and an empty line of stdin: the same error, the same status.
    let direct = rowkey(&["decode", &lock, ""], None);
    let piped = rowkey(&["decode", &lock, "-"], Some(b"\n"));
    assert_eq!(direct.status.code(), Some(2));
    assert_eq!(piped.status.code(), Some(2));
    let direct = String::from_utf8(direct.stderr).unwrap();
    let piped = String::from_utf8(piped.stderr).unwrap();
    assert_eq!(
        piped,
        format!("rowkey: stdin, line 1: {}", &direct["rowkey: ".len()..])
    );
    assert!(direct.contains("key: (empty)"), "{direct}");
    // --line pairs each output line with its input line, the bad ones left out.
    let input = format!("{}\n\n{}\nzz\n{}\n", key(1), key(2), key(3));
    let out = rowkey(&["decode", "--line", &lock, "-"], Some(input.as_bytes()));
    assert_eq!(out.status.code(), Some(2));
    let numbers: Vec<&str> = std::str::from_utf8(&out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split_once('\t').unwrap().0)
        .collect();
    assert_eq!(numbers, ["1", "3", "5"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("1\t{\"user_id\":1,"), "{stdout}");
    // Arguments are numbered by their place; every line of a table carries the number.
    let out = rowkey(
        &[
            "decode",
            "--line",
            "--format",
            "table",
            &lock,
            &key(7),
            &key(8),
        ],
        None,
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout
            .lines()
            .all(|l| l.starts_with("1\t") || l.starts_with("2\t")),
        "{stdout}"
    );
    assert!(stdout.contains("2\tuser_id    8"), "{stdout}");
}

#[test]
fn a_text_layouts_salt_is_reported_as_its_digits() {
    #[derive(RowKey, Debug, PartialEq)]
    #[rowkey(text, delimiter = ":", salt(buckets = 16))]
    struct Visit {
        user: String,
        #[rowkey(width = 4)]
        page: u32,
    }
    let dir = scratch("text-salt");
    let visit = Visit {
        user: "alice".into(),
        page: 7,
    };
    let lock = lock_of(&dir, "visit.lock", std::slice::from_ref(&visit));
    let key = String::from_utf8(visit.to_vec().unwrap()).unwrap();
    let (salt, rest) = key.split_once(':').unwrap();
    let bucket: u8 = salt.parse().unwrap();
    let other = (bucket + 1) % 16;
    let wrong = format!("{other:02}:{rest}");
    let expected = format!("salt {other} does not match the bucket of the key's fields, {bucket}");
    // The library's own words, and the command's.
    let err = Visit::decode(wrong.as_bytes()).unwrap_err();
    assert!(err.to_string().contains(&expected), "{err}");
    refused(
        &["decode", &lock, &wrong],
        None,
        &[&expected, &format!("key: {wrong}")],
    );
}

#[test]
fn explain_shows_a_key_with_a_bad_salt_as_far_as_it_goes_and_names_the_salt_problem() {
    #[derive(RowKey, Debug, PartialEq)]
    #[rowkey(text, delimiter = ":", salt(buckets = 16))]
    struct Visit {
        user: String,
        #[rowkey(width = 4)]
        page: u32,
    }
    let dir = scratch("bad-salt");
    let m = Metric {
        host: "web-7".into(),
        ts: 1_700_000_000,
    };
    let metric = lock_of(&dir, "metric.lock", std::slice::from_ref(&m));
    let good = m.to_vec().unwrap();
    let with_salt = |salt: u8| [&[salt][..], &good[1..]].concat();
    let v = Visit {
        user: "alice".into(),
        page: 7,
    };
    let visit = lock_of(&dir, "visit.lock", std::slice::from_ref(&v));
    let text = String::from_utf8(v.to_vec().unwrap()).unwrap();
    let (_, rest) = text.split_once(':').unwrap();
    let cases: [(&str, Vec<u8>, rowkey::Explained, &str); 3] = [
        // Past the bucket count: no salt of the layout, said first.
        (
            &metric,
            with_salt(0x13),
            Metric::explain_best_effort(&with_salt(0x13)),
            "salt byte 13 is out of range: the key has 16 buckets (00 to 0F)",
        ),
        // In range but not the fields' bucket: the message it always had.
        (
            &metric,
            with_salt((good[0] + 1) % 16),
            Metric::explain_best_effort(&with_salt((good[0] + 1) % 16)),
            "does not match the bucket of the key's fields",
        ),
        // A text salt, in its digits.
        (
            &visit,
            format!("17:{rest}").into_bytes(),
            Visit::explain_best_effort(format!("17:{rest}").as_bytes()),
            "salt 17 is out of range: the key has 16 buckets (0 to 15)",
        ),
    ];
    for (lock, key, mut expected, says) in cases {
        let shown = hbase::to_string_binary(&key);
        let out = rowkey(&["explain", lock, &shown], None);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{shown}: {stderr}");
        assert!(
            stderr.contains(says),
            "{shown}: {stderr:?} does not say {says:?}"
        );
        assert!(stderr.ends_with(&format!("\n  key: {shown}\n")), "{stderr}");
        // Stdout: every part, as the derive's best effort shows it; the error once, on stderr.
        assert!(expected.error.take().is_some());
        assert_eq!(String::from_utf8(out.stdout).unwrap(), expected.to_string());
    }
    // The fields after an out-of-range salt are all there.
    let out = rowkey(
        &[
            "explain",
            &metric,
            &hbase::to_string_binary(&with_salt(0x13)),
        ],
        None,
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<&str>> = stdout
        .lines()
        .skip(1)
        .map(|l| {
            l.split("  ")
                .filter(|p| !p.trim().is_empty())
                .map(str::trim)
                .collect()
        })
        .collect();
    assert_eq!(
        rows[0],
        ["salt", r"\x13", "bucket 19, out of range (16 buckets)"]
    );
    assert_eq!(
        (rows[1][0], rows[1].last().copied()),
        ("host", Some(r#""web-7""#))
    );
    assert_eq!(
        (rows[2][0], rows[2].last().copied()),
        ("ts", Some("1700000000"))
    );
    let help = ok(&["explain", "--help"]);
    assert!(
        help.contains("explain_best_effort") && help.contains("exit status is 2"),
        "{help}"
    );
}

#[test]
fn an_empty_range_is_an_error_that_says_why() {
    let lock = quickstart_lock();
    refused(
        &["scan", &lock, "user_id=5..3"],
        None,
        &["bounds are reversed", "`user_id=3..5`"],
    );
    refused(
        &["scan", &lock, "user_id=7", "ts_millis=10..=2"],
        None,
        &[
            "`ts_millis=10..=2`",
            "bounds are reversed",
            "`ts_millis=2..10`",
        ],
    );
    refused(
        &["scan", &lock, "user_id=5..5"],
        None,
        &["not including", "`user_id=5..=5`"],
    );
    // The bounds in order still plan, and one value by `..=`.
    assert_eq!(ok(&["scan", &lock, "user_id=3..5"]).lines().count(), 1);
    assert_eq!(ok(&["scan", &lock, "user_id=5..=5"]).lines().count(), 1);
}

#[test]
fn help_documents_the_value_syntax() {
    for args in [
        &["--help"][..],
        &["encode", "--help"],
        &["decode", "--help"],
        &["scan", "--help"],
        &["explain", "--help"],
    ] {
        let help = ok(args);
        assert!(help.contains("Usage"), "{args:?}");
    }
    let encode = ok(&["encode", "--help"]);
    for piece in ["Hashed<N>", "null", "dotted path", "\\xHH", "unit"] {
        assert!(encode.contains(piece), "encode --help lacks {piece}");
    }
    let scan = ok(&["scan", "--help"]);
    for piece in ["A..B", "A..=B", "^=", "--shell"] {
        assert!(scan.contains(piece), "scan --help lacks {piece}");
    }
}

/// A Phoenix table's key, as Rust would write it.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix, salt(buckets = 4))]
struct Visit {
    site: String,
    #[rowkey(desc)]
    at: i64,
    referrer: Option<String>,
}

#[test]
fn a_phoenix_tables_statement_gives_the_lock_of_its_keys_and_back() {
    let dir = scratch("phoenix");
    let sql = dir.join("visits.sql");
    std::fs::write(
        &sql,
        "-- the table as it was created\nCREATE TABLE web.visits (\n  site VARCHAR NOT NULL,\n  at BIGINT NOT NULL,\n  referrer VARCHAR,\n  m.hits BIGINT\n  CONSTRAINT pk PRIMARY KEY (site, at DESC, referrer)\n) SALT_BUCKETS = 4;\n",
    )
    .unwrap();
    let lock = dir.join("visits.lock");
    let (sql, lock) = (sql.to_str().unwrap(), lock.to_str().unwrap());
    assert_eq!(ok(&["phoenix-lock", sql, "-o", lock]), "");
    // The same lock on stdout, and from stdin.
    let text = std::fs::read_to_string(lock).unwrap();
    assert_eq!(ok(&["phoenix-lock", sql]), text);
    let piped = rowkey(
        &["phoenix-lock", "-"],
        Some(std::fs::read(sql).unwrap().as_slice()),
    );
    assert_eq!(String::from_utf8(piped.stdout).unwrap(), text);

    // Its keys are the derive's, both ways.
    let visit = Visit {
        site: "shop".into(),
        at: 1_700_000_000_000,
        referrer: None,
    };
    let key = visit.to_vec().unwrap();
    let shown = write("hbase", &key);
    assert_eq!(
        ok(&[
            "encode",
            lock,
            "site=shop",
            "at=1700000000000",
            "referrer=null"
        ]),
        format!("{shown}\n")
    );
    assert_eq!(
        ok(&["decode", lock, &shown]),
        "{\"site\":\"shop\",\"at\":1700000000000,\"referrer\":null}\n"
    );
    let ranges: Vec<rowkey::KeyRange> =
        Visit::scan().site("shop").at_range(1..5).ranges().collect();
    assert_eq!(
        ok(&["scan", lock, "site=shop", "at=1..5"]),
        range_lines(&ranges, "hbase")
    );

    // And the statement back, as rowkey::phoenix::ddl writes it for the struct.
    assert_eq!(
        ok(&["phoenix-ddl", lock, "WEB.VISITS"]),
        format!("{};\n", rowkey::phoenix::ddl::<Visit>("WEB.VISITS"))
    );

    // A statement that gives no key, a lock of another format, a file that is not there.
    let bad = dir.join("bad.sql");
    std::fs::write(
        &bad,
        "CREATE TABLE T (\n  A INTEGER,\n  CONSTRAINT PK PRIMARY KEY (A)\n)",
    )
    .unwrap();
    refused(
        &["phoenix-lock", bad.to_str().unwrap()],
        None,
        &[
            "bad.sql: line 2, column 3",
            "nullable fixed-width",
            "NOT NULL",
        ],
    );
    refused(
        &["phoenix-ddl", &quickstart_lock(), "T"],
        None,
        &["not Apache Phoenix's primary key"],
    );
    refused(
        &["phoenix-lock", "/nonexistent.sql"],
        None,
        &["cannot read /nonexistent.sql"],
    );
    // A nullable DESC column takes no range, as in the derived builder.
    let desc = dir.join("desc.sql");
    std::fs::write(
        &desc,
        "CREATE TABLE T (A VARCHAR NOT NULL, B VARCHAR CONSTRAINT PK PRIMARY KEY (A, B DESC))",
    )
    .unwrap();
    let desc_lock = dir.join("desc.lock");
    let desc_lock = desc_lock.to_str().unwrap();
    ok(&["phoenix-lock", desc.to_str().unwrap(), "-o", desc_lock]);
    refused(
        &["scan", desc_lock, "a=x", "b=p..q"],
        None,
        &[
            // The derived builder's compile error says the same words.
            "`b`: a nullable DESC column of a Phoenix key has no range scan",
            "bind it by = or IN",
        ],
    );
    assert_eq!(ok(&["scan", desc_lock, "a=x", "b=null"]), "x\tx\\x00\n");
}

#[test]
fn phoenix_lock_warns_of_each_option_no_one_knows_and_still_writes_the_lock() {
    let dir = scratch("phoenix-options");
    let cases = [
        // A typo of SALT_BUCKETS: Phoenix makes the table unsalted, and so does the lock.
        (
            "typo.sql",
            "CREATE TABLE T (\n  A VARCHAR NOT NULL PRIMARY KEY\n) IMMUTABLE_ROWS = true,\n  SALT_BUCKET = 4;\n",
            &["line 4, column 3: unknown option `SALT_BUCKET` (did you mean `SALT_BUCKETS`?); Phoenix ignores it (it only becomes an HBase table attribute), and so does the lock"][..],
        ),
        (
            "two.sql",
            "CREATE TABLE T (A VARCHAR NOT NULL PRIMARY KEY) VERSION = 1, FOO = 'x'",
            &[
                "line 1, column 49: unknown option `VERSION` (did you mean `VERSIONS`?)",
                "line 1, column 62: unknown option `FOO`; Phoenix ignores it",
            ][..],
        ),
        (
            "known.sql",
            "CREATE TABLE T (A VARCHAR NOT NULL PRIMARY KEY) SALT_BUCKETS = 4, VERSIONS = 1, TTL = 86400, DATA_BLOCK_ENCODING = 'FAST_DIFF'",
            &[][..],
        ),
    ];
    for (name, statement, says) in cases {
        let sql = dir.join(name);
        std::fs::write(&sql, statement).unwrap();
        let sql = sql.to_str().unwrap();
        let out = rowkey(&["phoenix-lock", sql], None);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(out.status.success(), "{name}: {stderr}");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            rowkey::phoenix::lock_from_ddl(statement).unwrap()
        );
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), says.len(), "{name}: {stderr}");
        for (line, says) in lines.iter().zip(says) {
            let head = format!("rowkey: warning: {sql}: {says}");
            assert!(
                line.starts_with(&head),
                "{line:?} does not start with {head:?}"
            );
        }
    }
}

/// A Phoenix `DATE` and `TIMESTAMP` key column (`SystemTime` in milliseconds and nanoseconds).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Born {
    name: String,
    born: std::time::SystemTime,
    #[rowkey(desc, unit = "ns")]
    seen: std::time::SystemTime,
}

/// A binary layout's time, counted in seconds.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Logged {
    #[rowkey(unit = "s")]
    at: std::time::SystemTime,
    seq: u32,
}

#[test]
fn times_are_dates_both_ways_and_phoenix_keeps_those_before_1970() {
    use std::time::{Duration, UNIX_EPOCH};
    let dir = scratch("dates");
    // 1969-12-31T23:59:59Z, as Phoenix stores TO_DATE('1969-12-31 23:59:59.000'), and a
    // timestamp one nanosecond before the epoch.
    let row = Born {
        name: "ada".into(),
        born: UNIX_EPOCH - Duration::from_secs(1),
        seen: UNIX_EPOCH - Duration::from_nanos(1),
    };
    let lock = lock_of(&dir, "born.lock", std::slice::from_ref(&row));
    let key = row.to_vec().unwrap();
    same_in_every_form(
        &lock,
        &[
            "name=ada",
            "born=1969-12-31T23:59:59Z",
            "seen=1969-12-31T23:59:59.999999999Z",
        ],
        &key,
        r#"{"name":"ada","born":"1969-12-31T23:59:59Z","seen":"1969-12-31T23:59:59.999999999Z"}"#,
        &Born::explain(&key).unwrap().to_string(),
    );
    assert!(Born::explain(&key)
        .unwrap()
        .to_string()
        .contains("1969-12-31T23:59:59.999999999Z"));
    // A count of the field's unit is read too (negative before the epoch), and an offset.
    assert_eq!(
        ok(&["encode", &lock, "name=ada", "born=-1000", "seen=-1"]),
        format!("{}\n", write("hbase", &key))
    );
    assert_eq!(
        ok(&[
            "encode",
            &lock,
            "name=ada",
            "born=1970-01-01T00:59:59+01:00",
            "seen=-1"
        ]),
        format!("{}\n", write("hbase", &key))
    );

    // A binary layout shows its times as dates too; it stores none before the epoch.
    let logged = Logged {
        at: UNIX_EPOCH + Duration::from_secs(1_700_000_000),
        seq: 3,
    };
    let lock = lock_of(&dir, "logged.lock", std::slice::from_ref(&logged));
    let key = logged.to_vec().unwrap();
    same_in_every_form(
        &lock,
        &["at=2023-11-14T22:13:20Z", "seq=3"],
        &key,
        r#"{"at":"2023-11-14T22:13:20Z","seq":3}"#,
        &Logged::explain(&key).unwrap().to_string(),
    );
    assert!(Logged::explain(&key)
        .unwrap()
        .to_string()
        .contains("2023-11-14T22:13:20Z"));
    refused(
        &["encode", &lock, "at=1969-12-31T23:59:59Z", "seq=3"],
        None,
        &["before the Unix epoch"],
    );
    refused(
        &["encode", &lock, "at=2023-02-30T00:00:00Z", "seq=3"],
        None,
        &["RFC 3339"],
    );
}
