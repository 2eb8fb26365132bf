// tuned_fw: blocked Floyd-Warshall written for the H100 today ("the 2026 line").
// NOT a paper kernel: faithful=False in the registry; the faithful Katz & Kider kernel stays in
// katz_kider.cu.  Same algorithm as Venkataraman et al.'s blocked FW (Kemp Alg. 8), block B = 128,
// n padded to a multiple of 128 with isolated vertices (INF rows and columns, 0 diagonal).
//
// Round r (pivot block r, the 128 vertices r*128 .. r*128+127), three launches:
//  phase 1  tfw_phase1: the pivot block's own FW, k in order (the FW dependency): one CTA of 256
//           threads, each holding 8 x 8 cells in registers; before step k the owners of row k and of
//           column k publish them to shared memory (double-buffered by the parity of k, so one
//           __syncthreads per k suffices), then every thread relaxes its 64 cells.  Result: the
//           closure P* of the pivot block (0 diagonal when there is no negative cycle).
//  phase 2  tfw_phase2: the pivot's row and column as min-plus PRODUCTS with the closure, with no
//           sequential k: row tile R' = min(R, P* (x) R), column tile C' = min(C, C (x) P*).  Exact:
//           split a path i -> j (intermediates in blocks <= r) at its last (row) or first (column)
//           vertex in block r; the part inside is bounded by P*, the rest by the old D.  The column
//           tiles are also written transposed into colT (128 x N) for phase 3.
//  phase 3  tfw_phase3: every other tile, D(bi,bj) = min(D(bi,bj), C'(bi) (x) R'(bj)): a register-
//           tiled min-plus product, the O(n^3) part.
// float32: the same three kernels over float (entry points tfw_phase{1,2,3}_f32), the element
// type a template parameter of each body: a 4-byte element, so the layout, tiling, slabs and 16-byte copies are
// the int32 kernels' exactly (float4 for int4); the add-min is fminf(a + b, c) in round-to-nearest float32 (no
// DPX instruction takes floats), INF is +inf (inf + w = inf for every finite w, so no sentinel arithmetic), and
// negative weights are allowed as in int32 (a negative cycle shows as a negative diagonal entry).  The sums are
// float32: exact while every partial path weight is an integer below 2^24, else within float32 rounding per
// addition (the launcher's docstring states the bound).  The int32 entry points are unchanged in name and body.
// Across GPUs (tuned_fw_multi, algorithms/gpu/multi/tuned.py): the same three phases on a rank's own block rows,
// entry points tfwm_*, int32 only; the pivot's row of blocks comes from its owner (an NCCL broadcast), so phases
// 2 and 3 address it through its own pointer (the section at the end of this file).
// Every int32 update is min(a + b, c) with plain int32 adds, the project's INF convention (common.cuh:
// INF = 2^30 - 1, so INF + INF fits in int32; entries never exceed INF, and the graph checker keeps
// path weights within INF/2, so INF-derived sums stay above MAX_PATH_WEIGHT and are mapped back to
// INF by the launcher's finish()).  No saturating logic is needed anywhere.
//
// The product (phases 2 and 3), 128 x 128 output tile per CTA, 256 threads, 8 x 8 cells a thread:
//  * a thread owns rows {4ty..4ty+3} U {64+4ty..64+4ty+3} and the same pattern of columns in tx
//    (ty = tid / 16, tx = tid % 16): its operands for one k are two 16-byte shared loads of the A
//    column and two of the B row; a warp (2 ty values x 16 tx) reads 2 distinct A vectors (broadcast)
//    and 16 contiguous B vectors (256 bytes: the 2-wavefront minimum): no bank conflicts;
//  * k in slabs of 16: A slab (16 x 128, from colT: k-major, so A needs no transposition) and B slab
//    (16 x 128 rows of D), 16 KB a stage, two stages, filled by cp.async 16-byte copies (no register
//    staging) while the previous slab is consumed; 32 KB static shared memory a CTA, 2 CTAs an SM;
//  * the C tile lives in 64 registers, loaded and stored with 16-byte global accesses (a warp's
//    row segment is 256 contiguous bytes), once per round;
//  * the add-min is __viaddmin_s32, which sm_90 executes as one DPX instruction (SASS VIADDMNMX;
//    tests/test_tuned_sass.py checks the phase-3 kernel's SASS for it).
// Phase 2 reads its A operand row-major (the column tile itself, or P*): padded [128][20] shared
// rows, scalar broadcast loads; it is 2/nb of the work (nb = N/128).
// Why B = 128: phase 3 reads and writes each C cell once per round for B updates, 8 bytes per B
// updates; at B = 128 the C traffic needs ~1 TB/s at the int32 add-min rate (16-17 T/s), a third of
// the copy bandwidth, where B = 32 (Katz & Kider's largest) would need 4 TB/s and be memory-bound.
#include "common.cuh"
#include "async_copy.cuh"

