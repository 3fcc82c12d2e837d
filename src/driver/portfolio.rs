//! The default for a puzzle with an objective when no backend is named: the native search
//! and, beside it, the SAT backend (and HiGHS, when it is built in); the first proven
//! answer wins and the others are stopped.
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
//! * HiGHS (built with the `highs` feature) takes SAT's turn when SAT yields: it joins then,
//!   has an equal share for [`MILP_EQUAL_SHARE`] and yields in its turn, so the first
//!   seconds, where most answers come, are shared as without it, and a long run gives
//!   branch and cut its chance without ever holding more than one member's share;
//! * SAT and HiGHS join only when their models fit the memory limit their backends would be
//!   held to.
//!
//! Every answer is the member's [`Outcome`], verified like any other; the evidence names the
//! winner (the report's backend) and says what the others had reached.

use super::external::{Contender, ExternalSolver};
use super::guard::{self, Work};
use super::packing_bounds::{LpOutcome, PackingBounds};
use super::{bounds_of, solve, solve_external, solve_knowing, Backend, Outcome, SolveError};
use crate::base::evidence::MemberReached;
use crate::base::{Control, Evidence, Goal, Status};
use crate::puzzle::Puzzle;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// How long the native search runs alone before SAT joins it.
pub const HEAD_START: Duration = Duration::from_millis(100);

/// How long SAT shares the cores equally with the native search before it yields.
pub const SAT_EQUAL_SHARE: Duration = Duration::from_secs(10);

/// How long HiGHS, joining when SAT yields, shares the cores equally before it yields too.
pub const MILP_EQUAL_SHARE: Duration = Duration::from_secs(10);

/// When the helpers join and yield. [`Schedule::DEFAULT`] is what `solve` uses; tests give
/// shorter turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// When SAT joins.
    pub sat_joins: Duration,
    /// When SAT yields and HiGHS (if built in) joins.
    pub sat_yields: Duration,
    /// When HiGHS yields.
    pub milp_yields: Duration,
}

impl Schedule {
    /// SAT at [`HEAD_START`] for [`SAT_EQUAL_SHARE`], then HiGHS for [`MILP_EQUAL_SHARE`].
    pub const DEFAULT: Schedule = Schedule {
        sat_joins: HEAD_START,
        sat_yields: HEAD_START.saturating_add(SAT_EQUAL_SHARE),
        milp_yields: HEAD_START
            .saturating_add(SAT_EQUAL_SHARE)
            .saturating_add(MILP_EQUAL_SHARE),
    };
}

/// The names of the SAT member's threads: its own and the one `solve` runs varisat on.
const SAT_THREADS: [&str; 2] = ["puzzlec-pf-sat", "puzzlec-sat"];

/// The name of the HiGHS member's thread, which HiGHS's own worker threads, started from
/// it, inherit.
const MILP_THREADS: [&str; 1] = ["puzzlec-pf-milp"];

/// Whether a run with no backend named is a portfolio: puzzles with an objective whose
/// default is the native search (packings to maximise). Queens already default to SAT with
/// its group-counted objective; dissections have no objective.
pub fn applies(puzzle: &Puzzle) -> bool {
    puzzle.has_objective() && Backend::preferred_for(puzzle) == Backend::Native
}

/// Its thread's name (at most 15 bytes: Linux keeps no more).
fn thread_name(contender: &Contender) -> String {
    format!("puzzlec-pf-{}", contender.backend().name())
}

/// HiGHS as a member when it is built in and its program fits `memory_limit`.
fn highs_member(puzzle: &Puzzle, memory_limit: u64) -> Option<Contender> {
    if !cfg!(feature = "highs") || guard::estimate(puzzle, Work::Milp).memory > memory_limit {
        return None;
    }
    ExternalSolver::parse(Backend::Milp, "highs")
        .ok()
        .map(Contender::External)
}

/// A member's answer, sent to the portfolio's thread with the member's index.
type Report = (usize, Result<Outcome, SolveError>);

/// One search of the portfolio, running on its own thread.
struct Member {
    label: String,
    stop: Arc<AtomicBool>,
    answer: Option<Result<Outcome, SolveError>>,
}

