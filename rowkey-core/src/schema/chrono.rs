//! chrono's time types in a schema (feature `chrono`): values in ISO 8601 text, as chrono reads
//! them and as their `Debug` writes them.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::str::FromStr;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};

use super::convert::{go, Run, Sink};
use super::model::{ChronoKind, Field};
use super::value::Value;
use crate::error::DecodeError;
use crate::field::FieldMode;

fn parse<T: FromStr>(v: &Value, what: &str) -> Result<T, String>
where
    T::Err: core::fmt::Display,
{
    match v {
        Value::Text(s) | Value::Str(s) => s
            .parse::<T>()
            .map_err(|e| format!("{s:?} is not {what}: {e}")),
        v => Err(format!("{v} is not {what}")),
    }
}

fn each<T, R: Run>(field: &Field, values: &[&Value], what: &str, run: R) -> Result<R::Out, String>
where
    T: FromStr + crate::field::KeyField + core::fmt::Debug,
    T::Err: core::fmt::Display,
{
    if field.optional {
        let typed = values
            .iter()
            .map(|v| match v {
                Value::Null => Ok(None),
                v => parse::<T>(v, what).map(Some),
            })
            .collect::<Result<Vec<Option<T>>, String>>()?;
        Ok(run.run(&typed))
    } else {
        let typed = values
            .iter()
            .map(|v| parse::<T>(v, what))
            .collect::<Result<Vec<T>, String>>()?;
        Ok(run.run(&typed))
    }
}

pub(super) fn with_chrono<R: Run>(
    kind: ChronoKind,
    field: &Field,
    values: &[&Value],
    run: R,
) -> Result<R::Out, String> {
    match kind {
        ChronoKind::DateTime => {
            each::<DateTime<Utc>, R>(field, values, "a UTC time (2024-01-31T10:00:00Z)", run)
        }
        ChronoKind::NaiveDateTime => {
            each::<NaiveDateTime, R>(field, values, "a date and time (2024-01-31T10:00:00)", run)
        }
        ChronoKind::NaiveDate => each::<NaiveDate, R>(field, values, "a date (2024-01-31)", run),
        ChronoKind::NaiveTime => {
            each::<NaiveTime, R>(field, values, "a time of day (10:00:00)", run)
        }
    }
}

pub(super) fn decode(
    kind: ChronoKind,
    input: &[u8],
    mode: FieldMode,
    optional: bool,
    sink: Sink<'_, '_>,
) -> Result<usize, DecodeError> {
    let text = |v: &dyn core::fmt::Debug| Value::Text(format!("{v:?}"));
    match kind {
        ChronoKind::DateTime => go(input, mode, optional, sink, |v: DateTime<Utc>| text(&v)),
        ChronoKind::NaiveDateTime => go(input, mode, optional, sink, |v: NaiveDateTime| text(&v)),
        ChronoKind::NaiveDate => go(input, mode, optional, sink, |v: NaiveDate| text(&v)),
        ChronoKind::NaiveTime => go(input, mode, optional, sink, |v: NaiveTime| text(&v)),
    }
}