#define TFW_T 128          // block (and product tile) size
#define TFW_KS 16          // k slab of the product
#define TFW_THREADS 256
#define TFW_APAD 20        // row stride (ints) of a row-major A slab: 16 + 4, conflict-free broadcasts

__device__ __forceinline__ int tfw_addmin(int a, int b, int c)
{
    return __viaddmin_s32(a, b, c);        // min(a + b, c): one VIADDMNMX on sm_90
}

__device__ __forceinline__ float tfw_addmin(float a, float b, float c)
{
    return fminf(a + b, c);                // +inf + w = +inf: no sentinel to guard
}

// the 16-byte vector of a 4-byte element type (the kernels' only loads and stores besides cp.async)
template <class T> struct tfw_vec;
template <> struct tfw_vec<int> {
    typedef int4 type;
    static __device__ __forceinline__ int4 make(int a, int b, int c, int d) { return make_int4(a, b, c, d); }
};
template <> struct tfw_vec<float> {
    typedef float4 type;
    static __device__ __forceinline__ float4 make(float a, float b, float c, float d) { return make_float4(a, b, c, d); }
};

// 8 rows (or columns) of a thread: 4 at 4*t and 4 at 64 + 4*t
__device__ __forceinline__ int tfw_line(int t, int i)
{
    return (i < 4 ? 0 : 64) + 4 * t + (i & 3);
}

// The 8 x 8 cells of a thread in a 128 x 128 tile at (row0, col0) of a matrix with row stride ld
template <class T>
__device__ __forceinline__ void tfw_load_tile(T (&c)[8][8], const T* M, size_t ld, int row0, int col0, int ty, int tx)
{
    typedef typename tfw_vec<T>::type V;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const T* p = M + (size_t)(row0 + tfw_line(ty, i)) * ld + col0 + 4 * tx;
        V lo = *reinterpret_cast<const V*>(p);
        V hi = *reinterpret_cast<const V*>(p + 64);
        c[i][0] = lo.x; c[i][1] = lo.y; c[i][2] = lo.z; c[i][3] = lo.w;
        c[i][4] = hi.x; c[i][5] = hi.y; c[i][6] = hi.z; c[i][7] = hi.w;
    }
}

template <class T>
__device__ __forceinline__ void tfw_store_tile(const T (&c)[8][8], T* M, size_t ld, int row0, int col0, int ty, int tx)
{
    typedef tfw_vec<T> W;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        T* p = M + (size_t)(row0 + tfw_line(ty, i)) * ld + col0 + 4 * tx;
        *reinterpret_cast<typename W::type*>(p) = W::make(c[i][0], c[i][1], c[i][2], c[i][3]);
        *reinterpret_cast<typename W::type*>(p + 64) = W::make(c[i][4], c[i][5], c[i][6], c[i][7]);
    }
}

template <class T>
__device__ __forceinline__ void tfw_relax(T (&c)[8][8], const T (&a)[8], const T (&b)[8])
{
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            c[i][j] = tfw_addmin(a[i], b[j], c[i][j]);
}

template <class V, class T>
__device__ __forceinline__ void tfw_split(const V& lo, const V& hi, T (&v)[8])
{
    v[0] = lo.x; v[1] = lo.y; v[2] = lo.z; v[3] = lo.w;
    v[4] = hi.x; v[5] = hi.y; v[6] = hi.z; v[7] = hi.w;
}

