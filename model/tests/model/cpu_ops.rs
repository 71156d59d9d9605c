//! The CPU fast operations ([`crumble_model::cpu_ops`]: the tower's convolution and the dense
//! layer) against burn's own operations: forward values and the gradients of input, weights
//! and bias, with and without autodiff, for every ReLU placement and odd shapes; each test
//! once with every set of kernels the CPU runs ([`crumble_model::kernels::Kernels`]).

use burn::tensor::{Device, Tensor, TensorData};
use crumble_model::cpu_ops::{
    conv3x3, conv3x3_reference, dense, dense_reference, on_flex, patch_dense, patch_dense_reference,
};
use crumble_model::kernels;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Runs `test` with each set of kernels this CPU has.
fn each_kernels(test: fn()) {
    for k in kernels::available() {
        kernels::with_kernels(k, test);
    }
}

fn random<const D: usize>(shape: [usize; D], rng: &mut ChaCha8Rng, device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|_| rng.random_range(-1.0f32..1.0)).collect();
    Tensor::from_data(TensorData::new(v, shape), device)
}

/// A 3×3 convolution's random operands for a batch of `b` images `h`×`w` of `cin`
/// channels and `cout` output channels: the input, the weights and the bias, drawn in that
/// order.
fn conv_operands(
    [b, h, w, cin, cout]: [usize; 5],
    rng: &mut ChaCha8Rng,
    device: &Device,
) -> (Tensor<4>, Tensor<4>, Tensor<1>) {
    let x = random([b, h, w, cin], rng, device);
    let wt = random([cout, cin, 3, 3], rng, device);
    (x, wt, random([cout], rng, device))
}

fn host<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().try_to_vec::<f32>().unwrap()
}

fn assert_close(what: &str, got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    let scale = want.iter().fold(1.0f32, |m, v| m.max(v.abs()));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-4 * scale, "{what}[{i}]: {g} vs {w}");
    }
}

/// The output of `op` and the gradients of `Σ y·r` (a random projection of the output) with
/// respect to its input, weights and bias, once through `fast` and once through `reference`:
/// all four must agree.
fn assert_same_gradients<const X: usize, const W: usize, const Y: usize>(
    what: &str,
    [fast, reference]: [&dyn Fn(Tensor<X>, Tensor<W>, Tensor<1>) -> Tensor<Y>; 2],
    (x, w, b): (&Tensor<X>, &Tensor<W>, &Tensor<1>),
    r: &Tensor<Y>,
) {
    let run = |f: &dyn Fn(Tensor<X>, Tensor<W>, Tensor<1>) -> Tensor<Y>| {
        let (x, w, b) = (
            x.clone().require_grad(),
            w.clone().require_grad(),
            b.clone().require_grad(),
        );
        let y = f(x.clone(), w.clone(), b.clone());
        let grads = (y.clone() * r.clone()).sum().backward();
        [
            host(y.inner()),
            host(x.grad(&grads).unwrap()),
            host(w.grad(&grads).unwrap()),
            host(b.grad(&grads).unwrap()),
        ]
    };
    let (got, want) = (run(fast), run(reference));
    for (name, (g, w)) in ["y", "dx", "dw", "db"].iter().zip(got.iter().zip(&want)) {
        assert_close(&format!("{name} of {what}"), g, w);
    }
}

const SHAPES: &[[usize; 5]] = &[
    // B, H, W, Cin, Cout
    [1, 1, 1, 1, 1],
    [2, 3, 5, 4, 3],
    [3, 6, 6, 8, 8],
    [1, 2, 1, 5, 7],
    [70, 6, 6, 32, 32], // large enough for the gemms' thread split
];

#[test]
fn the_fast_forward_is_burns_convolution() {
    each_kernels(the_fast_forward_is_burns_convolution_with);
}

