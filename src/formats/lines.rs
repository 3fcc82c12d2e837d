//! Text files written line by line through one reused buffer, never held whole: the
//! writers of every format go through [`LineWriter`]. It asks a stop signal every few
//! thousand lines, so a time limit or Ctrl-C can end a long file part way, and it keeps the
//! first error for [`LineWriter::finish`], so writers that fill it from deep inside an
//! encoder need not thread a `Result` through every call.

use std::io::Write;

/// Lines written between two looks at the stop signal.
const LINES_PER_POLL: u64 = 1 << 14;

/// Why a file was not finished.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// Writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The stop signal (a time limit or Ctrl-C) ended the writing.
    #[error("stopped")]
    Stopped,
}

/// Writes lines to `out`, asking `should_stop` every 16,384 lines; after an
/// error or a stop it writes nothing more.
pub struct LineWriter<'a> {
    out: &'a mut dyn Write,
    should_stop: &'a dyn Fn() -> bool,
    line: String,
    /// The buffer of [`Self::put_bytes`].
    bytes: Vec<u8>,
    lines: u64,
    error: Option<std::io::Error>,
    stopped: bool,
}

impl<'a> LineWriter<'a> {
    /// A writer into `out`; `should_stop` says when to give up.
    pub fn new(out: &'a mut dyn Write, should_stop: &'a dyn Fn() -> bool) -> LineWriter<'a> {
        LineWriter {
            out,
            should_stop,
            line: String::new(),
            bytes: Vec::new(),
            lines: 0,
            error: None,
            stopped: false,
        }
    }

    /// Writes the text `fill` puts into the line buffer (one line or several); does nothing
    /// once the writer has failed or stopped.
    pub fn emit(&mut self, fill: impl FnOnce(&mut String)) {
        if self.failed() {
            return;
        }
        self.line.clear();
        fill(&mut self.line);
        let result = self.out.write_all(self.line.as_bytes());
        self.count(result);
    }

    /// Notes the outcome of writing one buffer, and asks the stop signal now and then.
    fn count(&mut self, result: std::io::Result<()>) {
        if let Err(e) = result {
            self.error = Some(e);
        }
        self.lines += 1;
        if self.lines.is_multiple_of(LINES_PER_POLL) && (self.should_stop)() {
            self.stopped = true;
        }
    }

    /// [`Self::put`] for writers that fill bytes (ASCII text they build themselves, such
    /// as a proof's millions of numbered lines, with no check that it is UTF-8).
    pub fn put_bytes(&mut self, fill: impl FnOnce(&mut Vec<u8>)) -> Result<(), WriteError> {
        if !self.failed() {
            self.bytes.clear();
            fill(&mut self.bytes);
            let result = self.out.write_all(&self.bytes);
            self.count(result);
        }
        self.outcome()
    }

    /// [`Self::emit`], then whether the writer can go on: for writers that stop at the
    /// first problem with `?`.
    pub fn put(&mut self, fill: impl FnOnce(&mut String)) -> Result<(), WriteError> {
        self.emit(fill);
        self.outcome()
    }

    /// Whether the writer can go on: the first error (taken), or the stop.
    fn outcome(&mut self) -> Result<(), WriteError> {
        if let Some(e) = self.error.take() {
            return Err(WriteError::Io(e));
        }
        if self.stopped {
            return Err(WriteError::Stopped);
        }
        Ok(())
    }

    /// Whether writing failed or was stopped, so that long loops can end early.
    pub fn failed(&self) -> bool {
        self.stopped || self.error.is_some()
    }

    /// The result: an error, a stop (asked once more at the end), or done and flushed.
    pub fn finish(self) -> Result<(), WriteError> {
        if let Some(e) = self.error {
            return Err(WriteError::Io(e));
        }
        if self.stopped || (self.should_stop)() {
            return Err(WriteError::Stopped);
        }
        self.out.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_written_until_the_signal_stops_them() {
        let mut out = Vec::new();
        let mut writer = LineWriter::new(&mut out, &|| false);
        writer.emit(|l| l.push_str("a\n"));
        writer.put(|l| l.push_str("b\n")).unwrap();
        writer.finish().unwrap();
        assert_eq!(out, b"a\nb\n");

        let mut out = Vec::new();
        let stop = || true;
        let mut writer = LineWriter::new(&mut out, &stop);
        for _ in 0..LINES_PER_POLL {
            writer.emit(|l| l.push('x'));
        }
        assert!(writer.failed());
        writer.emit(|l| l.push('y'));
        assert!(matches!(writer.finish(), Err(WriteError::Stopped)));
        assert_eq!(out.len() as u64, LINES_PER_POLL, "nothing after the stop");
    }
}
