// tuned_fw_ooc: the device half of an out-of-core blocked Floyd-Warshall written for the H100 today
// ("the 2026 line", the tuned line's target 2).  NOT a paper kernel: faithful=False in the registry; Kemp's
// faithful out-of-core code (Alg. 19) stays in kemp_out_of_core.cu.  The schedule (which super-blocks
// move when, on which stream) is Python: algorithms/gpu/tuned/ooc_plan.py says what and why.
//
// Two kernels, and the three phases of tuned_fw.cu (included: the pivot super-block is closed by the
// in-core tuned FW on a contiguous copy, and the product below reuses its register tile, cp.async slabs
// and fused add-min, so the tile loop is written once):
//  tfo_product    Cout = min(Cin, A^T (x) B) over a rows x cols block, K deep: A is k-major (K x rows, as
//                 tuned_fw's colT), B row-major (K x cols), every operand with its own row stride, so
//                 that a tile buffer, the row panel (ld N) and a transposed column slot (ld = its width) mix.
//                 Deviation from tfw_phase3: the k loop runs over the whole pivot super-block (K = S,
//                 thousands) with the C tile in registers throughout, where tfw_phase3 stops at 128 --
//                 the C traffic per update falls by S / 128.  Cin may be Cout (each block reads and
//                 writes only its own tile); A and B must not overlap Cout (the schedule never does).
//                 Split k (gridDim.z > 1, Cin == Cout only): block z runs the z-th of gridDim.z equal
//                 parts of the k range and min-merges its tile into Cout with atomicMin.  Why: a tile
//                 product of an S x S super-block is (S / 128)^2 blocks, 64 at S = 1024, and with three
//                 tile buffers only one runs at a time (one buffer loading, one computing, one writing
//                 back), so half the H100's 132 SMs sat idle; a lone block on an SM runs at the whole
//                 SM's rate (measured: 112 G updates/s a block at 49 and 121 blocks), so splitting k
//                 fills them.  Exact: min is associative, every part starts from Cin (a value no larger
//                 than any part ends with), and a part that reads Cin while another merges into it reads
//                 either value, both upper bounds of the result, element by element (4-byte words: no
//                 torn reads).
//  tfo_transpose  dst = src^T through a 32 x 33 shared tile: the column pieces are kept k-major.
// Sizes are multiples of 128 (the schedule pads), so neither kernel checks bounds.
#include "tuned_fw.cu"

// min-merge a register tile into M (split k: other blocks merge into the same tile)
__device__ __forceinline__ void tfo_merge_tile(const int (&c)[8][8], int* M, size_t ld, int row0, int col0, int ty, int tx)
{
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        int* p = M + (size_t)(row0 + tfw_line(ty, i)) * ld + col0 + 4 * tx;
#pragma unroll
        for (int j = 0; j < 8; ++j)
            atomicMin(p + (j < 4 ? j : 60 + j), c[i][j]);
    }
}

// grid (cols / 128, rows / 128, parts of k), 256 threads; K / gridDim.z a multiple of 16 (TFW_KS)
extern "C" __global__ void __launch_bounds__(TFW_THREADS, 2)
tfo_product(int* Cout, int ldo, const int* Cin, int ldi, const int* __restrict__ A, int lda,
            const int* __restrict__ B, int ldb, int K)
{
    __shared__ __align__(16) int As[2][TFW_KS][TFW_T];       // [k][row]
    __shared__ __align__(16) int Bs[2][TFW_KS][TFW_T];       // [k][col]
    const int tid = threadIdx.x, ty = tid >> 4, tx = tid & 15;
    const int row0 = blockIdx.y * TFW_T, col0 = blockIdx.x * TFW_T;
    K /= (int)gridDim.z;                                    // this block's part of k
    A += (size_t)blockIdx.z * K * lda;
    B += (size_t)blockIdx.z * K * ldb;
    auto load_slab = [&](int s, int st) {
        const int k0 = s * TFW_KS;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            int q = tid + h * TFW_THREADS;
            int kk = q >> 5, cc = (q & 31) * 4;             // 16 rows x 32 chunks, both operands
            cp_async16(&As[st][kk][cc], A + (size_t)(k0 + kk) * lda + row0 + cc);
            cp_async16(&Bs[st][kk][cc], B + (size_t)(k0 + kk) * ldb + col0 + cc);
        }
        cp_async_commit();
    };
    load_slab(0, 0);
    int c[8][8];
    tfw_load_tile(c, Cin, (size_t)ldi, row0, col0, ty, tx);
    const int NS = K / TFW_KS;
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
            int a[8], b[8];
            tfw_split(*reinterpret_cast<const int4*>(&As[st][kk][4 * ty]),
                      *reinterpret_cast<const int4*>(&As[st][kk][64 + 4 * ty]), a);
            tfw_split(*reinterpret_cast<const int4*>(&Bs[st][kk][4 * tx]),
                      *reinterpret_cast<const int4*>(&Bs[st][kk][64 + 4 * tx]), b);
            tfw_relax(c, a, b);
        }
        __syncthreads();     // stage st is refilled by the next iteration's load of slab s + 2
    }
    if (gridDim.z == 1)
        tfw_store_tile(c, Cout, (size_t)ldo, row0, col0, ty, tx);
    else
        tfo_merge_tile(c, Cout, (size_t)ldo, row0, col0, ty, tx);
}

// dst (cols x rows, ld ldd) = src (rows x cols, ld lds) transposed; grid (cols / 32, rows / 32), block (32, 8)
extern "C" __global__ void __launch_bounds__(256)
tfo_transpose(int* dst, int ldd, const int* __restrict__ src, int lds)
{
    __shared__ int t[32][33];              // +1: the column reads hit 32 different banks
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r0 = blockIdx.y * 32, c0 = blockIdx.x * 32;
#pragma unroll
    for (int j = 0; j < 32; j += 8)
        t[ty + j][tx] = src[(size_t)(r0 + ty + j) * lds + c0 + tx];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < 32; j += 8)
        dst[(size_t)(c0 + ty + j) * ldd + r0 + tx] = t[tx][ty + j];
}
