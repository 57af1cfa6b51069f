//! The schedulers, one folder or file per algorithm family, all behind [`crate::engine::Scheduler`].
pub mod moldable;
