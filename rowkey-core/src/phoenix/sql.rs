//! A Phoenix `CREATE TABLE` statement read for its primary key: the table's name, the key's
//! columns in key order (the `CONSTRAINT ... PRIMARY KEY` list, or the one column declared
//! `PRIMARY KEY`) with their types, `NOT NULL` and `DESC`, and `SALT_BUCKETS`. Columns outside
//! the key, their families, `DEFAULT`s and the table's other options are read past: they do not
//! change the key's bytes (an option neither Phoenix nor HBase knows is warned of, see
//! `options.rs`). What this reads is Phoenix's grammar as people write it: keywords in
//! any case, names bare (in capitals, as Phoenix takes them) or quoted (as written), `--` and
//! `/* */` comments, and a closing `;`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::tokens::{error_at, tokenize, DdlError, DdlWarning, Token, Tokens};
use crate::field::column_type::ColumnType;

/// A primary-key column of a Phoenix table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KeyColumn {
    pub(crate) name: String,
    pub(crate) ty: ColumnType,
    pub(crate) nullable: bool,
    pub(crate) desc: bool,
}

/// What a `CREATE TABLE` says of a table's row key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Table {
    pub(crate) name: String,
    pub(crate) key: Vec<KeyColumn>,
    /// `SALT_BUCKETS`, when above 0.
    pub(crate) salt_buckets: Option<u16>,
    /// The options neither Phoenix nor HBase knows, in the statement's order.
    pub(crate) warnings: Vec<DdlWarning>,
}

/// A column as the key's constraint lists it: its name, `DESC`, and where it stands.
struct Listed {
    name: String,
    desc: bool,
    at: usize,
}

/// A column as declared: its name, type and what its declaration says.
struct Declared {
    name: String,
    family: bool,
    ty: Result<ColumnType, String>,
    not_null: bool,
    /// `PRIMARY KEY` on the column itself, and its `DESC`.
    primary: Option<bool>,
    at: usize,
}

/// Reads a `CREATE TABLE` statement's row key.
pub(crate) fn parse(sql: &str) -> Result<Table, DdlError> {
    let mut t = Tokens {
        sql,
        tokens: tokenize(sql)?,
        at: 0,
    };
    let (name, name_at) = table_name(&mut t)?;
    t.expect_punct('(')?;
    let (declared, constraint) = declarations(&mut t)?;
    t.expect_punct(')')?;
    let mut warnings = Vec::new();
    let salt_buckets = options(&mut t, &mut warnings)?;
    let key = key_columns(sql, &name, declared, constraint, name_at)?;
    Ok(Table {
        name,
        key,
        salt_buckets,
        warnings,
    })
}

/// `CREATE [IMMUTABLE] TABLE [IF NOT EXISTS] [schema.]name`: the table's name, and where it
/// stands in the statement.
fn table_name(t: &mut Tokens<'_>) -> Result<(String, usize), DdlError> {
    t.expect_keyword("CREATE")?;
    let at = t.offset();
    if t.keyword("VIEW") || t.keyword("INDEX") || t.keyword("LOCAL") {
        return Err(error_at(
            t.sql,
            at,
            "a view or an index has no row key of its own: give the `CREATE TABLE` of its table"
                .into(),
        ));
    }
    t.keyword("IMMUTABLE");
    t.expect_keyword("TABLE")?;
    if t.keyword("IF") {
        t.expect_keyword("NOT")?;
        t.expect_keyword("EXISTS")?;
    }
    let name_at = t.offset();
    let (schema, table) = t.qualified("the table's name")?;
    let name = match schema {
        Some(s) => format!("{s}.{table}"),
        None => table,
    };
    Ok((name, name_at))
}

