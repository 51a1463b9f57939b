use rowkey::RowKey;

#[derive(RowKey)]
struct Key(u64, i64);

fn main() {}