fn the_fast_forward_is_burns_convolution_with() {
    let device = Device::flex();
    assert!(on_flex(&device) && on_flex(&device.clone().autodiff()));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for &[b, h, w, cin, cout] in SHAPES {
        for (relu_in, relu_out) in [(false, false), (true, false), (false, true), (true, true)] {
            let (x, wt, bias) = conv_operands([b, h, w, cin, cout], &mut rng, &device);
            let got = conv3x3(x.clone(), wt.clone(), bias.clone(), relu_in, relu_out);
            let want = conv3x3_reference(x, wt, bias, relu_in, relu_out);
            assert_eq!(got.dims(), [b, h, w, cout]);
            let what = format!("y of {:?} relu {relu_in}/{relu_out}", [b, h, w, cin, cout]);
            assert_close(&what, &host(got), &host(want));
        }
    }
}

/// Input, weight and bias gradients of `Σ y·r` (a random projection of the output), through
/// the fast backward pass and through burn's own.
#[test]
fn the_fast_backward_is_burns_gradient() {
    each_kernels(the_fast_backward_is_burns_gradient_with);
}

fn the_fast_backward_is_burns_gradient_with() {
    let device = Device::flex().autodiff();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for &[b, h, w, cin, cout] in SHAPES {
        for (relu_in, relu_out) in [(false, false), (true, false), (false, true), (true, true)] {
            let (x, wt, bias) = conv_operands([b, h, w, cin, cout], &mut rng, &device);
            let r = random([b, h, w, cout], &mut rng, &device);
            let shape = format!("{:?} relu {relu_in}/{relu_out}", [b, h, w, cin, cout]);
            assert_same_gradients(
                &shape,
                [
                    &|x, w, b| conv3x3(x, w, b, relu_in, relu_out),
                    &|x, w, b| conv3x3_reference(x, w, b, relu_in, relu_out),
                ],
                (&x, &wt, &bias),
                &r,
            );
        }
    }
}

/// Only the weights need a gradient (the input is data): the op still runs and the weights'
/// gradient is burn's. A constant input mixed into a tracked graph also works.
#[test]
fn gradients_flow_to_the_tracked_inputs_only() {
    each_kernels(gradients_flow_to_the_tracked_inputs_only_with);
}

fn gradients_flow_to_the_tracked_inputs_only_with() {
    let device = Device::flex().autodiff();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (x, wt, bias) = conv_operands([2, 4, 4, 3, 5], &mut rng, &device);
    let mut dws = Vec::new();
    for f in [conv3x3, conv3x3_reference] {
        let wt = wt.clone().require_grad();
        let y = f(x.clone(), wt.clone(), bias.clone(), true, true);
        let grads = y.sum().backward();
        assert!(x.grad(&grads).is_none() && bias.grad(&grads).is_none());
        dws.push(host(wt.grad(&grads).unwrap()));
    }
    assert_close("dw", &dws[0], &dws[1]);
}

/// A finite-difference check of the fast op's weight gradient, independent of burn's own
/// backward pass.
#[test]
fn the_weight_gradient_matches_finite_differences() {
    each_kernels(the_weight_gradient_matches_finite_differences_with);
}

fn the_weight_gradient_matches_finite_differences_with() {
    let device = Device::flex();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let (b, h, w, cin, cout) = (2, 3, 4, 2, 3);
    let (x, wt, bias) = conv_operands([b, h, w, cin, cout], &mut rng, &device);
    let r = random([b, h, w, cout], &mut rng, &device);
    let loss = |wv: &[f32]| -> f64 {
        let wt = Tensor::<4>::from_data(TensorData::new(wv.to_vec(), [cout, cin, 3, 3]), &device);
        let y = conv3x3(x.clone(), wt, bias.clone(), true, false);
        host((y * r.clone()).sum())[0] as f64
    };
    let ad = device.clone().autodiff();
    let wg = Tensor::<4>::from_data(wt.to_data(), &ad).require_grad();
    let y = conv3x3(
        Tensor::from_data(x.to_data(), &ad),
        wg.clone(),
        Tensor::from_data(bias.to_data(), &ad),
        true,
        false,
    );
    let grads = (y * Tensor::from_data(r.to_data(), &ad)).sum().backward();
    let analytic = host(wg.grad(&grads).unwrap());
    let w0 = host(wt);
    for i in (0..w0.len()).step_by(5) {
        let eps = 1e-2;
        let (mut up, mut down) = (w0.clone(), w0.clone());
        up[i] += eps;
        down[i] -= eps;
        let numeric = (loss(&up) - loss(&down)) / (2.0 * eps as f64);
        assert!(
            (numeric - analytic[i] as f64).abs() < 1e-2 * (1.0 + numeric.abs()),
            "dw[{i}]: finite difference {numeric} vs {}",
            analytic[i]
        );
    }
}

