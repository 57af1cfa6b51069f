//! Readings of the node-stealing paper that its text leaves open, as named parameters of a run
//! (DESIGN.md: "readings are parameters"). The node-stealing sweep runs both of each on the
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
//! - [`NodeReturns::Foreseen`] (resched's first reading, the default): the plan knows that a
//!   struck node is back after D and counts on it from then on. A failed job that finds no free
//!   node is planned, at the latest, when its own node returns: Baseline's delay of a failed job
//!   is at most D.
//! - [`NodeReturns::Unforeseen`] (the paper's simulator as Section 5.1 describes it): a down
//!   node is out of the plan until it is back (then the plan is recomputed). A failed job that
//!   finds no free node is planned when enough *other* nodes free up — at the walltime end of
//!   some running job — and its survivors can be backfilled meanwhile.
//!
//! Both reproduce Section 3's toy example (J_3 restarts at t = 5 on P_2 and P_4–P_8 in both).
use std::fmt;
use std::str::FromStr;

/// Whether the plan counts on a down node from the end of its downtime (module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeReturns {
    /// The plan knows a struck node is back after D.
    #[default]
    Foreseen,
    /// A down node is out of the plan until it is back (Section 5.1's Batsched).
    Unforeseen,
}

impl NodeReturns {
    /// Both readings, the default first.
    pub const ALL: [NodeReturns; 2] = [NodeReturns::Foreseen, NodeReturns::Unforeseen];
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

/// The readings a run uses (every field defaults to resched's first reading).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Readings {
    pub returns: NodeReturns,
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
        assert_eq!(Readings::default().returns, NodeReturns::Foreseen);
    }
}
