//! Jobs of uneven size on every core, largest first.
//!
//! The per-tile stages have a few jobs of very different sizes: with
//! 96-cell tiles `dungeon.obj` has nine tiles, two of which take a quarter
//! of the voxelize stage each. rayon's parallel iterators hand each thread
//! a half of the list and steal by halves, so one thread can take the two
//! largest jobs one after the other while the other runs out of work. Here
//! the jobs are taken from one queue, largest first (longest processing
//! time first: every thread takes the largest job left as soon as it is
//! free), which keeps the threads' ends within a small job of each other.
//!
//! The results come back in the jobs' order whatever the order they ran
//! in, so a stage's output does not depend on the scheduling.
//!
//! A thread of the pool that has slept needs long to wake on a virtual
//! machine: 0.36 ms median after a 2 ms pause on a two-core virtual machine, and
//! up to 1 ms within a build: the serial work of a stage and the runner's
//! counting between stages are long enough for rayon to put its threads to
//! sleep, so a stage would run alone on one thread until the second woke. So after each call every thread of the pool stays awake for
//! [`STAY_AWAKE`], running whatever the pool is given (rayon's
//! `yield_now`) and yielding its core otherwise, and the next stage's jobs
//! start on both threads within microseconds. A build's stages follow each
//! other within that time; once a build ends the threads sleep again.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long the pool's threads stay awake after a call (see the module
/// docs): longer than the pause between two stages of a build, short
/// enough that an idle app does not keep a core busy.
pub const STAY_AWAKE: Duration = Duration::from_millis(2);

/// Threads kept awake now, across all calls.
static AWAKE: AtomicUsize = AtomicUsize::new(0);

/// Runs `run(i)` for every job `i` in `0..costs.len()` on the current
/// rayon pool's threads, the largest `costs[i]` first (ties in index
/// order), and returns the results in job order. With one thread, or one
/// job, they run in order on the calling thread.
pub fn largest_first<R, F>(costs: &[u64], run: F) -> Vec<R>
where
    R: Send,
    F: Fn(usize) -> R + Sync,
{
    let n = costs.len();
    let threads = rayon::current_num_threads().min(n);
    if threads <= 1 {
        return (0..n).map(run).collect();
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(costs[i]));
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(n));
    let work = || {
        let mut mine = Vec::new();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(&i) = order.get(k) else { break };
            mine.push((i, run(i)));
        }
        done.lock().unwrap_or_else(|e| e.into_inner()).extend(mine);
    };
    rayon::scope(|s| {
        for _ in 1..threads {
            s.spawn(|_| work());
        }
        work();
    });
    keep_awake(threads);
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Keeps up to `helpers` of the pool's threads awake for [`STAY_AWAKE`]
/// after their last job, each running the pool's jobs as they come.
fn keep_awake(helpers: usize) {
    let mut now = AWAKE.load(Ordering::Relaxed);
    while now < helpers {
        match AWAKE.compare_exchange(now, now + 1, Ordering::AcqRel, Ordering::Relaxed) {
            Ok(_) => {
                rayon::spawn(stay_awake);
                now += 1;
            }
            Err(seen) => now = seen,
        }
    }
}

/// Runs the pool's jobs until none has come for [`STAY_AWAKE`].
fn stay_awake() {
    let mut until = Instant::now() + STAY_AWAKE;
    while Instant::now() < until {
        match rayon::yield_now() {
            Some(rayon::Yield::Executed) => until = Instant::now() + STAY_AWAKE,
            _ => std::thread::yield_now(),
        }
    }
    AWAKE.fetch_sub(1, Ordering::AcqRel);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;
    use std::sync::atomic::AtomicU64;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    proptest! {
        /// Every job runs exactly once and its result lands at its index,
        /// whatever the costs and the thread count.
        #[test]
        fn every_job_runs_once_in_job_order(
            costs in prop::collection::vec(0u64..1000, 0..64),
            threads in 1usize..5,
        ) {
            let runs: Vec<AtomicU64> = costs.iter().map(|_| AtomicU64::new(0)).collect();
            let out = pool(threads).install(|| {
                largest_first(&costs, |i| {
                    runs[i].fetch_add(1, Ordering::Relaxed);
                    i * 3 + 1
                })
            });
            prop_assert_eq!(out, (0..costs.len()).map(|i| i * 3 + 1).collect::<Vec<_>>());
            prop_assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == 1));
        }
    }

    /// With one thread the jobs run in index order on the calling thread;
    /// with several, the largest is taken first.
    #[test]
    fn one_thread_runs_in_order_and_several_start_with_the_largest() {
        let costs = [1, 7, 3, 9, 2];
        let started = Mutex::new(Vec::new());
        let record = |i: usize| started.lock().unwrap().push(i);
        pool(1).install(|| largest_first(&costs, record));
        assert_eq!(*started.lock().unwrap(), vec![0, 1, 2, 3, 4]);
        started.lock().unwrap().clear();
        pool(2).install(|| largest_first(&costs, record));
        let order = started.lock().unwrap().clone();
        assert_eq!(order.iter().copied().collect::<HashSet<_>>().len(), 5);
        // The first job to start is one of the two the threads take first,
        // jobs 3 and 1 (costs 9 and 7): a thread records its first job
        // before it takes another, so no later job can start before both.
        assert!([3, 1].contains(&order[0]), "started {order:?}");
    }

    /// No job: no call, no result.
    #[test]
    fn no_jobs_give_no_results() {
        let out: Vec<u8> = pool(3).install(|| largest_first(&[], |_| unreachable!()));
        assert!(out.is_empty());
    }
}
