//! The index of a profile's blocks ([`super::steps::Steps`]): a segment tree over the blocks,
//! in their order, holding each block's smallest and largest free count (its pending addition
//! included). The searches of conservative backfilling ask "the next block with a count of at
//! least `p`" and "the last block before this one with a count below `p`"; with the tree each
//! is O(log B) for B blocks, where a walk over the blocks would be O(B) for every queued job
//! checked on a backlogged plan.
//!
//! A leaf past the last block holds the neutral pair (`i64::MAX`, `i64::MIN`), which no
//! question matches, so the tree can have a power-of-two width and each query is one climb and
//! one descent.

/// Smallest and largest count per block, and the same per subtree (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct BlockIndex {
    /// Leaves at `[width, 2 width)`; node `i` covers nodes `2i` and `2i + 1`; node 0 is unused.
    lo: Vec<i64>,
    hi: Vec<i64>,
    width: usize,
    /// Number of blocks (leaves in use).
    len: usize,
}

impl BlockIndex {
    /// The index of blocks with the given `(min, max)` counts, in order.
    pub(super) fn new(blocks: impl ExactSizeIterator<Item = (i64, i64)>) -> BlockIndex {
        let len = blocks.len();
        let width = len.next_power_of_two().max(1);
        let mut ix = BlockIndex {
            lo: vec![i64::MAX; 2 * width],
            hi: vec![i64::MIN; 2 * width],
            width,
            len,
        };
        for (k, (l, h)) in blocks.enumerate() {
            ix.lo[width + k] = l;
            ix.hi[width + k] = h;
        }
        for i in (1..width).rev() {
            ix.pull(i);
        }
        ix
    }

    fn pull(&mut self, i: usize) {
        self.lo[i] = self.lo[2 * i].min(self.lo[2 * i + 1]);
        self.hi[i] = self.hi[2 * i].max(self.hi[2 * i + 1]);
    }

    /// Sets block `b`'s counts.
    pub(super) fn set(&mut self, b: usize, lo: i64, hi: i64) {
        debug_assert!(b < self.len);
        let mut i = self.width + b;
        self.lo[i] = lo;
        self.hi[i] = hi;
        while i > 1 {
            i /= 2;
            self.pull(i);
        }
    }

    /// Sets the counts of blocks `from, from + 1, …` to `counts`, and updates their ancestors
    /// once each: O(k + log B) for k blocks, where one `set` per block would be O(k log B).
    pub(super) fn set_run(&mut self, from: usize, counts: impl Iterator<Item = (i64, i64)>) {
        let (mut l, mut r) = (self.width + from, self.width + from);
        for (lo, hi) in counts {
            debug_assert!(r - self.width < self.len);
            self.lo[r] = lo;
            self.hi[r] = hi;
            r += 1;
        }
        if l == r {
            return;
        }
        r -= 1;
        while l > 1 {
            (l, r) = (l / 2, r / 2);
            for i in l..=r {
                self.pull(i);
            }
        }
    }

    /// The first block at or after `from` whose largest count is at least `p`.
    pub(super) fn first_reaching(&self, from: usize, p: i64) -> Option<usize> {
        if from >= self.len {
            return None;
        }
        let mut i = self.width + from;
        loop {
            if self.hi[i] >= p {
                while i < self.width {
                    i *= 2;
                    if self.hi[i] < p {
                        i += 1;
                    }
                }
                return Some(i - self.width);
            }
            // The next subtree to the right: climb while `i` is a right child.
            while i % 2 == 1 {
                if i == 1 {
                    return None;
                }
                i /= 2;
            }
            i += 1;
        }
    }

    /// The first block at or after `from` whose smallest count is below `p`.
    pub(super) fn first_below(&self, from: usize, p: i64) -> Option<usize> {
        if from >= self.len {
            return None;
        }
        let mut i = self.width + from;
        loop {
            if self.lo[i] < p {
                while i < self.width {
                    i *= 2;
                    if self.lo[i] >= p {
                        i += 1;
                    }
                }
                return Some(i - self.width);
            }
            while i % 2 == 1 {
                if i == 1 {
                    return None;
                }
                i /= 2;
            }
            i += 1;
        }
    }

    /// The last block in `[from, to]` whose smallest count is below `p`.
    pub(super) fn last_below(&self, from: usize, to: usize, p: i64) -> Option<usize> {
        if from > to || to >= self.len {
            return None;
        }
        let mut i = self.width + to;
        loop {
            if self.lo[i] < p {
                while i < self.width {
                    i = 2 * i + 1;
                    if self.lo[i] >= p {
                        i -= 1;
                    }
                }
                let b = i - self.width;
                return (b >= from).then_some(b);
            }
            // The next subtree to the left: climb while `i` is a left child.
            while i % 2 == 0 {
                i /= 2;
            }
            if i == 1 {
                return None;
            }
            i -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// Every query against the plain scan over the leaves, on random counts and updates.
    #[test]
    fn queries_answer_as_the_plain_scan() {
        for seed in 0..40u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let n = rng.random_range(1..=40usize);
            let mut c: Vec<(i64, i64)> = (0..n)
                .map(|_| {
                    let a = rng.random_range(-5..20i64);
                    (a, a + rng.random_range(0..10i64))
                })
                .collect();
            let mut ix = BlockIndex::new(c.iter().copied());
            for round in 0..30 {
                match rng.random_range(0..3u8) {
                    0 => {
                        let b = rng.random_range(0..n);
                        let a = rng.random_range(-5..20i64);
                        c[b] = (a, a + rng.random_range(0..10i64));
                        ix.set(b, c[b].0, c[b].1);
                    }
                    1 => {
                        let f = rng.random_range(0..n);
                        let t = rng.random_range(f..=n);
                        let d = rng.random_range(-3..4i64);
                        for x in &mut c[f..t] {
                            *x = (x.0 + d, x.1 + d);
                        }
                        ix.set_run(f, c[f..t].iter().copied());
                    }
                    _ => {}
                }
                let ctx = format!("seed {seed}, round {round}, counts {c:?}");
                for p in -6..32i64 {
                    for f in 0..=n {
                        let want = (f..n).find(|&b| c[b].1 >= p);
                        assert_eq!(ix.first_reaching(f, p), want, "{ctx}, p {p}, from {f}");
                        let want = (f..n).find(|&b| c[b].0 < p);
                        assert_eq!(ix.first_below(f, p), want, "{ctx}, p {p}, from {f}");
                        if f < n {
                            let t = rng.random_range(f..n);
                            let want = (f..=t).rev().find(|&b| c[b].0 < p);
                            assert_eq!(ix.last_below(f, t, p), want, "{ctx}, p {p}, [{f}, {t}]");
                        }
                    }
                }
            }
        }
    }
}
