//! The min-segment-tree behind GREEDY (rigid paper Section 4.1, Algorithm 1 with m = 0): over
//! queue positions, leaf = processors of the queued job, `u32::MAX` when the position is not
//! queued; "the first queued job that fits in x free processors" is "the first position whose
//! value is ≤ x", found in O(log n).
#[derive(Debug, Clone)]
pub(super) struct MinTree {
    size: usize,
    v: Vec<u32>,
}

impl MinTree {
    pub(super) fn new(n: usize) -> MinTree {
        let size = n.next_power_of_two().max(1);
        MinTree {
            size,
            v: vec![u32::MAX; 2 * size],
        }
    }

    /// Sets every leaf from `leaves` (others absent) and rebuilds in O(n).
    pub(super) fn fill(&mut self, leaves: &[u32]) {
        let size = self.size;
        self.v[size..size + leaves.len()].copy_from_slice(leaves);
        self.v[size + leaves.len()..].fill(u32::MAX);
        for i in (1..size).rev() {
            self.v[i] = self.v[2 * i].min(self.v[2 * i + 1]);
        }
    }

    pub(super) fn set(&mut self, pos: usize, val: u32) {
        let mut i = pos + self.size;
        self.v[i] = val;
        i /= 2;
        while i >= 1 {
            let m = self.v[2 * i].min(self.v[2 * i + 1]);
            if self.v[i] == m {
                break; // ancestors are unchanged too
            }
            self.v[i] = m;
            i /= 2;
        }
    }

    /// The first (leftmost) position whose value is ≤ `x`.
    pub(super) fn first_le(&self, x: u32) -> Option<usize> {
        if self.v[1] > x {
            return None;
        }
        let mut i = 1;
        while i < self.size {
            i = if self.v[2 * i] <= x { 2 * i } else { 2 * i + 1 };
        }
        Some(i - self.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_tree() {
        let mut tr = MinTree::new(5);
        tr.fill(&[4, 3, 5, 1, 2]);
        assert_eq!(tr.first_le(3), Some(1));
        assert_eq!(tr.first_le(0), None);
        tr.set(1, u32::MAX);
        assert_eq!(tr.first_le(3), Some(3));
        tr.set(3, u32::MAX);
        assert_eq!(tr.first_le(3), Some(4));
        tr.set(1, 3);
        assert_eq!(tr.first_le(3), Some(1));
    }
}
