use rowkey::RowKey;

#[derive(RowKey)]
#[repr(u16)]
enum Row {
    User { id: u64 } = 1,
    Order { user: u64 } = 300,
}

fn main() {}
