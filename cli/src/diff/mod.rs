//! Differential testing (`resched diff`): another implementation of the papers' algorithms
//! against the oracle, on seeded random cases, with the first mismatch shrunk to a small
//! counterexample written as a golden case. DESIGN's third purpose ("an oracle for faster
//! implementations"), run in bulk.
//!
//! # The other implementation's side
//! It is a command, given as a template (`--cmd`), split into words without a shell
//! ([`template`]): quotes and backslashes as in a POSIX shell, nothing expanded.
//!
//! **`--protocol template`** (default): one process per question. The placeholders, substituted
//! inside each word after splitting:
//!
//! | placeholder  | value |
//! |--------------|-------|
//! | `{instance}` | path of a file with the case's instance (resched's JSON format, with its `format_version`) |
//! | `{scenario}` | path of a file with its failure scenario, `{"format_version":1,"failures":[f_1, …]}` |
//! | `{algo}`     | the catalogue name (`greedy`, `easy`, `r-list:2`, `lpa-list`, `batch-list`, …) |
//! | `{priority}` | `lpt`, `spt`, `hpa`, `lpa`, `la`, `sa`, `random`, `ljf` or `index` |
//! | `{seed}`     | the RANDOM priority's seed (`--algo-seed`, default 0) |
//! | `{eps}`      | BATCH-LIST's ε, exact (`3/10` by default), or `none` for other algorithms |
//! | `{case}`     | the case number (informative) |
//!
//! `{{` and `}}` are literal braces. The program prints its answer on standard output and exits
//! with status 0. The answer ([`answer`]) is one of:
//! - a makespan alone: an integer, an exact `a/b`, or a decimal (`17`, `7/2`, `3.5`, `1.2e3`);
//! - a schedule in resched's format, `{"attempts": [{"job": 0, "attempt": 1, "start": 0,
//!   "procs": 2, "duration": "3/2"}, …]}` (job 0-based, attempt 1-based; optional `makespan`);
//! - the whole object `resched simulate --json` prints (its `schedule` and `makespan` are read).
//!
//! **`--protocol jsonl`**: the command is started once (it takes no placeholder) and kept
//! running. For each question resched writes one line to its standard input,
//!
//! ```text
//! {"algo":"greedy","eps":null,"format_version":1,"id":0,"instance":{"processors":4,"jobs":[…]},"priority":"lpt","scenario":{"failures":[…]},"seed":0}
//! ```
//!
//! (`eps` is the exact ε as a string such as `"3/10"` for BATCH-LIST, `null` otherwise;
//! `format_version` is the protocol's version, [`external::PROTOCOL_VERSION`]) and
//! reads one line from its standard output, with the same `id`:
//! `{"id":0,"makespan":"7/2"}`, or `{"id":0,"schedule":{"attempts":[…]}}` (a `makespan` may
//! accompany it), or `{"id":0,"error":"why"}`. A response may say the version it speaks
//! (`"format_version": 1`, absent is 1); a newer one is refused as unparsable output naming
//! the field. Ids count from 0; one response per request, in
//! order; blank lines are skipped; the program must flush each line. At the end resched closes
//! its standard input; the program should then exit (it is killed after half a second).
//!
//! **Limits and failures.** Each answer has `--timeout` seconds (default 10); after that the
//! program's whole process group is killed and the case is a `timeout` mismatch. A non-zero
//! exit or a signal (`crash`), output that is not an answer (`garbage`; at most 64 MiB is read)
//! and an `error` response (`refused`) are mismatches too, reported with the end of the
//! program's standard error. In JSONL mode the program is restarted after any of these.
//! Whatever a program leaves running is ended with its case, and everything with resched, on a
//! signal too ([`supervise`]).
//!
//! # What resched does
//! [`scope`] draws the cases; [`run`] runs resched through [`fn@resched::oracle::certify`] and the
//! other program, and [`compare`] judges: makespans exactly (or within `--rel-tol`); a schedule
//! through the checker first. The first mismatch is shrunk ([`shrink`]) and written
//! ([`counterexample`]) with the commands that reproduce it, after a re-check in a fresh
//! process. [`campaign`] runs the cases on several workers, past the first mismatch if asked,
//! or over a corpus folder. [`peer`] is the adapter for the
//! rigid paper's C++ simulator, whose printed makespans are compared without running it.
pub mod answer;
pub mod campaign;
pub mod compare;
pub mod counterexample;
pub mod external;
pub mod peer;
pub mod process;
pub mod run;
pub mod scope;
pub mod shrink;
pub mod supervise;
pub mod template;
pub mod ties;

pub use compare::{Kind, Mismatch, Rules, Verdict};
pub use external::{External, Protocol};
pub use run::{Algo, Config, Outcome};
pub use scope::Scope;
