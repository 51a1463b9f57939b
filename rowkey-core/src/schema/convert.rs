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

/// The values as `T` (by `conv`; `Option<T>` when `optional`), then `run` on them. One value, the
/// common call, is converted on the stack.
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
    if optional {
        let typed = values
            .iter()
            .map(|v| match v {
                Value::Null => Ok(None),
                v => conv(v).map(Some),
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(run.run(&typed))
    } else {
        let typed = values
            .iter()
            .map(|v| conv(v))
            .collect::<Result<Vec<_>, String>>()?;
        Ok(run.run(&typed))
    }
}

/// Where a decoded value goes: onto `out` under its field's path, and when asked (for `explain`)
/// into `shown` as its type's `Debug` shows it. Values go straight where they are kept: moved
/// back through each caller, they cost more than their decoding.
pub(crate) struct Sink<'o, 's> {
    pub(crate) out: &'o mut Vec<(&'s str, Value)>,
    pub(crate) shown: Option<&'o mut String>,
}
