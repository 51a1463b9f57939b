use rowkey::RowKey;

// The struct that holds the enum chooses the format.
#[derive(RowKey)]
#[rowkey(text)]
enum Kind {
    View,
    Click,
}

fn main() {}