// ---------------------------------------------------------------- phase 1: the pivot block
// The pivot block is the tile at (row0, col0) of a matrix of row stride ld: (r*128, r*128) of D, or (0, r*128) of
// the pivot's row of blocks where a rank holds only some block rows.
template <class T>
__device__ __forceinline__ void tfw_phase1_body(T* D, size_t ld, int row0, int col0)
{
    typedef tfw_vec<T> W;
    typedef typename W::type V;
    __shared__ __align__(16) T rowk[2][TFW_T];
    __shared__ __align__(16) T colk[2][TFW_T];
    const int tid = threadIdx.x, ty = tid >> 4, tx = tid & 15;
    T c[8][8];
    tfw_load_tile(c, D, ld, row0, col0, ty, tx);
    for (int k = 0; k < TFW_T; ++k) {
        const int buf = k & 1;
        const int kt = (k & 63) >> 2, ki = (k & 3) + ((k >> 6) << 2);   // owner t and line index of k
        if (ty == kt) {                     // my line ki is row k: publish its 8 cells
#pragma unroll
            for (int i = 0; i < 8; ++i)
                if (i == ki) {
                    *reinterpret_cast<V*>(&rowk[buf][4 * tx]) = W::make(c[i][0], c[i][1], c[i][2], c[i][3]);
                    *reinterpret_cast<V*>(&rowk[buf][64 + 4 * tx]) = W::make(c[i][4], c[i][5], c[i][6], c[i][7]);
                }
        }
        if (tx == kt) {                     // my column ki is column k
#pragma unroll
            for (int j = 0; j < 8; ++j)
                if (j == ki) {
                    *reinterpret_cast<V*>(&colk[buf][4 * ty]) = W::make(c[0][j], c[1][j], c[2][j], c[3][j]);
                    *reinterpret_cast<V*>(&colk[buf][64 + 4 * ty]) = W::make(c[4][j], c[5][j], c[6][j], c[7][j]);
                }
        }
        __syncthreads();   // one barrier per k: buffer buf is rewritten at k + 2, after every thread passed k + 1's
        T a[8], b[8];
        tfw_split(*reinterpret_cast<const V*>(&colk[buf][4 * ty]),
                  *reinterpret_cast<const V*>(&colk[buf][64 + 4 * ty]), a);
        tfw_split(*reinterpret_cast<const V*>(&rowk[buf][4 * tx]),
                  *reinterpret_cast<const V*>(&rowk[buf][64 + 4 * tx]), b);
        tfw_relax(c, a, b);
    }
    tfw_store_tile(c, D, ld, row0, col0, ty, tx);
}

extern "C" __global__ void __launch_bounds__(TFW_THREADS, 1)
tfw_phase1(int* D, int N, int r)
{
    tfw_phase1_body<int>(D, (size_t)N, r * TFW_T, r * TFW_T);
}

extern "C" __global__ void __launch_bounds__(TFW_THREADS, 1)
tfw_phase1_f32(float* D, int N, int r)
{
    tfw_phase1_body<float>(D, (size_t)N, r * TFW_T, r * TFW_T);
}

// ---------------------------------------------------------------- phase 2: pivot row and column
// Row tile (r, b):    C = D(r, b), A = P* = D(r, r), B = D(r, b) (C itself)
// Column tile (b, r): C = D(b, r), A = D(b, r) (C itself), B = P*; also colT(:, b)
// Both operands come straight from memory: A row-major (padded rows), B row-major.  Each CTA reads only P* and
// its own tile and writes only its own tile, after the last slab it reads has arrived: no dependency between CTAs.
// Addressed through Pb, whose row prow is the pivot's first row (D and r*128 in the whole matrix, the pivot's row of
// blocks and 0 where a rank holds only some block rows), and M, whose row crow is a column tile's first (D, or the
// rank's own rows); colT has row stride ldT and takes the tile at column crow.  The whole matrix passes D as both, so
// its addresses are computed as from one base (a second live pointer costs phase 3's float32 kernel a spill).
template <class T>
__device__ __forceinline__ void tfw_phase2_tile(T* M, T* Pb, int prow, T* colT, size_t ld, size_t ldT, int pr,
                                                int crow, int b, bool col)
{
    typedef tfw_vec<T> W;
    typedef typename W::type V;
    __shared__ __align__(16) T As[2][TFW_T][TFW_APAD];     // [row][k], row-major A slab
    __shared__ __align__(16) T Bs[2][TFW_KS][TFW_T];       // [k][col]
    const int tid = threadIdx.x, ty = tid >> 4, tx = tid & 15;
    T* Cbase = col ? M : Pb;                                // C's rows (and A's): from crowC of Cbase
    const int crowC = col ? crow : prow;
    const int ccol = col ? pr : b * TFW_T;                  // C's columns; B's are the same
    auto load_slab = [&](int s, int st) {
        const int k0 = s * TFW_KS;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            int q = tid + h * TFW_THREADS;                   // 512 16-byte chunks per operand
            int ar = q >> 2, ak = (q & 3) * 4;              // A: 128 rows x 4 chunks
            cp_async16(&As[st][ar][ak], Cbase + (size_t)(crowC + ar) * ld + pr + k0 + ak);
            int bk = q >> 5, bc = (q & 31) * 4;             // B: 16 rows x 32 chunks
            cp_async16(&Bs[st][bk][bc], Pb + (size_t)(prow + k0 + bk) * ld + ccol + bc);
        }
        cp_async_commit();
    };
    load_slab(0, 0);
    T c[8][8];
    tfw_load_tile(c, Cbase, ld, crowC, ccol, ty, tx);
    constexpr int NS = TFW_T / TFW_KS;
    for (int s = 0; s < NS; ++s) {
        const int st = s & 1;
        if (s + 1 < NS) {
            load_slab(s + 1, st ^ 1);
            cp_async_wait<1>();
        } else {
            cp_async_wait<0>();
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TFW_KS; ++kk) {
            T a[8], bv[8];
#pragma unroll
            for (int i = 0; i < 8; ++i)
                a[i] = As[st][tfw_line(ty, i)][kk];
            tfw_split(*reinterpret_cast<const V*>(&Bs[st][kk][4 * tx]),
                      *reinterpret_cast<const V*>(&Bs[st][kk][64 + 4 * tx]), bv);
            tfw_relax(c, a, bv);
        }
        __syncthreads();     // stage st is refilled by the next iteration's load of slab s + 2
    }
    tfw_store_tile(c, Cbase, ld, crowC, ccol, ty, tx);
    if (col) {               // colT(k, i) = C'(i, k): phase 3's A operand, k-major
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            T* p = colT + (size_t)tfw_line(tx, j) * ldT + crow + 4 * ty;
            *reinterpret_cast<V*>(p) = W::make(c[0][j], c[1][j], c[2][j], c[3][j]);
            *reinterpret_cast<V*>(p + 64) = W::make(c[4][j], c[5][j], c[6][j], c[7][j]);
        }
    }
}

