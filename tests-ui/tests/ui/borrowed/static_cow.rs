use std::borrow::Cow;

use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    id: u32,
    name: Cow<'static, str>,
}

fn main() {}
