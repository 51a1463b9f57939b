//! Phoenix tables without a line of Rust: `rowkey::phoenix::lock_from_ddl` reads each of the
//! oracle's 17 `CREATE TABLE` statements (tests/java/vectors/PhoenixKeys.txt, as Phoenix ran
//! them), and the schema of the lock it writes decodes every key Phoenix built for that table and
//! writes it back byte for byte, and gives the same statement back. A struct written later for
//! the table locks to the same file.

use rowkey::lock::{self, ChangeKind, Verdict};
use rowkey::schema::Schema;
use rowkey::RowKey;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn the_lock_of_each_phoenix_statement_reads_every_key_phoenix_built() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/java/vectors/PhoenixKeys.txt"
    );
    let vectors = std::fs::read_to_string(path).unwrap();
    let mut schemas = std::collections::HashMap::new();
    let mut keys = 0;
    for line in vectors.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[0] {
            "#TABLE" => {
                let (name, ddl) = (fields[1], fields[2].replace("\\n", "\n"));
                let text = rowkey::phoenix::lock_from_ddl(&ddl)
                    .unwrap_or_else(|e| panic!("{name}: {e}\n{ddl}"));
                let schema = Schema::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
                assert_eq!(
                    schema.phoenix_ddl(name).unwrap(),
                    ddl,
                    "{name}: the statement back"
                );
                schemas.insert(name.to_string(), schema);
            }
            // The empty cell, and the quirks of types rowkey has no field for.
            "#CELLS" | "#QUIRK" => {}
            table => {
                let key = fields[fields.len() - 1];
                if key.starts_with('!') {
                    continue;
                }
                let key = unhex(key);
                let schema = &schemas[table];
                let values = schema
                    .decode(&key)
                    .unwrap_or_else(|e| panic!("{table} {key:02x?}: {e}"));
                let values: Vec<(String, rowkey::schema::Value)> = values
                    .into_iter()
                    .map(|(p, v)| (p.to_string(), v))
                    .collect();
                assert_eq!(schema.encode(&values).unwrap(), key, "{table}: {values:?}");
                keys += 1;
            }
        }
    }
    assert_eq!(schemas.len(), 17);
    assert!(keys >= 10_000, "{keys} keys");
}

/// A table's row key, written as Rust after its lock was made from its statement.
#[derive(RowKey, Debug)]
#[rowkey(phoenix, salt(buckets = 8))]
struct Visit {
    site: String,
    #[rowkey(desc)]
    at: i64,
    #[rowkey(width = 2)]
    country: String,
    referrer: Option<String>,
}

#[test]
fn a_struct_written_for_the_table_locks_to_the_statements_lock() {
    let ddl = "CREATE TABLE IF NOT EXISTS web.visits (\n\
               site VARCHAR(200) NOT NULL,\n\
               at BIGINT NOT NULL,\n\
               country CHAR(2) NOT NULL,\n\
               referrer VARCHAR,\n\
               stats.hits BIGINT,\n\
               CONSTRAINT pk PRIMARY KEY (site, at DESC, country, referrer)\n\
               ) SALT_BUCKETS = 8, VERSIONS = 1;";
    let text = rowkey::phoenix::lock_from_ddl(ddl).unwrap();
    let path =
        std::env::temp_dir().join(format!("rowkey-phoenix-lock-{}.lock", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let samples = [Visit {
        site: "shop".into(),
        at: 1_700_000_000_000,
        country: "us".into(),
        referrer: None,
    }];
    let verdict = lock::check(&path, &samples);
    let _ = std::fs::remove_file(&path);
    // The key's name differs (`WEB.VISITS` against `Visit`), and the struct's samples are new:
    // changes that keep every stored key.
    match verdict {
        Ok(Verdict::Compatible { changes }) => {
            let kinds: Vec<ChangeKind> = changes.iter().map(|c| c.kind).collect();
            assert_eq!(
                kinds,
                [ChangeKind::KeyRenamed, ChangeKind::SampleAdded],
                "{changes:?}"
            );
        }
        other => panic!("{other:?}\n{text}"),
    }
    let schema = Schema::parse(&text).unwrap();
    let key = samples[0].to_vec().unwrap();
    assert_eq!(
        schema.explain(&key).unwrap().to_string().lines().count(),
        Visit::explain(&key).unwrap().to_string().lines().count()
    );
    assert_eq!(
        schema.phoenix_ddl("WEB.VISITS").unwrap(),
        rowkey::phoenix::ddl::<Visit>("WEB.VISITS")
    );
}

mod any_text {
    use proptest::prelude::*;

    const STATEMENT: &str = "CREATE TABLE T (\n  A VARCHAR NOT NULL,\n  \"b\" BIGINT NOT NULL DEFAULT 0,\n  C CHAR(2),\n  F.X INTEGER\n  CONSTRAINT PK PRIMARY KEY (A, \"b\" DESC)\n) SALT_BUCKETS = 3, VERSIONS = 1;";

    /// A lock, or an error that points into the statement: never a panic, and a lock always
    /// reads as a schema.
    fn holds(sql: &str) -> Result<(), TestCaseError> {
        match rowkey::phoenix::lock_from_ddl(sql) {
            Ok(lock) => {
                prop_assert!(
                    rowkey::schema::Schema::parse(&lock).is_ok(),
                    "{sql:?}:\n{lock}"
                );
            }
            Err(e) => {
                prop_assert!(
                    e.line >= 1 && e.column >= 1 && !e.reason.is_empty(),
                    "{e:?}"
                );
                prop_assert!(e.line <= sql.lines().count().max(1), "{sql:?}: {e}");
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        #[test]
        fn any_text_gives_a_lock_or_says_where_it_fails(sql in ".{0,80}") {
            holds(&sql)?;
        }

        #[test]
        fn a_statement_cut_or_changed_anywhere_gives_a_lock_or_says_where(
            at in 0usize..STATEMENT.len(),
            len in 0usize..8,
            with in "[ (),.=\"'A-Z0-9é;-]{0,3}",
        ) {
            let mut sql = String::from(&STATEMENT[..at]);
            sql.push_str(&with);
            sql.push_str(&STATEMENT[(at + len).min(STATEMENT.len())..]);
            holds(&sql)?;
        }
    }

    #[test]
    fn the_statement_itself_gives_a_lock() {
        let lock = rowkey::phoenix::lock_from_ddl(STATEMENT).unwrap();
        assert!(
            lock.contains(r#"segment index=1 name="b" type="i64""#),
            "{lock}"
        );
        assert!(!lock.contains(r#"name="c""#), "C is not in the key: {lock}");
    }
}
