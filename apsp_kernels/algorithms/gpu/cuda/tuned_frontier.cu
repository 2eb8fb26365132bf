// tuned_frontier: all-pairs (or some-rows) shortest paths of a sparse graph, ONE THREAD BLOCK PER SOURCE,
// each block running Bellman-Ford with a vertex frontier to the end inside itself.
// NOT a paper kernel: faithful=False.  Non-negative weights only (the launcher refuses others).
//
// Why: tuned_sparse launches one kernel per sweep per batch of targets, so its cost grows with the hop
// diameter (a ring of 16384 vertices, 8192 sweeps deep, took 7.5 s).  Here the rounds of one source run
// in one block between two __syncthreads, with no launch and no host between them: a deep, narrow graph
// costs a few hundred ns a round, and the many blocks of the grid (one per source) keep the SMs busy.
//
// Block b solves source s = sources[b] into row b of D (k x n, row pitch n): the distance row itself is
// the working memory, in global memory, int32 (INF of common.cuh) or float32 (+inf).  The frontier is a
// bitmap of ceil(n/32) words in dynamic shared memory; two of them, F (this round's) and G (the next).
// Each round: every thread takes the words i = tid, tid + blockDim, ... of F; for each set bit u it reads
// du = D[u] and relaxes u's out-edges (CSR): nd = du + w; if nd < D[v]: old = atomicMin(&D[v], nd), and
// if nd < old (this thread lowered D[v]) it sets bit v of G (atomicOr in shared memory).  A barrier; F
// cleared; the round's stop test is __syncthreads_or(G has a bit); swap.  Initially D = INF, D[s] = 0,
// F = {s}.  Reads of D are volatile (relaxed loads: other threads of the block lower D[v] concurrently;
// a plain load may be served from L1, a volatile one is not and is never a data race).
//
// Exact.  Invariant at each round boundary: every edge u -> v whose tail u is NOT in the frontier F_t
// satisfies D[v] <= D[u] + w.  True at the start (D[u] = INF for u != s, and F_0 = {s}).  Round t keeps it:
// (a) for u in F_t, after relaxing, D[v] <= du + w (the test read a value >= the current one, or the
// atomicMin made D[v] <= nd; D only goes down); du, read after the barrier, is D[u] as the round began or
// lower, and if D[u] went down after du was read, whoever lowered it set bit u in F_{t+1} (exempt);
// (b) for u not in F_t the inequality held before the round, D[v] only went down, and D[u] is unchanged
// unless lowered, which again puts u in F_{t+1}.  So when F_{t+1} is empty every edge satisfies Bellman's
// inequality; with D[s] = 0 that gives D <= the distances, and every value written is the length of a
// real walk from s (or INF), so D >= them: D is exact.  Gauss-Seidel reads (a value lowered earlier in the
// same round) only speed this up: every value read is a real walk length.
// Rounds: a vertex whose shortest path has i edges holds its distance by the end of round i - 1 (its
// predecessor on the path held its own by round i - 2 and was then in the frontier), so rounds 0 .. n - 2
// settle everything and round n - 1 lowers nothing: at most n rounds.  The loop stops at n + 1 and writes
// -1 to rounds[b] if the frontier is still not empty (a bug, never a property of the input: the launcher
// raises); else rounds[b] = the number of rounds run (about the source's hop eccentricity).
//
// float32: non-negative IEEE floats order like their bit patterns read as int32, so atomicMin on the
// int reinterpretation is an exact float min (+inf = 0x7f800000 is the largest; the launcher turns -0.0
// weights into +0.0, and du + w is never -0.0 since D[s] = +0.0).  float addition is monotone and, for
// w >= 0, fl(a + w) >= a, so the argument above holds with "length" read as the left-to-right float32 sum
// along the path, and the result is min over paths of that sum: fixed, whatever the order of rounds.
// Overflow (int32): du <= INF = 2^30 - 1 and w <= MAX_PATH_WEIGHT < 2^29, so nd < 2^31.
//
// Threads a block: TFR_THREADS = 128 (tuned/frontier.py says THREADS = the same; a CPU test compares them).
// On deep, narrow graphs (rings, paths, grids) a round has one or two frontier vertices, so a block is
// mostly a latency chain (load du, the CSR row, D[v], atomicMin, atomicOr, barrier); 128 rather than 256
// threads lets 16 blocks (sources) share an SM instead of 8, hiding more of that latency, and a round's
// scan of the bitmap is still short (n = 65536: 2048 words, 16 a thread).  The kernel reads blockDim, and
// TFR_THREADS is only its launch bound: the launcher runs the chunks after the first with 64-thread blocks
// where the first chunk's rounds show a frontier narrower than a warp (tuned/frontier.py, block_threads:
// twice the sources at once on a ring; measured there).
// Deviations from the brief's sketch: none in the algorithm.  Known cost: a vertex's out-edges are relaxed
// by the one thread that found its bit, so a hub of degree d costs one thread d serial relaxations.
#include "common.cuh"

