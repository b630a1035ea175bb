#!/usr/bin/env python3
"""Independent timing of torch.matmul on the same GPU, to cross-check what
hgemm-bench measures for its `torch` and cublas baselines.

Times each call two ways on random N(0,1) fp16 inputs, after a warm-up:
  listing1: exactly as paper Listing 1 (synchronize, record start, matmul,
            record stop, synchronize): includes the host-side dispatch of the
            call, PyTorch's own overhead included, as hgemm-bench's event times
            include cuBLAS's;
  gpu-only: the same, but a spin kernel (torch.cuda._sleep) runs first, so the
            matmul is already queued when the start event fires and the event
            pair brackets the GPU work alone.
Prints the median and p10/p90 per-call time in microseconds.

usage: python3 scripts/torch_matmul_timing.py [--warmup-s S] [--time-s S] M,N,K [M,N,K ...]
"""
import argparse
import statistics
import time

import torch


def time_config(m, n, k, warmup_s, time_s):
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)

    def one_call(busy_cycles=0):
        torch.cuda.synchronize()
        if busy_cycles:
            torch.cuda._sleep(busy_cycles)
        start.record()
        torch.matmul(a, b, out=c)
        stop.record()
        torch.cuda.synchronize()
        return start.elapsed_time(stop) * 1e3  # ms -> us

    t_end = time.monotonic() + warmup_s
    while time.monotonic() < t_end:
        one_call()
    results = {}
    # 200k cycles is about 100 us at 2 GHz: longer than the host needs to
    # queue the matmul behind the spin kernel.
    for label, busy in (("listing1", 0), ("gpu-only", 200_000)):
        samples = []
        t_end = time.monotonic() + time_s
        while time.monotonic() < t_end or len(samples) < 10:
            samples.append(one_call(busy))
        samples.sort()
        q = lambda p: samples[min(len(samples) - 1, int(p * (len(samples) - 1)))]
        results[label] = (statistics.median(samples), q(0.1), q(0.9), len(samples))
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--warmup-s", type=float, default=2.0)
    parser.add_argument("--time-s", type=float, default=5.0)
    parser.add_argument("mnk", nargs="+")
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}")
    print(f"{'M,N,K':>20} {'method':>9} {'median_us':>10} {'p10_us':>10} {'p90_us':>10} {'samples':>8}")
    for text in args.mnk:
        m, n, k = (int(x) for x in text.split(","))
        for label, (median, p10, p90, count) in time_config(m, n, k, args.warmup_s, args.time_s).items():
            print(f"{text:>20} {label:>9} {median:10.2f} {p10:10.2f} {p90:10.2f} {count:8d}")


if __name__ == "__main__":
    main()
