//! A file with no name in any folder that another program opens by a path: a proof handed
//! to a checker that maps its input (`veripb` cannot read a pipe), never left behind. On
//! Linux, in memory (a `memfd`) or on the disk of a scratch folder (`O_TMPFILE`), either
//! reached through `/proc/PID/fd/N` and gone when the last descriptor closes, even when the
//! process is killed; elsewhere a file in the folder (the temporary one for memory),
//! removed when dropped. On disk the file's pages are the system's cache, which it can
//! reclaim, so a large proof costs disk space rather than memory.

use std::fs::File;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};

/// A file with no name, and a path to it (see the module doc); freed when dropped.
pub struct UnnamedFile {
    file: File,
    path: PathBuf,
    /// Elsewhere than on Linux: the named file to remove.
    #[cfg(not(target_os = "linux"))]
    remove: PathBuf,
}

impl UnnamedFile {
    /// An empty file in memory; `name` shows in `/proc/PID/fd` for people.
    pub fn in_memory(name: &str) -> std::io::Result<UnnamedFile> {
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
            Ok(UnnamedFile::linux(file, fd))
        }
        #[cfg(not(target_os = "linux"))]
        {
            UnnamedFile::named(&std::env::temp_dir(), name)
        }
    }

    /// An empty file on the disk of the folder `dir`; `name` names it where a file must
    /// have a name (not on Linux).
    pub fn in_folder(dir: &Path, name: &str) -> std::io::Result<UnnamedFile> {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::FromRawFd;
            use std::os::unix::ffi::OsStrExt;
            let _ = name;
            let folder = std::ffi::CString::new(dir.as_os_str().as_bytes())
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
            // SAFETY: `folder` is NUL-terminated and outlives the call.
            let fd = unsafe {
                libc::open(
                    folder.as_ptr(),
                    libc::O_TMPFILE | libc::O_RDWR | libc::O_CLOEXEC,
                    0o600,
                )
            };
            if fd < 0 {
                return Err(std::io::Error::last_os_error());
            }
            // SAFETY: `fd` is a new descriptor that nothing else owns.
            let file = unsafe { File::from_raw_fd(fd) };
            Ok(UnnamedFile::linux(file, fd))
        }
        #[cfg(not(target_os = "linux"))]
        {
            UnnamedFile::named(dir, name)
        }
    }

    #[cfg(target_os = "linux")]
    fn linux(file: File, fd: i32) -> UnnamedFile {
        let path = PathBuf::from(format!("/proc/{}/fd/{fd}", std::process::id()));
        UnnamedFile { file, path }
    }

    #[cfg(not(target_os = "linux"))]
    fn named(dir: &Path, name: &str) -> std::io::Result<UnnamedFile> {
        let remove = dir.join(format!(
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
        Ok(UnnamedFile {
            file,
            path: remove.clone(),
            remove,
        })
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

impl Write for UnnamedFile {
    fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
        self.file.write(buffer)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

#[cfg(not(target_os = "linux"))]
impl Drop for UnnamedFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.remove);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_by_its_path(mut file: UnnamedFile) {
        file.write_all(b"unnamed\n").unwrap();
        let read = std::process::Command::new("cat")
            .arg(file.path())
            .output()
            .unwrap();
        assert_eq!(read.stdout, b"unnamed\n");
        file.clear().unwrap();
        file.write_all(b"again\n").unwrap();
        assert_eq!(std::fs::read(file.path()).unwrap(), b"again\n");
    }

    #[test]
    fn another_program_reads_a_file_in_memory_by_its_path() {
        read_by_its_path(UnnamedFile::in_memory("test").unwrap());
    }

    #[test]
    fn another_program_reads_a_file_on_disk_by_its_path_and_the_folder_shows_no_name() {
        let dir = tempfile::tempdir().unwrap();
        read_by_its_path(UnnamedFile::in_folder(dir.path(), "test").unwrap());
        let file = UnnamedFile::in_folder(dir.path(), "test").unwrap();
        #[cfg(target_os = "linux")]
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        drop(file);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let missing = dir.path().join("no-such-folder");
        assert!(UnnamedFile::in_folder(&missing, "test").is_err());
    }
}