/// What stands between the parentheses: the columns declared, and the key's `CONSTRAINT`, when
/// the statement gives one.
fn declarations(t: &mut Tokens<'_>) -> Result<(Vec<Declared>, Option<Vec<Listed>>), DdlError> {
    let mut declared: Vec<Declared> = Vec::new();
    let mut constraint: Option<Vec<Listed>> = None;
    loop {
        if t.keyword("CONSTRAINT") {
            let at = t.offset();
            let columns = primary_key(t)?;
            if constraint.is_some() {
                return Err(error_at(
                    t.sql,
                    at,
                    "a second PRIMARY KEY constraint".into(),
                ));
            }
            constraint = Some(columns);
        } else {
            declared.push(column(t)?);
            // Phoenix takes the key's constraint after the last column with or without a comma.
            if matches!(t.peek(), Some(Token::Bare(w)) if w == "CONSTRAINT") {
                continue;
            }
        }
        if !t.punct(',') {
            break;
        }
    }
    Ok((declared, constraint))
}

/// After `CONSTRAINT`: `name PRIMARY KEY (column [ASC | DESC] [ROW_TIMESTAMP], ...)`.
fn primary_key(t: &mut Tokens<'_>) -> Result<Vec<Listed>, DdlError> {
    t.name("the constraint's name")?;
    t.expect_keyword("PRIMARY")?;
    t.expect_keyword("KEY")?;
    t.expect_punct('(')?;
    let mut columns = Vec::new();
    loop {
        let at = t.offset();
        let column = t.name("a key column's name")?;
        let desc = if t.keyword("DESC") {
            true
        } else {
            t.keyword("ASC");
            false
        };
        t.keyword("ROW_TIMESTAMP");
        columns.push(Listed {
            name: column,
            desc,
            at,
        });
        if !t.punct(',') {
            break;
        }
    }
    t.expect_punct(')')?;
    Ok(columns)
}

/// The table's options, to the statement's end: its `SALT_BUCKETS` (`0`: none), the rest
/// skipped, as they do not touch the key's bytes; one that neither Phoenix nor HBase knows is a
/// warning.
fn options(t: &mut Tokens<'_>, warnings: &mut Vec<DdlWarning>) -> Result<Option<u16>, DdlError> {
    let mut salt_buckets = None;
    while t.peek().is_some() && !t.punct(';') {
        let at = t.offset();
        let option = t.name("a table option")?;
        if option == "SPLIT" && t.keyword("ON") {
            // SPLIT ON (...): where the table's regions start, not its key's bytes.
            t.expect_punct('(')?;
            t.skip_value();
            while t.punct(',') {
                t.skip_value();
            }
            t.expect_punct(')')?;
        } else {
            warnings.extend(super::options::unknown(t.sql, &option, at));
            t.expect_punct('=')?;
            if option == "SALT_BUCKETS" {
                let at = t.offset();
                let n = t.number()?;
                salt_buckets = match n {
                    0 => None,
                    1..=256 => Some(n as u16),
                    _ => {
                        return Err(error_at(
                            t.sql,
                            at,
                            format!("SALT_BUCKETS = {n}: Phoenix takes 0 up to 256"),
                        ))
                    }
                };
            } else {
                t.skip_value();
            }
        }
        t.punct(',');
    }
    if t.peek().is_some() {
        return t.fail(format!("{} after the statement's end", t.found()));
    }
    Ok(salt_buckets)
}

/// One column's declaration.
fn column(t: &mut Tokens<'_>) -> Result<Declared, DdlError> {
    let at = t.offset();
    let (family, name) = t.qualified("a column's name")?;
    let ty_name = t.name("the column's type")?;
    let mut params = Vec::new();
    if t.punct('(') {
        loop {
            params.push(t.number()?);
            if !t.punct(',') {
                break;
            }
        }
        t.expect_punct(')')?;
    }
    let mut ty = crate::field::column_type::column_type(&ty_name, &params);
    if t.keyword("ARRAY") || t.punct('[') {
        if t.punct('[') || t.peek() == Some(&Token::Punct(']')) {
            let _ = t.number();
            t.punct(']');
        }
        ty = Err(format!(
            "Phoenix's arrays ({ty_name} ARRAY) have no rowkey field type"
        ));
    }
    let mut d = Declared {
        name,
        family: family.is_some(),
        ty,
        not_null: false,
        primary: None,
        at,
    };
    loop {
        if t.keyword("NOT") {
            t.expect_keyword("NULL")?;
            d.not_null = true;
        } else if t.keyword("NULL") {
            d.not_null = false;
        } else if t.keyword("PRIMARY") {
            t.expect_keyword("KEY")?;
            let desc = t.keyword("DESC");
            if !desc {
                t.keyword("ASC");
            }
            t.keyword("ROW_TIMESTAMP");
            d.primary = Some(desc);
        } else if t.keyword("DEFAULT")
            || t.keyword("COLUMN_QUALIFIER")
            || t.keyword("ENCODED_QUALIFIER")
        {
            t.skip_value();
        } else {
            break;
        }
    }
    Ok(d)
}

