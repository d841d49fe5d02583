//! Running hot loops with the wider instructions of the CPU at hand.
//!
//! The workspace is built for x86-64-v2 (`.cargo/config.toml`), which
//! every x86-64 CPU since about 2009 runs. Most CPUs today also have the
//! x86-64-v3 instructions (AVX2, BMI1/2, LZCNT, FMA: Intel since 2013, AMD
//! since 2015), which the engine's bit work and the environments' byte
//! writing gain from. [`with_v3`] runs a closure compiled for them when
//! the CPU has them (checked once), and the ordinary build otherwise: the
//! same results either way, one binary for every machine.

/// Runs `f`; on an x86-64 CPU with the x86-64-v3 features, a version of
/// `f` (with what it inlines) compiled for them. Mark `f`
/// `#[inline(always)]` so that it is compiled into that version.
#[inline(always)]
pub fn with_v3<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if v3_available() {
        // SAFETY: the CPU has every feature `v3` is compiled for (checked
        // just above).
        return unsafe { v3(f) };
    }
    f()
}

/// Whether this CPU has the x86-64-v3 features [`with_v3`] compiles for
/// (the standard library checks once and keeps the answers).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn v3_available() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("fma")
}

/// `f` compiled for the x86-64-v3 features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,fma")]
fn v3<R>(f: impl FnOnce() -> R) -> R {
    f()
}
