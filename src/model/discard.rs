//! Dropping big things off the main thread.
//!
//! Replacing a build frees its artifacts, its stages' primitives, element
//! indexes and navigation mesh: millions of small allocations on a Quake
//! map, which took most of a hundred-millisecond frame when freed where
//! they were replaced. [`discard`] hands the value to a worker thread to
//! free instead.

use bevy::tasks::AsyncComputeTaskPool;

/// Drops `value` on a worker thread (on this one when no pool runs, as in
/// plain unit tests).
pub fn discard<T: Send + 'static>(value: T) {
    match AsyncComputeTaskPool::try_get() {
        Some(pool) => pool.spawn(async move { drop(value) }).detach(),
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
}
