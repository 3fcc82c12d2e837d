//! The default for a puzzle with an objective when no backend is named: the native search
//! and, beside it, the SAT backend; the first proven answer wins and the other is stopped.
//!
//! The native search is the stronger one on most packings (the Russian doll on the
//! crosses), but a few piece shapes are settled at once by SAT with the LP bound where the
//! doll takes minutes (skew tetrominoes in 14 x 14). Running both costs little when it is
//! arranged so:
//!
//! * SAT starts only once the native search has run for [`HEAD_START`] without an answer,
//!   so the instant answers (a tiling meeting the area bound, a small box), and their
//!   output, stay the native search's alone, while SAT still starts early enough to be
//!   within 1.5x of its own time where it wins;
//! * SAT has an equal share of the cores for its first [`SAT_EQUAL_SHARE`], then yields to
//!   the native search (nice 19, Linux only): on a core the native search leaves idle it
//!   still runs at full speed, but where the doll's threads want every core SAT gets almost
//!   nothing, so a long native run loses at most a third of the cores for those seconds;
//! * SAT joins only when its model fits the memory limit the SAT backend would be held to.
//!
//! Every answer is the member's [`Outcome`], verified like any other; the evidence names the
//! winner (the report's backend) and says what the other had reached.

use super::guard::{self, Work};
use super::{solve, Backend, Outcome, SolveError};
use crate::base::{Control, Goal, Status};
use crate::puzzle::Puzzle;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// How long the native search runs alone before SAT joins it.
pub const HEAD_START: Duration = Duration::from_millis(100);

/// How long SAT shares the cores equally with the native search before it yields.
pub const SAT_EQUAL_SHARE: Duration = Duration::from_secs(10);

/// The names of the SAT member's threads: its own and the one `solve` runs varisat on.
const SAT_THREADS: [&str; 2] = ["puzzlec-pf-sat", "puzzlec-sat"];

/// Whether a run with no backend named is a portfolio: puzzles with an objective whose
/// default is the native search (packings to maximise). Queens already default to SAT with
/// its group-counted objective; dissections have no objective.
pub fn applies(puzzle: &Puzzle) -> bool {
    puzzle.has_objective() && Backend::preferred_for(puzzle) == Backend::Native
}

/// A member's answer, sent to the portfolio's thread.
type Report = (Backend, Result<Outcome, SolveError>);

/// One search of the portfolio, running on its own thread.
struct Member {
    backend: Backend,
    stop: Arc<AtomicBool>,
    answer: Option<Result<Outcome, SolveError>>,
}

/// Solves `puzzle` for `goal` as `solve` does with no backend named: the native search,
/// joined after [`HEAD_START`] by SAT when its model's memory estimate is at most
/// `sat_memory_limit` bytes ([`guard::estimate`]). Falls back to the preferred backend alone
/// when the portfolio does not apply ([`applies`]).
///
/// A wrong solution or claimed value from either member is returned as the error it is;
/// a member that fails otherwise leaves the answer to the other.
pub fn solve_portfolio(
    puzzle: &Puzzle,
    goal: Goal,
    control: &Control,
    sat_memory_limit: u64,
) -> Result<Outcome, SolveError> {
    if !applies(puzzle) {
        return solve(puzzle, Backend::preferred_for(puzzle), goal, control);
    }
    let start = Instant::now();
    let (sender, receiver) = mpsc::channel::<Report>();
    let mut members = vec![start_member(
        puzzle,
        Backend::Native,
        goal,
        control,
        &sender,
    )?];
    let mut sat_due = guard::estimate(puzzle, Work::Sat).memory <= sat_memory_limit;
    // When one member has proved its answer, the others get this long to report what they
    // reached (a member still building its model is not waited for).
    let mut wait_until: Option<Instant> = None;
    let mut sat_yielded = false;
    loop {
        if let Ok((backend, answer)) = receiver.recv_timeout(Duration::from_millis(10)) {
            let member = members
                .iter_mut()
                .find(|m| m.backend == backend)
                .expect("a report comes from a member");
            member.answer = Some(answer);
        }
        // A bug reported by one member is the answer, whatever the other says.
        if let Some(i) = members.iter().position(|m| is_bug(m.answer.as_ref())) {
            stop_all(&members);
            return Err(members
                .swap_remove(i)
                .answer
                .expect("reported")
                .unwrap_err());
        }
        let proven = members
            .iter()
            .any(|m| matches!(&m.answer, Some(Ok(outcome)) if outcome.status.is_proven()));
        // The members keep the caller's deadline themselves (so a stopped one says "time
        // limit"); its stop flag (Ctrl-C) and a proven answer reach them through theirs.
        if proven || control.stop_flag().load(Ordering::Relaxed) {
            stop_all(&members);
        }
        if (proven || control.should_stop()) && wait_until.is_none() {
            wait_until = Some(Instant::now() + REPORT_WAIT);
        }
        let native = &members[0].answer;
        let native_failed = matches!(native, Some(Err(_)));
        // SAT joins after the head start, or at once when the native search refused the
        // instance; never once the run is over.
        sat_due &= wait_until.is_none() && (native.is_none() || native_failed);
        if sat_due && (native_failed || start.elapsed() >= HEAD_START) {
            sat_due = false;
            members.push(start_member(puzzle, Backend::Sat, goal, control, &sender)?);
            continue;
        }
        if !sat_yielded && start.elapsed() >= HEAD_START + SAT_EQUAL_SHARE {
            sat_yielded = true;
            yield_threads(&SAT_THREADS);
        }
        let all_reported = members.iter().all(|m| m.answer.is_some());
        let waited = wait_until.is_some_and(|t| proven && Instant::now() >= t);
        if !sat_due && (all_reported || waited) {
            return combine(puzzle, goal, members, start.elapsed());
        }
    }
}

