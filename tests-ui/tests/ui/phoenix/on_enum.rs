use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
enum Kind {
    View = 0,
    Click = 1,
}

fn main() {}
