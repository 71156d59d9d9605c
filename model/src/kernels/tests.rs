//! The kernels against plain loops and a direct convolution, with every kernel set this CPU
//! offers, and the choice of kernels by the CPU's features.

use super::*;

fn naive(m: usize, k: usize, n: usize, a: &[f32], b: &[f32]) -> Vec<f32> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|t| a[i * k + t] * b[t * n + j]).sum();
        }
    }
    c
}

fn values(len: usize, seed: u32) -> Vec<f32> {
    (0..len)
        .map(|i| (((i as u32).wrapping_mul(2654435761) ^ seed) % 1000) as f32 / 500.0 - 1.0)
        .collect()
}

#[test]
fn matmul_and_the_split_transposed_product_agree_with_the_naive_product() {
    for &(m, k, n) in &[(1, 1, 1), (3, 5, 2), (17, 4096, 9), (288, 4608, 32)] {
        let a = values(m * k, 1);
        let b = values(k * n, 2);
        let want = naive(m, k, n, &a, &b);
        let mut got = vec![7.0; m * n];
        matmul(
            [m, k, n],
            MatRef::rows(&a, k),
            MatRef::rows(&b, n),
            &mut got,
            false,
            true,
        );
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-3 * (1.0 + w.abs()), "{g} vs {w}");
        }
        // aᵀ stored as [k×m]
        let mut at = vec![0.0; k * m];
        for i in 0..m {
            for t in 0..k {
                at[t * m + i] = a[i * k + t];
            }
        }
        let mut got = vec![7.0; m * n];
        matmul_at_b(m, k, n, &at, &b, &mut got);
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-3 * (1.0 + w.abs()), "{g} vs {w}");
        }
    }
}

#[test]
fn every_kernel_set_computes_the_naive_product() {
    for kind in available() {
        for &(m, k, n) in &[
            (1, 1, 1),
            (7, 300, 33),
            (13, 2112, 32),
            (100, 33, 8),
            (5, 40, 513),
            (61, 17, 24),
        ] {
            let a = values(m * k, 5);
            let b = values(k * n, 6);
            let want = naive(m, k, n, &a, &b);
            // a row-major and a transposed left-hand side, written and accumulated
            let mut at = vec![0.0; k * m];
            for i in 0..m {
                for t in 0..k {
                    at[t * m + i] = a[i * k + t];
                }
            }
            for (lhs, accumulate) in [
                (MatRef::rows(&a, k), false),
                (MatRef::transposed(&at, m), true),
            ] {
                let mut got = vec![if accumulate { 0.5 } else { 7.0 }; m * n];
                with_kernels(kind, || {
                    matmul(
                        [m, k, n],
                        lhs,
                        MatRef::rows(&b, n),
                        &mut got,
                        accumulate,
                        true,
                    )
                });
                for (g, w) in got.iter().zip(&want) {
                    let w = if accumulate { w + 0.5 } else { *w };
                    assert!(
                        (g - w).abs() < 1e-3 * (1.0 + w.abs()),
                        "{kind:?} {g} vs {w}"
                    );
                }
            }
            let bias = values(n, 7);
            let got = with_kernels(kind, || {
                let w = Weights::matrix(MatRef::rows(&b, n), k, n);
                dense(&a, m, &w, Some(&bias), true)
            });
            for (i, g) in got.iter().enumerate() {
                let w = (want[i] + bias[i % n]).max(0.0);
                assert!(
                    (g - w).abs() < 1e-3 * (1.0 + w.abs()),
                    "{kind:?} {g} vs {w}"
                );
            }
        }
    }
}

