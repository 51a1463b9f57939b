//! Phoenix tables on a real HBase, end to end: the mini-cluster of `.ci/servers/hbase.sh` runs
//! Apache Phoenix 5.2.1's server side, and its control endpoint runs SQL through Phoenix's JDBC
//! driver (`POST /phoenix`). (a) A table created through Phoenix from `rowkey::phoenix::ddl`
//! takes 10,000 rows written by rowkey through Thrift2; Phoenix's `SELECT` returns every one with
//! its primary-key values, and Phoenix's range queries (on `DESC` columns too) return the rows
//! rowkey's typed scans of the same query read. (b) 10,000 rows UPSERTed by Phoenix are read by
//! rowkey through Thrift2, every key decoded to the values Phoenix was given. The test never
//! skips: without a JDK, Maven or Maven Central the start fails and says why.

mod common;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::ops::Bound;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::{Rng, Server};
use rowkey::phoenix::ddl;
use rowkey::{DecodeKey, RowKey, Scan};
use rowkey_hbase::HBase;

const ROWS: usize = 10_000;

/// A site's visits, newest first, written by rowkey. `section` is an ascending VARCHAR that
/// ends the key when `referrer` is NULL, without the separator a longer key has after it.
#[derive(RowKey, Debug, Clone, PartialEq, PartialOrd)]
#[rowkey(phoenix, salt(buckets = 4))]
struct Visit {
    site: String,
    #[rowkey(desc)]
    at: i64,
    #[rowkey(desc)]
    page: String,
    visitor: i32,
    #[rowkey(desc)]
    mobile: bool,
    section: String,
    referrer: Option<String>,
}

/// A device's readings, UPSERTed by Phoenix: `CHAR(4)`, a `DESC` TIMESTAMP to the nanosecond,
/// SMALLINT, DOUBLE, a `DESC` BOOLEAN, UNSIGNED_INT and two nullable VARCHARs, one `DESC`.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix, salt(buckets = 3))]
struct Reading {
    #[rowkey(width = 4)]
    device: String,
    #[rowkey(desc, unit = "ns")]
    at: SystemTime,
    kind: i16,
    score: f64,
    #[rowkey(desc)]
    ok: bool,
    count: u32,
    #[rowkey(desc)]
    label: Option<String>,
    note: Option<String>,
}

/// A value as `POST /phoenix` takes and answers it (see `PhoenixSql.java`).
fn text(s: &str) -> String {
    let escaped = s
        .replace('\\', "\\\\")
        .replace('\t', "\\t")
        .replace('\n', "\\n");
    format!("s:{escaped}")
}

fn opt_text(s: &Option<String>) -> String {
    s.as_deref().map_or_else(|| "n".into(), text)
}

fn time(t: SystemTime) -> String {
    let d = t.duration_since(UNIX_EPOCH).unwrap();
    format!("t:{}:{}", d.as_secs(), d.subsec_nanos())
}

/// One answered value: its type letter and text.
fn parse(value: &str, kind: char) -> Option<&str> {
    if value == "n" {
        return None;
    }
    let (k, v) = value.split_once(':').unwrap_or_else(|| panic!("{value:?}"));
    assert_eq!(k.chars().next(), Some(kind), "{value:?}");
    Some(v)
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some(e) => out.push(e),
                None => out.push('\\'),
            },
            _ => out.push(c),
        }
    }
    out
}

/// The rows of an answer, each a list of values, and the rows the statements changed.
fn answer(body: &str) -> (Vec<Vec<String>>, usize) {
    let mut lines: Vec<&str> = body.lines().collect();
    let last = lines.pop().expect("an answer");
    let changed = last
        .strip_prefix("ok ")
        .unwrap_or_else(|| panic!("{last:?}"))
        .parse()
        .unwrap();
    let rows = lines
        .iter()
        .map(|l| l.split('\t').map(String::from).collect())
        .collect();
    (rows, changed)
}

fn visit_of(values: &[String]) -> Visit {
    let s = |i: usize| parse(&values[i], 's').map(unescape);
    Visit {
        site: s(0).unwrap(),
        at: parse(&values[1], 'l').unwrap().parse().unwrap(),
        page: s(2).unwrap(),
        visitor: parse(&values[3], 'i').unwrap().parse().unwrap(),
        mobile: parse(&values[4], 'b').unwrap().parse().unwrap(),
        section: s(5).unwrap(),
        referrer: s(6),
    }
}

