//! Killing a solver with everything it started. A process group is not enough: MiniZinc
//! starts its solver (`fzn-gecode`) in a group of its own, which outlives a killed
//! `minizinc` and keeps a core busy. The descendants are found through `/proc` before any
//! is killed (a killed parent's children are handed to init, and the link is lost).

use std::collections::HashMap;
use std::process::{Command, Stdio};

/// Kills the process group `leader` leads and every descendant of `leader`, whatever
/// group it is in.
pub(crate) fn kill_tree(leader: u32) {
    let mut args = vec![
        "-s".to_string(),
        "KILL".to_string(),
        "--".to_string(),
        format!("-{leader}"),
    ];
    args.extend(descendants(leader).iter().map(u32::to_string));
    // std has no killpg; the `kill` program does it without a libc dependency. A target
    // that has exited already is an error it reports and passes over.
    let _ = Command::new("kill")
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// The processes below `root` (children, their children...), from each process's parent
/// in `/proc/PID/stat`; none where `/proc` is absent.
fn descendants(root: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if let Some(parent) = std::fs::read_to_string(entry.path().join("stat"))
            .ok()
            .and_then(|stat| parent_in_stat(&stat))
        {
            children.entry(parent).or_default().push(pid);
        }
    }
    let mut found = Vec::new();
    let mut next = vec![root];
    while let Some(pid) = next.pop() {
        for &child in children.get(&pid).into_iter().flatten() {
            found.push(child);
            next.push(child);
        }
    }
    found
}

/// The parent's pid in the text of `/proc/PID/stat`: the second field after the name.
fn parent_in_stat(stat: &str) -> Option<u32> {
    after_name(stat)?.split_whitespace().nth(1)?.parse().ok()
}

/// The fields of `/proc/PID/stat` after the command name, which is in parentheses and may
/// itself hold spaces and parentheses: the state first.
fn after_name(stat: &str) -> Option<&str> {
    Some(stat.rsplit_once(')')?.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::time::{Duration, Instant};

    #[test]
    fn the_parent_is_read_past_a_name_with_spaces_and_parentheses() {
        assert_eq!(parent_in_stat("17 (a (b) c) S 4 17 17 0"), Some(4));
        assert_eq!(parent_in_stat("garbage"), None);
    }

    #[test]
    fn a_grandchild_in_a_session_of_its_own_dies_with_the_tree() {
        if Command::new("setsid").arg("--version").output().is_err() {
            eprintln!("SKIPPED: setsid (util-linux) is not installed");
            return;
        }
        let scratch = tempfile::tempdir().unwrap();
        let pid_file = scratch.path().join("grandchild");
        // The shell leads a group, as a solver does; it starts a sleeper in a new session
        // (so outside the group), writes its pid, and waits.
        let script = format!("setsid sleep 300 & echo $! > {}; wait", pid_file.display());
        let mut child = Command::new("sh")
            .process_group(0)
            .args(["-c", &script])
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        let grandchild: u32 = loop {
            if let Some(pid) = std::fs::read_to_string(&pid_file)
                .ok()
                .and_then(|t| t.trim().parse().ok())
            {
                break pid;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "no grandchild");
            std::thread::sleep(Duration::from_millis(10));
        };
        let alive = |pid: u32| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                !after_name(&stat).is_some_and(|s| s.trim_start().starts_with('Z'))
            })
        };
        assert!(alive(grandchild));
        kill_tree(child.id());
        let _ = child.wait();
        let start = Instant::now();
        while alive(grandchild) {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "the grandchild {grandchild} outlived the kill"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
