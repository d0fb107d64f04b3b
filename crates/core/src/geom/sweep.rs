//! A plane sweep (Shamos and Hoey) that decides whether the edges of a set
//! of rings meet anywhere other than where neighbouring edges share their
//! vertex, and, when none do, how the rings nest.
//!
//! Time O(n log n), memory O(n) for n edges, whatever the shape (a star
//! whose edges all overlap in their bounding boxes costs no more than a
//! grid of squares). Every decision uses the exact `orient` predicate.
//!
//! Before the sweep: repeated vertices (a ring visiting a point twice, two
//! rings sharing a vertex) are found by sorting the vertices, and
//! neighbouring edges that fold back onto each other by a local test; so
//! during the sweep every vertex is distinct, and two edges that meet
//! where they are not neighbours meet in a point the sweep finds.
//!
//! The status (edges crossing the sweep line, bottom to top) is a treap
//! with parent links, priorities from a hash of the edge number so runs
//! are deterministic. Events are processed in lexicographic (x, y) order,
//! an edge's removal before any insertion at the same point.

use std::cmp::Ordering;

use glam::DVec2;

use super::predicates::{Orientation, SegmentHit, orient, segment_intersection};

/// One edge of a ring: from vertex `index` to the next one.
#[derive(Clone, Copy, Debug)]
struct Edge {
    /// Start and end in ring order.
    a: DVec2,
    b: DVec2,
    /// Lexicographically smaller and larger end.
    left: DVec2,
    right: DVec2,
    ring: usize,
    /// Position of the edge in its (deduplicated) ring.
    index: usize,
}

/// Where two edges (or an edge with itself at a repeated vertex) meet:
/// `(ring, vertex index)` of each and the point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Meeting {
    /// Ring and edge index (into the ring as given) of the first edge.
    pub first: (usize, usize),
    /// Ring and edge index of the second edge.
    pub second: (usize, usize),
    /// A point where they meet.
    pub point: DVec2,
}

/// What the sweep found about rings that do not meet: for each ring the
/// ring that most closely contains it (`None` for rings inside no other).
pub(super) type Parents = Vec<Option<usize>>;

/// Lexicographic order of finite points.
fn lex(p: DVec2, q: DVec2) -> Ordering {
    p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y))
}

/// Points with `-0.0` written as `0.0`, so that `lex` agrees with `==`.
fn canonical(p: DVec2) -> DVec2 {
    DVec2::new(p.x + 0.0, p.y + 0.0)
}

/// Rings without consecutive repeated vertices, with each kept vertex's
/// index in the ring as given.
fn dedup(rings: &[&[DVec2]]) -> Vec<Vec<(DVec2, usize)>> {
    rings
        .iter()
        .map(|r| {
            let mut out: Vec<(DVec2, usize)> = Vec::with_capacity(r.len());
            for (i, &p) in r.iter().enumerate() {
                let p = canonical(p);
                if out.last().is_none_or(|q| q.0 != p) {
                    out.push((p, i));
                }
            }
            while out.len() > 1 && out.first().map(|q| q.0) == out.last().map(|q| q.0) {
                out.pop();
            }
            out
        })
        .collect()
}

