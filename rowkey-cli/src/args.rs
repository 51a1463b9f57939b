//! `FIELD=VALUE` arguments: values for `encode`, and the conditions of `scan`
//! (`FIELD=V`, `FIELD=A..B`, `FIELD=A..=B`, `FIELD=..B`, `FIELD=A..`, `FIELD^=PREFIX`).

use std::ops::Bound;

use rowkey::schema::{Condition, Schema, Value};

/// The field and the text after `=` (a bare `NAME` is an enum's variant without fields).
fn split(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((field, text)) => (field, Some(text)),
        None => (arg, None),
    }
}

/// The values of `encode`'s arguments, by dotted path.
pub fn values(schema: &Schema, args: &[String]) -> Result<Vec<(String, Value)>, String> {
    args.iter()
        .map(|arg| {
            let (field, text) = split(arg);
            let value = match text {
                Some(text) => schema.parse_value(field, text).map_err(|e| e.to_string())?,
                None => Value::Null,
            };
            Ok((field.to_string(), value))
        })
        .collect()
}

/// The conditions of `scan`'s arguments.
pub fn conditions(schema: &Schema, args: &[String]) -> Result<Vec<(String, Condition)>, String> {
    args.iter().map(|arg| condition(schema, arg)).collect()
}

fn condition(schema: &Schema, arg: &str) -> Result<(String, Condition), String> {
    if let Some((field, prefix)) = arg.split_once("^=") {
        if !field.contains('=') {
            let bytes = rowkey::hbase::from_string_binary(prefix);
            return Ok((field.to_string(), Condition::Prefix(bytes)));
        }
    }
    let (field, text) = split(arg);
    let Some(text) = text else {
        return Ok((field.to_string(), Condition::Eq(Value::Null)));
    };
    let value = |t: &str| schema.parse_value(field, t).map_err(|e| e.to_string());
    let condition = match text.split_once("..") {
        None => Condition::Eq(value(text)?),
        Some((lo, hi)) => {
            let lower = match lo {
                "" => Bound::Unbounded,
                lo => Bound::Included(value(lo)?),
            };
            let upper = match hi.strip_prefix('=') {
                Some(hi) => Bound::Included(value(hi)?),
                None if hi.is_empty() => Bound::Unbounded,
                None => Bound::Excluded(value(hi)?),
            };
            Condition::Range(lower, upper)
        }
    };
    Ok((field.to_string(), condition))
}
