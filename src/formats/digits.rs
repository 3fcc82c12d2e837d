//! Decimal numbers appended to a line without `core::fmt`: a search writing its proof
//! prints hundreds of millions of them.

/// Appends the decimal digits of `n`, as `write!` prints them (a search writing its proof
/// prints hundreds of millions of numbers, and `core::fmt` was a fifth of its time).
pub fn push_uint(out: &mut String, n: u64) {
    // SAFETY: only ASCII digits are appended, so the string stays UTF-8.
    push_uint_bytes(unsafe { out.as_mut_vec() }, n);
}

/// [`push_uint`] into bytes. Up to eight digits are built in a register and appended as
/// one 8-byte block, the unused bytes cut off: digits written one pair at a time to a
/// buffer and then copied out as a block stalled the copy on every number (the wide load
/// cannot take its bytes from the narrow stores still in flight), a sixth of a
/// proof-writing search's time. Not recursive, so that it inlines where IDs are written.
#[inline]
pub(in crate::formats) fn push_uint_bytes(out: &mut Vec<u8>, n: u64) {
    if n >= EIGHT_DIGITS {
        push_long_uint_bytes(out, n);
        return;
    }
    let digits = eight_digits(n as u32);
    // The leading zeros are the low bytes, each `b'0'`: with the zeros' code taken off
    // every byte, they are the word's trailing zero bytes (at least one digit is kept).
    let leading = ((digits - ZEROS).trailing_zeros() / 8).min(7) as usize;
    let len = out.len();
    out.extend_from_slice(&(digits >> (8 * leading)).to_le_bytes());
    out.truncate(len + 8 - leading);
}

/// A space, then [`push_uint_bytes`]: with one reserve and one block copy for the
/// numbers below 10^8 (the constraint IDs of nearly every proof).
#[inline]
pub(in crate::formats) fn push_spaced_uint_bytes(out: &mut Vec<u8>, n: u64) {
    if n >= EIGHT_DIGITS {
        out.push(b' ');
        push_long_uint_bytes(out, n);
        return;
    }
    let digits = eight_digits(n as u32);
    let leading = ((digits - ZEROS).trailing_zeros() / 8).min(7) as usize;
    out.reserve(9);
    let len = out.len();
    // SAFETY: the capacity holds `len + 9` bytes: the space and the eight-byte block; the
    // new length keeps the space and the `8 - leading` digits, all written.
    unsafe {
        let end = out.as_mut_ptr().add(len);
        end.write(b' ');
        end.add(1)
            .cast::<[u8; 8]>()
            .write_unaligned((digits >> (8 * leading)).to_le_bytes());
        out.set_len(len + 9 - leading);
    }
}

/// 10^8: the numbers [`eight_digits`] takes.
const EIGHT_DIGITS: u64 = 100_000_000;

/// `b'0'` in every byte of a word.
const ZEROS: u64 = 0x3030_3030_3030_3030;

/// [`push_uint_bytes`] of a number of nine digits or more (at most twenty).
#[cold]
#[inline(never)]
fn push_long_uint_bytes(out: &mut Vec<u8>, n: u64) {
    let high = n / EIGHT_DIGITS;
    if high >= EIGHT_DIGITS {
        push_uint_bytes(out, high / EIGHT_DIGITS);
        out.extend_from_slice(&eight_digits((high % EIGHT_DIGITS) as u32).to_le_bytes());
    } else {
        push_uint_bytes(out, high);
    }
    out.extend_from_slice(&eight_digits((n % EIGHT_DIGITS) as u32).to_le_bytes());
}

/// The eight decimal digits of `n < 10^8`, leading zeros included, as the bytes of a
/// little-endian word: the first digit in the lowest byte. By lanes of one word, with
/// multiplications for the divisions: the two halves of four digits in 32-bit lanes (the
/// first half low), each split into pairs of digits in 16-bit lanes (`x / 100` as
/// `x * 10486 >> 20`, exact below 10^4), each pair into digits in bytes (`x / 10` as
/// `x * 103 >> 10`, exact below 100).
#[inline]
fn eight_digits(n: u32) -> u64 {
    debug_assert!(u64::from(n) < EIGHT_DIGITS);
    let halves = u64::from(n / 10_000) | u64::from(n % 10_000) << 32;
    let hundreds = ((halves * 10_486) >> 20) & 0x0000_007f_0000_007f;
    let pairs = hundreds | (halves - hundreds * 100) << 16;
    let tens = ((pairs * 103) >> 10) & 0x000f_000f_000f_000f;
    let digits = tens | (pairs - tens * 10) << 8;
    digits | ZEROS
}

/// [`push_uint`] for a signed number.
pub fn push_int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    push_uint(out, n.unsigned_abs());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_write_as_format_does() {
        for n in [0, 7, 10, 99, 1_000_000_007, u64::MAX] {
            let mut out = String::new();
            push_uint(&mut out, n);
            assert_eq!(out, n.to_string());
        }
        // Every digit count, each side of the eight-digit block, and after other text.
        let mut numbers = vec![0, u64::MAX, u64::MAX - 1];
        for d in 0..20 {
            let p = 10u64.pow(d);
            numbers.extend([
                p - 1,
                p,
                p + 1,
                p.saturating_mul(7),
                p.saturating_mul(9) - 3,
            ]);
        }
        // The lanes' divisions: every half of four digits, and a stride through 10^8.
        for n in (0..10_000).chain((0..100_000_000).step_by(9_973)) {
            let digits = eight_digits(n).to_le_bytes();
            assert_eq!(digits, format!("{n:08}").as_bytes(), "{n}");
        }
        for n in numbers {
            let mut out = b"id ".to_vec();
            push_uint_bytes(&mut out, n);
            assert_eq!(String::from_utf8(out).unwrap(), format!("id {n}"));
        }
        for n in [i64::MIN, -1, 0, 42, i64::MAX] {
            let mut out = String::new();
            push_int(&mut out, n);
            assert_eq!(out, n.to_string());
        }
    }
}
