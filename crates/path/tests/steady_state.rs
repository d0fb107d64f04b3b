//! A Polyanya query in steady state allocates nothing, and an A* + funnel
//! query only A*'s node and link lists: once a [`PathFinder`]'s buffers
//! have grown to the mesh's searches, the same queries again make no other
//! heap allocation (counted by a global allocator wrapper in this test
//! binary).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::DVec3;
use navscope_path::sample::grid_mesh;
use navscope_path::{PathFinder, SearchOptions};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The count is global: the tests take turns, so that one does not count
/// the other's allocations.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn repeated_queries_allocate_nothing() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // A maze of walls, so the searches bend and expand many nodes.
    let mesh = grid_mesh(30, 30, |i, j| {
        i % 6 == 3 && if (i / 6) % 2 == 0 { j < 27 } else { j > 2 }
    });
    let mut finder = PathFinder::new(&mesh);
    let opts = SearchOptions::default();
    let queries = [
        (DVec3::new(0.5, 0.0, 0.5), DVec3::new(29.5, 0.0, 29.5)),
        (DVec3::new(10.2, 0.0, 3.7), DVec3::new(2.0, 0.0, 28.0)),
        (DVec3::new(29.0, 0.0, 1.0), DVec3::new(0.5, 0.0, 15.5)),
    ];
    let run = |finder: &mut PathFinder| {
        let mut total = 0.0;
        for (a, b) in queries {
            total += finder.polyanya(&mesh, a, b, &opts, false).unwrap().length;
        }
        total
    };
    let first = run(&mut finder);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let second = run(&mut finder);
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(first, second);
    assert!(first > 60.0);
    assert_eq!(after - before, 0, "allocations in steady state");
}

#[test]
fn repeated_astar_queries_allocate_only_the_node_and_link_lists() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Rooms of cells with detail-free polygons; the funnel bends.
    let mesh = grid_mesh(20, 20, |i, j| i % 5 == 2 && j % 7 != 3);
    let mut finder = PathFinder::new(&mesh);
    let opts = SearchOptions::default();
    let queries = [
        (DVec3::new(0.5, 0.0, 0.5), DVec3::new(19.5, 0.0, 19.5)),
        (DVec3::new(10.2, 0.0, 3.7), DVec3::new(1.0, 0.0, 18.0)),
    ];
    let run = |finder: &mut PathFinder| {
        let mut total = 0.0;
        for (a, b) in queries {
            finder.astar(&mesh, a, b, &opts).unwrap();
            total += navscope_path::path_length(finder.waypoints());
        }
        total
    };
    let first = run(&mut finder);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let second = run(&mut finder);
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(first, second);
    assert!(first > 30.0, "{first}");
    assert!(
        after - before <= 2 * queries.len(),
        "{} allocations for {} queries",
        after - before,
        queries.len()
    );
}
