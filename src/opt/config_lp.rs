//! Weights for the job energy ([`super::bounds::JobEnergy`]) from the preemptive
//! *configuration LP* of a rigid instance, solved by column generation (Gilmore and Gomory,
//! Operations Research 1961, for cutting stock).
//!
//! The LP: a *configuration* is a set S of distinct jobs whose widths sum to at most P (what may
//! run side by side at one instant: a job's own attempts are a chain, so it runs at most once);
//! minimise Σ_S x_S subject to Σ_{S ∋ j} x_S = a_j (job j's total run time k_j·t_j), x ≥ 0.
//! Every schedule gives such an x (the time each set of jobs runs together), so the LP value is
//! a lower bound on the makespan. Its dual, max Σ_j y_j·a_j subject to Σ_{j∈S} y_j ≤ 1 for
//! every configuration S, is exactly the job energy with weights y and capacity 1: the job
//! energy's coordinate ascent searches the same dual, but can stop at a local optimum of its
//! non-smooth ratio (rigid anchor P = 8, A = 50, seed 3: the ascent proves 168, the LP 168.4,
//! so 169, the makespan of a known schedule).
//!
//! The LP is solved in floating point (a dense revised simplex on n rows, priced by a 0/1
//! knapsack over the widths) only to *choose* weights: [`super::bounds::JobEnergy`] rounds
//! them to integers and evaluates the bound exactly (an exact knapsack for the capacity, exact
//! integer sums), and that bound is valid for any non-negative weights. So no rounding error of
//! this module can make a bound wrong, only weaker.

/// Most simplex iterations of one solve (each is a knapsack over n·P and an n² update).
pub const MAX_ITERATIONS: usize = 2000;

/// The dual prices y of the configuration LP (see the module documentation), scaled so that the
/// heaviest configuration weighs about 1, each clamped at 0; `None` when there is no job, a
/// width is 0 or above `cap`, or the simplex breaks down numerically.
///
/// `widths[j]` is job j's width, `demand[j]` its total run time (any positive scale: the prices
/// do not depend on it). Stops after [`MAX_ITERATIONS`] iterations with the prices it has (still
/// valid weights; [`super::bounds::JobEnergy`] decides what they are worth).
pub fn dual_prices(widths: &[u32], cap: u32, demand: &[f64]) -> Option<Vec<f64>> {
    solve(widths, cap, demand).map(|lp| lp.prices)
}

/// What [`solve`] ends with: the primal (the basic configurations and their run times, on the
/// demands divided by their largest) and the scaled, clamped dual prices.
struct Lp {
    prices: Vec<f64>,
    #[cfg_attr(not(test), allow(dead_code))] // the tests check the primal
    basis: Vec<Vec<usize>>,
    #[cfg_attr(not(test), allow(dead_code))]
    x: Vec<f64>,
    #[cfg_attr(not(test), allow(dead_code))]
    converged: bool,
}

