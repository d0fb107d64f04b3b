//! Dropping big things off the main thread.
//!
//! Replacing a build frees its artifacts, its stages' primitives, element
//! indexes and navigation mesh: millions of small allocations on a Quake
//! map, which took most of a hundred-millisecond frame when freed where
//! they were replaced. [`discard`] hands the value to a worker thread to
//! free instead; [`pending`] tells how many are still being freed, so a
//! measurement of the app's memory can wait for them.

use std::sync::atomic::{AtomicUsize, Ordering};

use bevy::tasks::AsyncComputeTaskPool;

/// Values handed to a worker and not yet dropped.
static PENDING: AtomicUsize = AtomicUsize::new(0);

/// How many [`discard`]ed values are still waiting to be dropped (each
/// [`discard_and_trim`] counts until its trim is done too).
pub fn pending() -> usize {
    PENDING.load(Ordering::Acquire)
}

/// Drops `value` on a worker thread (on this one when no pool runs, as in
/// plain unit tests).
pub fn discard<T: Send + 'static>(value: T) {
    match AsyncComputeTaskPool::try_get() {
        Some(pool) => {
            PENDING.fetch_add(1, Ordering::AcqRel);
            pool.spawn(async move {
                drop(value);
                PENDING.fetch_sub(1, Ordering::AcqRel);
            })
            .detach()
        }
        None => drop(value),
    }
}

/// [`discard`]s `value`, then hands the heap's free pages back to the
/// system: glibc's `malloc` keeps what is freed in its arenas for later
/// allocations, resident, which after a big stage let its data go
/// ([`crate::view::residency`]) was a fifth of the dungeon's memory.
/// Elsewhere (other C libraries) only the drop happens.
pub fn discard_and_trim<T: Send + 'static>(value: T) {
    discard(TrimAfter(Some(value)));
}

/// Drops what it holds, then trims the heap.
struct TrimAfter<T>(Option<T>);

impl<T> Drop for TrimAfter<T> {
    fn drop(&mut self) {
        drop(self.0.take());
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: `malloc_trim` takes the arenas' locks itself and releases
        // only pages no allocation uses; any thread may call it.
        unsafe {
            libc::malloc_trim(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{Sender, channel};
    use std::thread::ThreadId;

    /// Tells which thread dropped it.
    struct Tell(Sender<ThreadId>);

    impl Drop for Tell {
        fn drop(&mut self) {
            let _ = self.0.send(std::thread::current().id());
        }
    }

    #[test]
    fn the_value_is_dropped_on_another_thread_when_a_pool_runs() {
        AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::new);
        let (tx, rx) = channel();
        discard(Tell(tx));
        let on = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("dropped within 10 s");
        assert_ne!(on, std::thread::current().id());
    }

    #[test]
    fn a_value_discarded_with_a_trim_is_dropped_on_another_thread() {
        AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::new);
        let (tx, rx) = channel();
        discard_and_trim(vec![Tell(tx)]);
        let on = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("dropped within 10 s");
        assert_ne!(on, std::thread::current().id());
    }

    #[test]
    fn a_discard_is_pending_until_its_value_is_dropped() {
        AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::new);
        let (tx, rx) = channel::<()>();
        // Its drop blocks until the test lets it go.
        struct Hold(std::sync::mpsc::Receiver<()>);
        impl Drop for Hold {
            fn drop(&mut self) {
                let _ = self.0.recv_timeout(std::time::Duration::from_secs(10));
            }
        }
        discard(Hold(rx));
        assert!(pending() >= 1, "counted while its drop waits");
        tx.send(()).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while pending() > 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "still pending after 10 s"
            );
            std::thread::yield_now();
        }
    }
}