#define TFR_THREADS 128

__device__ __forceinline__ int tfr_inf(const int*) { return APSP_INF; }
__device__ __forceinline__ float tfr_inf(const float*) { return __int_as_float(0x7f800000); }

__device__ __forceinline__ int tfr_atomic_min(int* p, int x) { return atomicMin(p, x); }
__device__ __forceinline__ float tfr_atomic_min(float* p, float x)       // exact for x >= +0 and *p >= +0
{
    return __int_as_float(atomicMin(reinterpret_cast<int*>(p), __float_as_int(x)));
}

template <typename T>
__device__ __forceinline__ T tfr_load(const T* p) { return *reinterpret_cast<const volatile T*>(p); }

// grid = (k,), block = (TFR_THREADS,), dynamic shared memory = 2 * ceil(n / 32) * 4 bytes.
// D: k x n, row b for source sources[b]; rounds[b]: rounds run, or -1 if still not done after n + 1.
template <typename T>
__global__ void __launch_bounds__(TFR_THREADS)
tfr_solve(T* D, const int* __restrict__ indptr, const int* __restrict__ indices, const T* __restrict__ weights,
          const int* __restrict__ sources, int n, int* rounds)
{
#ifdef APSP_HOST_EMULATION
    unsigned* const bits = static_cast<unsigned*>(emu_dynamic_shared);
#else
    extern __shared__ unsigned tfr_dynamic[];
    unsigned* const bits = tfr_dynamic;
#endif
    const int words = (n + 31) >> 5;
    unsigned* cur = bits;
    unsigned* nxt = bits + words;
    const int tid = threadIdx.x, nt = blockDim.x;
    const int s = sources[blockIdx.x];
    T* const row = D + (size_t)blockIdx.x * (size_t)n;
    const T inf = tfr_inf(row);

    for (int v = tid; v < n; v += nt)
        row[v] = v == s ? T(0) : inf;
    for (int i = tid; i < words; i += nt) {
        cur[i] = i == (s >> 5) ? 1u << (s & 31) : 0u;
        nxt[i] = 0u;
    }
    __syncthreads();

    int rnd = 0;
    bool more = true;
    while (more && rnd <= n) {                       // at most n rounds are needed (header); n + 1 allowed
        for (int i = tid; i < words; i += nt) {
            unsigned w32 = cur[i];
            while (w32) {
                const int u = (i << 5) + (__ffs(w32) - 1);
                w32 &= w32 - 1;
                const T du = tfr_load(row + u);
                const int e1 = indptr[u + 1];
                for (int e = indptr[u]; e < e1; ++e) {
                    const int v = indices[e];
                    const T nd = du + weights[e];
                    if (nd < tfr_load(row + v)) {
                        const T old = tfr_atomic_min(row + v, nd);
                        if (nd < old)                          // this thread lowered D[v]: v is in F_{t+1}
                            atomicOr(nxt + (v >> 5), 1u << (v & 31));
                    }
                }
            }
        }
        __syncthreads();                                   // G complete, F read by all
        bool mine = false;
        for (int i = tid; i < words; i += nt) {
            cur[i] = 0u;                                   // F becomes next round's G: empty
            mine |= nxt[i] != 0u;
        }
        more = __syncthreads_or(mine) != 0;               // also orders the clears before the next round
        unsigned* t = cur;
        cur = nxt;
        nxt = t;
        ++rnd;
    }
    if (tid == 0)
        rounds[blockIdx.x] = more ? -1 : rnd;
}

template __global__ void tfr_solve<int>(int*, const int*, const int*, const int*, const int*, int, int*);
template __global__ void tfr_solve<float>(float*, const int*, const int*, const float*, const int*, int, int*);