/// How long a member stopped by another's proof has to report what it reached.
const REPORT_WAIT: Duration = Duration::from_millis(30);

/// Starts `backend` on its own thread with a stop flag of its own.
fn start_member(
    puzzle: &Puzzle,
    backend: Backend,
    goal: Goal,
    control: &Control,
    sender: &mpsc::Sender<Report>,
) -> Result<Member, SolveError> {
    let stop = Arc::new(AtomicBool::new(false));
    // The native search keeps the caller's progress notes; SAT's would interleave.
    let member_control = match backend {
        Backend::Native => control.with_stop(stop.clone()),
        _ => control.silent().with_stop(stop.clone()),
    };
    let (puzzle, sender) = (puzzle.clone(), sender.clone());
    std::thread::Builder::new()
        .name(format!("puzzlec-pf-{}", backend.name()))
        .spawn(move || {
            let answer = solve(&puzzle, backend, goal, &member_control);
            // The portfolio may have returned already (the other member's bug); nothing
            // to tell it then.
            let _ = sender.send((backend, answer));
        })
        .map_err(|e| SolveError::Backend {
            backend: backend.name(),
            failure: super::BackendFailure::Thread(e),
        })?;
    Ok(Member {
        backend,
        stop,
        answer: None,
    })
}

fn stop_all(members: &[Member]) {
    for member in members {
        member.stop.store(true, Ordering::Relaxed);
    }
}

/// Whether an answer is an internal error (a wrong solution or value): never hidden behind
/// another member's answer.
fn is_bug(answer: Option<&Result<Outcome, SolveError>>) -> bool {
    matches!(
        answer,
        Some(Err(
            SolveError::WrongSolution { .. } | SolveError::WrongValue { .. }
        ))
    )
}

/// The portfolio's answer from its members' (all reported, or one proven): the first
/// proven one (the native search's when both are), else the best solution; its evidence
/// extended by what the others reached. When every member failed, the native search's
/// error.
fn combine(
    puzzle: &Puzzle,
    goal: Goal,
    members: Vec<Member>,
    elapsed: Duration,
) -> Result<Outcome, SolveError> {
    let mut answered = Vec::new();
    let mut failures = Vec::new();
    let mut silent = Vec::new();
    for member in members {
        match member.answer {
            Some(Ok(outcome)) => answered.push(outcome),
            Some(Err(error)) => failures.push((member.backend, error)),
            None => silent.push(member.backend),
        }
    }
    let chosen = answered
        .iter()
        .position(|o| o.status.is_proven())
        .or_else(|| best_unproven(&answered));
    let Some(chosen) = chosen else {
        let (_, error) = failures.swap_remove(0);
        return Err(error);
    };
    let mut outcome = answered.remove(chosen);
    let others: Vec<String> = answered
        .iter()
        .map(|o| reached(o, &outcome))
        .chain(
            failures
                .iter()
                .map(|(b, e)| format!("{} failed: {e}", b.name())),
        )
        .chain(silent.iter().map(|b| {
            format!(
                "{} had not reported within {} ms of being stopped",
                b.name(),
                REPORT_WAIT.as_millis()
            )
        }))
        .collect();
    if !outcome.status.is_proven() {
        settle_by_bounds(puzzle, goal, &mut outcome, &answered);
    }
    if !others.is_empty() {
        outcome.evidence = format!("{} (portfolio: {})", outcome.evidence, others.join("; "));
    }
    outcome.elapsed = elapsed;
    Ok(outcome)
}

