//! Which nodes reach which, over the links the search may use.

use navscope_core::NavMesh;
use navscope_path::SearchOptions;

/// The usable links of a mesh as adjacency lists, both ways.
pub struct Graph {
    /// `out[v]`: the nodes a usable link from `v` leads to.
    pub out: Vec<Vec<u32>>,
    /// `into[v]`: the nodes with a usable link to `v`.
    pub into: Vec<Vec<u32>>,
}

impl Graph {
    /// The links [`navscope_path::astar`] would cross: both ends exist,
    /// the kind is allowed and neither end's stance is forbidden.
    pub fn new(mesh: &NavMesh, opts: &SearchOptions) -> Self {
        let n = mesh.nodes.len();
        let usable = |v: u32| {
            mesh.nodes
                .get(v as usize)
                .is_some_and(|node| opts.stance_multiplier(node.stance).is_finite())
        };
        let mut out = vec![Vec::new(); n];
        let mut into = vec![Vec::new(); n];
        for l in &mesh.links {
            if opts.allows(l.kind) && usable(l.from) && usable(l.to) {
                out[l.from as usize].push(l.to);
                into[l.to as usize].push(l.from);
            }
        }
        Self { out, into }
    }

    /// Every node reached from `start` following links forwards (or
    /// backwards: every node that reaches `start`), `start` included;
    /// empty when `start` is not a node.
    pub fn reach(&self, start: u32, backwards: bool) -> Vec<u32> {
        let adj = if backwards { &self.into } else { &self.out };
        if start as usize >= adj.len() {
            return Vec::new();
        }
        let mut seen = vec![false; adj.len()];
        seen[start as usize] = true;
        let mut order = vec![start];
        let mut k = 0;
        while k < order.len() {
            for &w in &adj[order[k] as usize] {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    order.push(w);
                }
            }
            k += 1;
        }
        order
    }

    /// The strongly connected components (nodes that reach each other),
    /// as a component index per node; iterative Tarjan, so deep meshes do
    /// not overflow the stack.
    pub fn components(&self) -> (Vec<usize>, usize) {
        let n = self.out.len();
        const UNSEEN: usize = usize::MAX;
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0; n];
        let mut on_stack = vec![false; n];
        let mut comp = vec![UNSEEN; n];
        let mut stack = Vec::new();
        let mut next = 0;
        let mut count = 0;
        for root in 0..n {
            if index[root] != UNSEEN {
                continue;
            }
            // (node, position in its adjacency list)
            let mut call = vec![(root, 0usize)];
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut i)) = call.last_mut() {
                if let Some(&w) = self.out[v].get(*i) {
                    *i += 1;
                    let w = w as usize;
                    if index[w] == UNSEEN {
                        index[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        call.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = count;
                        if w == v {
                            break;
                        }
                    }
                    count += 1;
                }
            }
        }
        (comp, count)
    }
}