/// Solves `puzzle` for `goal` as `solve` does with no backend named: the native search,
/// joined by SAT and HiGHS (when built in) on [`Schedule::DEFAULT`] when their models'
/// memory estimates are at most `memory_limit` bytes ([`guard::estimate`]). Falls back to
/// the preferred backend alone when the portfolio does not apply ([`applies`]).
///
/// A wrong solution or claimed value from any member is returned as the error it is;
/// a member that fails otherwise leaves the answer to the others.
pub fn solve_portfolio(
    puzzle: &Puzzle,
    goal: Goal,
    control: &Control,
    memory_limit: u64,
) -> Result<Outcome, SolveError> {
    solve_portfolio_on(puzzle, goal, control, memory_limit, Schedule::DEFAULT)
}

/// [`solve_portfolio`] with the helpers joining and yielding on `schedule`.
pub fn solve_portfolio_on(
    puzzle: &Puzzle,
    goal: Goal,
    control: &Control,
    memory_limit: u64,
    schedule: Schedule,
) -> Result<Outcome, SolveError> {
    if !applies(puzzle) {
        return solve(puzzle, Backend::preferred_for(puzzle), goal, control);
    }
    let start = Instant::now();
    // The bounds the native search would compute first, computed once for the members.
    let bounds = bounds_of(puzzle, control, true);
    let (sender, receiver) = mpsc::channel::<Report>();
    let start_member =
        |contender, index| start_member(puzzle, contender, index, bounds, goal, control, &sender);
    let mut members = vec![start_member(Contender::Embedded(Backend::Native), 0)?];
    let mut sat_due = guard::estimate(puzzle, Work::Sat).memory <= memory_limit;
    let mut highs = highs_member(puzzle, memory_limit);
    // When one member has proved its answer, the others get this long to report what they
    // reached (a member still building its model is not waited for).
    let mut wait_until: Option<Instant> = None;
    let (mut sat_yielded, mut milp_yielded) = (false, false);
    loop {
        if let Ok((index, answer)) = receiver.recv_timeout(Duration::from_millis(10)) {
            members[index].answer = Some(answer);
        }
        // A bug reported by one member is the answer, whatever the others say.
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
        // The helpers join on the schedule, or at once when the native search refused the
        // instance; never once the run is over.
        let open = wait_until.is_none() && (native.is_none() || native_failed);
        sat_due &= open;
        if !open {
            highs = None;
        }
        let elapsed = start.elapsed();
        if sat_due && (native_failed || elapsed >= schedule.sat_joins) {
            sat_due = false;
            let contender = Contender::Embedded(Backend::Sat);
            members.push(start_member(contender, members.len())?);
            continue;
        }
        if highs.is_some() && (native_failed || elapsed >= schedule.sat_yields) {
            let contender = highs.take().expect("checked");
            members.push(start_member(contender, members.len())?);
            continue;
        }
        if !sat_yielded && elapsed >= schedule.sat_yields {
            sat_yielded = true;
            yield_threads(&SAT_THREADS);
        }
        if !milp_yielded && elapsed >= schedule.milp_yields {
            milp_yielded = true;
            yield_threads(&MILP_THREADS);
        }
        let all_reported = members.iter().all(|m| m.answer.is_some());
        let waited = wait_until.is_some_and(|t| proven && Instant::now() >= t);
        if !sat_due && highs.is_none() && (all_reported || waited) {
            return combine(puzzle, goal, members, start.elapsed());
        }
    }
}

/// How long a member stopped by another's proof has to report what it reached.
const REPORT_WAIT: Duration = Duration::from_millis(30);

