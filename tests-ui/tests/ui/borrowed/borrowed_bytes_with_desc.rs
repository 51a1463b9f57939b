use rowkey::RowKey;

#[derive(RowKey)]
struct Key<'a> {
    id: u64,
    #[rowkey(desc)]
    payload: &'a [u8],
}

fn main() {}
