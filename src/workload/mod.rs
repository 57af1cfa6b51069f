//! Workloads: readers of job logs and instance files of other tools (SWF, the rigid paper's
//! simulator files), generators of the papers' synthetic sets, and failure sampling.
pub mod batsim;
pub mod peer;
pub mod peer_moldable;
pub mod sampling;
pub mod swf;
pub mod synthetic;
