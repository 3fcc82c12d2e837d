//! Digests for certificates and model identities.

use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::io::{Read, Write};

/// SHA-256 of `bytes` in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// SHA-256 in lower-case hex of everything `input` gives, and its length in bytes: for
/// files too large to hold whole.
pub fn sha256_hex_of(input: impl Read) -> std::io::Result<(String, u64)> {
    DigestReader::new(input).finish()
}

/// A reader that hashes what it reads, so that a file read for one purpose (a proof being
/// checked) is hashed in the same pass.
pub struct DigestReader<R> {
    inner: R,
    hasher: Sha256,
    length: u64,
}

impl<R: Read> DigestReader<R> {
    /// A reader of `inner` that hashes it.
    pub fn new(inner: R) -> DigestReader<R> {
        DigestReader {
            inner,
            hasher: Sha256::new(),
            length: 0,
        }
    }

    /// Reads the rest, and gives the SHA-256 in lower-case hex of everything and its length.
    pub fn finish(mut self) -> std::io::Result<(String, u64)> {
        std::io::copy(&mut self, &mut std::io::sink())?;
        Ok((hex(&self.hasher.finalize()), self.length))
    }
}

impl<R: Read> Read for DigestReader<R> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buffer)?;
        self.hasher.update(&buffer[..read]);
        self.length += read as u64;
        Ok(read)
    }
}

/// A writer that hashes and counts what goes through it into `inner`, so that a proof
/// streamed to its checkers is hashed as it is written, never read back.
pub struct DigestWriter<W> {
    inner: W,
    hasher: Sha256,
    length: u64,
    lines: u64,
}

impl<W: Write> DigestWriter<W> {
    /// A writer into `inner` that hashes what passes.
    pub fn new(inner: W) -> DigestWriter<W> {
        DigestWriter {
            inner,
            hasher: Sha256::new(),
            length: 0,
            lines: 0,
        }
    }

    /// The bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.length
    }

    /// The SHA-256 in lower-case hex of everything written, its length in bytes and its
    /// lines (newline characters), and the inner writer.
    pub fn finish(self) -> (String, u64, u64, W) {
        (
            hex(&self.hasher.finalize()),
            self.length,
            self.lines,
            self.inner,
        )
    }
}

impl<W: Write> Write for DigestWriter<W> {
    fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(buffer)?;
        let part = &buffer[..written];
        self.hasher.update(part);
        self.length += written as u64;
        self.lines += part.iter().filter(|&&b| b == b'\n').count() as u64;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
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

    #[test]
    fn a_written_digest_counts_bytes_and_lines() {
        let mut out = DigestWriter::new(Vec::new());
        out.write_all(b"a\nbc\n").unwrap();
        out.write_all(b"d").unwrap();
        let (hash, bytes, lines, inner) = out.finish();
        assert_eq!((hash, bytes, lines), (sha256_hex(b"a\nbc\nd"), 6, 2));
        assert_eq!(inner, b"a\nbc\nd");
    }
}