fn visits(rng: &mut Rng) -> Vec<Visit> {
    let sites = ["shop", "blog", "docs", "shop-eu", "ü-site"];
    let pages = [
        "/",
        "/a",
        "/a/b",
        "/ab",
        "/b",
        "/cart",
        "/cart/checkout",
        "/é",
        "/z",
        "/zz",
    ];
    let sections = ["a", "ab", "b", "news", "x"];
    let referrers = ["g", "ddg", "mail", "x"];
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    while out.len() < ROWS {
        let v = Visit {
            site: rng.pick(&sites).to_string(),
            at: 1_700_000_000_000 + rng.below(2_000) as i64 * 1_000,
            page: rng.pick(&pages).to_string(),
            visitor: rng.below(2_000) as i32 - 1_000,
            mobile: rng.below(2) == 0,
            section: rng.pick(&sections).to_string(),
            referrer: (rng.below(2) == 0).then(|| rng.pick(&referrers).to_string()),
        };
        if seen.insert(v.to_vec().unwrap()) {
            out.push(v);
        }
    }
    out
}

/// The rows of `plan` in `table`, read by rowkey through Thrift2, decoded.
fn read<K>(hbase: &HBase, table: &str, plan: &Scan<K>) -> Vec<K>
where
    K: for<'k> DecodeKey<'k> + 'static,
{
    hbase
        .read_rows(table, plan)
        .unwrap()
        .map(|row| K::decode(&row.unwrap().key).unwrap())
        .collect()
}

