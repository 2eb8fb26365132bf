// tuned_elimination's kernels (the real tuned_elimination.cu) on the CPU emulation of cuda_host.h, launched as
// algorithms/gpu/tuned/elimination.py launches them: the launcher's plan (descriptors and launches, from its
// plan()) is passed in and run launch by launch.  Built by tests/test_elimination_emulated.py.
#include "cuda_host.h"
#include "tuned_elimination.cu"

// launches: L rows of (kernel: 0 close, 1 product, 2 product_rows, 3 schur; first descriptor; count; CTAs;
// phase, unused here).
// val: the factor (loaded, eliminated in place); Gt: n x N, the identity on entry, the result on return.
// order: the CTAs of a launch run 0 in ascending order (one emu_launch), 1 in descending, 2 shuffled (each its own
// emu_launch with blockIdx set by the body): a launch whose CTAs depended on one another would show.
// Returns the number of launches run.
extern "C" int emu_tuned_elimination_ordered(const long long* descs, const long long* launches, int L, int* val,
                                             int* Gt, const long long* start, const long long* sn,
                                             const long long* fptr, const long long* fidx, const long long* off_ss,
                                             const long long* off_sf, const long long* off_fs, int* bad, int n,
                                             int order)
{
    std::mt19937 rng(2024);
    for (int l = 0; l < L; ++l) {
        const long long* row = launches + 5 * (size_t)l;
        const int kern = (int)row[0], nd = (int)row[2];
        const unsigned ctas = (unsigned)row[3];
        const long long* dp = descs + TEL_DESC * (size_t)row[1];
        auto kernel = [&] {
            if (kern == 0)
                tel_close(dp, val, bad, n);
            else if (kern == 1)
                tel_product(dp, nd, val, val, val, fidx, bad, n);
            else if (kern == 2)
                tel_product_rows(dp, nd, val, Gt, Gt, fidx, bad, n);
            else
                tel_schur(dp, nd, val, start, sn, fptr, fidx, off_ss, off_sf, off_fs, bad, n);
        };
        const emu_dim3 block{TEL_THREADS, 1, 1};
        if (order == 0) {
            emu_launch({ctas, 1, 1}, block, true, kernel);
            continue;
        }
        std::vector<unsigned> seq(ctas);
        for (unsigned b = 0; b < ctas; ++b)
            seq[b] = order == 1 ? ctas - 1 - b : b;
        if (order == 2)
            std::shuffle(seq.begin(), seq.end(), rng);
        for (unsigned b : seq)
            emu_launch({1, 1, 1}, block, true, [&] {
                blockIdx.x = b;
                gridDim.x = ctas;
                kernel();
            });
    }
    return L;
}

extern "C" int emu_tuned_elimination(const long long* descs, const long long* launches, int L, int* val, int* Gt,
                                     const long long* start, const long long* sn, const long long* fptr,
                                     const long long* fidx, const long long* off_ss, const long long* off_sf,
                                     const long long* off_fs, int* bad, int n)
{
    return emu_tuned_elimination_ordered(descs, launches, L, val, Gt, start, sn, fptr, fidx, off_ss, off_sf, off_fs,
                                         bad, n, 0);
}

// tel_vertex_rows on a grid of gx x gy blocks (the launcher's vertex_grid): D, k x n, from Gt (ld columns a row).
extern "C" void emu_tel_vertex_rows(const int* Gt, const long long* r, const long long* c, int* D, long long k,
                                    long long n, long long ld, unsigned gx, unsigned gy)
{
    emu_launch({gx, gy, 1}, {TEL_THREADS, 1, 1}, false, [&] { tel_vertex_rows(Gt, r, c, D, k, n, ld); });
}
