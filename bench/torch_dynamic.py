#!/usr/bin/env python3
"""PyTorch's dynamic quantization next to quant-bench's "scales from the
data" rows: torch.quantize_per_tensor_dynamic (choose a u8 scale and zero
point from the tensor, then quantize: quant-bench's `fused tensor` row)
at the same sizes, one thread, median of 7 runs of about 0.2 s each.

    python3 bench/torch_dynamic.py

Without PyTorch (Debian: apt-get install python3-torch) it says so and
exits 0, so that a script running every benchmark goes on."""
import statistics
import sys
import time

try:
    import torch
except ImportError:
    print("torch_dynamic: PyTorch is not installed (python3-torch); skipped")
    sys.exit(0)

torch.set_num_threads(1)
print(f"torch {torch.__version__}, one thread: quantize_per_tensor_dynamic(x, quint8, reduce_range=False)")
print(f"{'n':>9} {'ns/elem':>9}")
for n in (65536, 1048576, 33554432):
    x = (torch.rand(n, dtype=torch.float32) - 0.5) * 15.0
    torch.quantize_per_tensor_dynamic(x, torch.quint8, False)  # warm-up
    t0 = time.perf_counter()
    torch.quantize_per_tensor_dynamic(x, torch.quint8, False)
    one = time.perf_counter() - t0
    reps = max(1, int(0.2 / max(one, 1e-9)))
    runs = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(reps):
            torch.quantize_per_tensor_dynamic(x, torch.quint8, False)
        runs.append((time.perf_counter() - t0) / (reps * n) * 1e9)
    print(f"{n:>9} {statistics.median(runs):9.4f}")