fn sql_text(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

#[test]
fn rows_rowkey_writes_are_the_rows_phoenix_selects_and_scans_agree_with_its_queries() {
    let server = Server::get();
    let mut hbase = HBase::connect(&server.thrift).expect("connect to Thrift2");
    let table = format!("RK_VISITS_{}", std::process::id());
    // As sqlline takes it (and `rowkey phoenix-ddl` prints it): ending in `;`.
    let create = ddl::<Visit>(&table).replace('\n', " ");
    server.phoenix(&format!("exec\t{create};\n"));

    let mut rng = Rng(0x5EED_0FA1);
    let rows = visits(&mut rng);
    for batch in rows.chunks(1_000) {
        hbase.put_phoenix_rows(&table, batch).unwrap();
    }

    // Every row, as Phoenix reads it back: the values of its primary key.
    let columns = "SITE, AT, PAGE, VISITOR, MOBILE, SECTION, REFERRER";
    let select = |filter: &str| -> Vec<Visit> {
        let body = server.phoenix(&format!("exec\tSELECT {columns} FROM {table}{filter}\n"));
        let mut got: Vec<Visit> = answer(&body).0.iter().map(|r| visit_of(r)).collect();
        got.sort_by(|x, y| x.partial_cmp(y).unwrap());
        got
    };
    let mut all = rows.clone();
    all.sort_by(|x, y| x.partial_cmp(y).unwrap());
    // Phoenix 5.2.1 answers `false` for every DESC BOOLEAN primary-key value it reads back,
    // from rows it wrote itself as from these (its UPSERT writes `FE` for true, `FF` for false,
    // as rowkey does, and reads both as false), while its WHERE compares the bytes right: its
    // answers are compared with the rows as it reports them.
    let reported = |rows: &[Visit]| -> Vec<Visit> {
        let mut r: Vec<Visit> = rows
            .iter()
            .map(|v| Visit {
                mobile: false,
                ..v.clone()
            })
            .collect();
        r.sort_by(|x, y| x.partial_cmp(y).unwrap());
        r
    };
    let everything = select("");
    assert_eq!(everything.len(), ROWS);
    assert_eq!(
        everything,
        reported(&all),
        "Phoenix's SELECT of the rows rowkey wrote"
    );
    for mobile in [true, false] {
        let want: Vec<Visit> = all.iter().filter(|v| v.mobile == mobile).cloned().collect();
        assert!(!want.is_empty());
        let got = select(&format!(" WHERE MOBILE = {mobile}"));
        assert_eq!(
            got,
            reported(&want),
            "Phoenix's rows WHERE MOBILE = {mobile}"
        );
    }

    // The same query three ways: Phoenix's WHERE, rowkey's typed scan through Thrift2, and
    // brute force over the rows written.
    let mut queries = 0;
    let mut check =
        |name: String, filter: String, plan: Scan<Visit>, want: &dyn Fn(&Visit) -> bool| {
            let mut expected: Vec<Visit> = all.iter().filter(|v| want(v)).cloned().collect();
            expected.sort_by(|x, y| x.partial_cmp(y).unwrap());
            let phoenix = select(&format!(" WHERE {filter}"));
            assert_eq!(phoenix, reported(&expected), "{name}: Phoenix's answer");
            let mut scanned = read(&hbase, &table, &plan);
            scanned.sort_by(|x, y| x.partial_cmp(y).unwrap());
            assert_eq!(scanned, expected, "{name}: rowkey's scan, {plan:?}");
            queries += 1;
            expected.len()
        };
    let mut found = 0;
    for i in 0..24 {
        let v = &rows[rng.index(rows.len())];
        let (site, at, page) = (v.site.clone(), v.at, v.page.clone());
        let lo = at - rng.below(200_000) as i64;
        let hi = at + rng.below(200_000) as i64;
        found += match i % 6 {
            0 => check(
                format!("site = {site}, at between {lo} and {hi}"),
                format!("SITE = {} AND AT BETWEEN {lo} AND {hi}", sql_text(&site)),
                Visit::scan().site(&site).at_range(lo..=hi).into(),
                &|x| x.site == site && (lo..=hi).contains(&x.at),
            ),
            1 => check(
                format!("site = {site}, {lo} < at < {hi}"),
                format!("SITE = {} AND AT > {lo} AND AT < {hi}", sql_text(&site)),
                Visit::scan()
                    .site(&site)
                    .at_range((Bound::Excluded(lo), Bound::Excluded(hi)))
                    .into(),
                &|x| x.site == site && x.at > lo && x.at < hi,
            ),
            2 => check(
                format!("site = {site}, at = {at}, page between /a and /cart"),
                format!(
                    "SITE = {} AND AT = {at} AND PAGE BETWEEN '/a' AND '/cart'",
                    sql_text(&site)
                ),
                Visit::scan()
                    .site(&site)
                    .at(at)
                    .page_range("/a"..="/cart")
                    .into(),
                &|x| x.site == site && x.at == at && ("/a"..="/cart").contains(&x.page.as_str()),
            ),
            3 => check(
                format!("site = {site}, at = {at}, page >= {page}"),
                format!(
                    "SITE = {} AND AT = {at} AND PAGE >= {}",
                    sql_text(&site),
                    sql_text(&page)
                ),
                Visit::scan()
                    .site(&site)
                    .at(at)
                    .page_range(page.as_str()..)
                    .into(),
                &|x| x.site == site && x.at == at && x.page >= page,
            ),
            4 => {
                // Every column bound but the nullable last: keys that end at `section` and
                // keys that go on.
                let (visitor, mobile, section) = (v.visitor, v.mobile, v.section.clone());
                check(
                    format!("{site} {at} {page} {visitor} {mobile} {section}"),
                    format!(
                        "SITE = {} AND AT = {at} AND PAGE = {} AND VISITOR = {visitor} AND MOBILE = {mobile} AND SECTION = {}",
                        sql_text(&site),
                        sql_text(&page),
                        sql_text(&section)
                    ),
                    Visit::scan()
                        .site(&site)
                        .at(at)
                        .page(&page)
                        .visitor(visitor)
                        .mobile(mobile)
                        .section(&section)
                        .into(),
                    &|x| {
                        x.site == site
                            && x.at == at
                            && x.page == page
                            && x.visitor == visitor
                            && x.mobile == mobile
                            && x.section == section
                    },
                )
            }
            _ => check(
                format!("site starts with {}", &site[..2]),
                format!("SITE LIKE {}", sql_text(&format!("{}%", &site[..2]))),
                Visit::scan().site_prefix(&site[..2]).into(),
                &|x| x.site.starts_with(&site[..2]),
            ),
        };
    }
    assert_eq!(queries, 24);
    assert!(found > 1_000, "the queries found {found} rows in all");
}

fn readings(rng: &mut Rng) -> Vec<Reading> {
    let devices = ["a", "ab", "abc", "abcd", "z9"];
    let scores = [
        0.0,
        -0.0,
        1.5,
        -1.5,
        1e300,
        -1e-300,
        f64::MIN_POSITIVE,
        42.0,
    ];
    let labels = ["hot", "cold", "h", "é"];
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    while out.len() < ROWS {
        let r = Reading {
            device: rng.pick(&devices).to_string(),
            at: UNIX_EPOCH
                + Duration::new(
                    1_600_000_000 + rng.below(100_000),
                    rng.below(1_000_000_000) as u32,
                ),
            kind: rng.below(65_536) as u16 as i16,
            score: *rng.pick(&scores),
            ok: rng.below(2) == 0,
            count: rng.below(1 << 31) as u32,
            label: (rng.below(3) > 0).then(|| rng.pick(&labels).to_string()),
            note: (rng.below(2) == 0).then(|| format!("n{}", rng.below(100))),
        };
        if seen.insert(r.to_vec().unwrap()) {
            out.push(r);
        }
    }
    out
}

#[test]
fn rows_phoenix_upserts_decode_to_the_values_it_was_given() {
    let server = Server::get();
    let hbase = HBase::connect(&server.thrift).expect("connect to Thrift2");
    let table = format!("RK_READINGS_{}", std::process::id());
    let create = ddl::<Reading>(&table).replace('\n', " ");
    server.phoenix(&format!("exec\t{create}\n"));

    let mut rng = Rng(0xFEED_0FA1);
    let rows = readings(&mut rng);
    let mut body = format!(
        "prepare\tUPSERT INTO {table} (DEVICE, AT, KIND, SCORE, OK, COUNT, LABEL, NOTE) VALUES (?, ?, ?, ?, ?, ?, ?, ?)\n"
    );
    for r in &rows {
        writeln!(
            body,
            "row\t{}\t{}\th:{}\td:{:?}\tb:{}\ti:{}\t{}\t{}",
            text(&r.device),
            time(r.at),
            r.kind,
            r.score,
            r.ok,
            r.count,
            opt_text(&r.label),
            opt_text(&r.note)
        )
        .unwrap();
    }
    let (_, changed) = answer(&server.phoenix(&body));
    assert_eq!(changed, ROWS);

    // Every key Phoenix wrote, read through Thrift2 and decoded: the values it was given, and
    // the bytes rowkey writes for them.
    let rows_read = hbase
        .read_rows(&table, Reading::scan())
        .unwrap()
        .map(|row| row.unwrap())
        .collect::<Vec<_>>();
    assert_eq!(rows_read.len(), ROWS);
    let mut decoded = Vec::new();
    for row in &rows_read {
        let r = Reading::decode(&row.key).unwrap_or_else(|e| panic!("{:02X?}: {e}", row.key));
        assert_eq!(
            r.to_vec().unwrap(),
            row.key,
            "{r:?}: rowkey's bytes for Phoenix's values"
        );
        decoded.push(r);
    }
    let key = |r: &Reading| r.to_vec().unwrap();
    let mut want: Vec<&Reading> = rows.iter().collect();
    want.sort_by_key(|r| key(r));
    decoded.sort_by_key(key);
    assert_eq!(decoded.len(), want.len());
    for (got, want) in decoded.iter().zip(want) {
        assert_eq!(got, want);
        // Bit for bit: `-0.0` stays `-0.0`.
        assert_eq!(got.score.to_bits(), want.score.to_bits(), "{want:?}");
    }

    // A typed scan of one device's hour (bounds to the nanosecond, on a DESC TIMESTAMP),
    // against Phoenix's own query of it and brute force.
    let from = UNIX_EPOCH + Duration::new(1_600_020_000, 500);
    let to = UNIX_EPOCH + Duration::new(1_600_023_600, 0);
    let plan: Scan<Reading> = Reading::scan().device("abc").at_range(from..to).into();
    let mut scanned: Vec<Vec<u8>> = read(&hbase, &table, &plan).iter().map(key).collect();
    scanned.sort();
    let mut expected: Vec<Vec<u8>> = rows
        .iter()
        .filter(|r| r.device == "abc" && (from..to).contains(&r.at))
        .map(key)
        .collect();
    expected.sort();
    let (phoenix, _) = answer(&server.phoenix(&format!(
        "prepare\tSELECT AT FROM {table} WHERE DEVICE = ? AND AT >= ? AND AT < ?\nrow\ts:abc\t{}\t{}\n",
        time(from),
        time(to)
    )));
    let mut phoenix: Vec<String> = phoenix.into_iter().map(|r| r[0].clone()).collect();
    phoenix.sort();
    let mut expected_times: Vec<String> = rows
        .iter()
        .filter(|r| r.device == "abc" && (from..to).contains(&r.at))
        .map(|r| time(r.at))
        .collect();
    expected_times.sort();
    assert!(expected.len() > 10, "{} rows in the hour", expected.len());
    assert_eq!(scanned, expected, "rowkey's scan");
    assert_eq!(phoenix, expected_times, "Phoenix's query");
}

/// A Phoenix key of the value-column test.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Sensor {
    site: String,
    at: i64,
}

