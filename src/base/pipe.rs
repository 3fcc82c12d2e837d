//! A pipe between two threads of one process: what one thread writes, another reads, a few
//! chunks in flight at most, so that a proof of gigabytes streams from its writer into a
//! checker without being held whole.

use std::io::{Read, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

/// The bytes a chunk holds before it is sent.
const CHUNK: usize = 1 << 20;

/// The writing end of [`pipe`].
pub struct PipeWriter {
    sender: Option<SyncSender<Vec<u8>>>,
    chunk: Vec<u8>,
}

/// The reading end of [`pipe`].
pub struct PipeReader {
    receiver: Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

/// A pipe holding at most `chunks` chunks of 1 MiB in flight: the writer waits while the
/// reader is that far behind. The reader sees the end once the writer is dropped; the
/// writer gets `BrokenPipe` once the reader is dropped.
pub fn pipe(chunks: usize) -> (PipeWriter, PipeReader) {
    let (sender, receiver) = sync_channel(chunks.max(1));
    let writer = PipeWriter {
        sender: Some(sender),
        chunk: Vec::with_capacity(CHUNK),
    };
    let reader = PipeReader {
        receiver,
        chunk: Vec::new(),
        at: 0,
    };
    (writer, reader)
}

impl PipeWriter {
    fn send(&mut self) -> std::io::Result<()> {
        if self.chunk.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.chunk, Vec::with_capacity(CHUNK));
        let sender = self.sender.as_ref().ok_or_else(broken)?;
        sender.send(chunk).map_err(|_| broken())
    }
}

/// The reader went away: it stopped reading (a checker that refused, say).
fn broken() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::BrokenPipe,
        "the reading end of the pipe stopped reading",
    )
}

impl Write for PipeWriter {
    fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
        let room = CHUNK - self.chunk.len();
        let taken = buffer.len().min(room);
        self.chunk.extend_from_slice(&buffer[..taken]);
        if self.chunk.len() == CHUNK {
            self.send()?;
        }
        Ok(taken)
    }

    /// Sends what is buffered (the reader may then read it).
    fn flush(&mut self) -> std::io::Result<()> {
        self.send()
    }
}

impl Drop for PipeWriter {
    fn drop(&mut self) {
        // The rest goes out, then the end: a reader that stopped does not mind.
        let _ = self.send();
        self.sender = None;
    }
}

impl Read for PipeReader {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.chunk.len() {
            match self.receiver.recv() {
                Ok(chunk) => {
                    self.chunk = chunk;
                    self.at = 0;
                }
                // The writer is gone: the end of the stream.
                Err(_) => return Ok(0),
            }
        }
        let n = buffer.len().min(self.chunk.len() - self.at);
        buffer[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_one_thread_writes_another_reads_in_order() {
        let (mut writer, mut reader) = pipe(2);
        let bytes: Vec<u8> = (0..5_000_000u32).map(|i| (i % 253) as u8).collect();
        let sent = bytes.clone();
        let thread = std::thread::spawn(move || {
            for part in sent.chunks(70_001) {
                writer.write_all(part).unwrap();
            }
        });
        let mut read = Vec::new();
        reader.read_to_end(&mut read).unwrap();
        thread.join().unwrap();
        assert_eq!(read, bytes);
    }

    #[test]
    fn a_writer_whose_reader_stopped_gets_a_broken_pipe() {
        let (mut writer, reader) = pipe(1);
        drop(reader);
        let error = (0..4)
            .map(|_| writer.write_all(&vec![7; CHUNK]))
            .find_map(Result::err)
            .expect("the writes fail");
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe);
    }
}