/// The stopped answer with the most pieces, the native search's on a tie.
fn best_unproven(answered: &[Outcome]) -> Option<usize> {
    (0..answered.len()).max_by_key(|&i| (answered[i].value, std::cmp::Reverse(i)))
}

/// A stopped maximisation whose best packing meets a bound another member proved is
/// optimal: the bound is a refutation of one more piece, whoever found it.
fn settle_by_bounds(puzzle: &Puzzle, goal: Goal, outcome: &mut Outcome, others: &[Outcome]) {
    if goal != Goal::Maximise || !puzzle.has_objective() {
        return;
    }
    let Some(value) = outcome.value else { return };
    let tightest = others
        .iter()
        .filter_map(|o| o.bound.map(|b| (b, o)))
        .min_by_key(|(b, _)| *b);
    if let Some((bound, other)) = tightest {
        if bound == value {
            outcome.status = Status::Optimal;
            outcome.bound = Some(bound);
            outcome.evidence = format!(
                "{} found {value}, which meets the bound {} proved: {}",
                outcome.label(),
                other.label(),
                other.evidence
            );
        } else if outcome.bound.is_none_or(|b| bound < b) {
            outcome.bound = Some(bound);
        }
    }
}

/// What a member other than the chosen one had reached, in words.
fn reached(other: &Outcome, chosen: &Outcome) -> String {
    let when = if chosen.status.is_proven() && !other.status.is_proven() {
        format!(", stopped when {} answered,", chosen.label())
    } else {
        String::new()
    };
    let found = match other.value {
        Some(value) => format!("found {value}"),
        None => "found nothing".to_string(),
    };
    let bound = match (other.status.is_proven(), other.bound) {
        (true, _) => format!(" and says {}", other.answer()),
        (false, Some(bound)) => format!(", at most {bound}"),
        (false, None) => String::new(),
    };
    format!("{}{when} had {found}{bound}", other.label())
}

