use rowkey::RowKey;

#[derive(RowKey)]
struct Key<'a> {
    name: &'a str,
    id: u64,
}

fn main() {}
