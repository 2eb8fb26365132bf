// The tuned kernels (the real .cu sources) on the CPU emulation of cuda_host.h, launched as their Python
// launchers launch them (algorithms/gpu/tuned/*.py).  Built by tests/test_tuned_emulated.py as a shared
// library; each function works in place on a padded int32 matrix and returns the number of launches.
#include "cuda_host.h"
#include "tuned_fw.cu"
#include "tuned_fw_stream.cu"
#include "tuned_sparse.cu"

// the int32 and the float32 entry points (tfw_phase<p> and tfw_phase<p>_f32) through one driver
template <class T, class P1, class P2, class P3>
static int emu_tuned_fw_t(T* D, int N, P1 p1, P2 p2, P3 p3)
{
    const int TT = TFW_T, nb = N / TT;
    std::vector<int4> colT_store((size_t)TT * N / 4 + 1);
    T* colT = reinterpret_cast<T*>(colT_store.data());
    std::fill(colT, colT + (size_t)TT * N, (T)-7);         // poison: phase 3 must read only what phase 2 wrote
    int launches = 0;
    for (int r = 0; r < nb; ++r) {
        emu_launch({1, 1, 1}, {TFW_THREADS, 1, 1}, true, [&] { p1(D, N, r); });
        ++launches;
        if (nb > 1) {
            emu_launch({(unsigned)nb - 1, 2, 1}, {TFW_THREADS, 1, 1}, true, [&] { p2(D, colT, N, r); });
            emu_launch({(unsigned)nb - 1, (unsigned)nb - 1, 1}, {TFW_THREADS, 1, 1}, true,
                       [&] { p3(D, colT, N, r); });
            launches += 2;
        }
    }
    return launches;
}

extern "C" int emu_tuned_fw(int* D, int N) { return emu_tuned_fw_t(D, N, tfw_phase1, tfw_phase2, tfw_phase3); }

extern "C" int emu_tuned_fw_f32(float* D, int N)
{
    return emu_tuned_fw_t(D, N, tfw_phase1_f32, tfw_phase2_f32, tfw_phase3_f32);
}

extern "C" int emu_tuned_fw_stream(int* D, int N, int n)
{
    const unsigned gy = std::max(1, (N / 4 + 255) / 256);
    for (int k = 0; k < n; ++k)
        emu_launch({(unsigned)std::max(n, 1), gy, 1}, {256, 1, 1}, false, [&] { tfs_step(D, N, k); });
    return n;
}

// D: n x N (N a multiple of batch), written whole; returns the total number of sweeps, -1 on no convergence
extern "C" int emu_tuned_sparse(int* D, int n, int N, const int* indptr, const int* indices, const int* weights,
                                int batch)
{
    const int V = batch / 128, slots = n + 2;
    std::vector<unsigned char> F0(n), F1(n), F2(n);
    unsigned char* F[3] = {F0.data(), F1.data(), F2.data()};
    std::vector<int> any(slots);
    emu_launch({(unsigned)n, (unsigned)std::max(1, (N / 4 + 255) / 256), 1}, {256, 1, 1}, false,
               [&] { tsp_init_matrix(D, N); });
    const unsigned ib = (unsigned)(std::max(n, slots) + 255) / 256, sb = (unsigned)((n * 32 + 255) / 256);
    int total = 0;
    for (int t0 = 0; t0 < n; t0 += batch) {
        emu_launch({ib, 1, 1}, {256, 1, 1}, false, [&] { tsp_init_batch(F[0], F[1], F[2], any.data(), n, t0, batch, slots); });
        int s = 0;
        for (;; ++s) {
            if (s >= slots)
                return -1;
            unsigned char *fin = F[s % 3], *fout = F[(s + 1) % 3], *fclear = F[(s + 2) % 3];
            emu_launch({sb, 1, 1}, {256, 1, 1}, true, [&] {
                if (V == 1) tsp_sweep<1>(D, N, indptr, indices, weights, n, t0, fin, fout, fclear, any.data(), s);
                else if (V == 2) tsp_sweep<2>(D, N, indptr, indices, weights, n, t0, fin, fout, fclear, any.data(), s);
                else tsp_sweep<4>(D, N, indptr, indices, weights, n, t0, fin, fout, fclear, any.data(), s);
            });
            if (!any[s])
                break;
        }
        total += s + 1;
    }
    return total;
}

