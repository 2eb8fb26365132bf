// tuned_elimination: all-pairs shortest paths by supernodal min-plus elimination on the GPU.
// NOT a paper kernel: faithful=False in the registry.  The algorithm is the supernodal APSP of Sao, Kannan, Gera
// and Vuduc (PPoPP'20, SuperFW): Gaussian elimination in the (min, +) semiring over the supernodes of a
// nested-dissection order, then every row of the distance matrix from the eliminated blocks.  The CPU reference is
// algorithms/cpu/elimination (elimination_cpu); docs/elimination.md lays out this port.  int32 only.
//
// Host side (algorithms/gpu/tuned/elimination.py): the CPU package's ordering and symbolic phases, the graph's
// edges loaded into the factor's dense blocks (D[S,S], D[S,F], D[F,S] of each supernode S, F its structure,
// row-major in one flat array `val`), and a plan: a list of launches, each over an array of 16-int64 descriptors
// (one a supernode and operation; a CTA finds its descriptor by a binary search on the descriptors' first CTAs).
// The supernodes of one level of the tree share each launch (a grouped min-plus product):
//  elimination, bottom up by height (children first), three launches a level:
//    tel_close     D[S,S] <- its closure (Floyd-Warshall on the block, one CTA a supernode);
//    tel_product   D[S,F] <- D[S,S] (x) D[S,F] and D[F,S] <- D[F,S] (x) D[S,S] (both in place: exact because
//                  D[S,S] is closed, whether a read sees a cell before or after its update);
//    tel_schur     D[F,F] <- min(D[F,F], D[F,S] (x) D[S,F]), each cell scattered with atomicMin into the
//                  ancestor block that stores it (siblings update the same ancestor cells);
//  the result Gt (n x N, N = n padded to 128, vertex-major: the graph factored is the REVERSED one, so Gt's row v
//  holds the distances to v in the reversed graph, i.e. from v in the graph: the result row-major, in the
//  nested-dissection numbering), starting as the identity (0 diagonal, INF elsewhere):
//    upward, by height, two launches a level, columns of S's subtree only ([first(S), end(S)), disjoint for the
//    supernodes of one level):  Gt[S,c] <- D[S,S]^T (x) Gt[S,c];  Gt[F,c] <- min(Gt[F,c], D[S,F]^T (x) Gt[S,c]);
//    downward, by depth from the roots (parents first), one launch a level, every column:
//                               Gt[S,:] <- min(Gt[S,:], D[F,S]^T (x) Gt[F,:]).
//  The sweeps' A operands are the factor's blocks read k-major as stored (no transposition); their B rows are
//  whole rows of Gt, contiguous or gathered through the structure list fidx, and come by cp.async.
//
// The product (tel_product, tel_product_rows, tel_schur): tuned_fw's register tiling (tuned_fw.cu): a CTA of 256
// threads, 8 x 8 cells a thread in registers, k in slabs through two shared stages, the add-min __viaddmin_s32.
// The tile is 128 x 128 as tuned_fw's, or 64 x 256 or 32 x 512 for a product of at most 64 or 32 rows (the launcher
// picks by the rows: most supernodes have 20-35 vertices, which would fill 16-27 % of a 128-row tile and fill
// 63-100 % of a 32-row one; the same 64 cells a thread and B slab width a thread reads either way).  C tiles are
// loaded and stored under masks (rows < M, columns in [col_lo, col_hi)): rows of Gt by 16-byte accesses where a
// thread's 4 columns are all inside, the factor's blocks (any offset) cell by cell; a CTA loops over the tiles its
// descriptor gives it (an in-place product whose B rows are its own C rows loops over every row tile in one CTA, so
// no other CTA writes what it reads).  The descriptor is copied to shared memory and read where used.  ptxas
// (sm_90): 182-254 registers, no spills, 40 KB shared: one CTA an SM.
// Deviations from tuned_fw and why (a first, correct version; speed is the next step):
//  * the A slab is loaded cell by cell, not by cp.async: the factor's blocks have any size and offset (no 16-byte
//    alignment); the sweeps' B slabs (rows of Gt, N a multiple of 128) do come by cp.async (a chunk from col_hi on
//    is INF instead), the factor-side ones of the elimination cell by cell;
//  * tiles of 64 x 256 and 32 x 512 beside 128 x 128 (above); 32-row tiles take k slabs of 8 (the 512-wide B slab);
//  * slab rows k >= K are INF in both operands, rows i >= M of A are INF (nothing beyond an operand is read);
//  * the closure is a plain Floyd-Warshall over the block in global memory, one __syncthreads_or a step (which
//    also stops at the first negative diagonal); the elimination is at most a few per cent of the work.
// Sentinels: every update is min(a + b, c) without checks, as tuned_fw's: entries never exceed INF (INF + INF
// fits in int32) and the launcher maps anything above MAX_PATH_WEIGHT to INF at the end.
// Negative cycles: a closure that sees a negative diagonal stops and atomicMin's the vertex (new numbering) into
// *bad (initialised to n); every kernel returns at once while *bad < n, and the launcher raises.
#include "common.cuh"
#include "async_copy.cuh"

