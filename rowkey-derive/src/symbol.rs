//! Every attribute key the derive understands, named once.

pub const ROWKEY: &str = "rowkey";

pub const WIDTH: &str = "width";
pub const DESC: &str = "desc";
pub const REVERSE: &str = "reverse";
pub const CRATE: &str = "crate";

/// Keys accepted on a field, in the order error messages list them.
pub const FIELD_KEYS: &[&str] = &[WIDTH, DESC, REVERSE];

/// Keys accepted on the struct or enum.
pub const CONTAINER_KEYS: &[&str] = &[CRATE];
