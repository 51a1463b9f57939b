//! Queries on a schema, planned by the typed builder's own planner: each condition binds its field
//! as the generated method for it does (`f`, `f_in`, `f_range`, `f_prefix`), with the field's Rust
//! type and mode, so the ranges are the builder's for the same query.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;
use core::ops::Bound;

use super::convert::Run;
use super::key_walk::with_record;
use super::nodes::{Field, Kind, Node};
use super::typed::with_typed;
use super::value::Value;
use super::{Schema, SchemaError};
use crate::field::{FieldMode, KeyField};
use crate::scan::{Bind, Scan, ValueOrder};

/// What a query asks of one field.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Condition {
    /// The field equals the value (`f`).
    Eq(Value),
    /// The field is any of the values (`f_in`); an empty list matches nothing.
    In(Vec<Value>),
    /// The field lies between the bounds, in its own order (`f_range`). Ends the query.
    Range(Bound<Value>, Bound<Value>),
    /// A string or bytes field starts with these bytes (`f_prefix`). Ends the query.
    Prefix(Vec<u8>),
}

/// Binds the next field to one value.
struct Eq {
    scan: Scan<Schema>,
    mode: FieldMode,
}

impl Run for Eq {
    type Out = Scan<Schema>;
    fn run<T: KeyField + Debug>(self, values: &[T]) -> Scan<Schema> {
        match values {
            [v] => self.scan.bind_eq(v, self.mode),
            _ => self.scan,
        }
    }
}

/// Binds the next field to any of the values.
struct In {
    scan: Scan<Schema>,
    mode: FieldMode,
}

impl Run for In {
    type Out = Scan<Schema>;
    fn run<T: KeyField + Debug>(self, values: &[T]) -> Scan<Schema> {
        self.scan.bind_in(values.iter(), self.mode)
    }
}

/// Restricts the next field to a range; the values are the bounds present, lower first.
struct Range {
    scan: Scan<Schema>,
    mode: FieldMode,
    lower: Bound<()>,
    upper: Bound<()>,
}

impl Run for Range {
    type Out = Scan<Schema>;
    fn run<T: KeyField + Debug>(self, values: &[T]) -> Scan<Schema> {
        let mut values = values.iter();
        let mut bound = |kind: Bound<()>| match kind {
            Bound::Included(()) => values.next().map_or(Bound::Unbounded, Bound::Included),
            Bound::Excluded(()) => values.next().map_or(Bound::Unbounded, Bound::Excluded),
            Bound::Unbounded => Bound::Unbounded,
        };
        let range: (Bound<&T>, Bound<&T>) = (bound(self.lower), bound(self.upper));
        self.scan
            .bind_range_of(range, self.mode, ValueOrder::<T>::UNKNOWN)
    }
}

fn shape(b: &Bound<Value>) -> (Bound<()>, Option<&Value>) {
    match b {
        Bound::Included(v) => (Bound::Included(()), Some(v)),
        Bound::Excluded(v) => (Bound::Excluded(()), Some(v)),
        Bound::Unbounded => (Bound::Unbounded, None),
    }
}

