use rowkey::RowKey;

#[derive(RowKey)]
struct Key<'a> {
    id: u64,
    #[rowkey(reverse)]
    host: &'a str,
}

fn main() {}