/// The dense layer: values and the gradients of input, weights and bias against burn's
/// `linear`, with and without the ReLU, from one row to a weight gradient summed over
/// thousands of rows (split across the threads).
#[test]
fn the_fast_dense_layer_is_burns_linear() {
    each_kernels(the_fast_dense_layer_is_burns_linear_with);
}

fn the_fast_dense_layer_is_burns_linear_with() {
    let device = Device::flex().autodiff();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for &[m, k, n] in &[
        [1, 1, 1],
        [3, 7, 2],
        [64, 2112, 32],
        [9000, 33, 8],
        [5, 40, 513],
    ] {
        for relu_out in [false, true] {
            let x = random([m, k], &mut rng, &device);
            let wt = random([k, n], &mut rng, &device);
            let bias = random([n], &mut rng, &device);
            let r = random([m, n], &mut rng, &device);
            assert_same_gradients(
                &format!("{:?} relu {relu_out}", [m, k, n]),
                [&|x, w, b| dense(x, w, b, relu_out), &|x, w, b| {
                    dense_reference(x, w, b, relu_out)
                }],
                (&x, &wt, &bias),
                &r,
            );
        }
    }
    // Without autodiff the forward is the same function.
    let plain = Device::flex();
    let x = random([4, 6], &mut rng, &plain);
    let wt = random([6, 3], &mut rng, &plain);
    let bias = random([3], &mut rng, &plain);
    let got = dense(x.clone(), wt.clone(), bias.clone(), true);
    assert_close(
        "plain y",
        &host(got),
        &host(dense_reference(x, wt, bias, true)),
    );
}

/// The patch convolution (the stem on the cell layout): convolution weights `[N, I, k, k]`
/// reordered inside the operation, against burn's permute and `linear`, gradients included.
#[test]
fn the_patch_convolution_is_burns() {
    each_kernels(the_patch_convolution_is_burns_with);
}

fn the_patch_convolution_is_burns_with() {
    let device = Device::flex().autodiff();
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for &[m, i, k, n] in &[[1, 1, 1, 1], [5, 3, 2, 4], [300, 33, 8, 32]] {
        for relu_out in [false, true] {
            let x = random([m, k * k * i], &mut rng, &device);
            let wt = random([n, i, k, k], &mut rng, &device);
            let bias = random([n], &mut rng, &device);
            let r = random([m, n], &mut rng, &device);
            assert_same_gradients(
                &format!("{:?} relu {relu_out}", [m, i, k, n]),
                [&|x, w, b| patch_dense(x, w, b, relu_out), &|x, w, b| {
                    patch_dense_reference(x, w, b, relu_out)
                }],
                (&x, &wt, &bias),
                &r,
            );
        }
    }
}

/// The fast operations keep each weight tensor prepared for the kernels; a weight tensor
/// changed in place, or a new one, must never be served another's preparation, including
/// after the cache has turned over.
#[test]
fn prepared_weights_follow_the_tensors_values() {
    each_kernels(prepared_weights_follow_the_tensors_values_with);
}

fn prepared_weights_follow_the_tensors_values_with() {
    let device = Device::flex();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let x = random([5, 6, 6, 4], &mut rng, &device);
    let bias = random([3], &mut rng, &device);
    let mut wt = random([3, 4, 3, 3], &mut rng, &device);
    for step in 0..40 {
        let got = conv3x3(x.clone(), wt.clone(), bias.clone(), false, true);
        let want = conv3x3_reference(x.clone(), wt.clone(), bias.clone(), false, true);
        assert_close(&format!("step {step}"), &host(got), &host(want));
        // in place where burn can (the only handle), else a new tensor
        wt = if step % 2 == 0 {
            wt.mul_scalar(-1.5)
        } else {
            wt + random([3, 4, 3, 3], &mut rng, &device)
        };
    }
}
