//! Readings of the node-stealing paper that its text leaves open, as named parameters of a run
//! (DESIGN.md: "readings are parameters"). The default of each is the paper's: what its
//! simulator, Batsched, does. The node-stealing sweep runs both readings of node returns on the
//! same failures, so that no result rests on one reading.
//!
//! # Does the plan foresee when a down node comes back? ([`NodeReturns`])
//! Section 4.1 has the scheduler recompute the plan at each failure; Section 5.1 says how the
//! paper's Batsched learns of node states: "Whenever Batsched receives the message that a given
//! node has failed, this node is removed from the set of machines available for computations"
//! and "when Batsched receives the message that a node that failed before has been rejuvenated,
//! it adds this node to the set of available machines, and the whole schedule is recomputed to
//! take advantage of this newly available resource". Section 2 describes the Baseline the same
//! way: "when a large job fails, it has to wait for the completion of another job to get a spare
//! node. During this waiting time, many nodes are left idle and can be used by small and short
//! jobs using backfilling". Two readings:
//! - [`NodeReturns::Foreseen`] (resched's first reading): the plan knows that a
//!   struck node is back after D and counts on it from then on. A failed job that finds no free
//!   node is planned, at the latest, when its own node returns: Baseline's delay of a failed job
//!   is at most D.
//! - [`NodeReturns::Unforeseen`] (the paper's simulator as Section 5.1 describes it, the
//!   default): a down
//!   node is out of the plan until it is back (then the plan is recomputed). A failed job that
//!   finds no free node is planned when enough *other* nodes free up — at the walltime end of
//!   some running job — and its survivors can be backfilled meanwhile.
//!
//! Both reproduce Section 3's toy example (J_3 restarts at t = 5 on P_2 and P_4–P_8 in both).
//!
//! # When are the reservations compressed? ([`Compression`])
//! Section 4.1 defines conservative backfilling ("short jobs are moved ahead only if they do not
//! delay any previous job already scheduled") and says the schedule is recomputed at a failure;
//! Section 5.1 adds a node's return. It does not say what happens to the reservations when a
//! job ends before its walltime or a job arrives; its numbers come from Batsched, whose
//! conservative backfilling (`ConservativeBackfilling::make_decisions` in
//! `batsched/src/algo/conservative_bf.cpp` of oar-team/batsched) decides at each call:
//! - if no job has ended since the last call, each newly released job is inserted first-fit
//!   (`add_job_first_fit`) into the current schedule, and no other reservation moves;
//! - else the ended jobs are removed from the schedule, and every queued job, in queue order
//!   (the new ones included), is removed and inserted again first-fit: one compression pass,
//!   which never delays a job (its old slot is still free when its turn comes).
//!
//! Two readings:
//! - [`Compression::Completions`] (Batsched's rule, the default): a compression pass at an
//!   instant where a job completes, and otherwise new jobs inserted at their earliest slot
//!   with every other reservation left where it is. A move during a pass can open a hole for a
//!   job checked before it in that pass; that job moves into it at the next completion, not
//!   before.
//! - [`Compression::CompletionsAndArrivals`] (resched's first reading): the same pass also at
//!   an instant where jobs arrive (and none completes), so a hole left by the last pass's
//!   moves is filled at the next arrival.
//!
//! The two give the same starts until a pass moves a job whose old slot could serve a job
//! before it in the queue; on archive logs with no failures they then differ on many starts.
//! Where the paper is silent, both readings keep what Batsched does in the cases it documents:
//! a failure, a node's return, a steal (Section 4.2: "the schedule is then recomputed") and a
//! victim's stopping point under T2/T3 recompute the whole plan in priority order in either
//! reading, and a completion at the same instant as one of those is covered by that
//! recomputation. Batsched places jobs on node sets, resched on counts (see
//! [`crate::stealing::plan`]); both readings share that.
use std::fmt;
use std::str::FromStr;

/// Whether the plan counts on a down node from the end of its downtime (module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeReturns {
    /// The plan knows a struck node is back after D.
    Foreseen,
    /// A down node is out of the plan until it is back (Section 5.1's Batsched).
    #[default]
    Unforeseen,
}

impl NodeReturns {
    /// Both readings, the default first.
    pub const ALL: [NodeReturns; 2] = [NodeReturns::Unforeseen, NodeReturns::Foreseen];
}

impl fmt::Display for NodeReturns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NodeReturns::Foreseen => "foreseen",
            NodeReturns::Unforeseen => "unforeseen",
        })
    }
}

impl FromStr for NodeReturns {
    type Err = String;
    fn from_str(s: &str) -> Result<NodeReturns, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "foreseen" => Ok(NodeReturns::Foreseen),
            "unforeseen" => Ok(NodeReturns::Unforeseen),
            _ => Err(format!("`{s}`: expected foreseen or unforeseen")),
        }
    }
}

/// When the plan's reservations are compressed (module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Compression {
    /// Batsched's `conservative_bf`: a pass at completions; arrivals inserted first-fit.
    #[default]
    Completions,
    /// A pass at completions and at arrivals.
    CompletionsAndArrivals,
}

impl Compression {
    /// Both readings, the default first.
    pub const ALL: [Compression; 2] = [
        Compression::Completions,
        Compression::CompletionsAndArrivals,
    ];
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compression::Completions => "completions",
            Compression::CompletionsAndArrivals => "completions-and-arrivals",
        })
    }
}

impl FromStr for Compression {
    type Err = String;
    fn from_str(s: &str) -> Result<Compression, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "completions" => Ok(Compression::Completions),
            "completions-and-arrivals" => Ok(Compression::CompletionsAndArrivals),
            _ => Err(format!(
                "`{s}`: expected completions or completions-and-arrivals"
            )),
        }
    }
}

/// The readings a run uses (every field defaults to the paper's reading, Batsched's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Readings {
    pub returns: NodeReturns,
    pub compression: Compression,
}

impl Readings {
    /// resched's first readings (`foreseen`, `completions-and-arrivals`), which the results
    /// made before the paper's became the defaults used.
    pub const FIRST: Readings = Readings {
        returns: NodeReturns::Foreseen,
        compression: Compression::CompletionsAndArrivals,
    };

    /// The default readings with node returns `returns`.
    pub fn with_returns(returns: NodeReturns) -> Readings {
        Readings {
            returns,
            ..Readings::default()
        }
    }
}

impl fmt::Display for Readings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "node returns {}, compression at {}",
            self.returns, self.compression
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in NodeReturns::ALL {
            assert_eq!(r.to_string().parse::<NodeReturns>(), Ok(r));
        }
        assert_eq!(" Unforeseen ".parse(), Ok(NodeReturns::Unforeseen));
        assert!("later".parse::<NodeReturns>().is_err());
        for c in Compression::ALL {
            assert_eq!(c.to_string().parse::<Compression>(), Ok(c));
        }
        assert!("arrivals".parse::<Compression>().is_err());
    }

    #[test]
    fn the_defaults_are_the_papers_readings() {
        let d = Readings::default();
        assert_eq!(d.returns, NodeReturns::Unforeseen);
        assert_eq!(d.compression, Compression::Completions);
        assert_eq!(
            (NodeReturns::ALL[0], Compression::ALL[0]),
            (d.returns, d.compression)
        );
        assert_eq!(Readings::FIRST.returns, NodeReturns::Foreseen);
        assert_eq!(
            Readings::FIRST.compression,
            Compression::CompletionsAndArrivals
        );
        assert_eq!(
            d.to_string(),
            "node returns unforeseen, compression at completions"
        );
    }
}