/// The 3×3 convolution and its input gradient against a direct convolution, for every
/// kernel set and ReLU placement.
#[test]
fn every_kernel_set_convolves_as_the_direct_convolution() {
    for kind in available() {
        for &(b, h, w, cin, cout) in &[(1, 1, 1, 1, 1), (2, 6, 6, 32, 32), (3, 5, 4, 7, 9)] {
            let rows = b * h * w;
            let x = values(rows * cin, 8);
            let wt = values(cout * cin * 9, 9);
            let bias = values(cout, 10);
            let direct =
                |x: &[f32], cin: usize, cout: usize, at: &dyn Fn(usize, usize, usize) -> f32| {
                    let mut y = vec![0.0f32; rows * cout];
                    for p in 0..rows {
                        let (img, yy, xx) = (p / (h * w), p / w % h, p % w);
                        for o in 0..cout {
                            let mut s = 0.0;
                            for ky in 0..3 {
                                for kx in 0..3 {
                                    let (sy, sx) = (yy + ky, xx + kx);
                                    if sy < 1 || sy > h || sx < 1 || sx > w {
                                        continue;
                                    }
                                    let q = (img * h + sy - 1) * w + sx - 1;
                                    for i in 0..cin {
                                        s += x[q * cin + i] * at(o, i, ky * 3 + kx);
                                    }
                                }
                            }
                            y[p * cout + o] = s;
                        }
                    }
                    y
                };
            for (relu_in, relu_out) in [(false, false), (true, true)] {
                let xr: Vec<f32> = x
                    .iter()
                    .map(|v| if relu_in { v.max(0.0) } else { *v })
                    .collect();
                let mut want = direct(&xr, cin, cout, &|o, i, t| wt[(o * cin + i) * 9 + t]);
                for (k, v) in want.iter_mut().enumerate() {
                    *v += bias[k % cout];
                    if relu_out {
                        *v = v.max(0.0);
                    }
                }
                let got = with_kernels(kind, || {
                    let weights = Weights::conv(&wt, cout, cin, 9, false);
                    conv3x3(&x, [b, h, w], &weights, Some(&bias), relu_in, relu_out)
                });
                for (g, w) in got.iter().zip(&want) {
                    assert!(
                        (g - w).abs() < 1e-3 * (1.0 + w.abs()),
                        "{kind:?} {g} vs {w}"
                    );
                }
            }
            // the input gradient: the transposed convolution, direct with the kernel
            // turned by 180° and in and out swapped
            let g = values(rows * cout, 11);
            let want = direct(&g, cout, cin, &|i, o, t| wt[(o * cin + i) * 9 + 8 - t]);
            let got = with_kernels(kind, || {
                let flipped = Weights::conv(&wt, cout, cin, 9, true);
                conv3x3(&g, [b, h, w], &flipped, None, false, false)
            });
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() < 1e-3 * (1.0 + w.abs()),
                    "{kind:?} {g} vs {w}"
                );
            }
        }
    }
}

#[test]
fn the_environment_picks_the_kernels_only_where_the_cpu_has_them() {
    // (forced, avx2, Intel AVX-512, AMD AVX-512)
    assert_eq!(choose(None, true, false, false), Kernels::Avx2);
    assert_eq!(choose(None, true, true, false), Kernels::Avx512);
    assert_eq!(choose(None, true, false, true), Kernels::Gemm);
    assert_eq!(choose(None, false, false, false), Kernels::Gemm);
    assert_eq!(choose(Some("gemm"), true, true, false), Kernels::Gemm);
    assert_eq!(choose(Some("avx2"), true, true, false), Kernels::Avx2);
    assert_eq!(choose(Some("avx2"), false, false, false), Kernels::Gemm);
    assert_eq!(choose(Some("avx512"), true, false, true), Kernels::Avx512);
    assert_eq!(choose(Some("avx512"), true, false, false), Kernels::Avx2);
}

#[test]
fn conv_weights_undo_conv_matrix() {
    let w = values(5 * 3 * 9, 3);
    assert_eq!(conv_weights(&conv_matrix(&w, 5, 3, 9, false), 5, 3, 9), w);
    let w4 = values(2 * 7 * 64, 4);
    assert_eq!(
        conv_weights(&conv_matrix(&w4, 2, 7, 64, false), 2, 7, 64),
        w4
    );
    let flipped = conv_matrix(&w, 5, 3, 9, true);
    // kernel tap (ky, kx) of out 4, in 2 lands at tap (2-ky, 2-kx) of the swapped matrix
    assert_eq!(flipped[((8 - 1) * 5 + 4) * 3 + 2], w[(4 * 3 + 2) * 9 + 1]);
}
