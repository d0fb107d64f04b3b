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
}