#define TEL_T 128
#define TEL_KS 16
#define TEL_THREADS 256
#define TEL_DESC 17
#define TEL_SMEM (2 * 16 * 64 + 2 * 16 * 256)   // ints: the largest tile shape's two stages (TM = 64: 40 KB)

// descriptor fields (int64 each)
#define TD_CTA0 0      // first CTA of the descriptor in its launch
#define TD_M 1         // rows of C (and of A)
#define TD_K 2         // the product's inner size
#define TD_AOFF 3      // A(i, k) = A[aoff + i * asi + k * ask]
#define TD_ASI 4
#define TD_ASK 5
#define TD_BOFF 6      // B row k at B + boff + r(k) * ldb, r(k) = k or idx[bidx + k]
#define TD_LDB 7
#define TD_BIDX 8      // -1: rows contiguous
#define TD_COFF 9      // C row i at C + coff + r(i) * ldc, r(i) = i or idx[cidx + i]
#define TD_LDC 10
#define TD_CIDX 11     // -1: rows contiguous; tel_schur: the offset of F(S) in fidx
#define TD_CLO 12      // columns of B and C computed: [clo, chi), tiles from clo rounded down to 128
#define TD_CHI 13
#define TD_MTC 14      // CTAs along the rows (each loops over the row tiles mt = y, y + MTC, ...)
#define TD_NTC 15      // CTAs along the columns
#define TD_TM 16       // rows of a tile: 128, 64 or 32 (128 x 128, 64 x 256 or 32 x 512 tiles)

__device__ __forceinline__ int tel_addmin(int a, int b, int c)
{
    return __viaddmin_s32(a, b, c);        // min(a + b, c): one VIADDMNMX on sm_90
}

// the descriptor of this CTA: the last whose first CTA is <= blockIdx.x
__device__ __forceinline__ const long long* tel_find(const long long* dsc, int ndesc)
{
    int lo = 0, hi = ndesc - 1;
    const long long b = blockIdx.x;
    while (lo < hi) {
        const int mid = (lo + hi + 1) >> 1;
        if (dsc[(size_t)mid * TEL_DESC + TD_CTA0] <= b)
            lo = mid;
        else
            hi = mid - 1;
    }
    return dsc + (size_t)lo * TEL_DESC;
}