/// Checks that the rings (finite coordinates, at least three distinct
/// vertices each) meet nowhere except where neighbouring edges of one ring
/// share their vertex; on success, how they nest.
pub(super) fn sweep(rings: &[&[DVec2]]) -> Result<Parents, Meeting> {
    let rings = dedup(rings);
    let original = |ring: usize, i: usize| rings[ring][i].1;
    let meeting = |e: &Edge, f: &Edge, point: DVec2| Meeting {
        first: (e.ring, original(e.ring, e.index)),
        second: (f.ring, original(f.ring, f.index)),
        point,
    };
    let (edges, first_edge) = build_edges(&rings);
    let adjacent = |e: &Edge, f: &Edge| {
        let n = rings[e.ring].len();
        e.ring == f.ring && ((e.index + 1) % n == f.index || (f.index + 1) % n == e.index)
    };
    if let Some((e, f, point)) = fold_back(&rings, &edges, &first_edge) {
        return Err(meeting(&edges[e], &edges[f], point));
    }
    let meet = |e: &Edge, f: &Edge| -> Result<(), Meeting> {
        if adjacent(e, f)
            || e.right.x < f.left.x
            || f.right.x < e.left.x
            || e.left.y.max(e.right.y) < f.left.y.min(f.right.y)
            || f.left.y.max(f.right.y) < e.left.y.min(e.right.y)
        {
            // Neighbours of one ring, or boxes apart: they cannot meet.
            return Ok(());
        }
        match segment_intersection(e.a, e.b, f.a, f.b) {
            SegmentHit::None => Ok(()),
            SegmentHit::Point(p) | SegmentHit::Overlap(p, _) => Err(meeting(e, f, p)),
        }
    };
    let (lowest, ccw) = lowest_vertices(&rings);
    // Events as integer keys (x, y, then removal before insertion, then
    // edge): sorting integers is several times faster than comparing f64
    // pairs through a closure, and it matters at a million edges.
    let mut events: Vec<(u64, u64, u32)> = Vec::with_capacity(2 * edges.len());
    for (i, e) in edges.iter().enumerate() {
        let i = u32::try_from(i).expect("fewer than 2^31 edges");
        events.push((key(e.right.x), key(e.right.y), i));
        events.push((key(e.left.x), key(e.left.y), INSERT | i));
    }
    events.sort_unstable();
    repeated_vertex(&events, &edges, &rings)?;
    let mut status = Treap::new(edges.len());
    let mut parent: Vec<Option<Option<usize>>> = vec![None; rings.len()];
    for (_, _, tagged) in events {
        let id = (tagged & !INSERT) as usize;
        let insert = tagged & INSERT != 0;
        let p = if insert {
            edges[id].left
        } else {
            edges[id].right
        };
        if !insert {
            let (below, above) = (status.prev(id), status.next(id));
            status.remove(id);
            if let (Some(u), Some(v)) = (below, above) {
                meet(&edges[u], &edges[v])?;
            }
            continue;
        }
        let s = edges[id];
        status.insert(id, |t| {
            let t = &edges[t];
            match orient(t.left, t.right, p) {
                Orientation::CounterClockwise => Ok(Ordering::Greater),
                Orientation::Clockwise => Ok(Ordering::Less),
                // Both start here: order by where they go.
                Orientation::Collinear if p == t.left => match orient(t.left, t.right, s.right) {
                    Orientation::CounterClockwise => Ok(Ordering::Greater),
                    Orientation::Clockwise => Ok(Ordering::Less),
                    Orientation::Collinear => Err(meeting(&s, t, p)),
                },
                // An active edge through the point: they touch here.
                Orientation::Collinear => Err(meeting(&s, t, p)),
            }
        })?;
        let below = status.prev(id);
        for n in [below, status.next(id)].into_iter().flatten() {
            meet(&s, &edges[n])?;
        }
        if p == lowest[s.ring] && parent[s.ring].is_none() {
            match below {
                None => parent[s.ring] = Some(None),
                Some(u) if edges[u].ring == s.ring => {}
                Some(u) => {
                    let u = &edges[u];
                    let inside_above = (lex(u.a, u.b) == Ordering::Less) == ccw[u.ring];
                    parent[s.ring] = Some(if inside_above {
                        Some(u.ring)
                    } else {
                        parent[u.ring].flatten()
                    });
                }
            }
        }
    }
    Ok(parent.into_iter().map(Option::flatten).collect())
}

/// Every ring's edges, ring after ring, and where each ring's edges start.
fn build_edges(rings: &[Vec<(DVec2, usize)>]) -> (Vec<Edge>, Vec<usize>) {
    let mut edges = Vec::with_capacity(rings.iter().map(Vec::len).sum());
    let mut first_edge = Vec::with_capacity(rings.len());
    for (ring, pts) in rings.iter().enumerate() {
        first_edge.push(edges.len());
        let n = pts.len();
        for i in 0..n {
            let (a, b) = (pts[i].0, pts[(i + 1) % n].0);
            let (left, right) = if lex(a, b) == Ordering::Less {
                (a, b)
            } else {
                (b, a)
            };
            edges.push(Edge {
                a,
                b,
                left,
                right,
                ring,
                index: i,
            });
        }
    }
    (edges, first_edge)
}

