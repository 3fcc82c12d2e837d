//! CPU time and peak memory as the operating system counts them (`getrusage`, `wait4`): of
//! the calling thread, of the whole process, and of one child process once it has ended.
//! Elsewhere than on Linux the figures are `None`.

use std::process::{Child, ExitStatus};

/// What a process or a thread used.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Usage {
    /// CPU seconds, user and system.
    pub cpu_seconds: Option<f64>,
    /// The most memory resident at once, in bytes (of a whole process).
    pub peak_memory_bytes: Option<u64>,
    /// Of a child: the most memory it held at once that the system cannot reclaim
    /// (anonymous and shared pages, a file in memory included; not the pages of a file on
    /// disk that it maps, which are the system's cache), in bytes, as sampled.
    pub peak_held_bytes: Option<u64>,
}

#[cfg(target_os = "linux")]
fn seconds(time: libc::timeval) -> f64 {
    time.tv_sec as f64 + time.tv_usec as f64 / 1e6
}

#[cfg(target_os = "linux")]
fn usage_of(usage: &libc::rusage) -> Usage {
    Usage {
        cpu_seconds: Some(seconds(usage.ru_utime) + seconds(usage.ru_stime)),
        // Linux counts `ru_maxrss` in kilobytes.
        peak_memory_bytes: Some((usage.ru_maxrss.max(0) as u64).saturating_mul(1024)),
        peak_held_bytes: None,
    }
}

#[cfg(target_os = "linux")]
fn rusage(who: libc::c_int) -> Option<libc::rusage> {
    // SAFETY: `rusage` is plain data, for which all zeros is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is writable and lives through the call.
    (unsafe { libc::getrusage(who, &mut usage) } == 0).then_some(usage)
}

/// The CPU seconds the calling thread has used so far.
pub fn thread_cpu_seconds() -> Option<f64> {
    #[cfg(target_os = "linux")]
    {
        rusage(libc::RUSAGE_THREAD).and_then(|u| usage_of(&u).cpu_seconds)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The process's CPU seconds (every thread) and its peak resident memory so far.
pub fn process_usage() -> Usage {
    #[cfg(target_os = "linux")]
    {
        rusage(libc::RUSAGE_SELF).map_or_else(Usage::default, |u| usage_of(&u))
    }
    #[cfg(not(target_os = "linux"))]
    {
        Usage::default()
    }
}

/// How often a child's memory high-water mark is read while it runs.
#[cfg(target_os = "linux")]
const SAMPLE: std::time::Duration = std::time::Duration::from_millis(20);

/// Waits for `child` to end: its exit status and what it used, its own figures: CPU from
/// `wait4`, peak memory from its high-water mark (`VmHWM` of `/proc/PID/status`) read every
/// 20 ms while it runs, since `wait4`'s counts the memory of the process that started it
/// too (a child's count starts from its parent's at the fork), and the memory it holds
/// (`RssAnon` and `RssShmem`) at each reading. A child too short to be read once has no
/// peak. When `should_stop` says so, the child is killed (and still
/// waited for). The child is reaped here: do not wait for it again.
pub fn wait_with_usage(
    child: &mut Child,
    should_stop: &dyn Fn() -> bool,
) -> std::io::Result<(ExitStatus, Usage)> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::ExitStatusExt;
        let pid = child.id() as libc::pid_t;
        let status_file = format!("/proc/{pid}/status");
        let (mut peak, mut held): (Option<u64>, Option<u64>) = (None, None);
        loop {
            if let Some(now) = memory_now(&status_file) {
                peak = Some(peak.map_or(now.high_water, |p| p.max(now.high_water)));
                held = Some(held.map_or(now.held, |h| h.max(now.held)));
            }
            // SAFETY: plain data, all zeros valid.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            let mut status: libc::c_int = 0;
            // SAFETY: `status` and `usage` are writable and live through the call; `pid` is
            // our own child, not yet reaped.
            let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
            if reaped == pid {
                let mut used = usage_of(&usage);
                used.peak_memory_bytes = peak;
                used.peak_held_bytes = held;
                return Ok((ExitStatus::from_raw(status), used));
            }
            if reaped < 0 {
                let error = std::io::Error::last_os_error();
                if error.kind() != std::io::ErrorKind::Interrupted {
                    return Err(error);
                }
            }
            if should_stop() {
                // SAFETY: `pid` is our own child, not yet reaped, so the number is its.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            std::thread::sleep(SAMPLE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = should_stop;
        child.wait().map(|status| (status, Usage::default()))
    }
}

/// A process's memory as one reading of its `/proc/PID/status` gives it, in bytes.
#[cfg(target_os = "linux")]
struct MemoryNow {
    /// `VmHWM`: the most resident so far.
    high_water: u64,
    /// `RssAnon` and `RssShmem`: resident now, not reclaimable.
    held: u64,
}

/// One reading of a `/proc/PID/status` file; `None` when it cannot be read (the process
/// has ended) or lacks the high-water mark.
#[cfg(target_os = "linux")]
fn memory_now(status_file: &str) -> Option<MemoryNow> {
    let text = std::fs::read_to_string(status_file).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        let kilobytes: u64 = line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kilobytes * 1024)
    };
    Some(MemoryNow {
        high_water: field("VmHWM:")?,
        held: field("RssAnon:").unwrap_or(0) + field("RssShmem:").unwrap_or(0),
    })
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_childs_usage_is_its_own() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"])
            .spawn()
            .unwrap();
        let (status, usage) = wait_with_usage(&mut child, &|| false).unwrap();
        assert!(status.success());
        assert!(usage.cpu_seconds.unwrap() > 0.0, "{usage:?}");
        // A shell holds under a few megabytes, whatever its parent holds.
        let peak = usage.peak_memory_bytes.unwrap();
        assert!((1 << 16..1 << 26).contains(&peak), "{peak}");
        let held = usage.peak_held_bytes.unwrap();
        assert!((1 << 12..=peak).contains(&held), "{held} of {peak}");
        assert!(thread_cpu_seconds().unwrap() >= 0.0);
        assert!(process_usage().peak_memory_bytes.unwrap() > 0);
    }

    #[test]
    fn a_child_asked_to_stop_is_killed() {
        let mut child = std::process::Command::new("sleep")
            .arg("60")
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let (status, _) = wait_with_usage(&mut child, &|| true).unwrap();
        assert!(!status.success());
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
    }
}
