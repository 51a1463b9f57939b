use rowkey::RowKey;

#[derive(RowKey)]
struct Pair {
    a: u64,
    b: u64,
}

// The derive cannot size `Pair` from syntax: the const check sees 16 bytes against 10.
#[derive(RowKey)]
#[rowkey(max_len = 10)]
struct Key {
    pair: Pair,
}

fn main() {}
