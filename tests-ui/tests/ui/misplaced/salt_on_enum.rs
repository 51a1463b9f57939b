use rowkey::RowKey;

// An enum is one field of a key: the struct that holds it has the prefix.
#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
enum Kind {
    View,
    Click,
}

fn main() {}
