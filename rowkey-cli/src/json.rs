//! A decoded key as one line of JSON: an object of dotted paths to values, in key order.

use rowkey::schema::Value;
use serde_json::Value as Json;

/// A value as JSON: integers as numbers (as strings beyond 64 bits, which JSON readers round),
/// floats as numbers (`NaN` and infinities as strings), strings as strings, byte strings in the
/// HBase shell's form, digests and opaque bytes as hex, `None` as `null`.
pub fn value(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Unsigned(n) => {
            u64::try_from(*n).map_or_else(|_| Json::String(n.to_string()), Json::from)
        }
        Value::Signed(n) => {
            i64::try_from(*n).map_or_else(|_| Json::String(n.to_string()), Json::from)
        }
        Value::Float(x) => serde_json::Number::from_f64(*x)
            .map_or_else(|| Json::String(x.to_string()), Json::Number),
        Value::Str(s) => Json::String(s.clone()),
        // Display writes each value's text form: bytes as `\xHH`, hex, names, chrono's ISO text.
        other => Json::String(other.to_string()),
    }
}

/// The fields as one JSON object, keys in key order.
pub fn object(fields: &[(&str, Value)]) -> String {
    let mut out = String::from("{");
    for (i, (path, v)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&Json::String((*path).to_string()).to_string());
        out.push(':');
        out.push_str(&value(v).to_string());
    }
    out.push('}');
    out
}
