//! Digests for certificates and model identities.

use sha2::{Digest, Sha256};
use std::fmt::Write;
use std::io::Read;

/// SHA-256 of `bytes` in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// SHA-256 in lower-case hex of everything `input` gives, and its length in bytes: for
/// files too large to hold whole.
pub fn sha256_hex_of(mut input: impl Read) -> std::io::Result<(String, u64)> {
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut length = 0u64;
    loop {
        let read = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buffer[..read]);
        length += read as u64;
    }
    Ok((hex(&hasher.finalize()), length))
}

fn hex(digest: &[u8]) -> String {
    digest
        .iter()
        .fold(String::with_capacity(64), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streamed_digest_is_the_digest_of_the_bytes() {
        let bytes: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
        assert_eq!(
            sha256_hex_of(&bytes[..]).unwrap(),
            (sha256_hex(&bytes), bytes.len() as u64)
        );
        assert_eq!(
            sha256_hex_of(&b"abc"[..]).unwrap().0,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