/// Neighbouring edges that fold back onto each other (a spike of zero
/// width): the two edges and the far end of their overlap.
fn fold_back(
    rings: &[Vec<(DVec2, usize)>],
    edges: &[Edge],
    first_edge: &[usize],
) -> Option<(usize, usize, DVec2)> {
    for (ring, pts) in rings.iter().enumerate() {
        let n = pts.len();
        for i in 0..n {
            let (ei, fi) = (first_edge[ring] + (i + n - 1) % n, first_edge[ring] + i);
            let (e, f) = (&edges[ei], &edges[fi]);
            // Only a turn back along the same line overlaps: test that
            // first, cheaply, before computing where.
            let folds =
                orient(e.a, e.b, f.b) == Orientation::Collinear && (e.b - e.a).dot(f.b - f.a) < 0.0;
            if !folds {
                continue;
            }
            if let SegmentHit::Overlap(p, q) = segment_intersection(e.a, e.b, f.a, f.b) {
                return Some((ei, fi, if p == f.a { q } else { p }));
            }
        }
    }
    None
}

/// The lexicographically smallest vertex of each ring, and whether the
/// ring winds counter-clockwise, read there (exact: once fold-backs are
/// excluded its neighbours are not collinear with it).
fn lowest_vertices(rings: &[Vec<(DVec2, usize)>]) -> (Vec<DVec2>, Vec<bool>) {
    rings
        .iter()
        .map(|r| {
            let n = r.len();
            let i = (0..n).min_by(|&i, &j| lex(r[i].0, r[j].0)).unwrap_or(0);
            let ccw = n >= 3
                && orient(r[(i + n - 1) % n].0, r[i].0, r[(i + 1) % n].0)
                    == Orientation::CounterClockwise;
            (r.get(i).map_or(DVec2::ZERO, |q| q.0), ccw)
        })
        .unzip()
}

/// Flag of an insertion in an event's edge word.
const INSERT: u32 = 1 << 31;

