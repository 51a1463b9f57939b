//! The words of a Phoenix `CREATE TABLE` statement, as `sql.rs` reads them: names (bare, in
//! capitals as Phoenix takes them, or quoted as written), numbers, string literals and
//! punctuation, each with its byte offset, comments left out; [`DdlError`], where in the
//! statement reading stopped and why; and [`DdlWarning`], where a statement that gives a key says
//! something that may not be what its writer meant.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Why a `CREATE TABLE` statement gives no row key: where (1-based line and column) and why.
///
/// ```
/// let err = rowkey::phoenix::lock_from_ddl("CREATE TABLE T (A VARCHAR)").unwrap_err();
/// assert_eq!(err.to_string(), "line 1, column 14: `T` has no PRIMARY KEY: name its key columns in a `CONSTRAINT pk PRIMARY KEY (...)`, or declare one column `PRIMARY KEY`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DdlError {
    /// The line of the statement where reading stopped, from 1.
    pub line: usize,
    /// The column (in characters) on that line, from 1.
    pub column: usize,
    /// Why, in words.
    pub reason: String,
}

impl core::fmt::Display for DdlError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write_at(f, self.line, self.column, &self.reason)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DdlError {}

/// Something a `CREATE TABLE` statement that gives a row key says that may not be what its
/// writer meant (a table option neither Phoenix nor HBase knows): where (1-based line and
/// column) and what. The lock is written all the same, as Phoenix creates the table.
///
/// ```
/// let (lock, warnings) = rowkey::phoenix::lock_from_ddl_with_warnings(
///     "CREATE TABLE T (A VARCHAR NOT NULL PRIMARY KEY)\nSALT_BUCKET = 4",
/// )?;
/// assert!(!lock.contains("salt"));
/// assert_eq!(
///     warnings[0].to_string(),
///     "line 2, column 1: unknown option `SALT_BUCKET` (did you mean `SALT_BUCKETS`?); Phoenix \
///      ignores it (it only becomes an HBase table attribute), and so does the lock",
/// );
/// # Ok::<(), rowkey::phoenix::DdlError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DdlWarning {
    /// The line of the statement the warning is about, from 1.
    pub line: usize,
    /// The column (in characters) on that line, from 1.
    pub column: usize,
    /// What, in words.
    pub message: String,
}

impl core::fmt::Display for DdlWarning {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write_at(f, self.line, self.column, &self.message)
    }
}

/// `line 3, column 5: what`, as errors and warnings on a statement show where they stand.
fn write_at(
    f: &mut core::fmt::Formatter<'_>,
    line: usize,
    column: usize,
    what: &str,
) -> core::fmt::Result {
    write!(f, "line {line}, column {column}: {what}")
}

/// A token: a name (bare in capitals, or quoted as written), a number, a string literal, or one
/// character of punctuation; each with its byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token {
    Bare(String),
    Quoted(String),
    Number(String),
    Text(String),
    Punct(char),
}

pub(super) struct Tokens<'s> {
    pub(super) sql: &'s str,
    pub(super) tokens: Vec<(Token, usize)>,
    pub(super) at: usize,
}

/// The 1-based line and column (in characters) of byte `offset` of `sql`.
fn line_column(sql: &str, offset: usize) -> (usize, usize) {
    let before = &sql[..offset.min(sql.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

pub(super) fn error_at(sql: &str, offset: usize, reason: String) -> DdlError {
    let (line, column) = line_column(sql, offset);
    DdlError {
        line,
        column,
        reason,
    }
}

pub(super) fn warning_at(sql: &str, offset: usize, message: String) -> DdlWarning {
    let (line, column) = line_column(sql, offset);
    DdlWarning {
        line,
        column,
        message,
    }
}

pub(super) fn tokenize(sql: &str) -> Result<Vec<(Token, usize)>, DdlError> {
    let bytes = sql.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        match c {
            b if b.is_ascii_whitespace() => i += 1,
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let Some(end) = sql[i + 2..].find("*/") else {
                    return Err(error_at(sql, i, "a `/*` comment that does not end".into()));
                };
                i += 2 + end + 2;
            }
            b'"' | b'\'' => {
                // A quote doubled inside stands for itself.
                let mut text = String::new();
                i += 1;
                loop {
                    match sql[i..].find(c as char) {
                        None => {
                            let what = if c == b'"' { "name" } else { "string" };
                            return Err(error_at(
                                sql,
                                start,
                                format!("a quoted {what} that does not end"),
                            ));
                        }
                        Some(n) => {
                            text.push_str(&sql[i..i + n]);
                            i += n + 1;
                            if bytes.get(i) == Some(&c) {
                                text.push(c as char);
                                i += 1;
                            } else {
                                break;
                            }
                        }
                    }
                }
                out.push((
                    if c == b'"' {
                        Token::Quoted(text)
                    } else {
                        Token::Text(text)
                    },
                    start,
                ));
            }
            b if b.is_ascii_digit() => {
                while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                    i += 1;
                }
                out.push((Token::Number(sql[start..i].to_string()), start));
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$')
                {
                    i += 1;
                }
                out.push((Token::Bare(sql[start..i].to_ascii_uppercase()), start));
            }
            b'(' | b')' | b',' | b'.' | b'=' | b';' | b'[' | b']' | b'-' | b'+' | b'*' => {
                out.push((Token::Punct(c as char), start));
                i += 1;
            }
            _ => {
                let ch = sql[i..].chars().next().unwrap_or('?');
                return Err(error_at(
                    sql,
                    i,
                    format!("`{ch}` is not part of a CREATE TABLE statement"),
                ));
            }
        }
    }
    Ok(out)
}

