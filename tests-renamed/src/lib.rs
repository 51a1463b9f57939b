//! `#[derive(RowKey)]` through a renamed dependency: this crate depends on `rowkey` as
//! `renamed_rowkey`, so the generated code must reach the runtime through
//! `#[rowkey(crate = "...")]`, never through `::rowkey`.
#![no_implicit_prelude]
#![deny(warnings)]

/// A key derived through the renamed crate.
#[derive(::renamed_rowkey::RowKey, Debug, PartialEq)]
#[rowkey(crate = "::renamed_rowkey")]
pub struct Key {
    /// Salted, so the prefix helpers are reached through the renamed path too.
    #[rowkey(salt(buckets = 4))]
    pub id: u64,
    /// Newest first.
    #[rowkey(desc)]
    pub ts: i64,
    /// The last field.
    pub name: ::std::string::String,
}

/// A text layout through the renamed crate.
#[derive(::renamed_rowkey::RowKey, Debug, PartialEq)]
#[rowkey(crate = "::renamed_rowkey", text, delimiter = ":")]
pub struct TextKey {
    /// Zero-padded.
    pub id: u32,
    /// The last field.
    pub name: ::std::string::String,
}

#[cfg(test)]
mod tests {
    use ::renamed_rowkey::RowKey;
    use ::std::string::ToString;

    #[test]
    fn derives_through_a_renamed_dependency() {
        let k = super::Key {
            id: 7,
            ts: 1,
            name: "n".to_string(),
        };
        let bytes = k.to_vec().unwrap();
        ::std::assert_eq!(super::Key::decode(&bytes).unwrap(), k);
        ::std::assert_eq!(
            ::std::iter::Iterator::count(super::Key::scan().id(7).ranges()),
            1
        );
        ::std::assert_eq!(super::Key::LAYOUT.segments.len(), 3);
        let t = super::TextKey {
            id: 42,
            name: "x".to_string(),
        };
        ::std::assert_eq!(t.to_vec().unwrap(), b"0000000042:x");
    }
}
