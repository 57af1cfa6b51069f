//! BATCH-LIST's ε (moldable paper Section 4.4): MT-ALLOTMENT finds an allocation whose
//! L(f, p) is within (1 + ε) of the minimum, and Theorems 11–13 carry it into the ratio. One
//! type, validated once when it is made, so that no scheduler re-checks it.
use crate::error::{Error, Result};
use crate::time::Time;

/// An exact ε > 0.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Eps(Time);

impl Eps {
    /// ε, refused unless > 0 (the error names the parameter `eps`).
    pub fn new(eps: Time) -> Result<Eps> {
        if eps.is_positive() {
            Ok(Eps(eps))
        } else {
            Err(Error::param("eps", format!("ε = {eps} must be > 0")))
        }
    }

    /// ε = 3/10, the value of the paper's evaluation (Section 5.1) and resched's default.
    pub fn paper() -> Eps {
        // unreachable: 3/10 is a positive literal with a non-zero denominator
        Eps(Time::new(3, 10).unwrap_or_else(Time::one))
    }

    /// The value.
    pub fn get(&self) -> &Time {
        &self.0
    }

    /// The given ε, validated, or the paper's when none is given.
    pub fn or_paper(eps: Option<&Time>) -> Result<Eps> {
        eps.map_or_else(|| Ok(Eps::paper()), |e| Eps::new(e.clone()))
    }
}

impl Default for Eps {
    fn default() -> Eps {
        Eps::paper()
    }
}

impl std::fmt::Display for Eps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_positive_values_are_an_eps() {
        for bad in [Time::zero(), Time::from_int(-1)] {
            let e = Eps::new(bad).unwrap_err().to_string();
            assert!(
                e.starts_with("parameter `eps`: ") && !e.contains("--"),
                "{e}"
            );
        }
        assert_eq!(Eps::paper().get(), &Time::new(3, 10).unwrap());
        assert_eq!(Eps::or_paper(None).unwrap(), Eps::paper());
        assert_eq!(
            Eps::or_paper(Some(&Time::one())).unwrap().get(),
            &Time::one()
        );
        assert!(Eps::or_paper(Some(&Time::zero())).is_err());
    }
}
