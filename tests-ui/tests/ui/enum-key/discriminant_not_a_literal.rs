use rowkey::RowKey;

const ORDER: isize = 2;

#[derive(RowKey)]
#[repr(isize)]
enum Row {
    User { id: u64 } = 1,
    Order { user: u64 } = ORDER,
}

fn main() {}