// The whole matrix: blockIdx.y 0 a row tile, 1 a column tile; b = blockIdx.x, skipping r.
template <class T>
__device__ __forceinline__ void tfw_phase2_body(T* D, T* colT, int N, int r)
{
    const int b = blockIdx.x + ((int)blockIdx.x >= r ? 1 : 0);
    const size_t ld = (size_t)N;
    const int pr = r * TFW_T;
    tfw_phase2_tile<T>(D, D, pr, colT, ld, ld, pr, b * TFW_T, b, blockIdx.y == 1);
}

extern "C" __global__ void __launch_bounds__(TFW_THREADS, 1)
tfw_phase2(int* D, int* colT, int N, int r)
{
    tfw_phase2_body<int>(D, colT, N, r);
}

extern "C" __global__ void __launch_bounds__(TFW_THREADS, 1)
tfw_phase2_f32(float* D, float* colT, int N, int r)
{
    tfw_phase2_body<float>(D, colT, N, r);
}

// ---------------------------------------------------------------- phase 3: every other tile
// Tile (bi, bj), bi and bj skipping r (Kemp's Fig. 4.3 skip, written b + (b >= r)).
// A = colT(:, bi) (k-major, 128 x 128), B = D(r, bj) (the pivot's rows), C = D(bi, bj) in registers.
// Addressed as phase 2's: C at row crow of M, column ccol; B from row prow of Pb; A at column crow of colT (row
// stride ldT).
template <class T>
__device__ __forceinline__ void tfw_phase3_tile(T* M, const T* Pb, int prow, const T* __restrict__ colT, size_t ld,
                                                size_t ldT, int crow, int ccol)
{
    typedef tfw_vec<T> W;
    typedef typename W::type V;
    __shared__ __align__(16) T As[2][TFW_KS][TFW_T];       // [k][row]
    __shared__ __align__(16) T Bs[2][TFW_KS][TFW_T];       // [k][col]
    const int tid = threadIdx.x, ty = tid >> 4, tx = tid & 15;
    auto load_slab = [&](int s, int st) {
        const int k0 = s * TFW_KS;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            int q = tid + h * TFW_THREADS;
            int kk = q >> 5, cc = (q & 31) * 4;             // 16 rows x 32 chunks, both operands
            cp_async16(&As[st][kk][cc], colT + (size_t)(k0 + kk) * ldT + crow + cc);
            cp_async16(&Bs[st][kk][cc], Pb + (size_t)(prow + k0 + kk) * ld + ccol + cc);
        }
        cp_async_commit();
    };
    load_slab(0, 0);
    T c[8][8];
    tfw_load_tile(c, M, ld, crow, ccol, ty, tx);
    constexpr int NS = TFW_T / TFW_KS;
    for (int s = 0; s < NS; ++s) {
        const int st = s & 1;
        if (s + 1 < NS) {
            load_slab(s + 1, st ^ 1);
            cp_async_wait<1>();
        } else {
            cp_async_wait<0>();
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TFW_KS; ++kk) {
            T a[8], b[8];
            tfw_split(*reinterpret_cast<const V*>(&As[st][kk][4 * ty]),
                      *reinterpret_cast<const V*>(&As[st][kk][64 + 4 * ty]), a);
            tfw_split(*reinterpret_cast<const V*>(&Bs[st][kk][4 * tx]),
                      *reinterpret_cast<const V*>(&Bs[st][kk][64 + 4 * tx]), b);
            tfw_relax(c, a, b);
        }
        __syncthreads();
    }
    tfw_store_tile(c, M, ld, crow, ccol, ty, tx);
}

