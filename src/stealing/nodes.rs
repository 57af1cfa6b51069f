//! Node identities in compact form (Mira has 49,152 nodes).
//!
//! The node-stealing paper (Sections 3 and 4.2) is about *which* node a job loses and which node
//! it gets back, so nodes have identities `0..N` (the paper's `P_1..P_N` are ids `0..N−1`).
//! Two structures keep that cheap on a 49,152-node machine:
//! - [`NodeSet`]: the nodes of one job, a sorted list of disjoint half-open ranges `[a, b)`.
//!   Batch allocations are mostly contiguous, so a job of 8,192 nodes is a handful of ranges.
//! - [`NodeBitset`]: the free nodes of the platform, one bit per node, with a popcount, so that
//!   "the k lowest free nodes" is a scan of N/64 words, not a loop over nodes.
use std::fmt;

/// A set of node ids as sorted, disjoint, non-adjacent half-open ranges.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct NodeSet {
    ranges: Vec<(u32, u32)>,
}

impl NodeSet {
    /// The empty set.
    pub fn new() -> NodeSet {
        NodeSet { ranges: Vec::new() }
    }

    /// `{n}`.
    pub fn single(n: u32) -> NodeSet {
        NodeSet {
            ranges: vec![(n, n + 1)],
        }
    }

    /// `[a, b)`.
    pub fn range(a: u32, b: u32) -> NodeSet {
        if a >= b {
            NodeSet::new()
        } else {
            NodeSet {
                ranges: vec![(a, b)],
            }
        }
    }

    /// From arbitrary (possibly overlapping, unsorted) ranges.
    pub fn from_ranges(mut r: Vec<(u32, u32)>) -> NodeSet {
        r.retain(|&(a, b)| a < b);
        r.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(r.len());
        for (a, b) in r {
            match out.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => out.push((a, b)),
            }
        }
        NodeSet { ranges: out }
    }

    /// From a list of ids.
    pub fn from_ids(ids: &[u32]) -> NodeSet {
        NodeSet::from_ranges(ids.iter().map(|&n| (n, n + 1)).collect())
    }

    /// The ranges, sorted.
    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    /// Number of nodes.
    pub fn len(&self) -> u32 {
        self.ranges.iter().map(|&(a, b)| b - a).sum()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Membership (binary search on the ranges).
    pub fn contains(&self, n: u32) -> bool {
        let i = self.ranges.partition_point(|&(_, b)| b <= n);
        i < self.ranges.len() && self.ranges[i].0 <= n
    }

    /// All ids in increasing order (for small sets and tests).
    pub fn ids(&self) -> Vec<u32> {
        self.ranges.iter().flat_map(|&(a, b)| a..b).collect()
    }

    /// `self ∪ other`.
    pub fn union(&self, other: &NodeSet) -> NodeSet {
        let mut r = self.ranges.clone();
        r.extend_from_slice(&other.ranges);
        NodeSet::from_ranges(r)
    }

    /// `self ∖ {n}`.
    pub fn without(&self, n: u32) -> NodeSet {
        let mut out = Vec::with_capacity(self.ranges.len() + 1);
        for &(a, b) in &self.ranges {
            if n >= a && n < b {
                if a < n {
                    out.push((a, n));
                }
                if n + 1 < b {
                    out.push((n + 1, b));
                }
            } else {
                out.push((a, b));
            }
        }
        NodeSet { ranges: out }
    }

    /// Splits off the `k` lowest ids: `(lowest k, rest)`; `None` if fewer than `k` nodes.
    pub fn split_lowest(&self, k: u32) -> Option<(NodeSet, NodeSet)> {
        if self.len() < k {
            return None;
        }
        let mut low = Vec::new();
        let mut rest = Vec::new();
        let mut need = k;
        for &(a, b) in &self.ranges {
            if need == 0 {
                rest.push((a, b));
            } else if b - a <= need {
                low.push((a, b));
                need -= b - a;
            } else {
                low.push((a, a + need));
                rest.push((a + need, b));
                need = 0;
            }
        }
        Some((NodeSet { ranges: low }, NodeSet { ranges: rest }))
    }

    /// True when the sets share no node.
    pub fn is_disjoint(&self, other: &NodeSet) -> bool {
        let (mut i, mut j) = (0, 0);
        while i < self.ranges.len() && j < other.ranges.len() {
            let (a, b) = self.ranges[i];
            let (c, d) = other.ranges[j];
            if b <= c {
                i += 1;
            } else if d <= a {
                j += 1;
            } else {
                return false;
            }
        }
        true
    }
}

impl fmt::Debug for NodeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for NodeSet {
    /// `{0-3,7}` (ids, not the paper's 1-based `P_i`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, &(a, b)) in self.ranges.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            if b == a + 1 {
                write!(f, "{a}")?;
            } else {
                write!(f, "{a}-{}", b - 1)?;
            }
        }
        write!(f, "}}")
    }
}

/// One bit per node (bit set = member), with the member count kept up to date.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeBitset {
    words: Vec<u64>,
    n: u32,
    count: u32,
}

impl NodeBitset {
    /// The empty set over ids `0..n`.
    pub fn empty(n: u32) -> NodeBitset {
        NodeBitset {
            words: vec![0; (n as usize).div_ceil(64)],
            n,
            count: 0,
        }
    }

    /// All of `0..n`.
    pub fn full(n: u32) -> NodeBitset {
        let mut s = NodeBitset::empty(n);
        s.insert_range(0, n);
        s
    }