/// Starts `contender` on its own thread with a stop flag of its own; it reports as member
/// `index`. The native search is given the `bounds` computed for it; SAT too when their
/// LP is settled (a large model's LP, left to the native search, SAT solves itself, as
/// on its own).
fn start_member(
    puzzle: &Puzzle,
    contender: Contender,
    index: usize,
    bounds: Option<PackingBounds>,
    goal: Goal,
    control: &Control,
    sender: &mpsc::Sender<Report>,
) -> Result<Member, SolveError> {
    let settled = |b: &PackingBounds| !matches!(b.lp, LpOutcome::Unfinished | LpOutcome::Unsolved);
    let given = match contender {
        Contender::Embedded(Backend::Native) => bounds,
        Contender::Embedded(_) => bounds.filter(settled),
        Contender::External(_) => None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    // The native search keeps the caller's progress notes; the others' would interleave.
    let member_control = match contender {
        Contender::Embedded(Backend::Native) => control.with_stop(stop.clone()),
        _ => control.silent().with_stop(stop.clone()),
    };
    let (puzzle, sender) = (puzzle.clone(), sender.clone());
    let label = contender.label();
    let backend = contender.backend();
    std::thread::Builder::new()
        .name(thread_name(&contender))
        .spawn(move || {
            let answer = match &contender {
                Contender::Embedded(backend) => {
                    solve_knowing(&puzzle, *backend, goal, &member_control, given)
                }
                Contender::External(solver) => {
                    solve_external(&puzzle, solver, goal, &member_control)
                }
            };
            // The portfolio may have returned already (another member's bug); nothing
            // to tell it then.
            let _ = sender.send((index, answer));
        })
        .map_err(|e| SolveError::Backend {
            backend: backend.name(),
            failure: super::BackendFailure::Thread(e),
        })?;
    Ok(Member {
        label,
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
            Some(Err(error)) => failures.push((member.label, error)),
            None => silent.push(member.label),
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
    let others: Vec<MemberReached> = answered
        .iter()
        .map(|o| reached(o, &outcome))
        .chain(failures.iter().map(|(label, e)| MemberReached::Failed {
            label: label.clone(),
            error: e.to_string(),
        }))
        .chain(silent.iter().map(|label| MemberReached::Silent {
            label: label.clone(),
            waited_ms: REPORT_WAIT.as_millis() as u64,
        }))
        .collect();
    if !outcome.status.is_proven() {
        settle_by_bounds(puzzle, goal, &mut outcome, &answered);
    }
    if !others.is_empty() {
        outcome.evidence = Evidence::Portfolio {
            chosen: Box::new(outcome.evidence),
            others,
        };
    }
    outcome.elapsed = elapsed;
    Ok(outcome)
}

/// The stopped answer with the best value (the most pieces, or the fewest where that is
/// asked), the native search's on a tie.
fn best_unproven(answered: &[Outcome]) -> Option<usize> {
    (0..answered.len()).max_by_key(|&i| (answered[i].score(), std::cmp::Reverse(i)))
}

/// A stopped maximisation whose best packing meets a bound another member proved is
/// optimal: the bound is a refutation of one more piece, whoever found it.
fn settle_by_bounds(puzzle: &Puzzle, goal: Goal, outcome: &mut Outcome, others: &[Outcome]) {
    if goal != Goal::Maximise || !puzzle.has_objective() {
        return;
    }
    let (Some(value), Some(score)) = (outcome.value, outcome.score()) else {
        return;
    };
    // Compared as scores, which every family maximises.
    let tightest = others
        .iter()
        .filter_map(|o| o.score_bound().map(|b| (b, o)))
        .min_by_key(|(b, _)| *b);
    if let Some((bound, other)) = tightest {
        if bound == score {
            outcome.status = Status::Optimal;
            outcome.bound = Some(value);
            outcome.evidence = Evidence::MeetsMemberBound {
                label: outcome.label(),
                value,
                prover: other.label(),
                proof: Box::new(other.evidence.clone()),
            };
        } else if outcome.score_bound().is_none_or(|b| bound < b) {
            outcome.bound = Some(outcome.sense.value(bound));
        }
    }
}

/// What a member other than the chosen one had reached.
fn reached(other: &Outcome, chosen: &Outcome) -> MemberReached {
    MemberReached::Answered {
        label: other.label(),
        stopped_by: (chosen.status.is_proven() && !other.status.is_proven())
            .then(|| chosen.label()),
        value: other.value,
        status: other.status,
        bound: other.bound,
    }
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
            sense: crate::base::Sense::Most,
            // A stand-in in words: the portfolio carries it whatever it says.
            evidence: Evidence::Impossible {
                reason: format!("{} said so", backend.name()),
            },
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
            label: backend.name().to_string(),
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
            won.evidence.to_string(),
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
            best.evidence.to_string(),
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
                .to_string()
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
            won.evidence.to_string(),
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
