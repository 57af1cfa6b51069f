//! The transposition tables of the exact searches ([`super::search`], rule 4, and
//! [`super::exact_fit`]): a bounded map from a node's state key to what is known below it,
//! kept in two generations so that a full table forgets only its older half.
//!
//! A table that is cleared when full makes a long search meet again, at once, every state it
//! had refuted; the states it meets again soonest are those it stored last. Two generations of
//! at most half the limit each keep them: when the young one is full it becomes the old one
//! (the older is dropped), and an entry found in the old one moves back to the young one, so a
//! state still being met survives every turn.
use hashbrown::HashTable;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};

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

/// Entries of the young generation at which it reserves room for the rest of its half of the
/// limit (at most [`RESERVE`] entries): a table this full usually fills, and growing it once
/// spares the rehash of every key at every doubling.
const GROWN: usize = 1 << 16;

/// The most entries reserved at once.
const RESERVE: usize = 1 << 20;

/// The hash of a key, as the tables index it.
fn hash_of<K: Hash>(key: &[K]) -> u64 {
    BuildHasherDefault::<MixHasher>::default().hash_one(key)
}

/// Whether two keys of a few words are equal: compared inline (a call to `memcmp` costs more
/// than the words).
fn same<K: Eq>(a: &[K], b: &[K]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Entry `i`'s key in a generation's buffer of keys `width` long.
fn slot<K>(keys: &[K], i: usize, width: usize) -> &[K] {
    &keys[i * width..(i + 1) * width]
}

/// One generation: the keys side by side in one buffer (every key of a table has the same
/// length), their values, and an index of entry numbers by hash. Clearing it frees nothing,
/// so a turn costs no allocator work; an entry removed leaves its key in the buffer until the
/// generation is cleared.
struct Generation<K, V> {
    keys: Vec<K>,
    values: Vec<V>,
    /// Entry numbers are `u32` (a table holds at most `u32::MAX` entries): the index is the
    /// part every lookup reads at random, and the smaller it is the more of it stays cached.
    index: HashTable<u32>,
}

impl<K: Hash + Eq + Copy, V: Copy> Generation<K, V> {
    fn new() -> Generation<K, V> {
        Generation {
            keys: Vec::new(),
            values: Vec::new(),
            index: HashTable::new(),
        }
    }

    fn len(&self) -> usize {
        self.index.len()
    }

    /// The entry number of `key` (of hash `hash`, `width` long).
    fn find(&self, hash: u64, key: &[K], width: usize) -> Option<usize> {
        let keys = &self.keys;
        let found = self
            .index
            .find(hash, |&i| same(slot(keys, i as usize, width), key));
        found.map(|&i| i as usize)
    }

    /// Removes `key` from the index; its value, if it was there.
    fn remove(&mut self, hash: u64, key: &[K], width: usize) -> Option<V> {
        let keys = &self.keys;
        let entry = self
            .index
            .find_entry(hash, |&i| same(slot(keys, i as usize, width), key));
        let (i, _) = entry.ok()?.remove();
        Some(self.values[i as usize])
    }

    /// Adds `key`, absent from the index.
    fn push(&mut self, hash: u64, key: &[K], v: V, width: usize) {
        let Ok(i) = u32::try_from(self.values.len()) else {
            return; // not remembering a state is always sound
        };
        self.keys.extend_from_slice(key);
        self.values.push(v);
        let keys = &self.keys;
        self.index
            .insert_unique(hash, i, |&j| hash_of(slot(keys, j as usize, width)));
    }

    /// Room for `additional` more entries; failing to reserve is harmless (the buffers then
    /// grow by doubling).
    fn reserve(&mut self, additional: usize, width: usize) {
        let keys = &self.keys;
        let hasher = |&j: &u32| hash_of(slot(keys, j as usize, width));
        let _ = self.index.try_reserve(additional, hasher);
        let _ = self.keys.try_reserve(additional * width);
        let _ = self.values.try_reserve(additional);
    }

    fn clear(&mut self) {
        self.keys.clear();
        self.values.clear();
        self.index.clear();
    }
}

/// A transposition table of at most `limit` entries over both generations, of keys of one
/// length.
pub(crate) struct Memo<K, V> {
    young: Generation<K, V>,
    old: Generation<K, V>,
    /// The entries a generation holds at most: half the limit (the whole of a limit of 1).
    half: usize,
    /// False for a limit of 1: the full young generation is then dropped, not kept as old.
    keep_old: bool,
    /// The length of every key (a key of another length is neither found nor kept: not
    /// remembering a state is always sound).
    width: usize,
}

impl<K: Hash + Eq + Copy, V: Copy> Memo<K, V> {
    /// An empty table of at most `limit` entries (0: it keeps nothing) of keys `width` long.
    pub(crate) fn new(limit: usize, width: usize) -> Memo<K, V> {
        Memo {
            young: Generation::new(),
            old: Generation::new(),
            half: if limit == 1 { 1 } else { limit / 2 },
            keep_old: limit >= 2,
            width,
        }
    }

    /// The hash of `key`, for [`Memo::get_hashed`] and [`Memo::insert_hashed`] (a node that
    /// looks its state up and later stores it hashes it once).
    pub(crate) fn hash(&self, key: &[K]) -> u64 {
        hash_of(key)
    }

    /// The value stored for `key`; an old entry moves to the young generation.
    #[cfg(test)]
    pub(crate) fn get(&mut self, key: &[K]) -> Option<V> {
        self.get_hashed(hash_of(key), key)
    }

    /// The value stored for `key` (of hash `hash`, [`Memo::hash`]); an old entry moves to the
    /// young generation.
    pub(crate) fn get_hashed(&mut self, hash: u64, key: &[K]) -> Option<V> {
        let w = self.width;
        if key.len() != w {
            return None;
        }
        if let Some(i) = self.young.find(hash, key, w) {
            return Some(self.young.values[i]);
        }
        let v = self.old.remove(hash, key, w)?;
        self.put(hash, key, v);
        Some(v)
    }

    /// Stores `v` for `key`, or `keep(v, the value already there)`.
    #[cfg(test)]
    pub(crate) fn insert(&mut self, key: &[K], v: V, keep: impl Fn(V, V) -> V) {
        self.insert_hashed(hash_of(key), key, v, keep);
    }

    /// Stores `v` for `key` (of hash `hash`, [`Memo::hash`]), or `keep(v, the value already
    /// there)`.
    pub(crate) fn insert_hashed(&mut self, hash: u64, key: &[K], v: V, keep: impl Fn(V, V) -> V) {
        let w = self.width;
        if key.len() != w {
            return;
        }
        if let Some(i) = self.young.find(hash, key, w) {
            let e = &mut self.young.values[i];
            *e = keep(v, *e);
            return;
        }
        match self.old.remove(hash, key, w) {
            Some(o) => self.put(hash, key, keep(v, o)),
            None if self.half > 0 => self.put(hash, key, v),
            None => {}
        }
    }

    /// Entries held, both generations.
    pub(crate) fn len(&self) -> usize {
        self.young.len() + self.old.len()
    }

    /// Inserts a key absent from both generations, turning them first when the young is full.
    fn put(&mut self, hash: u64, key: &[K], v: V) {
        if self.young.len() >= self.half {
            if self.keep_old {
                // The old generation's buffers are reused for the new young one.
                std::mem::swap(&mut self.young, &mut self.old);
            }
            self.young.clear();
        } else if self.young.len() == GROWN && self.young.index.capacity() < self.half {
            self.young
                .reserve(self.half.min(RESERVE) - GROWN, self.width);
        }
        self.young.push(hash, key, v, self.width);
    }
}

#[cfg(test)]
mod tests {
    use super::Memo;

    fn key(i: u64) -> Vec<u64> {
        vec![i, i ^ 0xff]
    }

    fn put(m: &mut Memo<u64, i64>, i: u64, v: i64) {
        m.insert(&key(i), v, i64::max);
    }

    #[test]
    fn a_full_table_forgets_only_its_older_half() {
        let mut m = Memo::new(4, 2);
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
            let mut m = Memo::new(limit, 2);
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
    fn a_key_of_another_length_is_neither_found_nor_kept() {
        let mut m: Memo<u64, i64> = Memo::new(8, 2);
        m.insert(&[1, 2, 3], 7, i64::max);
        assert_eq!(m.len(), 0);
        assert_eq!(m.get(&[1, 2, 3]), None);
        put(&mut m, 1, 4);
        assert_eq!(m.get(&[1]), None);
        assert_eq!(m.get(&key(1)), Some(4));
    }

    #[test]
    fn keep_decides_between_the_old_value_and_the_new() {
        let mut m = Memo::new(8, 2);
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
        let mut least: Memo<u32, i64> = Memo::new(8, 1);
        least.insert(&[7u32], 4, i64::min);
        least.insert(&[7u32], 2, i64::min);
        least.insert(&[7u32], 3, i64::min);
        assert_eq!(least.get(&[7]), Some(2));
    }
}
