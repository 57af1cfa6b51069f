//! The moldable paper's published Table 1 (Section 6): the expected and maximum ratios of LPA,
//! BATCH, MINTIME and MINAREA per speedup model, which `moldable-table1` prints beside its own
//! numbers and its figure draws as the paper's marks.
use resched::workload::synthetic::MoldModel;

/// The published row of Table 1 for one of our labels (`BATCH-U`, `BATCH-PUB` → `BATCH`).
pub fn paper_row(label: &str) -> Option<&'static (&'static str, [f64; 6], [f64; 6])> {
    let base = label
        .strip_suffix("-U")
        .or_else(|| label.strip_suffix("-PUB"))
        // default: a label without the `-U` or `-PUB` suffix is its own base
        .unwrap_or(label);
    PAPER.iter().find(|r| r.0 == base)
}

/// The published (expected, maximum) of one of our labels under `model`.
pub fn paper_value(label: &str, model: MoldModel) -> Option<(f64, f64)> {
    let row = paper_row(label)?;
    let mi = MoldModel::ALL.iter().position(|m| *m == model)?;
    Some((row.1[mi], row.2[mi]))
}

/// The paper's Table 1: for each algorithm, (expected, maximum) per model in
/// [`MoldModel::ALL`] order.
pub const PAPER: [(&str, [f64; 6], [f64; 6]); 4] = [
    (
        "LPA",
        [1.057, 1.312, 1.961, 1.896, 1.867, 1.861],
        [1.219, 2.241, 2.349, 1.987, 1.995, 9.655],
    ),
    (
        "BATCH",
        [1.158, 1.434, 1.529, 1.548, 1.571, 1.549],
        [1.999, 2.449, 2.874, 3.674, 4.164, 3.975],
    ),
    (
        "MINTIME",
        [1.057, 2.044, 15.567, 2.810, 2.704, 20.386],
        [1.219, 2.666, 49.795, 12.611, 27.174, 61.726],
    ),
    (
        "MINAREA",
        [114.079, 122.199, 23.594, 16.875, 9.686, 2.571],
        [1217.13, 871.38, 199.572, 259.163, 120.9, 27.109],
    ),
];
