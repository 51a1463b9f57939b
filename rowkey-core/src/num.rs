//! Decimal digits, the unit of the text format: how many a number has, and the powers of ten that
//! bound a field of so many digits. A leaf: codecs, salts and the derive's limits all count digits
//! the same way.

/// The most decimal digits a text number can have: those of `u128::MAX`.
pub(crate) const MAX_DIGITS: usize = 39;

/// The number of decimal digits of `n`.
pub(crate) const fn digits_of(mut n: u128) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// `10^i` for every `i` a `u128` holds.
pub(crate) const POW10: [u128; MAX_DIGITS] = {
    let mut p = [1u128; MAX_DIGITS];
    let mut i = 1;
    while i < MAX_DIGITS {
        p[i] = p[i - 1] * 10;
        i += 1;
    }
    p
};
