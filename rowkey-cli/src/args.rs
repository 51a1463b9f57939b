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

/// Why a query whose plan has no range selects no key: a range with its bounds reversed (the
/// same bounds swapped select keys), one that holds no value (`5..5`), or a prefix no value of
/// the field starts with. The typed builder plans such a query as nothing to scan; on the
/// command line that is a mistake to name, not an empty answer.
pub fn empty_query(schema: &Schema, args: &[String], query: &[(String, Condition)]) -> String {
    let (Some(arg), Some((field, last))) = (args.last(), query.last()) else {
        return String::from("the query selects no key");
    };
    let before = &query[..query.len() - 1];
    let selects = |condition: Condition| {
        let mut swapped = before.to_vec();
        swapped.push((field.clone(), condition));
        schema
            .plan(&swapped)
            .is_ok_and(|plan| plan.ranges().next().is_some())
    };
    match last {
        Condition::Range(
            Bound::Included(lo) | Bound::Excluded(lo),
            Bound::Included(hi) | Bound::Excluded(hi),
        ) if selects(Condition::Range(
            Bound::Included(hi.clone()),
            Bound::Included(lo.clone()),
        )) && lo != hi =>
        {
            format!(
                "`{arg}` selects no key: its bounds are reversed ({lo} comes after {hi} in \
                 `{field}`'s order); write the lower bound first, `{field}={hi}..{lo}`"
            )
        }
        Condition::Range(Bound::Included(lo), Bound::Excluded(hi)) if lo == hi => format!(
            "`{arg}` selects no key: A..B holds A up to but not including B; \
             `{field}={lo}..={lo}` or `{field}={lo}` holds {lo}"
        ),
        Condition::Range(..) => format!("`{arg}` selects no key: no value of `{field}` lies in it"),
        Condition::Prefix(_) => format!(
            "`{arg}` selects no key: no value of `{field}` starts with it (longer than its width?)"
        ),
        _ => format!("`{arg}` selects no key"),
    }
}