/// The key's columns in key order, from the constraint's list or the column declared `PRIMARY
/// KEY`.
fn key_columns(
    sql: &str,
    table: &str,
    declared: Vec<Declared>,
    constraint: Option<Vec<Listed>>,
    name_at: usize,
) -> Result<Vec<KeyColumn>, DdlError> {
    let inline: Vec<&Declared> = declared.iter().filter(|d| d.primary.is_some()).collect();
    let order: Vec<Listed> = match (constraint, inline.as_slice()) {
        (Some(columns), []) => columns,
        (None, [d]) => alloc::vec![Listed {
            name: d.name.clone(),
            desc: d.primary == Some(true),
            at: d.at,
        }],
        (None, []) => {
            return Err(error_at(sql, name_at, format!("`{table}` has no PRIMARY KEY: name its key columns in a `CONSTRAINT pk PRIMARY KEY (...)`, or declare one column `PRIMARY KEY`")))
        }
        (_, [.., d]) => {
            return Err(error_at(sql, d.at, format!("`{}` is declared PRIMARY KEY beside another key declaration: a table has one primary key", d.name)))
        }
    };
    let mut key = Vec::with_capacity(order.len());
    for (i, Listed { name, desc, at }) in order.iter().enumerate() {
        let Some(d) = declared.iter().find(|d| &d.name == name && !d.family) else {
            return Err(error_at(sql, *at, format!("`{name}` is in the PRIMARY KEY but not declared as a column of `{table}` (a key column has no family)")));
        };
        if order[..i].iter().any(|l| &l.name == name) {
            return Err(error_at(
                sql,
                *at,
                format!("`{name}` is twice in the PRIMARY KEY"),
            ));
        }
        let ty =
            d.ty.clone()
                .map_err(|why| error_at(sql, d.at, format!("`{name}`: {why}")))?;
        let nullable = !d.not_null;
        if nullable && ty.fixed_len().is_some() {
            return Err(error_at(sql, d.at, format!("`{name}` {ty} is a nullable fixed-width key column, which rowkey does not read: a NULL there has no bytes among fixed-width ones (declare it NOT NULL if no row holds NULL in it)")));
        }
        key.push(KeyColumn {
            name: name.clone(),
            ty,
            nullable,
            desc: *desc,
        });
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn a_statement_as_people_write_it() {
        let sql = "-- the web's visits\ncreate table if not exists web.\"Visits\" (\n  site varchar(64) not null,\n  \"at\" BIGINT NOT NULL,\n  cc char(2) not null default 'us',\n  m.hits integer,\n  referrer VARCHAR, /* nullable */\n  constraint pk primary key (site, \"at\" desc, cc, referrer)\n) salt_buckets = 4, versions=1, compression='GZ';";
        let t = parse(sql).unwrap();
        assert_eq!(t.name, "WEB.Visits");
        assert_eq!(t.salt_buckets, Some(4));
        let key: Vec<(&str, String, bool, bool)> = t
            .key
            .iter()
            .map(|c| (c.name.as_str(), c.ty.to_string(), c.nullable, c.desc))
            .collect();
        assert_eq!(
            key,
            [
                ("SITE", "VARCHAR".to_string(), false, false),
                ("at", "BIGINT".to_string(), false, true),
                ("CC", "CHAR(2)".to_string(), false, false),
                ("REFERRER", "VARCHAR".to_string(), true, false),
            ]
        );
    }

    #[test]
    fn one_column_declared_primary_key() {
        let t = parse("CREATE TABLE T (ID BIGINT NOT NULL PRIMARY KEY DESC, V VARCHAR)").unwrap();
        assert_eq!(t.key.len(), 1);
        assert!(t.key[0].desc && !t.key[0].nullable);
        assert_eq!(t.salt_buckets, None);
    }

    #[test]
    fn an_option_no_one_knows_is_a_warning_that_says_where() {
        let key = "CREATE TABLE T (A VARCHAR NOT NULL PRIMARY KEY)";
        let cases: [(&str, Option<u16>, &[&str]); 5] = [
            (" SALT_BUCKETS = 4, VERSIONS = 1, TTL = 86400", Some(4), &[]),
            (" SPLIT ON ('a', 'b')", None, &[]),
            (
                "\n  IMMUTABLE_ROWS = true,\n  SALT_BUCKET = 4",
                None,
                &["line 3, column 3: unknown option `SALT_BUCKET` (did you mean `SALT_BUCKETS`?); Phoenix ignores it"],
            ),
            (
                " DISABLE_WAL=true, COMPRESION='GZ', SALT_BUCKETS=2, FOO=1",
                Some(2),
                &[
                    "line 1, column 67: unknown option `COMPRESION` (did you mean `COMPRESSION`?)",
                    "line 1, column 100: unknown option `FOO`; Phoenix ignores it",
                ],
            ),
            (" \"salt_buckets\" = 4", None, &["line 1, column 49: unknown option `salt_buckets` (did you mean `SALT_BUCKETS`?)"]),
        ];
        for (options, salt, says) in cases {
            let sql = format!("{key}{options}");
            let t = parse(&sql).unwrap();
            assert_eq!(t.salt_buckets, salt, "{sql}");
            let warnings: Vec<String> = t.warnings.iter().map(|w| w.to_string()).collect();
            assert_eq!(warnings.len(), says.len(), "{sql}: {warnings:?}");
            for (warning, says) in warnings.iter().zip(says) {
                assert!(
                    warning.starts_with(says),
                    "{warning:?} does not start with {says:?}"
                );
            }
        }
    }

    #[test]
    fn what_gives_no_key_says_where_and_why() {
        let cases = [
            ("CREATE TABLE T (A VARCHAR)", "1, column 14", "has no PRIMARY KEY"),
            ("CREATE TABLE T (A INTEGER CONSTRAINT PK PRIMARY KEY (A))", "1, column 17", "nullable fixed-width"),
            ("CREATE TABLE T (A UNSIGNED_FLOAT NOT NULL CONSTRAINT PK PRIMARY KEY (A))", "1, column 17", "UNSIGNED_FLOAT"),
            ("CREATE TABLE T (A VARCHAR NOT NULL CONSTRAINT PK PRIMARY KEY (B))", "1, column 63", "not declared"),
            ("CREATE TABLE T (A VARCHAR NOT NULL CONSTRAINT PK PRIMARY KEY (A)) SALT_BUCKETS = 300", "1, column 82", "0 up to 256"),
            ("CREATE VIEW V AS SELECT * FROM T", "1, column 8", "a view"),
            ("CREATE TABLE T (A VARCHAR NOT NULL\n  CONSTRAINT PK PRIMARY KEY (A)", "2, column 32", "expected `)`"),
            ("CREATE TABLE T (A VARCHAR ARRAY NOT NULL CONSTRAINT PK PRIMARY KEY (A))", "1, column 17", "arrays"),
        ];
        for (sql, at, why) in cases {
            let e = parse(sql).unwrap_err();
            let text = e.to_string();
            assert!(
                text.starts_with(&format!("line {at}:")) && text.contains(why),
                "{sql}: {text}"
            );
        }
    }
}
