use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(max_len = 100)]
    name: String,
}

fn main() {}
