use rowkey::{DecodeError, DecodeField, EncodeError, FieldMode, FieldShape, KeyField, RowKey};

/// A custom shape whose `encode` writes big-endian bytes whatever the mode.
struct V(u16);

impl KeyField for V {
    const SHAPE: FieldShape = FieldShape::fixed(2);
    fn field_len(&self, _: FieldMode) -> usize {
        2
    }
    fn encode(&self, out: &mut [u8], _: FieldMode) -> Result<usize, EncodeError> {
        self.0.encode(out, FieldMode::LAST)
    }
}

impl<'k> DecodeField<'k> for V {
    fn decode_field(input: &'k [u8], _: FieldMode) -> Result<(Self, usize), DecodeError> {
        u16::decode_field(input, FieldMode::LAST).map(|(v, n)| (V(v), n))
    }
}

#[derive(RowKey)]
struct K {
    a: u8,
    #[rowkey(desc)]
    v: V,
}

fn main() {
    let _ = K { a: 1, v: V(1) }.to_vec();
}
