//! Move generation and make-move never touch the heap: a counting global allocator watches perft
//! and random playouts of every game (this test binary's allocator only).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use otau::games::{AnyGame, Game, MoveList};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Only the test's own thread is watched: the test harness allocates on other threads.
    static WATCHED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if WATCHED.with(|w| w.get()) {
            ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn movegen_and_play_do_not_allocate() {
    WATCHED.with(|w| w.set(true));
    for id in [
        "toguz-kumalak",
        "toguz-kumalak-7",
        "bestemshe",
        "giuthi",
        "giuthi-5x4",
        "giuthi-10x9",
        "modiar",
    ] {
        let start = AnyGame::start(id.parse().unwrap());
        // A sanity check that the counter works: this allocates.
        let probe = ALLOCATIONS.load(Ordering::SeqCst);
        std::hint::black_box(vec![0u8; 16]);
        assert!(ALLOCATIONS.load(Ordering::SeqCst) > probe);
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        let nodes = otau::with_game!(&start, g => otau::perft::perft(g, 4));
        // A long playout with generation, play, hashing and end checks at every ply.
        let mut pos = start.clone();
        let mut list = MoveList::new();
        let mut x = 7u64;
        for _ in 0..10_000 {
            list.clear();
            pos.generate_moves(&mut list);
            if list.is_empty() || pos.final_result().is_some() {
                pos = start.clone();
                continue;
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = list[(x >> 33) as usize % list.len()];
            pos.play(mv);
            std::hint::black_box(pos.hash());
        }
        let after = ALLOCATIONS.load(Ordering::SeqCst);
        assert!(nodes > 0);
        assert_eq!(after - before, 0, "{id}: {} allocations", after - before);
    }
}