/// The value columns of a sensor's row; `None` is NULL.
#[derive(Debug, Clone, PartialEq)]
struct SensorValues {
    int: Option<i32>,
    long: i64,
    short: i16,
    double: f64,
    flag: bool,
    text: Option<String>,
    bytes: Vec<u8>,
    note: Option<String>,
}

impl SensorValues {
    /// The cells of the values that are not NULL, as rowkey-hbase writes them.
    fn cells(&self) -> Vec<rowkey_hbase::Cell> {
        use rowkey_hbase::Cell;
        let mut cells = vec![
            Cell::phoenix("V_LONG", &self.long).unwrap(),
            Cell::phoenix("V_SHORT", &self.short).unwrap(),
            Cell::phoenix("V_DOUBLE", &self.double).unwrap(),
            Cell::phoenix("V_FLAG", &self.flag).unwrap(),
            Cell::phoenix("V_BYTES", &self.bytes[..]).unwrap(),
        ];
        if let Some(v) = self.int {
            cells.push(Cell::phoenix("V_INT", &v).unwrap());
        }
        if let Some(v) = &self.text {
            cells.push(Cell::phoenix("V_TEXT", v.as_str()).unwrap());
        }
        if let Some(v) = &self.note {
            cells.push(Cell::phoenix("M.NOTE", v.as_str()).unwrap());
        }
        cells
    }

