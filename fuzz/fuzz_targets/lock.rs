//! The layout lock reader and the schema built from it (`rowkey::schema::Schema::parse`), on any
//! text: a damaged, truncated or hostile lock file is refused with a line number, never a panic,
//! and a schema that reads is used (fields, values, keys, plans) without panicking either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rowkey::schema::{Condition, Schema, Value};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let schema = match Schema::parse(&text) {
        Ok(schema) => schema,
        Err(e) => {
            // Every refusal says something.
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let fields = schema.fields();
    for sample in schema.samples() {
        let _ = schema.decode(sample);
        let _ = schema.explain(sample);
    }
    let _ = schema.decode(data);
    let values: Vec<(String, Value)> = fields
        .iter()
        .filter_map(|f| Some((f.path.clone(), schema.parse_value(&f.path, "1").ok()?)))
        .collect();
    if let Ok(key) = schema.encode(&values) {
        let _ = schema.decode(&key);
    }
    let query: Vec<(String, Condition)> = values
        .into_iter()
        .take(2)
        .map(|(p, v)| (p, Condition::Eq(v)))
        .collect();
    if let Ok(plan) = schema.plan(&query) {
        for range in plan.ranges().take(1_000) {
            let _ = plan.matches(range.start());
        }
    }
});
