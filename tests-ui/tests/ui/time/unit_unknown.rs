use std::time::SystemTime;

use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(unit = "min")]
    ts: SystemTime,
}

fn main() {}
