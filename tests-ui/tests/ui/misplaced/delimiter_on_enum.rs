use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimiter = ":")]
enum Kind {
    View,
    Click,
}

fn main() {}
