//! The transposition tables of the exact searches ([`super::search`], rule 4, and
//! [`super::exact_fit`]): a bounded map from a node's state key to what is known below it,
//! kept in two generations so that a full table forgets only its older half.
//!
//! A table that is cleared when full makes a long search meet again, at once, every state it
//! had refuted; the states it meets again soonest are those it stored last. Two generations of
//! at most half the limit each keep them: when the young one is full it becomes the old one
//! (the older is dropped), and an entry found in the old one moves back to the young one, so a
//! state still being met survives every turn.
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A small multiplicative hasher for the transposition tables' integer keys.
#[derive(Default)]
pub(crate) struct MixHasher(u64);

impl Hasher for MixHasher {
    /// The high half folded in: a multiplication mixes upwards only, and the table indexes
    /// by the low bits.
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
    /// A key slice arrives here as one byte string (`u64::hash_slice` writes the slice's
    /// bytes at once): mixed a word at a time, as `write_u64` would mix each element.
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            self.write_u64(u64::from_ne_bytes(b));
        }
        for &b in words.remainder() {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

type Table<K, V> = HashMap<Box<[K]>, V, BuildHasherDefault<MixHasher>>;

/// Entries of the young generation at which it reserves room for the rest of its half of the
/// limit (at most [`RESERVE`] entries): a table this full usually fills, and growing it once
/// spares the rehash of every key (each behind a pointer) at every doubling.
const GROWN: usize = 1 << 16;

/// The most entries reserved at once.
const RESERVE: usize = 1 << 20;

/// A transposition table of at most `limit` entries over both generations.
pub(crate) struct Memo<K, V> {
    young: Table<K, V>,
    old: Table<K, V>,
    /// The entries a generation holds at most: half the limit (the whole of a limit of 1).
    half: usize,
    /// False for a limit of 1: the full young generation is then dropped, not kept as old.
    keep_old: bool,
}

impl<K: Hash + Eq, V: Copy> Memo<K, V> {
    /// An empty table of at most `limit` entries (0: it keeps nothing).
    pub(crate) fn new(limit: usize) -> Memo<K, V> {
        Memo {
            young: Table::default(),
            old: Table::default(),
            half: if limit == 1 { 1 } else { limit / 2 },
            keep_old: limit >= 2,
        }
    }

    /// The value stored for `key`; an old entry moves to the young generation.
    pub(crate) fn get(&mut self, key: &[K]) -> Option<V> {
        if let Some(&v) = self.young.get(key) {
            return Some(v);
        }
        let (k, v) = self.old.remove_entry(key)?;
        self.put(k, v);
        Some(v)
    }

    /// Stores `v` for `key`, or `keep(v, the value already there)`; the key is copied only
    /// when it is new (a boxed key is moved in).
    pub(crate) fn insert<B>(&mut self, key: B, v: V, keep: impl Fn(V, V) -> V)
    where
        B: AsRef<[K]> + Into<Box<[K]>>,
    {
        if let Some(e) = self.young.get_mut(key.as_ref()) {
            *e = keep(v, *e);
            return;
        }
        match self.old.remove_entry(key.as_ref()) {
            Some((k, o)) => self.put(k, keep(v, o)),
            None if self.half > 0 => self.put(key.into(), v),
            None => {}
        }
    }

    /// Entries held, both generations.
    pub(crate) fn len(&self) -> usize {
        self.young.len() + self.old.len()
    }

    /// Inserts a key absent from both generations, turning them first when the young is full.
    fn put(&mut self, key: Box<[K]>, v: V) {
        if self.young.len() >= self.half {
            if self.keep_old {
                // The old table's allocation is reused for the new young generation.
                std::mem::swap(&mut self.young, &mut self.old);
            }
            self.young.clear();
        } else if self.young.len() == GROWN && self.young.capacity() < self.half {
            // Failing to reserve is harmless: the table then grows by doubling.
            let _ = self.young.try_reserve(self.half.min(RESERVE) - GROWN);
        }
        self.young.insert(key, v);
    }
}

#[cfg(test)]
mod tests {
    use super::Memo;

    fn key(i: u64) -> Vec<u64> {
        vec![i, i ^ 0xff]
    }

    fn put(m: &mut Memo<u64, i64>, i: u64, v: i64) {
        m.insert(key(i).as_slice(), v, i64::max);
    }

    #[test]
    fn a_full_table_forgets_only_its_older_half() {
        let mut m = Memo::new(4);
        put(&mut m, 0, 0);
        put(&mut m, 1, 1);
        // The young generation (2 of 4) is full: this turns it into the old one.
        put(&mut m, 2, 2);
        assert_eq!(m.len(), 3);
        assert_eq!(m.get(&key(0)), Some(0), "the old generation is still read");
        // 0 moved back beside 2; the next turn drops 1 alone.
        put(&mut m, 3, 3);
        assert_eq!(m.get(&key(1)), None);
        assert_eq!(m.get(&key(0)), Some(0));
        assert_eq!(m.get(&key(2)), Some(2));
        assert_eq!(m.get(&key(3)), Some(3));
    }

    #[test]
    fn never_more_entries_than_the_limit() {
        for limit in 0..12usize {
            let mut m = Memo::new(limit);
            for i in 0..100u64 {
                put(&mut m, i % 37, i as i64);
                let _ = m.get(&key((i * 7) % 37));
                assert!(m.len() <= limit, "limit {limit}: {} entries", m.len());
            }
            let last = if limit == 0 { None } else { Some(99) };
            assert_eq!(m.get(&key(99 % 37)), last, "limit {limit}");
        }
    }

    #[test]
    fn keep_decides_between_the_old_value_and_the_new() {
        let mut m = Memo::new(8);
        put(&mut m, 1, 5);
        put(&mut m, 1, 3);
        assert_eq!(m.get(&key(1)), Some(5));
        // Across the generations too: 1 is old after these turns.
        for i in 10..14 {
            put(&mut m, i, 0);
        }
        put(&mut m, 1, 9);
        put(&mut m, 1, 4);
        assert_eq!(m.get(&key(1)), Some(9));
        // The least, as the exact fill keeps it.
        let mut least: Memo<u32, i64> = Memo::new(8);
        least.insert(&[7u32][..], 4, i64::min);
        least.insert(vec![7u32].into_boxed_slice(), 2, i64::min);
        least.insert(&[7u32][..], 3, i64::min);
        assert_eq!(least.get(&[7]), Some(2));
    }
}