    /// The values as `POST /phoenix` answers and takes them, in the order of `COLUMNS`.
    fn typed(&self) -> Vec<String> {
        vec![
            self.int.map_or_else(|| "n".into(), |v| format!("i:{v}")),
            format!("l:{}", self.long),
            format!("h:{}", self.short),
            format!("d:{:?}", self.double),
            format!("b:{}", self.flag),
            opt_text(&self.text),
            format!("x:{}", hex(&self.bytes)),
            opt_text(&self.note),
        ]
    }
}

const COLUMNS: &str = "V_INT, V_LONG, V_SHORT, V_DOUBLE, V_FLAG, V_TEXT, V_BYTES, NOTE";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn sensors(rng: &mut Rng, n: usize) -> Vec<(Sensor, SensorValues)> {
    let words = ["a", "web-1", "ü-ß", "tab\tin", "x y"];
    (0..n)
        .map(|i| {
            let key = Sensor {
                site: format!("s{}", rng.below(5)),
                at: i as i64 * 1_000 - 7_000,
            };
            let values = SensorValues {
                int: (rng.below(4) > 0).then(|| rng.next() as i32),
                long: rng.next() as i64,
                short: rng.next() as i16,
                // Quarters, which Java and Rust print alike.
                double: (rng.below(400) as f64 - 200.0) * 0.25,
                flag: rng.below(2) == 0,
                text: (rng.below(3) > 0).then(|| rng.pick(&words).to_string()),
                bytes: (0..1 + rng.below(6)).map(|_| rng.next() as u8).collect(),
                note: (rng.below(2) == 0).then(|| format!("n{}", rng.below(100))),
            };
            (key, values)
        })
        .collect()
}

