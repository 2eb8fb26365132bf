// tuned_fw_ooc's kernels (the real tuned_fw_ooc.cu, which includes tuned_fw.cu) on the CPU emulation of
// cuda_host.h, launched as algorithms/gpu/tuned/ooc.py launches them.  Built by tests/test_tuned_ooc.py,
// which runs the plan's steps with these kernels and numpy copies (a separate library from
// tuned_harness.cpp: both include tuned_fw.cu).
#include "cuda_host.h"
#include "tuned_fw_ooc.cu"

// grids as the caller gives them (the tests pass the launcher's own)
extern "C" void emu_tfo_product(unsigned gx, unsigned gy, unsigned gz, int* Cout, int ldo, const int* Cin, int ldi,
                                const int* A, int lda, const int* B, int ldb, int K)
{
    emu_launch({gx, gy, gz}, {TFW_THREADS, 1, 1}, true, [&] { tfo_product(Cout, ldo, Cin, ldi, A, lda, B, ldb, K); });
}

extern "C" void emu_tfo_transpose(unsigned gx, unsigned gy, int* dst, int ldd, const int* src, int lds)
{
    emu_launch({gx, gy, 1}, {32, 8, 1}, true, [&] { tfo_transpose(dst, ldd, src, lds); });
}

extern "C" void emu_tfw_phase(int phase, unsigned gx, unsigned gy, int* D, int* colT, int N, int r)
{
    emu_launch({gx, gy, 1}, {TFW_THREADS, 1, 1}, true, [&] {
        if (phase == 1) tfw_phase1(D, N, r);
        else if (phase == 2) tfw_phase2(D, colT, N, r);
        else tfw_phase3(D, colT, N, r);
    });
}

// the closure step: tuned_fw's three phases on a contiguous w x w matrix, as _Executor.run does
extern "C" int emu_tfo_closure(int* D, int* colT, int w)
{
    const int nb = w / TFW_T;
    int launches = 0;
    for (int r = 0; r < nb; ++r) {
        emu_launch({1, 1, 1}, {TFW_THREADS, 1, 1}, true, [&] { tfw_phase1(D, w, r); });
        ++launches;
        if (nb > 1) {
            emu_launch({(unsigned)nb - 1, 2, 1}, {TFW_THREADS, 1, 1}, true, [&] { tfw_phase2(D, colT, w, r); });
            emu_launch({(unsigned)nb - 1, (unsigned)nb - 1, 1}, {TFW_THREADS, 1, 1}, true,
                       [&] { tfw_phase3(D, colT, w, r); });
            launches += 2;
        }
    }
    return launches;
}
