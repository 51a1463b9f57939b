//! chrono's time types in a schema (feature `chrono`): values in ISO 8601 text, as chrono reads
//! them and as their `Debug` writes them.

use alloc::format;
use alloc::string::String;
use core::fmt::Debug;
use core::marker::PhantomData;
use core::str::FromStr;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};

use super::field_types::{FieldType, Visit};
use super::nodes::{ChronoKind, Field};
use super::value::Value;
use crate::error::DecodeError;
use crate::field::{DecodeField, FieldMode, KeyField};

/// A chrono type, with what its text looks like for messages.
trait ChronoType: FromStr + KeyField + for<'k> DecodeField<'k> + Debug {
    const WHAT: &'static str;
}

impl ChronoType for DateTime<Utc> {
    const WHAT: &'static str = "a UTC time (2024-01-31T10:00:00Z)";
}

impl ChronoType for NaiveDateTime {
    const WHAT: &'static str = "a date and time (2024-01-31T10:00:00)";
}

impl ChronoType for NaiveDate {
    const WHAT: &'static str = "a date (2024-01-31)";
}

impl ChronoType for NaiveTime {
    const WHAT: &'static str = "a time of day (10:00:00)";
}

/// The field type of a chrono type `T`.
pub(crate) struct Chrono<T>(PhantomData<T>);

impl<T: ChronoType + 'static> FieldType for Chrono<T>
where
    T::Err: core::fmt::Display,
{
    type Write<'v> = T;
    type Read = T;
    fn from_value<'v>(_: &'v Field, v: &'v Value) -> Result<T, String> {
        match v {
            Value::Text(s) | Value::Str(s) => s
                .parse::<T>()
                .map_err(|e| format!("{s:?} is not {}: {e}", T::WHAT)),
            v => Err(format!("{v} is not {}", T::WHAT)),
        }
    }
    fn decode(_: &Field, input: &[u8], mode: FieldMode) -> Result<(T, usize), DecodeError> {
        T::decode_field(input, mode)
    }
    fn to_value(_: &Field, v: T) -> Value {
        Value::Text(format!("{v:?}"))
    }
}

/// `v.visit` with the field type of `kind`: [`dispatch`](super::typed::dispatch)'s chrono rows.
pub(super) fn dispatch<V: Visit>(kind: ChronoKind, v: V) -> V::Out {
    match kind {
        ChronoKind::DateTime => v.visit::<Chrono<DateTime<Utc>>>(),
        ChronoKind::NaiveDateTime => v.visit::<Chrono<NaiveDateTime>>(),
        ChronoKind::NaiveDate => v.visit::<Chrono<NaiveDate>>(),
        ChronoKind::NaiveTime => v.visit::<Chrono<NaiveTime>>(),
    }
}
