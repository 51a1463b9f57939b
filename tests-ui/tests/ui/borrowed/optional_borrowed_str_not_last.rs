use rowkey::RowKey;

#[derive(RowKey)]
struct Key<'a> {
    name: Option<&'a str>,
    id: u64,
}

fn main() {}
