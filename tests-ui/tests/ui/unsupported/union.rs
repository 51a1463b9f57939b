use rowkey::RowKey;

#[derive(RowKey)]
union Key {
    a: u64,
    b: i64,
}

fn main() {}