pub(super) fn plan<P: AsRef<str>>(
    schema: &Schema,
    query: &[(P, Condition)],
) -> Result<Scan<Schema>, SchemaError> {
    let input = SchemaError::Input;
    let root = &schema.root;
    let mut slots = Vec::with_capacity(query.len());
    for (p, _) in query {
        slots.push(schema.slot(p.as_ref())?);
    }
    // An enum with data: the first condition names the variant, whose fields follow.
    let node = if root.is_enum() {
        let Some(&first) = slots.first() else {
            return Ok(<Scan<Schema> as Bind>::start(root.scan));
        };
        let node = root
            .variants
            .iter()
            .find(|v| v.leaves.contains(&first))
            .ok_or_else(|| input(String::from("a query on an enum names a variant first")))?;
        if let Some(i) = slots.iter().position(|s| !node.leaves.contains(s)) {
            return Err(input(format!(
                "`{}` is not a field of the variant `{}` the query names first",
                query[i].0.as_ref(),
                schema.paths[node.leaf]
            )));
        }
        node
    } else {
        root
    };
    let mut scan = <Scan<Schema> as Bind>::start(node.scan);
    let mut used: Vec<bool> = slots
        .iter()
        .map(|&s| node.is_variant && s == node.leaf)
        .collect();
    let mut ended: Option<&str> = None;
    for field in &node.fields {
        let within = |s: usize| match &field.kind {
            Kind::Record(child) => s == field.leaf || child.leaves.contains(&s),
            _ => s == field.leaf,
        };
        let mine: Vec<usize> = (0..slots.len()).filter(|&i| within(slots[i])).collect();
        if mine.is_empty() {
            break;
        }
        let path = schema.paths[field.leaf];
        if let Some(end) = ended {
            return Err(input(format!(
                "`{path}` comes after `{end}`, whose range or prefix ends the query"
            )));
        }
        mine.iter().for_each(|&i| used[i] = true);
        let too = |e: String| input(format!("`{path}`: {e}"));
        if let Kind::Record(child) = &field.kind {
            scan = bind_record(schema, field, child, &mine, &slots, query, scan)?;
            continue;
        }
        let [i] = mine[..] else {
            return Err(input(format!("`{path}` is given more than once")));
        };
        scan = match &query[i].1 {
            Condition::Eq(v) => with_typed(
                field,
                &[v],
                Eq {
                    scan,
                    mode: field.mode,
                },
            )
            .map_err(too)?,
            Condition::In(values) => {
                let values: Vec<&Value> = values.iter().collect();
                with_typed(
                    field,
                    &values,
                    In {
                        scan,
                        mode: field.mode,
                    },
                )
                .map_err(too)?
            }
            Condition::Range(lo, hi) => {
                if !field.ordered {
                    return Err(input(format!(
                        "`{path}` is reversed or formatted out of order: only = and IN apply"
                    )));
                }
                ended = Some(path);
                let ((lower, l), (upper, u)) = (shape(lo), shape(hi));
                let values: Vec<&Value> = l.into_iter().chain(u).collect();
                let run = Range {
                    scan,
                    mode: field.mode,
                    lower,
                    upper,
                };
                with_typed(field, &values, run).map_err(too)?
            }
            Condition::Prefix(bytes) => {
                let prefixable = matches!(field.kind, Kind::Str | Kind::Bytes) && !field.optional;
                if !prefixable || !field.ordered {
                    return Err(input(format!(
                        "`{path}` takes no prefix: only strings and byte strings, not reversed, do"
                    )));
                }
                ended = Some(path);
                scan.bind_prefix(bytes, field.mode)
            }
        };
    }
    if let Some(i) = used.iter().position(|u| !u) {
        let order: Vec<&str> = node.fields.iter().map(|f| schema.paths[f.leaf]).collect();
        return Err(input(format!(
            "`{}` is bound but a field before it is not: bind fields in key order ({})",
            query[i].0.as_ref(),
            order.join(", ")
        )));
    }
    Ok(scan)
}

/// Binds a nested key whole, from equalities on its fields (or `null` for an `Option` of one), as
/// the typed builder's method for the field binds its value.
fn bind_record<P: AsRef<str>>(
    schema: &Schema,
    field: &Field,
    child: &Node,
    mine: &[usize],
    slots: &[usize],
    query: &[(P, Condition)],
    scan: Scan<Schema>,
) -> Result<Scan<Schema>, SchemaError> {
    let path = schema.paths[field.leaf];
    let mut values: Vec<Option<&Value>> = alloc::vec![None; schema.paths.len()];
    for &i in mine {
        let Condition::Eq(v) = &query[i].1 else {
            return Err(SchemaError::Input(format!(
                "`{}`: a nested key binds by = on its fields only (`{path}` whole)",
                query[i].0.as_ref()
            )));
        };
        values[slots[i]] = Some(v);
    }
    if !(field.optional && matches!(values[field.leaf], Some(Value::Null))) {
        super::key_walk::check(child, &values, &schema.paths).map_err(SchemaError::Input)?;
    }
    Ok(with_record(
        field,
        child,
        &values,
        false,
        Eq {
            scan,
            mode: field.mode,
        },
    ))
}