template <class T>
__device__ __forceinline__ void tfw_phase3_body(T* D, const T* __restrict__ colT, int N, int r)
{
    const int bj = blockIdx.x + ((int)blockIdx.x >= r ? 1 : 0);
    const int bi = blockIdx.y + ((int)blockIdx.y >= r ? 1 : 0);
    const size_t ld = (size_t)N;
    tfw_phase3_tile<T>(D, D, r * TFW_T, colT, ld, ld, bi * TFW_T, bj * TFW_T);
}

extern "C" __global__ void __launch_bounds__(TFW_THREADS, 2)
tfw_phase3(int* D, const int* __restrict__ colT, int N, int r)
{
    tfw_phase3_body<int>(D, colT, N, r);
}

extern "C" __global__ void __launch_bounds__(TFW_THREADS, 2)
tfw_phase3_f32(float* D, const float* __restrict__ colT, int N, int r)
{
    tfw_phase3_body<float>(D, colT, N, r);
}

// ---------------------------------------------------------------- block rows of one rank (multi/tuned.py)
// The same rounds over GPUs: a rank holds block rows first .. first + count - 1 of D as L (count*128 rows, row
// stride N, local block row bl = global - first).  P is the pivot's row of blocks: inside L on its owner, else the
// copy the owner broadcast; colT (128 x count*128) the transposed pivot column of the rank's own rows.  The owner
// runs tfwm_phase1 and tfwm_phase2_row on its P, then every rank tfwm_phase2_col and tfwm_phase3 on its own rows,
// skipping the pivot's own block row (final after phase 2, and P itself on the owner).  int32 only.
// Rows of a launch: local block rows lo + blockIdx.y, passing over skip1 and then skip2 (skip1 < skip2; 1 << 30
// where there is none), so that one launch can leave out both the pivot's row and the row run ahead of the rest.
__device__ __forceinline__ int tfwm_row(int lo, int y, int skip1, int skip2)
{
    int bl = lo + y;
    if (bl >= skip1) ++bl;
    if (bl >= skip2) ++bl;
    return bl;
}

extern "C" __global__ void __launch_bounds__(TFW_THREADS, 1)
tfwm_phase1(int* P, int N, int r)
{
    tfw_phase1_body<int>(P, (size_t)N, 0, r * TFW_T);
}

// grid (nb - 1): the pivot's row tiles, b = blockIdx.x skipping r
extern "C" __global__ void __launch_bounds__(TFW_THREADS, 1)
tfwm_phase2_row(int* P, int N, int r)
{
    const int b = blockIdx.x + ((int)blockIdx.x >= r ? 1 : 0);
    tfw_phase2_tile<int>(P, P, 0, nullptr, (size_t)N, 0, r * TFW_T, 0, b, false);
}

// grid (own block rows, less the pivot's on its owner): the column tiles of the rank's rows, and colT
extern "C" __global__ void __launch_bounds__(TFW_THREADS, 1)
tfwm_phase2_col(int* L, int* P, int* colT, int N, int rows, int r, int skip)
{
    const int bl = tfwm_row(0, blockIdx.x, skip, 1 << 30);
    tfw_phase2_tile<int>(L, P, 0, colT, (size_t)N, (size_t)rows, r * TFW_T, bl * TFW_T, 0, true);
}

// grid (nb - 1, rows of this launch): tiles (bl, bj) of the rank's rows, bj skipping r
extern "C" __global__ void __launch_bounds__(TFW_THREADS, 2)
tfwm_phase3(int* L, const int* P, const int* __restrict__ colT, int N, int rows, int r, int lo, int skip1, int skip2)
{
    const int bj = blockIdx.x + ((int)blockIdx.x >= r ? 1 : 0);
    const int bl = tfwm_row(lo, blockIdx.y, skip1, skip2);
    tfw_phase3_tile<int>(L, P, 0, colT, (size_t)N, (size_t)rows, bl * TFW_T, bj * TFW_T);
}