// Position of v in the sorted fidx[lo:hi] (the symbolic phase put it there)
__device__ __forceinline__ long long tel_position(const long long* fidx, long long lo, long long hi, long long v)
{
    while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        if (fidx[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// C addresses: rows of a matrix (contiguous or gathered), or the Schur scatter into the ancestors' blocks
template <bool ALIGNED>
struct TelRows {                // ALIGNED: rows 16-byte aligned (rows of Gt: whole 4-column groups by int4)
    int* C;
    const long long* idx;
    static constexpr bool atomic = false, aligned = ALIGNED;
    __device__ __forceinline__ int* at(const long long* ds, int i, int j) const
    {
        const long long ci = ds[TD_CIDX];
        const long long r = ci >= 0 ? idx[ci + i] : (long long)i;
        return C + ds[TD_COFF] + r * ds[TD_LDC] + j;
    }
};

struct TelSchur {
    int* val;
    const long long *start, *sn, *fptr, *fidx, *off_ss, *off_sf, *off_fs;
    static constexpr bool atomic = true, aligned = false;
    // cell (i, j) of D[F,F], F = fidx[cidx..cidx + f): where the factor stores the pair (F[i], F[j])
    __device__ __forceinline__ int* at(const long long* ds, int i, int j) const
    {
        const long long* fl = fidx + ds[TD_CIDX];
        const long long u = fl[i], v = fl[j], a = sn[u], b = sn[v];
        if (a == b) {
            const long long k = start[a + 1] - start[a];
            return val + off_ss[a] + (u - start[a]) * k + (v - start[a]);
        }
        if (u < v) {
            const long long f = fptr[a + 1] - fptr[a];
            return val + off_sf[a] + (u - start[a]) * f + (tel_position(fidx, fptr[a], fptr[a + 1], v) - fptr[a]);
        }
        const long long k = start[b + 1] - start[b];
        return val + off_fs[b] + (tel_position(fidx, fptr[b], fptr[b + 1], u) - fptr[b]) * k + (v - start[b]);
    }
};

// C[r(i), j] = min(C[r(i), j], min_k A(i, k) + B[r(k), j]) over the tiles of the descriptor given to this CTA, in
// TM x TN tiles (TM * TN = 128 * 128: TM = 128, 64 or 32 rows for 128, 256 or 512 columns, 8 x 8 cells a thread
// whatever the shape; TY = TM / 8 thread rows, TX = 256 / TY thread columns; a thread's rows 4 ty + {0..3} and
// TM / 2 + 4 ty + {0..3}, its columns 4 tx + {0..3} and TN / 2 + 4 tx + {0..3}), k slabs of KS (16; 8 for TM = 32,
// whose B slab is 512 wide).  The shapes share one shared buffer smem (As then Bs, both k-major).
// BASYNC: B's rows are 16-byte aligned (rows of Gt): cp.async for every 16-byte chunk that starts below col_hi.
template <int TM, bool BASYNC, class CA>
__device__ __forceinline__ void tel_tiles(const long long* ds, const int* A, const int* B, const long long* idx,
                                          const CA& ca, int* smem)
{
    constexpr int TN = TEL_T * TEL_T / TM, TY = TM / 8, TX = TEL_THREADS / TY, KS = TM == 32 ? 8 : 16;
    int (*As)[KS][TM] = reinterpret_cast<int (*)[KS][TM]>(smem);                 // [stage][k][row]
    int (*Bs)[KS][TN] = reinterpret_cast<int (*)[KS][TN]>(smem + 2 * KS * TM);   // [stage][k][col]
    const int tid = threadIdx.x, ty = tid / TX, tx = tid % TX;
    const int M = (int)ds[TD_M], K = (int)ds[TD_K];
    const int clo = (int)ds[TD_CLO], chi = (int)ds[TD_CHI];
    const int mtc = (int)ds[TD_MTC], ntc = (int)ds[TD_NTC];
    const int nfirst = clo / TN * TN;
    const int MT = (M + TM - 1) / TM, NT = (chi - nfirst + TN - 1) / TN;
    const int t = (int)(blockIdx.x - ds[TD_CTA0]);
    const int NS = (K + KS - 1) / KS;
    for (int mt = t / ntc; mt < MT; mt += mtc) {
        for (int nt = t % ntc; nt < NT; nt += ntc) {
            const int m0 = mt * TM, n0 = nfirst + nt * TN;
            auto load_slab = [&](int s, int st) {
                const int k0 = s * KS;
                const int* Ab = A + ds[TD_AOFF];                // one block: 32-bit offsets inside it
                const int asi = (int)ds[TD_ASI], ask = (int)ds[TD_ASK];
#pragma unroll
                for (int h = 0; h < KS * TM / TEL_THREADS; ++h) {
                    const int e = tid + h * TEL_THREADS, kk = e / TM, ii = e % TM;
                    const int i = m0 + ii, k = k0 + kk;
                    As[st][kk][ii] = (i < M && k < K) ? Ab[i * asi + k * ask] : APSP_INF;
                }
                const int* Bb = B + ds[TD_BOFF];
                const long long ldb = ds[TD_LDB], bidx = ds[TD_BIDX];
                if constexpr (BASYNC) {
#pragma unroll
                    for (int h = 0; h < KS * TN / 4 / TEL_THREADS; ++h) {
                        const int q = tid + h * TEL_THREADS, kk = q / (TN / 4), cc = (q % (TN / 4)) * 4;
                        const int k = k0 + kk;
                        if (k < K && n0 + cc < chi) {
                            const long long r = bidx >= 0 ? idx[bidx + k] : (long long)k;
                            cp_async16(&Bs[st][kk][cc], Bb + r * ldb + n0 + cc);
                        } else {
                            *reinterpret_cast<int4*>(&Bs[st][kk][cc]) = make_int4(APSP_INF, APSP_INF, APSP_INF, APSP_INF);
                        }
                    }
                    cp_async_commit();
                } else {
#pragma unroll
                    for (int h = 0; h < KS * TN / TEL_THREADS; ++h) {
                        const int e = tid + h * TEL_THREADS, kk = e / TN, jj = e % TN;
                        const int j = n0 + jj, k = k0 + kk;
                        int v = APSP_INF;
                        if (k < K && j >= clo && j < chi) {
                            const long long r = bidx >= 0 ? idx[bidx + k] : (long long)k;
                            v = Bb[r * ldb + j];
                        }
                        Bs[st][kk][jj] = v;
                    }
                }
            };
            load_slab(0, 0);
            int c[8][8];
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const int r = m0 + (i < 4 ? 0 : TM / 2) + 4 * ty + (i & 3);
#pragma unroll
                for (int h = 0; h < 2; ++h) {               // 4 columns at n0 + h TN / 2 + 4 tx
                    const int col = n0 + h * (TN / 2) + 4 * tx;
                    if (CA::aligned && r < M && col >= clo && col + 3 < chi) {
                        const int4 v = *reinterpret_cast<const int4*>(ca.at(ds, r, col));
                        c[i][4 * h] = v.x; c[i][4 * h + 1] = v.y; c[i][4 * h + 2] = v.z; c[i][4 * h + 3] = v.w;
                    } else {
#pragma unroll
                        for (int j = 0; j < 4; ++j)          // an atomic C starts at INF: atomicMin merges
                            c[i][4 * h + j] = (!CA::atomic && r < M && col + j >= clo && col + j < chi)
                                                  ? *ca.at(ds, r, col + j) : APSP_INF;
                    }
                }
            }
            for (int s = 0; s < NS; ++s) {
                const int st = s & 1;
                if (s + 1 < NS) {
                    load_slab(s + 1, st ^ 1);
                    if constexpr (BASYNC)
                        cp_async_wait<1>();
                } else if constexpr (BASYNC) {
                    cp_async_wait<0>();
                }
                __syncthreads();
#pragma unroll
                for (int kk = 0; kk < KS; ++kk) {
                    int a[8], b[8];
                    const int4 alo = *reinterpret_cast<const int4*>(&As[st][kk][4 * ty]);
                    const int4 ahi = *reinterpret_cast<const int4*>(&As[st][kk][TM / 2 + 4 * ty]);
                    const int4 blo = *reinterpret_cast<const int4*>(&Bs[st][kk][4 * tx]);
                    const int4 bhi = *reinterpret_cast<const int4*>(&Bs[st][kk][TN / 2 + 4 * tx]);
                    a[0] = alo.x; a[1] = alo.y; a[2] = alo.z; a[3] = alo.w;
                    a[4] = ahi.x; a[5] = ahi.y; a[6] = ahi.z; a[7] = ahi.w;
                    b[0] = blo.x; b[1] = blo.y; b[2] = blo.z; b[3] = blo.w;
                    b[4] = bhi.x; b[5] = bhi.y; b[6] = bhi.z; b[7] = bhi.w;
#pragma unroll
                    for (int i = 0; i < 8; ++i)
#pragma unroll
                        for (int j = 0; j < 8; ++j)
                            c[i][j] = tel_addmin(a[i], b[j], c[i][j]);
                }
                __syncthreads();     // stage st is refilled by the next iteration's load of slab s + 2
            }
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const int r = m0 + (i < 4 ? 0 : TM / 2) + 4 * ty + (i & 3);
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int col = n0 + h * (TN / 2) + 4 * tx;
                    if (CA::aligned && r < M && col >= clo && col + 3 < chi) {
                        *reinterpret_cast<int4*>(ca.at(ds, r, col)) =
                            make_int4(c[i][4 * h], c[i][4 * h + 1], c[i][4 * h + 2], c[i][4 * h + 3]);
                    } else {
#pragma unroll
                        for (int j = 0; j < 4; ++j) {
                            if (r < M && col + j >= clo && col + j < chi) {
                                if constexpr (CA::atomic)
                                    atomicMin(ca.at(ds, r, col + j), c[i][4 * h + j]);
                                else
                                    *ca.at(ds, r, col + j) = c[i][4 * h + j];
                            }
                        }
                    }
                }
            }
            __syncthreads();         // the next tile of an in-place product reads what this one stored
        }
    }
}