    /// Number of members.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Membership.
    pub fn contains(&self, i: u32) -> bool {
        i < self.n && self.words[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    /// Adds `[a, b)`; returns how many were already members (0 when the caller's invariant holds).
    pub fn insert_range(&mut self, a: u32, b: u32) -> u32 {
        let mut already = 0;
        self.for_words(a, b, |w, mask| {
            already += (*w & mask).count_ones();
            *w |= mask;
        });
        self.count += (b - a) - already;
        already
    }

    /// Removes `[a, b)`; returns how many were not members.
    pub fn remove_range(&mut self, a: u32, b: u32) -> u32 {
        let mut missing = 0;
        self.for_words(a, b, |w, mask| {
            missing += (!*w & mask).count_ones();
            *w &= !mask;
        });
        self.count -= (b - a) - missing;
        missing
    }

    /// Number of members in `[a, b)`.
    pub fn count_range(&self, a: u32, b: u32) -> u32 {
        self.count_set(&NodeSet::range(a, b))
    }

    /// Adds every node of `s`; returns how many were already members.
    pub fn insert_set(&mut self, s: &NodeSet) -> u32 {
        s.ranges()
            .iter()
            .map(|&(a, b)| self.insert_range(a, b))
            .sum()
    }

    /// Removes every node of `s`; returns how many were not members.
    pub fn remove_set(&mut self, s: &NodeSet) -> u32 {
        s.ranges()
            .iter()
            .map(|&(a, b)| self.remove_range(a, b))
            .sum()
    }

    /// Number of members of `s` that are in the bitset.
    pub fn count_set(&self, s: &NodeSet) -> u32 {
        let mut c = 0;
        for &(a, b) in s.ranges() {
            let (mut i, end) = (a, b.min(self.n));
            while i < end {
                let w = (i / 64) as usize;
                let lo = i % 64;
                let hi = ((w as u32 + 1) * 64).min(end) - w as u32 * 64;
                let mask = if hi - lo == 64 {
                    u64::MAX
                } else {
                    ((1u64 << (hi - lo)) - 1) << lo
                };
                c += (self.words[w] & mask).count_ones();
                i = w as u32 * 64 + hi;
            }
        }
        c
    }

    /// The lowest member.
    pub fn lowest(&self) -> Option<u32> {
        for (i, &w) in self.words.iter().enumerate() {
            if w != 0 {
                return Some(i as u32 * 64 + w.trailing_zeros());
            }
        }
        None
    }

    /// Removes and returns the `k` lowest members; `None` (and no change) if fewer than `k`.
    pub fn take_lowest(&mut self, k: u32) -> Option<NodeSet> {
        if k > self.count {
            return None;
        }
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        let mut need = k;
        let mut wi = 0usize;
        while need > 0 {
            let mut w = self.words[wi];
            while w != 0 && need > 0 {
                let lo = w.trailing_zeros();
                // Length of the run of ones starting at `lo`.
                let run = (!(w >> lo)).trailing_zeros().min(64 - lo);
                let take = run.min(need);
                let a = wi as u32 * 64 + lo;
                match ranges.last_mut() {
                    Some(last) if last.1 == a => last.1 += take,
                    _ => ranges.push((a, a + take)),
                }
                need -= take;
                let mask = if take == 64 {
                    u64::MAX
                } else {
                    ((1u64 << take) - 1) << lo
                };
                w &= !mask;
            }
            wi += 1;
        }
        let set = NodeSet { ranges };
        self.remove_set(&set);
        Some(set)
    }

    fn for_words(&mut self, a: u32, b: u32, mut f: impl FnMut(&mut u64, u64)) {
        let b = b.min(self.n);
        let mut i = a;
        while i < b {
            let w = (i / 64) as usize;
            let lo = i % 64;
            let hi = ((w as u32 + 1) * 64).min(b) - w as u32 * 64;
            let mask = if hi - lo == 64 {
                u64::MAX
            } else {
                ((1u64 << (hi - lo)) - 1) << lo
            };
            f(&mut self.words[w], mask);
            i = w as u32 * 64 + hi;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodeset_ops() {
        let s = NodeSet::from_ranges(vec![(5, 9), (0, 2), (2, 3), (20, 21)]);
        assert_eq!(s.ranges(), &[(0, 3), (5, 9), (20, 21)]);
        assert_eq!(s.len(), 8);
        assert!(
            s.contains(2) && s.contains(8) && s.contains(20) && !s.contains(3) && !s.contains(9)
        );
        assert_eq!(s.without(6).ranges(), &[(0, 3), (5, 6), (7, 9), (20, 21)]);
        let (lo, rest) = s.split_lowest(4).unwrap();
        assert_eq!(lo.ids(), vec![0, 1, 2, 5]);
        assert_eq!(rest.ids(), vec![6, 7, 8, 20]);
        assert!(s.split_lowest(9).is_none());
        assert!(lo.is_disjoint(&rest) && !lo.is_disjoint(&s));
        assert_eq!(lo.union(&rest), s);
        assert_eq!(format!("{s}"), "{0-2,5-8,20}");
    }

    #[test]
    fn bitset_take_lowest_matches_naive() {
        let mut b = NodeBitset::full(200);
        b.remove_range(3, 70);
        b.remove_range(130, 131);
        assert_eq!(b.count(), 200 - 67 - 1);
        assert_eq!(b.lowest(), Some(0));
        let t = b.take_lowest(70).unwrap();
        assert_eq!(
            t.ids(),
            (0..3).chain(70..130).chain(131..138).collect::<Vec<_>>()
        );
        assert_eq!(b.count(), 132 - 70);
        assert!(b.take_lowest(63).is_none());
        assert_eq!(b.count_set(&NodeSet::range(100, 150)), 12);
        assert_eq!(b.count_range(0, 200), 62);
        assert_eq!(b.insert_set(&t), 0);
        assert_eq!(b.count(), 132);
    }
}
