use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(max_len = 100)]
enum Kind {
    A,
    B,
}

fn main() {}