/// Non-key columns both ways, on a table of the key's DDL with value columns added (two of
/// them in a family of their own): the values rowkey-hbase writes (`Row::phoenix`,
/// `Cell::phoenix`) are the values Phoenix selects, NULLs as NULL; and the cells Phoenix's
/// UPSERT writes are byte for byte the cells rowkey-hbase makes of the same values.
#[test]
fn value_columns_rowkey_writes_are_what_phoenix_selects_and_the_reverse() {
    use rowkey_hbase::{Columns, Row};
    let server = Server::get();
    let mut hbase = HBase::connect(&server.thrift).expect("connect to Thrift2");
    let table = format!("RK_SENSORS_{}", std::process::id());
    let create = ddl::<Sensor>(&table)
        .replace(
            "    CONSTRAINT PK",
            "    \"V_INT\" INTEGER,\n    \"V_LONG\" BIGINT,\n    \"V_SHORT\" SMALLINT,\n    \"V_DOUBLE\" DOUBLE,\n    \"V_FLAG\" BOOLEAN,\n    \"V_TEXT\" VARCHAR,\n    \"V_BYTES\" VARBINARY,\n    \"M\".\"NOTE\" VARCHAR,\n    CONSTRAINT PK",
        )
        .replace('\n', " ");
    server.phoenix(&format!("exec\t{create}\n"));

    // rowkey-hbase writes, Phoenix selects.
    let mut rng = Rng(0x5E45_0125);
    let mut written = sensors(&mut rng, 60);
    let rows: Vec<Row> = written
        .iter()
        .map(|(key, values)| Row::phoenix(key, values.cells()).unwrap())
        .collect();
    hbase.put(&table, &rows).unwrap();
    written.sort_by_key(|(key, _)| key.to_vec().unwrap());
    written.dedup_by_key(|(key, _)| key.to_vec().unwrap());
    let (selected, _) = answer(&server.phoenix(&format!(
        "exec\tSELECT SITE, AT, {COLUMNS} FROM {table} ORDER BY SITE, AT\n"
    )));
    let expected: Vec<Vec<String>> = written
        .iter()
        .map(|(key, values)| {
            let mut row = vec![text(&key.site), format!("l:{}", key.at)];
            row.extend(values.typed());
            row
        })
        .collect();
    assert_eq!(selected.len(), expected.len());
    for (got, want) in selected.iter().zip(&expected) {
        assert_eq!(got, want);
    }

    // Phoenix upserts, rowkey-hbase reads the cells: the bytes `Cell::phoenix` makes.
    let upserted = sensors(&mut Rng(0x0125_5E45), 30)
        .into_iter()
        .map(|(key, values)| {
            (
                Sensor {
                    site: format!("up-{}", key.site),
                    ..key
                },
                values,
            )
        })
        .collect::<Vec<_>>();
    let mut body = format!(
        "prepare\tUPSERT INTO {table} (SITE, AT, {COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)\n"
    );
    for (key, values) in &upserted {
        writeln!(
            body,
            "row\t{}\tl:{}\t{}",
            text(&key.site),
            key.at,
            values.typed().join("\t")
        )
        .unwrap();
    }
    answer(&server.phoenix(&body));
    let mut last = std::collections::BTreeMap::new();
    for (key, values) in &upserted {
        last.insert(key.to_vec().unwrap(), values.clone());
    }
    let keys: Vec<Vec<u8>> = last.keys().cloned().collect();
    let got = hbase.get_rows(&table, &keys, &Columns::all()).unwrap();
    for (key, row) in keys.iter().zip(got) {
        let row = row.unwrap_or_else(|| panic!("Phoenix's row {key:02x?} is not there"));
        let mut cells: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> = row
            .cells
            .into_iter()
            .map(|c| (c.family, c.qualifier, c.value))
            .collect();
        cells.sort();
        let mut want: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> =
            Row::phoenix(&Sensor::decode(key).unwrap(), last[key].cells())
                .unwrap()
                .cells
                .into_iter()
                .map(|c| (c.family, c.qualifier, c.value))
                .collect();
        want.sort();
        assert_eq!(cells, want, "{:?}", last[key]);
    }
}
