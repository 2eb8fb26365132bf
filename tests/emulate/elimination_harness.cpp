// tuned_elimination's kernels (the real tuned_elimination.cu) on the CPU emulation of cuda_host.h, launched as
// algorithms/gpu/tuned/elimination.py launches them: the launcher's plan (descriptors and launches, from its
// plan()) is passed in and run launch by launch.  Built by tests/test_elimination_emulated.py.
#include "cuda_host.h"
#include "tuned_elimination.cu"

// launches: L rows of (kernel: 0 close, 1 product, 2 product_rows, 3 schur; first descriptor; count; CTAs).
// val: the factor (loaded, eliminated in place); Gt: n x N, the identity on entry, the result on return.
// Returns the number of launches run.
extern "C" int emu_tuned_elimination(const long long* descs, const long long* launches, int L, int* val, int* Gt,
                                     const long long* start, const long long* sn, const long long* fptr,
                                     const long long* fidx, const long long* off_ss, const long long* off_sf,
                                     const long long* off_fs, int* bad, int n)
{
    for (int l = 0; l < L; ++l) {
        const long long* row = launches + 4 * (size_t)l;
        const int kern = (int)row[0], nd = (int)row[2];
        const long long* dp = descs + 16 * (size_t)row[1];
        const emu_dim3 grid{(unsigned)row[3], 1, 1}, block{TEL_THREADS, 1, 1};
        if (kern == 0)
            emu_launch(grid, block, true, [&] { tel_close(dp, val, bad, n); });
        else if (kern == 1)
            emu_launch(grid, block, true, [&] { tel_product(dp, nd, val, val, val, fidx, bad, n); });
        else if (kern == 2)
            emu_launch(grid, block, true, [&] { tel_product_rows(dp, nd, val, Gt, Gt, fidx, bad, n); });
        else
            emu_launch(grid, block, true,
                       [&] { tel_schur(dp, nd, val, start, sn, fptr, fidx, off_ss, off_sf, off_fs, bad, n); });
    }
    return L;
}