fn solve(widths: &[u32], cap: u32, demand: &[f64]) -> Option<Lp> {
    let n = widths.len();
    if n == 0
        || demand.len() != n
        || widths.iter().any(|&p| p == 0 || p > cap)
        || demand.iter().any(|&a| !a.is_finite() || a < 0.0)
    {
        return None;
    }
    // Normalised demands keep the simplex's numbers near 1.
    let top = demand.iter().copied().fold(0.0f64, f64::max);
    if top <= 0.0 {
        return None;
    }
    let a: Vec<f64> = demand.iter().map(|&d| d / top).collect();
    // The basis: one configuration per row (a job list each), its inverse, and the basic values.
    // The start is the singletons {j}: B = I, x = a.
    let mut basis: Vec<Vec<usize>> = (0..n).map(|j| vec![j]).collect();
    let mut binv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    let mut x = a.clone();
    let mut y = vec![0.0; n];
    let mut converged = false;
    for it in 0..MAX_ITERATIONS {
        // A fresh inverse now and then, against the drift of the product-form updates.
        if it > 0 && it % 64 == 0 {
            binv = invert(&basis, n)?;
            x = (0..n)
                .map(|i| (0..n).map(|k| binv[i][k] * a[k]).sum())
                .collect();
        }
        // y = c_B·B⁻¹ with every cost 1: the column sums of B⁻¹.
        for (j, yj) in y.iter_mut().enumerate() {
            *yj = (0..n).map(|i| binv[i][j]).sum();
        }
        let (value, set) = heaviest_set(widths, cap, &y);
        if value <= 1.0 + 1e-9 {
            converged = true;
            break;
        }
        // Enter the column of `set`: d = B⁻¹·e_S.
        let d: Vec<f64> = (0..n)
            .map(|i| set.iter().map(|&j| binv[i][j]).sum())
            .collect();
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..n {
            if d[i] > 1e-9 {
                let ratio = x[i].max(0.0) / d[i];
                if leave.is_none_or(|(_, r)| ratio < r - 1e-12) {
                    leave = Some((i, ratio));
                }
            }
        }
        let (r, theta) = leave?;
        for i in 0..n {
            x[i] -= theta * d[i];
        }
        x[r] = theta;
        let pivot = d[r];
        let row_r: Vec<f64> = binv[r].iter().map(|v| v / pivot).collect();
        for (i, row) in binv.iter_mut().enumerate() {
            if i == r {
                continue;
            }
            let f = d[i];
            if f != 0.0 {
                for (v, &w) in row.iter_mut().zip(&row_r) {
                    *v -= f * w;
                }
            }
        }
        binv[r] = row_r;
        basis[r] = set;
    }
    if y.iter().any(|v| !v.is_finite()) {
        return None;
    }
    for v in &mut y {
        *v = v.max(0.0);
    }
    let (value, _) = heaviest_set(widths, cap, &y);
    if value <= 0.0 {
        return None;
    }
    Some(Lp {
        prices: y.into_iter().map(|v| v / value).collect(),
        basis,
        x,
        converged,
    })
}

/// The heaviest set of distinct jobs with widths summing to at most `cap` under the weights `y`
/// (only positive weights count): its weight and its jobs. A 0/1 knapsack by capacity.
fn heaviest_set(widths: &[u32], cap: u32, y: &[f64]) -> (f64, Vec<usize>) {
    let c = cap as usize;
    let mut best = vec![0.0f64; c + 1];
    // take[j][c]: job j is taken at capacity c (for the reconstruction).
    let mut take = vec![vec![false; c + 1]; widths.len()];
    for (j, &p) in widths.iter().enumerate() {
        let p = p as usize;
        if y[j] <= 1e-12 {
            continue;
        }
        for cc in (p..=c).rev() {
            let v = best[cc - p] + y[j];
            if v > best[cc] + 1e-15 {
                best[cc] = v;
                take[j][cc] = true;
            }
        }
    }
    let mut set = Vec::new();
    let mut cc = c;
    for j in (0..widths.len()).rev() {
        if take[j][cc] {
            set.push(j);
            cc -= widths[j] as usize;
        }
    }
    (best[c], set)
}