/// Gives this process's threads of the given names the lowest scheduling priority (nice
/// 19). On Linux a thread's nice value is its own, set through its thread ID, and a thread
/// started later inherits its starter's; the threads are found by name in `/proc`.
#[cfg(target_os = "linux")]
pub(crate) fn yield_threads(names: &[&str]) {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return;
    };
    for task in tasks.flatten() {
        let named = std::fs::read_to_string(task.path().join("comm"))
            .is_ok_and(|comm| names.contains(&comm.trim_end()));
        let id = task
            .file_name()
            .to_str()
            .and_then(|t| t.parse::<libc::id_t>().ok());
        if let (true, Some(id)) = (named, id) {
            // SAFETY: setpriority takes and returns plain integers; a failure (the thread
            // has ended) leaves nothing to undo.
            unsafe {
                libc::setpriority(libc::PRIO_PROCESS, id, 19);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn yield_threads(_: &[&str]) {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Size;
    use crate::puzzle::queens::Queens;

    fn outcome(
        backend: Backend,
        status: Status,
        value: Option<usize>,
        bound: Option<usize>,
    ) -> Outcome {
        Outcome {
            backend,
            status,
            solution: None,
            value,
            bound,
            evidence: format!("{} said so", backend.name()),
            elapsed: Duration::from_secs(1),
            size: Size::default(),
            solver: None,
            bounds: None,
        }
    }

    /// A member that answered `outcome(backend, status, value, bound)`.
    fn reported(
        backend: Backend,
        status: Status,
        value: Option<usize>,
        bound: Option<usize>,
    ) -> Member {
        member(backend, Some(Ok(outcome(backend, status, value, bound))))
    }

    fn member(backend: Backend, answer: Option<Result<Outcome, SolveError>>) -> Member {
        Member {
            backend,
            stop: Arc::new(AtomicBool::new(true)),
            answer,
        }
    }

    /// Any puzzle with an objective: `combine` reads only whether it has one.
    fn maximised() -> Puzzle {
        Puzzle::Queens(Queens::empty(4))
    }

    #[test]
    fn the_proven_answer_wins_and_says_what_the_other_reached() {
        let members = vec![
            reported(Backend::Native, Status::Feasible, Some(45), Some(47)),
            reported(Backend::Sat, Status::Optimal, Some(46), Some(46)),
        ];
        let won = combine(
            &maximised(),
            Goal::Maximise,
            members,
            Duration::from_secs(3),
        )
        .unwrap();
        assert_eq!(
            (won.backend, won.status, won.value),
            (Backend::Sat, Status::Optimal, Some(46))
        );
        assert_eq!(
            won.evidence,
            "sat said so (portfolio: native, stopped when sat answered, had found 45, at most 47)"
        );
        assert_eq!(won.elapsed, Duration::from_secs(3));
    }

    #[test]
    fn stopped_members_give_the_best_packing_and_the_tightest_bound() {
        let members = vec![
            reported(Backend::Native, Status::Feasible, Some(44), Some(50)),
            reported(Backend::Sat, Status::Feasible, Some(45), Some(48)),
        ];
        let best = combine(&maximised(), Goal::Maximise, members, Duration::ZERO).unwrap();
        assert_eq!(
            (best.backend, best.status),
            (Backend::Sat, Status::Feasible)
        );
        assert_eq!((best.value, best.bound), (Some(45), Some(48)));
        assert_eq!(
            best.evidence,
            "sat said so (portfolio: native had found 44, at most 50)"
        );
    }

    #[test]
    fn a_packing_meeting_the_other_members_bound_is_optimal() {
        let members = vec![
            reported(Backend::Native, Status::Feasible, Some(44), Some(45)),
            reported(Backend::Sat, Status::Feasible, Some(45), None),
        ];
        let best = combine(&maximised(), Goal::Maximise, members, Duration::ZERO).unwrap();
        assert_eq!(
            (best.status, best.value, best.bound),
            (Status::Optimal, Some(45), Some(45))
        );
        assert!(
            best.evidence
                .starts_with("sat found 45, which meets the bound native proved: native said so"),
            "{}",
            best.evidence
        );
    }

    #[test]
    fn a_tie_goes_to_the_native_search_and_a_failure_to_the_other_member() {
        let members = vec![
            reported(Backend::Native, Status::Feasible, Some(45), None),
            reported(Backend::Sat, Status::Feasible, Some(45), None),
        ];
        let best = combine(&maximised(), Goal::Maximise, members, Duration::ZERO).unwrap();
        assert_eq!(best.backend, Backend::Native);
        let refused = SolveError::Usage("no".into());
        let members = vec![
            member(Backend::Native, Some(Err(refused))),
            reported(Backend::Sat, Status::Optimal, Some(3), Some(3)),
            member(Backend::Milp, None),
        ];
        let won = combine(&maximised(), Goal::Maximise, members, Duration::ZERO).unwrap();
        assert_eq!(
            won.evidence,
            "sat said so (portfolio: native failed: no; milp had not reported within 30 ms of being \
             stopped)"
        );
    }

    #[test]
    fn with_every_member_failed_the_native_error_is_the_answer() {
        let members = vec![
            member(
                Backend::Native,
                Some(Err(SolveError::Usage("native refused".into()))),
            ),
            member(
                Backend::Sat,
                Some(Err(SolveError::Usage("sat refused".into()))),
            ),
        ];
        let error = combine(&maximised(), Goal::Maximise, members, Duration::ZERO).unwrap_err();
        assert_eq!(error.to_string(), "native refused");
    }

    #[test]
    fn wrong_answers_are_bugs_never_outvoted() {
        let wrong = SolveError::WrongValue {
            backend: "sat",
            claimed: 5,
            actual: 4,
        };
        assert!(is_bug(Some(&Err(wrong))));
        assert!(!is_bug(Some(&Err(SolveError::Usage("no".into())))));
        assert!(!is_bug(None));
    }

    #[test]
    fn the_portfolio_is_for_native_defaults_with_an_objective() {
        assert!(!applies(&Puzzle::Queens(Queens::empty(8))));
    }
}
