//! Queries on a schema, planned by the typed builder's own planner: each condition binds its field
//! as the generated method for it does (`f`, `f_in`, `f_range`, `f_prefix`), with the field's Rust
//! type and mode, so the ranges are the builder's for the same query.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;
use core::ops::Bound;

use super::model::{Field, Kind, Node};
use super::typed::{with_typed, Run};
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
    root: &Node,
    query: &[(P, Condition)],
) -> Result<Scan<Schema>, SchemaError> {
    let input = SchemaError::Input;
    // An enum with data: the first path segment names the variant, whose fields follow.
    let (node, at, query): (&Node, String, Vec<(String, &Condition)>) = if root.is_enum() {
        let Some((first, _)) = query.first() else {
            return Ok(<Scan<Schema> as Bind>::start(root.scan));
        };
        let variant = first.as_ref().split('.').next().unwrap_or_default();
        let node = root
            .variants
            .iter()
            .find(|v| v.short_name() == variant)
            .ok_or_else(|| {
                let names: Vec<&str> = root.variants.iter().map(Node::short_name).collect();
                input(format!(
                    "{variant:?} is not a variant of `{}`; expected one of {}",
                    root.name,
                    names.join(", ")
                ))
            })?;
        let mut rest = Vec::new();
        for (p, c) in query {
            let p = p.as_ref();
            match p.split_once('.') {
                Some((v, f)) if v == variant => rest.push((String::from(f), c)),
                None if p == variant => {}
                _ => {
                    return Err(input(format!(
                        "`{p}` is not a field of the variant `{variant}` the query names first"
                    )))
                }
            }
        }
        (node, format!("{variant}."), rest)
    } else {
        let q = query
            .iter()
            .map(|(p, c)| (String::from(p.as_ref()), c))
            .collect();
        (root, String::new(), q)
    };
    let mut scan = <Scan<Schema> as Bind>::start(node.scan);
    let order: Vec<&str> = node.fields.iter().map(|f| f.name).collect();
    let mut used = alloc::vec![false; query.len()];
    let mut ended: Option<String> = None;
    for field in &node.fields {
        // This field's conditions: on it, or on a nested key's fields by dotted path.
        let mine: Vec<usize> = (0..query.len())
            .filter(|&i| {
                let p = query[i].0.as_str();
                p == field.name
                    || p.strip_prefix(field.name)
                        .is_some_and(|r| r.starts_with('.'))
            })
            .collect();
        if mine.is_empty() {
            break;
        }
        let path = format!("{at}{}", field.name);
        if let Some(end) = &ended {
            return Err(input(format!(
                "`{path}` comes after `{end}`, whose range or prefix ends the query"
            )));
        }
        mine.iter().for_each(|&i| used[i] = true);
        let (condition, ends) = condition(field, &mine, &query, &path)?;
        if ends {
            ended = Some(path.clone());
        }
        let too = |e: String| input(format!("`{path}`: {e}"));
        scan = match &condition {
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
                if matches!(field.kind, Kind::Record(_)) {
                    return Err(input(format!(
                        "`{path}` is a nested key: bind its fields with ="
                    )));
                }
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
                if matches!(field.kind, Kind::Record(_)) {
                    return Err(input(format!(
                        "`{path}` is a nested key: bind its fields with ="
                    )));
                }
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
                scan.bind_prefix(bytes, field.mode)
            }
        };
    }
    if let Some(i) = used.iter().position(|u| !u) {
        let p = &query[i].0;
        let known = order
            .iter()
            .any(|f| p == f || p.starts_with(&format!("{f}.")));
        return Err(input(if known {
            format!(
                "`{at}{p}` is bound but a field before it is not: bind fields in key order ({})",
                order.join(", ")
            )
        } else {
            format!(
                "`{}` has no field `{at}{p}`; its fields are {}",
                node.name,
                order.join(", ")
            )
        }));
    }
    Ok(scan)
}

/// The one condition on `field`: its own, or an equality on a nested key built from its fields'
/// equalities. Also whether it ends the query.
fn condition(
    field: &Field,
    mine: &[usize],
    query: &[(String, &Condition)],
    path: &str,
) -> Result<(Condition, bool), SchemaError> {
    let ends = |c: &Condition| matches!(c, Condition::Range(..) | Condition::Prefix(_));
    if let [i] = mine {
        if query[*i].0 == field.name {
            let c = query[*i].1.clone();
            let e = ends(&c);
            return Ok((c, e));
        }
    }
    let Kind::Record(child) = &field.kind else {
        return Err(SchemaError::Input(format!(
            "`{path}` is given more than once"
        )));
    };
    let mut entries: Vec<(Vec<&str>, &Value)> = Vec::new();
    for &i in mine {
        let (p, c) = &query[i];
        let Condition::Eq(v) = c else {
            return Err(SchemaError::Input(format!(
                "`{path}.{}`: a nested key's fields take = only",
                p.split_once('.').map_or("", |(_, r)| r)
            )));
        };
        let rest = p.split_once('.').map_or("", |(_, r)| r);
        entries.push((rest.split('.').collect(), v));
    }
    let value = super::tree(child, &entries, path)?;
    Ok((Condition::Eq(value), false))
}
