//! A field's values on their way, for any Rust type `T` a field stands for: from [`Value`]s to
//! `T`s and on to one use of them ([`Run`]: feed a prefix, bind a plan, check), and from a key's
//! bytes into a [`Sink`]. `typed.rs` chooses `T` for a field; these take it from there.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;

use super::value::Value;
use crate::field::KeyField;

/// Work on a field's values once they are its Rust type `T`: one call per use (encode, plan).
pub(crate) trait Run {
    type Out;
    fn run<T: KeyField + Debug>(self, values: &[T]) -> Self::Out;
}

/// The values as `T` (by `conv`; `Option<T>` when `optional`, `Value::Null` being `None`), then
/// `run` on them; an error says which value does not fit. One value, the common call, is
/// converted on the stack; more are collected by [`convert_many`].
#[inline(never)]
pub(crate) fn convert_and_run<'v, T: KeyField + Debug, R: Run>(
    optional: bool,
    values: &[&'v Value],
    conv: impl Fn(&'v Value) -> Result<T, String>,
    run: R,
) -> Result<R::Out, String> {
    if let [v] = values {
        if optional {
            let typed = match v {
                Value::Null => None,
                v => Some(conv(v)?),
            };
            return Ok(run.run(core::slice::from_ref(&typed)));
        }
        let typed = conv(v)?;
        return Ok(run.run(core::slice::from_ref(&typed)));
    }
    Ok(match convert_many(optional, values, &conv)? {
        Many::Values(typed) => run.run(&typed),
        Many::Optional(typed) => run.run(&typed),
    })
}

/// Several values as `T`, or as `Option<T>` for an optional field.
enum Many<T> {
    Values(Vec<T>),
    Optional(Vec<Option<T>>),
}

/// The values as `T`, each by `conv`, as [`convert_and_run`] takes them.
///
/// Generic over `T` alone, `conv` taken as a trait object: the schema converts values of some 25
/// types for some 15 uses (`Run`), and collections generic over the use as well were compiled
/// for each pair: two fifths of the crate's compiled functions with every feature on.
#[inline(never)]
fn convert_many<'v, T>(
    optional: bool,
    values: &[&'v Value],
    conv: &dyn Fn(&'v Value) -> Result<T, String>,
) -> Result<Many<T>, String> {
    Ok(if optional {
        Many::Optional(
            values
                .iter()
                .map(|v| match v {
                    Value::Null => Ok(None),
                    v => conv(v).map(Some),
                })
                .collect::<Result<_, _>>()?,
        )
    } else {
        Many::Values(values.iter().map(|v| conv(v)).collect::<Result<_, _>>()?)
    })
}

/// Where a decoded value goes: onto `out` under its field's path, and when asked (for `explain`)
/// into `shown` as its type's `Debug` shows it. Values go straight where they are kept: moved
/// back through each caller, they cost more than their decoding.
pub(crate) struct Sink<'o, 's> {
    pub(crate) out: &'o mut Vec<(&'s str, Value)>,
    pub(crate) shown: Option<&'o mut String>,
}
