use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row<T> {
    id: T,
}

fn main() {}
