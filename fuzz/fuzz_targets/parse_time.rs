//! Fuzz target: `Time`'s parser (integers, a/b, decimals with exponents) never panics, and what
//! it accepts prints back to a string that parses to the same value (exact round trip), also
//! through serde JSON.
#![no_main]
use libfuzzer_sys::fuzz_target;
use resched::Time;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(t) = s.parse::<Time>() {
        let back: Time = t.to_string().parse().expect("a printed Time parses");
        assert_eq!(back, t, "round trip of {s:?}");
        let json = serde_json::to_string(&t).expect("a Time serialises");
        let again: Time = serde_json::from_str(&json).expect("serialised Time parses");
        assert_eq!(again, t, "JSON round trip of {s:?} via {json}");
        let _ = t.to_decimal_string(6);
        let _ = t.to_f64();
    }
    // Also through the JSON number path (f64 inputs are read by their shortest decimal).
    let _ = serde_json::from_str::<Time>(s);
});
