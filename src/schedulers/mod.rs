//! The schedulers: every algorithm of the papers as an [`crate::engine::Scheduler`]. They are
//! named, built and run through the oracle ([`crate::oracle::catalogue`] and
//! [`crate::oracle::certify()`]), which this list mirrors.
//!
//! Rigid algorithms (rigid paper Section 4, names of Section 5.1 in brackets):
//! - `greedy` = `r-list:0` [R-LIST-0], GREEDY of Proposition 2 ([`rlist::Greedy`]);
//! - `easy` = `r-list:1` [R-LIST-1], EASY backfilling;
//! - `conservative` = R-LIST(m = |Q|) [R-LIST-Q], conservative backfilling;
//! - `r-list:<m>` for any m ≥ 0 ([`rlist::RList`], Algorithm 1);
//! - `conservative-kept`, `easy-kept`, `r-list:<m>:kept`: R-LIST(m) whose reservations are kept
//!   until the job starts instead of recomputed at every completion
//!   ([`rlist::Reservations::Kept`], the reading of the paper's own simulator);
//! - `r-shelf-b`, `r-shelf-nb`, `r-shelffill-b`, `r-shelffill-nb` (Algorithms 2 and 3,
//!   [`shelf::Shelf`]); a second reading of Algorithm 3 that fills the shelf's idle processors,
//!   for the comparison in docs/results/rigid-shelffill.md ([`shelf::Shelf::idle_fill`]).
//!
//! Moldable algorithms (moldable paper Section 4, [`moldable`]): `lpa-list` (alias `list`),
//! `mintime`, `minarea`, `batch-list` and `batch-list-uniform` (ε > 0, default 3/10).
//!
//! The paper's spellings `r-list-0`, `r-list-1` and `r-list-q` are accepted as aliases. Names are
//! case-insensitive. The default priority is LPT; every rule of [`priority::Priority`] applies to
//! every algorithm. `seed` only matters for RANDOM; `eps` only for BATCH-LIST (the oracle refuses
//! it elsewhere).
//!
//! Every scheduler resets itself on the engine's first call (time 0), so one value
//! can be run on many scenarios.
pub mod moldable;
pub mod priority;
pub mod rlist;
pub mod shelf;

pub use priority::Priority;