// tuned_fw_multi's rounds (algorithms/gpu/multi/tuned.py) on `ranks` emulated ranks, each holding only its block
// rows of D (copied out, solved, copied back), the pivot row "broadcast" by a copy into the receivers' buffer of
// its round's parity as soon as its owner has closed it: before the other ranks run the round that precedes it,
// so a receiver that read the wrong buffer would read the next round's row.  Launch for launch the Python order.
extern "C" int emu_tuned_fw_rows(int* D, int N, int ranks, int lookahead)
{
    const int TT = TFW_T, K = N / TT, NONE = 1 << 30;
    std::vector<int> first(ranks), count(ranks), owner(K);
    for (int p = 0, f = 0; p < ranks; ++p) {
        count[p] = K / ranks + (p < K % ranks ? 1 : 0);
        first[p] = f;
        for (int b = f; b < f + count[p]; ++b) owner[b] = p;
        f += count[p];
    }
    std::vector<std::vector<int4>> Ls(ranks), bufs(2 * ranks), cols(ranks);
    auto I = [](std::vector<int4>& v) { return reinterpret_cast<int*>(v.data()); };
    for (int p = 0; p < ranks; ++p) {
        const size_t rows = (size_t)count[p] * TT;
        Ls[p].resize(rows * N / 4 + 1);
        std::copy(D + (size_t)first[p] * TT * N, D + (size_t)first[p] * TT * N + rows * N, I(Ls[p]));
        bufs[2 * p].resize((size_t)TT * N / 4 + 1);
        bufs[2 * p + 1].resize((size_t)TT * N / 4 + 1);
        cols[p].resize((size_t)TT * std::max(rows, (size_t)TT) / 4 + 1);
        std::fill(I(cols[p]), I(cols[p]) + (size_t)TT * std::max(rows, (size_t)TT), -7);
    }
    auto pivot = [&](int p, int r) -> int* {
        return owner[r] == p ? I(Ls[p]) + (size_t)(r - first[p]) * TT * N : I(bufs[2 * p + r % 2]);
    };
    int launches = 0;
    auto close = [&](int r) {
        int* P = pivot(owner[r], r);
        emu_launch({1, 1, 1}, {TFW_THREADS, 1, 1}, true, [&] { tfwm_phase1(P, N, r); });
        ++launches;
        if (K > 1) {
            emu_launch({(unsigned)K - 1, 1, 1}, {TFW_THREADS, 1, 1}, true, [&] { tfwm_phase2_row(P, N, r); });
            ++launches;
        }
    };
    auto send = [&](int r) {
        for (int p = 0; p < ranks; ++p)
            if (p != owner[r])
                std::copy(pivot(owner[r], r), pivot(owner[r], r) + (size_t)TT * N, pivot(p, r));
    };
    auto phase3 = [&](int p, int r, int* P, int lo, int cnt, int s1, int s2) {
        if (cnt <= 0 || K <= 1) return;
        if (s1 > s2) std::swap(s1, s2);
        const int rows = count[p] * TT;
        int* L = I(Ls[p]);
        int* C = I(cols[p]);
        emu_launch({(unsigned)K - 1, (unsigned)cnt, 1}, {TFW_THREADS, 1, 1}, true,
                   [&] { tfwm_phase3(L, P, C, N, rows, r, lo, s1, s2); });
        ++launches;
    };
    close(0);
    send(0);
    for (int r = 0; r < K; ++r) {
        const int next = r + 1 < K ? owner[r + 1] : -1;
        std::vector<int> order;                 // the owner of row r + 1 first, so its row is sent early
        if (next >= 0) order.push_back(next);
        for (int p = 0; p < ranks; ++p)
            if (p != next) order.push_back(p);
        for (int p : order) {
            int* P = pivot(p, r);
            const int piv = owner[r] == p ? r - first[p] : NONE;
            const int own = count[p] - (piv != NONE ? 1 : 0);
            const int rows = count[p] * TT;
            int* L = I(Ls[p]);
            int* C = I(cols[p]);
            if (own > 0 && K > 1) {
                emu_launch({(unsigned)own, 1, 1}, {TFW_THREADS, 1, 1}, true,
                           [&] { tfwm_phase2_col(L, P, C, N, rows, r, piv); });
                ++launches;
            }
            if (p == next && lookahead) {
                const int la = r + 1 - first[p];
                phase3(p, r, P, la, 1, NONE, NONE);
                close(r + 1);
                send(r + 1);
                phase3(p, r, P, 0, own - 1, piv, la);
            } else {
                phase3(p, r, P, 0, own, piv, NONE);
                if (p == next) {
                    close(r + 1);
                    send(r + 1);
                }
            }
        }
    }
    for (int p = 0; p < ranks; ++p)
        std::copy(I(Ls[p]), I(Ls[p]) + (size_t)count[p] * TT * N, D + (size_t)first[p] * TT * N);
    return launches;
}