/// Sort key of a finite coordinate: the order of the keys is the order of
/// the numbers (`-0.0` and `0.0` share a key).
fn key(v: f64) -> u64 {
    let bits = (v + 0.0).to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

/// A vertex that occurs twice (in one ring or in two), read from the sorted
/// events: each vertex is the end of exactly its two edges, so a point
/// with more than two events is a repeated vertex. The smallest such point
/// is reported, with the two smallest (ring, vertex) pairs found there.
fn repeated_vertex(
    events: &[(u64, u64, u32)],
    edges: &[Edge],
    rings: &[Vec<(DVec2, usize)>],
) -> Result<(), Meeting> {
    let mut start = 0;
    while start < events.len() {
        let at = (events[start].0, events[start].1);
        let mut end = start + 1;
        while end < events.len() && (events[end].0, events[end].1) == at {
            end += 1;
        }
        if end - start > 2 {
            let mut vertices: Vec<(usize, usize)> = events[start..end]
                .iter()
                .map(|&(_, _, tagged)| {
                    let e = &edges[(tagged & !INSERT) as usize];
                    let p = if tagged & INSERT != 0 {
                        e.left
                    } else {
                        e.right
                    };
                    let n = rings[e.ring].len();
                    let v = if p == e.a { e.index } else { (e.index + 1) % n };
                    (e.ring, rings[e.ring][v].1)
                })
                .collect();
            vertices.sort_unstable();
            vertices.dedup();
            let e = &edges[(events[start].2 & !INSERT) as usize];
            let point = if events[start].2 & INSERT != 0 {
                e.left
            } else {
                e.right
            };
            return Err(Meeting {
                first: vertices[0],
                second: vertices[1],
                point,
            });
        }
        start = end;
    }
    Ok(())
}

const NIL: u32 = u32::MAX;

/// A node of the status treap; node `i` holds edge `i`.
#[derive(Clone, Copy)]
struct Node {
    left: u32,
    right: u32,
    parent: u32,
    priority: u64,
}

/// An ordered set of edge numbers whose order is given by a comparison at
/// insertion time only; neighbours and removal follow parent links, so
/// they never compare.
struct Treap {
    nodes: Vec<Node>,
    root: u32,
}

/// SplitMix64: a fixed, well-mixed priority per edge.
fn priority(i: usize) -> u64 {
    let mut z = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Treap {
    fn new(n: usize) -> Self {
        Self {
            nodes: (0..n)
                .map(|i| Node {
                    left: NIL,
                    right: NIL,
                    parent: NIL,
                    priority: priority(i),
                })
                .collect(),
            root: NIL,
        }
    }

    /// Inserts `id`; `cmp(t)` says where `id` goes against `t` already in
    /// the set (`Less`: before it). An error from `cmp` stops the insertion
    /// and is returned.
    fn insert<E>(
        &mut self,
        id: usize,
        mut cmp: impl FnMut(usize) -> Result<Ordering, E>,
    ) -> Result<(), E> {
        let x = id as u32;
        let (mut parent, mut go_left) = (NIL, false);
        let mut cur = self.root;
        while cur != NIL {
            parent = cur;
            go_left = cmp(cur as usize)? == Ordering::Less;
            cur = if go_left {
                self.nodes[cur as usize].left
            } else {
                self.nodes[cur as usize].right
            };
        }
        self.nodes[id] = Node {
            left: NIL,
            right: NIL,
            parent,
            priority: self.nodes[id].priority,
        };
        if parent == NIL {
            self.root = x;
        } else if go_left {
            self.nodes[parent as usize].left = x;
        } else {
            self.nodes[parent as usize].right = x;
        }
        while self.nodes[id].parent != NIL
            && self.nodes[self.nodes[id].parent as usize].priority < self.nodes[id].priority
        {
            self.rotate_up(x);
        }
        Ok(())
    }

    /// Removes `id` (which must be in the set).
    fn remove(&mut self, id: usize) {
        loop {
            let Node { left, right, .. } = self.nodes[id];
            let child = match (left, right) {
                (NIL, NIL) => break,
                (c, NIL) | (NIL, c) => c,
                (l, r) => {
                    if self.nodes[l as usize].priority > self.nodes[r as usize].priority {
                        l
                    } else {
                        r
                    }
                }
            };
            self.rotate_up(child);
        }
        let p = self.nodes[id].parent;
        if p == NIL {
            self.root = NIL;
        } else if self.nodes[p as usize].left == id as u32 {
            self.nodes[p as usize].left = NIL;
        } else {
            self.nodes[p as usize].right = NIL;
        }
        self.nodes[id].parent = NIL;
    }

    /// Rotates `x` above its parent.
    fn rotate_up(&mut self, x: u32) {
        let xi = x as usize;
        let p = self.nodes[xi].parent;
        let pi = p as usize;
        let g = self.nodes[pi].parent;
        if self.nodes[pi].left == x {
            let moved = self.nodes[xi].right;
            self.nodes[pi].left = moved;
            if moved != NIL {
                self.nodes[moved as usize].parent = p;
            }
            self.nodes[xi].right = p;
        } else {
            let moved = self.nodes[xi].left;
            self.nodes[pi].right = moved;
            if moved != NIL {
                self.nodes[moved as usize].parent = p;
            }
            self.nodes[xi].left = p;
        }
        self.nodes[pi].parent = x;
        self.nodes[xi].parent = g;
        if g == NIL {
            self.root = x;
        } else if self.nodes[g as usize].left == p {
            self.nodes[g as usize].left = x;
        } else {
            self.nodes[g as usize].right = x;
        }
    }

    /// The element just before `id`.
    fn prev(&self, id: usize) -> Option<usize> {
        self.step(id, |n| n.left, |n| n.right)
    }

    /// The element just after `id`.
    fn next(&self, id: usize) -> Option<usize> {
        self.step(id, |n| n.right, |n| n.left)
    }

    /// In-order neighbour: down `toward` once and then `away` to the end,
    /// or up until arriving from the `away` side.
    fn step(&self, id: usize, toward: fn(&Node) -> u32, away: fn(&Node) -> u32) -> Option<usize> {
        let mut c = toward(&self.nodes[id]);
        if c != NIL {
            while away(&self.nodes[c as usize]) != NIL {
                c = away(&self.nodes[c as usize]);
            }
            return Some(c as usize);
        }
        let mut x = id as u32;
        let mut p = self.nodes[id].parent;
        while p != NIL && toward(&self.nodes[p as usize]) == x {
            x = p;
            p = self.nodes[p as usize].parent;
        }
        (p != NIL).then_some(p as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn treap_keeps_order_and_neighbours() {
        let keys: Vec<i64> = (0..200).map(|i| (i * 7919) % 211).collect();
        let mut t = Treap::new(keys.len());
        for i in 0..keys.len() {
            t.insert(i, |j| Ok::<_, ()>(keys[i].cmp(&keys[j]))).unwrap();
        }
        for i in (0..keys.len()).step_by(3) {
            t.remove(i);
        }
        let mut live: Vec<usize> = (0..keys.len()).filter(|i| i % 3 != 0).collect();
        live.sort_by_key(|&i| keys[i]);
        for w in live.windows(2) {
            assert_eq!(t.next(w[0]), Some(w[1]));
            assert_eq!(t.prev(w[1]), Some(w[0]));
        }
        assert_eq!(t.prev(live[0]), None);
        assert_eq!(t.next(*live.last().unwrap()), None);
    }
}
