//! Every attribute key the derive understands, named once. (The values of `salt(hash = ...)` are
//! named by `rowkey_core::SaltHash`, the runtime that computes them.)

pub const ROWKEY: &str = "rowkey";

pub const WIDTH: &str = "width";
pub const DESC: &str = "desc";
pub const REVERSE: &str = "reverse";
pub const SALT: &str = "salt";
pub const HASH_PREFIX: &str = "hash_prefix";
pub const UNIT: &str = "unit";
pub const FORMAT: &str = "format";
pub const CRATE: &str = "crate";
pub const TEXT: &str = "text";
pub const DELIMITER: &str = "delimiter";
pub const MAX_LEN: &str = "max_len";
pub const TAG: &str = "tag";
pub const PHOENIX: &str = "phoenix";

pub const BUCKETS: &str = "buckets";
pub const HASH: &str = "hash";
pub const LEN: &str = "len";
pub const UPPER: &str = "upper";

/// Keys accepted on a field, in the order error messages list them.
pub const FIELD_KEYS: &[&str] = &[WIDTH, DESC, REVERSE, UNIT, FORMAT, SALT, HASH_PREFIX];

/// Keys accepted on the struct or enum.
pub const CONTAINER_KEYS: &[&str] = &[TAG, SALT, TEXT, DELIMITER, MAX_LEN, PHOENIX, CRATE];

/// Keys accepted on an enum variant.
pub const VARIANT_KEYS: &[&str] = &[TAG];

/// Keys inside `salt(...)`.
pub const SALT_KEYS: &[&str] = &[BUCKETS, HASH];

/// Keys inside `hash_prefix(...)`.
pub const HASH_PREFIX_KEYS: &[&str] = &[LEN, UPPER];
