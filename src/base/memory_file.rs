//! A file that lives in memory, never on disk, that another program can open by a path: a
//! proof handed to a checker that maps its input (`veripb` cannot read a pipe), without
//! the proof ever touching the disk. On Linux a `memfd` reached through
//! `/proc/PID/fd/N`; elsewhere a file in the temporary folder, removed when dropped.

use std::fs::File;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};

/// A file in memory with a path to it (see the module doc); freed when dropped.
pub struct MemoryFile {
    file: File,
    path: PathBuf,
    /// Elsewhere than on Linux: the temporary file to remove.
    #[cfg(not(target_os = "linux"))]
    remove: PathBuf,
}

impl MemoryFile {
    /// An empty file; `name` shows in `/proc/PID/fd` for people.
    pub fn new(name: &str) -> std::io::Result<MemoryFile> {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::FromRawFd;
            let name = std::ffi::CString::new(name.replace('\0', ""))
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
            // Close-on-exec: a child started for another shard must not hold this one's
            // memory; a checker opens it by its path instead.
            // SAFETY: `name` is NUL-terminated and outlives the call.
            let fd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
            if fd < 0 {
                return Err(std::io::Error::last_os_error());
            }
            // SAFETY: `fd` is a new descriptor that nothing else owns.
            let file = unsafe { File::from_raw_fd(fd) };
            let path = PathBuf::from(format!("/proc/{}/fd/{fd}", std::process::id()));
            Ok(MemoryFile { file, path })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let remove = std::env::temp_dir().join(format!(
                "puzzlec-{}-{}-{name}",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos())
            ));
            let file = File::options()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&remove)?;
            Ok(MemoryFile {
                file,
                path: remove.clone(),
                remove,
            })
        }
    }

    /// The path another program opens the file by, while this lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Empties the file, for the next content.
    pub fn clear(&mut self) -> std::io::Result<()> {
        self.file.set_len(0)?;
        self.file.rewind().map(|_| ())
    }
}

impl Write for MemoryFile {
    fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
        self.file.write(buffer)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

#[cfg(not(target_os = "linux"))]
impl Drop for MemoryFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.remove);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_program_reads_the_file_by_its_path() {
        let mut file = MemoryFile::new("test").unwrap();
        file.write_all(b"in memory\n").unwrap();
        let read = std::process::Command::new("cat")
            .arg(file.path())
            .output()
            .unwrap();
        assert_eq!(read.stdout, b"in memory\n");
        file.clear().unwrap();
        file.write_all(b"again\n").unwrap();
        assert_eq!(std::fs::read(file.path()).unwrap(), b"again\n");
    }
}