// The CTA's descriptor into shared memory (read where used: few live registers), then its tiles in its shape.
template <bool BASYNC, class CA>
__device__ __forceinline__ void tel_product_body(const long long* d, const int* A, const int* B, const long long* idx,
                                                 const CA& ca)
{
    __shared__ __align__(16) int smem[TEL_SMEM];
    __shared__ long long ds[TEL_DESC];
    if (threadIdx.x < TEL_DESC)
        ds[threadIdx.x] = d[threadIdx.x];
    __syncthreads();
    if (ds[TD_M] <= 0 || ds[TD_K] <= 0 || ds[TD_CHI] <= ds[TD_CLO])
        return;
    if (ds[TD_TM] == 32)
        tel_tiles<32, BASYNC>(ds, A, B, idx, ca, smem);
    else if (ds[TD_TM] == 64)
        tel_tiles<64, BASYNC>(ds, A, B, idx, ca, smem);
    else
        tel_tiles<128, BASYNC>(ds, A, B, idx, ca, smem);
}

// The two panel products of the elimination (A, B and C all in the factor): descriptors from the launcher.
extern "C" __global__ void __launch_bounds__(TEL_THREADS, 1)
tel_product(const long long* dsc, int ndesc, const int* A, const int* B, int* C, const long long* idx,
            const int* bad, int n)
{
    if (*bad < n)
        return;
    const long long* d = tel_find(dsc, ndesc);
    TelRows<false> ca{C, idx};
    tel_product_body<false>(d, A, B, idx, ca);
}