/// The inverse of the 0/1 basis matrix whose column i holds the jobs of `basis[i]`
/// (Gauss–Jordan with partial pivoting); `None` when it is numerically singular.
fn invert(basis: &[Vec<usize>], n: usize) -> Option<Vec<Vec<f64>>> {
    // m = [B | I], rows = jobs, columns = basis positions.
    let mut m = vec![vec![0.0f64; 2 * n]; n];
    for (col, set) in basis.iter().enumerate() {
        for &j in set {
            m[j][col] = 1.0;
        }
    }
    for (i, row) in m.iter_mut().enumerate() {
        row[n + i] = 1.0;
    }
    for col in 0..n {
        let piv = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[piv][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, piv);
        let p = m[col][col];
        for v in m[col].iter_mut() {
            *v /= p;
        }
        let pivot_row = m[col].clone();
        for (i, row) in m.iter_mut().enumerate() {
            if i != col && row[col] != 0.0 {
                let f = row[col];
                for (v, &w) in row.iter_mut().zip(&pivot_row) {
                    *v -= f * w;
                }
            }
        }
    }
    // [I | B⁻¹]: B⁻¹ maps job rows to basis positions, as the updates above expect.
    Some(m.into_iter().map(|row| row[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On seeded random instances: the prices are dual feasible (every configuration, checked
    /// by brute force, weighs at most 1), the basis is a primal solution (configurations only,
    /// x ≥ 0, each job's demand met exactly), and the two objectives agree: both optimal.
    #[test]
    fn prices_are_optimal_by_duality() {
        let mut next = crate::opt::draws(11);
        for case in 0..300 {
            let cap = 2 + next(7) as u32;
            let n = 1 + next(7) as usize;
            let widths: Vec<u32> = (0..n).map(|_| 1 + next(u64::from(cap)) as u32).collect();
            let demand: Vec<f64> = (0..n).map(|_| (1 + next(30)) as f64).collect();
            let lp = solve(&widths, cap, &demand).unwrap();
            assert!(lp.converged, "case {case}");
            let top = demand.iter().copied().fold(0.0, f64::max);
            let a: Vec<f64> = demand.iter().map(|d| d / top).collect();
            let mut heaviest: f64 = 0.0;
            for mask in 1u32..(1 << n) {
                let w: u32 = (0..n)
                    .filter(|j| mask >> j & 1 == 1)
                    .map(|j| widths[j])
                    .sum();
                if w <= cap {
                    let v: f64 = (0..n)
                        .filter(|j| mask >> j & 1 == 1)
                        .map(|j| lp.prices[j])
                        .sum();
                    heaviest = heaviest.max(v);
                }
            }
            assert!((heaviest - 1.0).abs() < 1e-9, "case {case}: {heaviest}");
            let mut met = vec![0.0; n];
            for (set, &x) in lp.basis.iter().zip(&lp.x) {
                assert!(x >= -1e-9, "case {case}: x = {x}");
                let w: u32 = set.iter().map(|&j| widths[j]).sum();
                assert!(w <= cap, "case {case}: {set:?}");
                for &j in set {
                    met[j] += x;
                }
            }
            for j in 0..n {
                assert!((met[j] - a[j]).abs() < 1e-9, "case {case}: job {j}");
            }
            let primal: f64 = lp.x.iter().sum();
            let dual: f64 = (0..n).map(|j| lp.prices[j] * a[j]).sum();
            assert!(
                (primal - dual).abs() < 1e-9,
                "case {case}: {primal} vs {dual}"
            );
        }
    }

    #[test]
    fn golden_fractional_optimum() {
        // P = 2, three jobs of width 1 with run times 1: any two run together, never three, so
        // the LP spreads them 1.5 (the dual: weight 1/2 each); a chain alone gives 1, the area 1.5.
        // Widths 2, 1, 1 with times 1, 2, 2: the wide job runs alone (1), the narrow two together
        // (2): 3, with duals 1, 1/2, 1/2.
        let y = dual_prices(&[1, 1, 1], 2, &[1.0, 1.0, 1.0]).unwrap();
        let v: f64 = y.iter().sum();
        assert!((v - 1.5).abs() < 1e-9, "{y:?}");
        let y = dual_prices(&[2, 1, 1], 2, &[1.0, 2.0, 2.0]).unwrap();
        let v = y[0] + 2.0 * y[1] + 2.0 * y[2];
        assert!((v - 3.0).abs() < 1e-9, "{y:?}");
        assert_eq!(dual_prices(&[], 2, &[]), None);
        assert_eq!(dual_prices(&[3], 2, &[1.0]), None);
    }
}