impl Tokens<'_> {
    pub(super) fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at).map(|t| &t.0)
    }

    pub(super) fn offset(&self) -> usize {
        self.tokens.get(self.at).map_or(self.sql.len(), |t| t.1)
    }

    pub(super) fn fail<T>(&self, reason: String) -> Result<T, DdlError> {
        Err(error_at(self.sql, self.offset(), reason))
    }

    /// Takes the keyword `word` if it comes next.
    pub(super) fn keyword(&mut self, word: &str) -> bool {
        if matches!(self.peek(), Some(Token::Bare(w)) if w == word) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn expect_keyword(&mut self, word: &str) -> Result<(), DdlError> {
        if self.keyword(word) {
            Ok(())
        } else {
            self.fail(format!("expected `{word}`, found {}", self.found()))
        }
    }

    pub(super) fn punct(&mut self, c: char) -> bool {
        if self.peek() == Some(&Token::Punct(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn expect_punct(&mut self, c: char) -> Result<(), DdlError> {
        if self.punct(c) {
            Ok(())
        } else {
            self.fail(format!("expected `{c}`, found {}", self.found()))
        }
    }

    pub(super) fn found(&self) -> String {
        match self.peek() {
            None => "the end of the statement".into(),
            Some(Token::Bare(w) | Token::Number(w)) => format!("`{w}`"),
            Some(Token::Quoted(w)) => format!("`\"{w}\"`"),
            Some(Token::Text(w)) => format!("`'{w}'`"),
            Some(Token::Punct(c)) => format!("`{c}`"),
        }
    }

    /// A name, bare or quoted.
    pub(super) fn name(&mut self, what: &str) -> Result<String, DdlError> {
        match self.peek() {
            Some(Token::Bare(w) | Token::Quoted(w)) => {
                let w = w.clone();
                self.at += 1;
                Ok(w)
            }
            _ => self.fail(format!("expected {what}, found {}", self.found())),
        }
    }

    /// A name with its qualifier (`SCHEMA.TABLE`, `FAMILY.COLUMN`): both parts.
    pub(super) fn qualified(&mut self, what: &str) -> Result<(Option<String>, String), DdlError> {
        let first = self.name(what)?;
        if self.punct('.') {
            return Ok((Some(first), self.name(what)?));
        }
        Ok((None, first))
    }

    pub(super) fn number(&mut self) -> Result<u64, DdlError> {
        match self.peek() {
            Some(Token::Number(n)) => match n.parse() {
                Ok(v) => {
                    self.at += 1;
                    Ok(v)
                }
                Err(_) => self.fail(format!("`{n}` is not a whole number")),
            },
            _ => self.fail(format!("expected a number, found {}", self.found())),
        }
    }

    /// Skips a value up to the next `,` or `)` at this depth (a `DEFAULT` expression, an
    /// option's value).
    pub(super) fn skip_value(&mut self) {
        let mut depth = 0usize;
        while let Some(t) = self.peek() {
            match t {
                Token::Punct('(') => depth += 1,
                Token::Punct(')') if depth == 0 => return,
                Token::Punct(')') => depth -= 1,
                Token::Punct(',') if depth == 0 => return,
                _ => {}
            }
            self.at += 1;
        }
    }
}
