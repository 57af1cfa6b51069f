//! Pictures: Gantt charts of schedules (SVG) and plots of experiments.
pub mod gantt;
pub mod plot;