// The sweeps: A in the factor, B and C rows of Gt (contiguous or through fidx), B slabs by cp.async.
extern "C" __global__ void __launch_bounds__(TEL_THREADS, 1)
tel_product_rows(const long long* dsc, int ndesc, const int* A, const int* B, int* C, const long long* idx,
                 const int* bad, int n)
{
    if (*bad < n)
        return;
    const long long* d = tel_find(dsc, ndesc);
    TelRows<true> ca{C, idx};
    tel_product_body<true>(d, A, B, idx, ca);
}

// The Schur update D[F,F] <- min(D[F,F], D[F,S] (x) D[S,F]) of each supernode into its ancestors' blocks.
extern "C" __global__ void __launch_bounds__(TEL_THREADS, 1)
tel_schur(const long long* dsc, int ndesc, int* val, const long long* start, const long long* sn,
          const long long* fptr, const long long* fidx, const long long* off_ss, const long long* off_sf,
          const long long* off_fs, const int* bad, int n)
{
    if (*bad < n)
        return;
    const long long* d = tel_find(dsc, ndesc);
    TelSchur ca{val, start, sn, fptr, fidx, off_ss, off_sf, off_fs};
    tel_product_body<false>(d, val, val, fidx, ca);
}

// Closure of D[S,S] (k x k at val + aoff, row-major), one CTA a descriptor: Floyd-Warshall, one barrier a step.
// A cell of row or column kk changes at step kk only through a negative diagonal, and a negative diagonal stops
// the loop (before the step that would read and write the same cells), so no step reads a cell another thread
// writes.  On a negative diagonal: atomicMin(bad, first vertex + i) for the smallest such i.
extern "C" __global__ void __launch_bounds__(TEL_THREADS, 1)
tel_close(const long long* dsc, int* val, int* bad, int n)
{
    if (*bad < n)
        return;
    const long long* d = dsc + (size_t)blockIdx.x * TEL_DESC;
    const int k = (int)d[TD_M];
    const long long v0 = d[TD_BOFF];
    int* ss = val + d[TD_AOFF];
    const int tid = threadIdx.x, cells = k * k;
    int neg = 0;
    for (int i = tid; i < k; i += TEL_THREADS)
        neg |= ss[i * k + i] < 0;
    for (int kk = 0;; ++kk) {
        if (__syncthreads_or(neg)) {
            if (tid == 0) {
                for (int i = 0; i < k; ++i)
                    if (ss[i * k + i] < 0) {
                        atomicMin(bad, (int)(v0 + i));
                        break;
                    }
            }
            return;
        }
        if (kk == k)
            return;
        for (int e = tid; e < cells; e += TEL_THREADS) {
            const int i = e / k, j = e - i * k;
            const int x = ss[i * k + kk] + ss[kk * k + j];
            if (x < ss[e]) {
                ss[e] = x;
                neg |= (i == j && x < 0);
            }
        }
    }
}

// The device-resident result in the original numbering: D[i][j] = Gt[r[i] * ld + c[j]] for k rows of n columns,
// r the Gt row of each row asked for and c the Gt column of each vertex (the ordering's inverse, from the
// launcher).  A thread a column, blockIdx.y a row, both looping (the grid's y is at most 65535): each block reads
// one Gt row through the column permutation (a row of Gt is 4 N bytes, in L2) and writes contiguous cells.
extern "C" __global__ void __launch_bounds__(TEL_THREADS)
tel_vertex_rows(const int* Gt, const long long* r, const long long* c, int* D, long long k, long long n,
                long long ld)
{
    for (long long i = blockIdx.y; i < k; i += gridDim.y) {
        const int* g = Gt + r[i] * ld;
        int* d = D + i * n;
        for (long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x; j < n;
             j += (long long)gridDim.x * blockDim.x)
            d[j] = g[c[j]];
    }
}
