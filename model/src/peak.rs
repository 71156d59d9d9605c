//! The machine's measured fp32 peak: fused multiply-adds on every core, in the widest vectors
//! the CPU has (AVX-512, else AVX2 with FMA, else portable code), so `crumble bench net` can say
//! what share of the machine the network reaches.
//!
//! Each thread runs independent chains of FMAs in registers (12 accumulators: enough to hide
//! the FMA latency on current x86 cores, few enough to stay in AVX2's 16 registers), counting
//! two FLOPs a lane per FMA. Nothing touches memory inside the loop.

use std::time::{Duration, Instant};

/// The measured peak and how it was reached.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Peak {
    /// Billions of fp32 FLOPs a second on all of rayon's threads.
    pub gflops: f64,
    /// The instruction set of the measuring loop: `avx512`, `avx2` or `portable`.
    pub isa: &'static str,
    pub threads: usize,
}

/// Accumulators a loop keeps in registers.
const CHAINS: usize = 12;
/// FMAs a chain does per iteration of the timed loop between clock reads.
const BLOCK: u64 = 1 << 16;

/// Measures the peak for about `seconds` on every thread of rayon's pool.
pub fn measure(seconds: f64) -> Peak {
    let isa = isa();
    let threads = rayon::current_num_threads();
    let budget = Duration::from_secs_f64(seconds.max(0.01));
    let start = Instant::now();
    let flops: f64 = rayon::broadcast(|_| {
        let mut flops = 0.0;
        let mut sink = 0.0f32;
        let t0 = Instant::now();
        while t0.elapsed() < budget {
            let (f, s) = run_block(isa);
            flops += f;
            sink += s;
        }
        // The sum keeps the chains alive; it is never NaN for these inputs.
        std::hint::black_box(sink);
        flops
    })
    .into_iter()
    .sum();
    let secs = start.elapsed().as_secs_f64();
    Peak {
        gflops: flops / secs / 1e9,
        isa,
        threads,
    }
}

fn isa() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            return "avx512";
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            return "avx2";
        }
    }
    "portable"
}

/// One block of FMAs in the chosen instruction set: (FLOPs done, a value depending on all).
#[allow(unsafe_code)]
fn run_block(isa: &'static str) -> (f64, f32) {
    #[cfg(target_arch = "x86_64")]
    {
        if isa == "avx512" {
            // SAFETY: `isa` is "avx512" only when the CPU reports avx512f.
            return unsafe { x86::block_avx512() };
        }
        if isa == "avx2" {
            // SAFETY: `isa` is "avx2" only when the CPU reports avx2 and fma.
            return unsafe { x86::block_avx2() };
        }
    }
    let _ = isa;
    block_portable()
}

/// Scalar chains (the compiler may vectorise them; `mul_add` is a true FMA where the target
/// has one, a slow library call where it has not, so this is a floor, not a peak).
fn block_portable() -> (f64, f32) {
    let mut acc = [0.0f32; CHAINS];
    for (i, a) in acc.iter_mut().enumerate() {
        *a = i as f32 * 1e-3;
    }
    let (m, c) = std::hint::black_box((0.999_999f32, 1e-7f32));
    for _ in 0..BLOCK {
        for a in &mut acc {
            *a = a.mul_add(m, c);
        }
    }
    (BLOCK as f64 * CHAINS as f64 * 2.0, acc.iter().sum())
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{BLOCK, CHAINS};
    use std::arch::x86_64::*;

    /// 12 chains of 16-lane FMAs.
    #[target_feature(enable = "avx512f")]
    pub(super) fn block_avx512() -> (f64, f32) {
        let m = _mm512_set1_ps(std::hint::black_box(0.999_999));
        let c = _mm512_set1_ps(std::hint::black_box(1e-7));
        let mut acc = [_mm512_setzero_ps(); CHAINS];
        for (i, a) in acc.iter_mut().enumerate() {
            *a = _mm512_set1_ps(i as f32 * 1e-3);
        }
        for _ in 0..BLOCK {
            for a in &mut acc {
                *a = _mm512_fmadd_ps(*a, m, c);
            }
        }
        let mut sum = _mm512_setzero_ps();
        for a in acc {
            sum = _mm512_add_ps(sum, a);
        }
        (
            BLOCK as f64 * CHAINS as f64 * 16.0 * 2.0,
            _mm512_reduce_add_ps(sum),
        )
    }

    /// 12 chains of 8-lane FMAs.
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn block_avx2() -> (f64, f32) {
        let m = _mm256_set1_ps(std::hint::black_box(0.999_999));
        let c = _mm256_set1_ps(std::hint::black_box(1e-7));
        let mut acc = [_mm256_setzero_ps(); CHAINS];
        for (i, a) in acc.iter_mut().enumerate() {
            *a = _mm256_set1_ps(i as f32 * 1e-3);
        }
        for _ in 0..BLOCK {
            for a in &mut acc {
                *a = _mm256_fmadd_ps(*a, m, c);
            }
        }
        let mut sum = _mm256_setzero_ps();
        for a in acc {
            sum = _mm256_add_ps(sum, a);
        }
        // The eight lanes' sum: halves, then pairs, then the last two.
        let four = _mm_add_ps(_mm256_castps256_ps128(sum), _mm256_extractf128_ps::<1>(sum));
        let two = _mm_add_ps(four, _mm_movehl_ps(four, four));
        let one = _mm_add_ss(two, _mm_shuffle_ps::<1>(two, two));
        (BLOCK as f64 * CHAINS as f64 * 8.0 * 2.0, _mm_cvtss_f32(one))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_loop_counts_its_flops_and_keeps_its_values_finite() {
        let (flops, sum) = block_portable();
        assert_eq!(flops, (BLOCK * CHAINS as u64 * 2) as f64);
        assert!(sum.is_finite());
        let isa = isa();
        let (flops, sum) = run_block(isa);
        let lanes = match isa {
            "avx512" => 16,
            "avx2" => 8,
            _ => 1,
        };
        assert_eq!(flops, (BLOCK * CHAINS as u64 * lanes * 2) as f64, "{isa}");
        assert!(sum.is_finite(), "{isa}");
        let p = measure(0.05);
        assert!(p.gflops > 0.0 && p.threads >= 1, "{p:?}");
    }
}
