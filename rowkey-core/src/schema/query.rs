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
use crate::field::no_range::NoRange;
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
    let slots = slots(schema, query)?;
    let Some(node) = queried_node(schema, query, &slots)? else {
        return Ok(<Scan<Schema> as Bind>::start(schema.root.scan));
    };
    let mut scan = <Scan<Schema> as Bind>::start(node.scan);
    let mut used: Vec<bool> = slots
        .iter()
        .map(|&s| node.is_variant && s == node.leaf)
        .collect();
    // The field whose range or prefix ended the query: no field is bound after it.
    let mut ended: Option<&str> = None;
    for field in &node.fields {
        let mine = conditions_on(field, &slots);
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
        if let Kind::Record(child) = &field.kind {
            scan = bind_record(schema, field, child, &mine, &slots, query, scan)?;
            continue;
        }
        let [i] = mine[..] else {
            return Err(input(format!("`{path}` is given more than once")));
        };
        scan = bind_condition(field, path, &query[i].1, scan)?;
        if ends_query(&query[i].1) {
            ended = Some(path);
        }
    }
    check_all_used(schema, node, query, &used)?;
    Ok(scan)
}

/// The value slot of each condition's path.
fn slots<P: AsRef<str>>(
    schema: &Schema,
    query: &[(P, Condition)],
) -> Result<Vec<usize>, SchemaError> {
    let mut slots = Vec::with_capacity(query.len());
    for (p, _) in query {
        slots.push(schema.slot(p.as_ref())?);
    }
    Ok(slots)
}

/// The node whose fields the query binds: the root, or for an enum with data the variant the
/// first condition names, whose fields follow. `None`: a query on such an enum that names
/// nothing.
fn queried_node<'s, P: AsRef<str>>(
    schema: &'s Schema,
    query: &[(P, Condition)],
    slots: &[usize],
) -> Result<Option<&'s Node>, SchemaError> {
    let root = &schema.root;
    if !root.is_enum() {
        return Ok(Some(root));
    }
    let Some(&first) = slots.first() else {
        return Ok(None);
    };
    let node = root
        .variants
        .iter()
        .find(|v| v.leaves.contains(&first))
        .ok_or_else(|| {
            SchemaError::Input(String::from("a query on an enum names a variant first"))
        })?;
    if let Some(i) = slots.iter().position(|s| !node.leaves.contains(s)) {
        return Err(SchemaError::Input(format!(
            "`{}` is not a field of the variant `{}` the query names first",
            query[i].0.as_ref(),
            schema.paths[node.leaf]
        )));
    }
    Ok(Some(node))
}

/// The conditions (by index) on `field`, or on the fields of the key nested in it.
fn conditions_on(field: &Field, slots: &[usize]) -> Vec<usize> {
    let within = |s: usize| match &field.kind {
        Kind::Record(child) => s == field.leaf || child.leaves.contains(&s),
        _ => s == field.leaf,
    };
    (0..slots.len()).filter(|&i| within(slots[i])).collect()
}

/// Whether `condition` ends the query: after a range or a prefix, no field is bound.
fn ends_query(condition: &Condition) -> bool {
    matches!(condition, Condition::Range(..) | Condition::Prefix(_))
}

/// Binds `condition` on `field` (at `path`), not a nested key, as the typed builder's method for
/// it does.
fn bind_condition(
    field: &Field,
    path: &str,
    condition: &Condition,
    scan: Scan<Schema>,
) -> Result<Scan<Schema>, SchemaError> {
    let too = |e: String| SchemaError::Input(format!("`{path}`: {e}"));
    let mode = field.mode;
    Ok(match condition {
        Condition::Eq(v) => with_typed(field, &[v], Eq { scan, mode }).map_err(too)?,
        Condition::In(values) => {
            let values: Vec<&Value> = values.iter().collect();
            with_typed(field, &values, In { scan, mode }).map_err(too)?
        }
        Condition::Range(lo, hi) => {
            if let Some(reason) = field.no_range {
                let instead = if NoRange::keeps_prefix(Some(reason)) {
                    "bind it by =, IN or a prefix"
                } else {
                    "bind it by = or IN"
                };
                return Err(SchemaError::Input(format!(
                    "`{path}`: {}; {instead}",
                    reason.message()
                )));
            }
            let ((lower, l), (upper, u)) = (shape(lo), shape(hi));
            let values: Vec<&Value> = l.into_iter().chain(u).collect();
            let run = Range {
                scan,
                mode,
                lower,
                upper,
            };
            with_typed(field, &values, run).map_err(too)?
        }
        Condition::Prefix(bytes) => {
            let prefixable = matches!(field.kind, Kind::Str | Kind::Bytes) && !field.optional;
            if !prefixable || !NoRange::keeps_prefix(field.no_range) {
                return Err(SchemaError::Input(format!(
                    "`{path}` takes no prefix: only strings and byte strings, not reversed, do"
                )));
            }
            scan.bind_prefix(bytes, mode)
        }
    })
}

/// Refuses a condition on a field after one that has none: fields bind in key order.
fn check_all_used<P: AsRef<str>>(
    schema: &Schema,
    node: &Node,
    query: &[(P, Condition)],
    used: &[bool],
) -> Result<(), SchemaError> {
    if let Some(i) = used.iter().position(|u| !u) {
        let order: Vec<&str> = node.fields.iter().map(|f| schema.paths[f.leaf]).collect();
        return Err(SchemaError::Input(format!(
            "`{}` is bound but a field before it is not: bind fields in key order ({})",
            query[i].0.as_ref(),
            order.join(", ")
        )));
    }
    Ok(())
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
