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
// bitmap of ceil(n/32) words in dynamic shared memory; two of them, F (this round's) and G (the next).  Vertex v
// is bit v / words of word v % words (TFR_TRANSPOSE): consecutive vertices sit in consecutive words, which
// different threads scan, so a frontier of near-numbered vertices (the launcher renumbers the graph so that
// neighbours are: tuned/frontier.py) is walked by many threads, not by the one whose word would hold 32 of them.
// Each round: every thread takes the words i = tid, tid + blockDim, ... of F; for each set bit u of out-degree
// below TFR_HEAVY it reads du = D[u] and relaxes u's out-edges (CSR): nd = du + w; if nd < D[v]: old =
// atomicMin(&D[v], nd), and if nd < old (this thread lowered D[v]) it sets bit v of G (atomicOr in shared
// memory).  A heavy u (out-degree >= TFR_HEAVY) is not walked by the thread that found it: it goes to a list
// H in shared memory, and at the start of the next round the whole block relaxes its edges, thread tid taking
// edges tid, tid + blockDim, ... (a hub's edges are one thread's serial walk otherwise, while the block waits at
// the barrier: on Barabasi-Albert graphs, whose oldest vertices are the hubs, that walk set the round's time).
// H holds TFR_HEAVY_SLOTS vertices; a heavy u beyond them is walked by its finder, as a light one.  A barrier;
// F cleared; the round's stop test is __syncthreads_or(G has a bit or H is not empty); swap.  Initially D = INF,
// D[s] = 0, F = {s}, H empty.
// Reads of D are volatile (relaxed loads: other threads of the block lower D[v] concurrently; a plain load may
// be served from L1, a volatile one is not and is never a data race).
//
// Exact.  Invariant at each round boundary: every edge u -> v whose tail u is in neither the frontier F_t nor
// the list H_t satisfies D[v] <= D[u] + w.  True at the start (D[u] = INF for u != s, and F_0 = {s}).  Round t
// keeps it: (a) for u in H_t (relaxed by the block) or a light u in F_t (by its finder), after relaxing, D[v] <=
// du + w (the test read a value >= the current one, or the atomicMin made D[v] <= nd; D only goes down); du,
// read after the barrier, is D[u] as the round began or lower, and if D[u] went down after du was read, whoever
// lowered it set bit u in F_{t+1} (exempt); (b) a heavy u of F_t is put in H_{t+1} (exempt); (c) for u in
// neither, the inequality held before the round, D[v] only went down, and D[u] is unchanged unless lowered,
// which again puts u in F_{t+1}.  So when F_{t+1} and H_{t+1} are both empty every edge satisfies Bellman's
// inequality; with D[s] = 0 that gives D <= the distances, and every value written is the length of a real
// walk from s (or INF), so D >= them: D is exact.  Gauss-Seidel reads (a value lowered earlier in the same
// round) only speed this up: every value read is a real walk length.
// Rounds: a vertex whose shortest path has i edges holds its distance by the end of round 2(i - 1) (its
// predecessor on the path held its own by round 2(i - 2), was then in the frontier, and had its edges relaxed
// in the next round, or the one after where it was heavy), so rounds 0 .. 2n - 3 settle everything and at
// most two more empty F and H: at most 2n rounds.  The loop stops at 2n + 1 and writes -1 to rounds[b] if F or
// H is still not empty (a bug, never a property of the input: the launcher raises); else rounds[b] = the
// number of rounds run (about the source's hop eccentricity, plus one a hop through a heavy vertex).
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
// Deviations from the brief's sketch: none in the algorithm.  Known cost: a vertex of out-degree below
// TFR_HEAVY is walked by the one thread that found its bit (32 of them: at most 31 serial relaxations while
// the block waits); a heavy one costs the block d / blockDim relaxations a thread, a round later.
#include "common.cuh"

#define TFR_THREADS 128
#ifndef TFR_HEAVY                // a define of the launch may set it (scripts/frontier_heavy_probe.py: off)
#define TFR_HEAVY 32             // out-degree from which a frontier vertex's edges are the block's
#endif
#define TFR_HEAVY_SLOTS 256      // heavy vertices a round defers; more are walked by their finders
#ifndef TFR_TRANSPOSE            // 1: vertex v is bit v / words of word v % words (consecutive vertices in
#define TFR_TRANSPOSE 1          // consecutive words, so different threads); 0 (scripts/frontier_order_probe.py
#endif                           // --layouts word): bit v % 32 of word v / 32
// The frontier bitmaps' layout: which word and bit hold vertex v (words = ceil(n / 32); v < n <= 32 words, so
// v / words < 32), and back.
__device__ __forceinline__ int tfr_word(int v, int words) { return TFR_TRANSPOSE ? v % words : v >> 5; }
__device__ __forceinline__ unsigned tfr_bit(int v, int words)
{
    return 1u << (TFR_TRANSPOSE ? v / words : v & 31);
}
__device__ __forceinline__ int tfr_vertex(int word, int bit, int words)
{
    return TFR_TRANSPOSE ? bit * words + word : (word << 5) + bit;
}

__device__ __forceinline__ int tfr_inf(const int*) { return APSP_INF; }
__device__ __forceinline__ float tfr_inf(const float*) { return __int_as_float(0x7f800000); }

__device__ __forceinline__ int tfr_atomic_min(int* p, int x) { return atomicMin(p, x); }
__device__ __forceinline__ float tfr_atomic_min(float* p, float x)       // exact for x >= +0 and *p >= +0
{
    return __int_as_float(atomicMin(reinterpret_cast<int*>(p), __float_as_int(x)));
}

template <typename T>
__device__ __forceinline__ T tfr_load(const T* p) { return *reinterpret_cast<const volatile T*>(p); }

// Relaxes u's out-edges e0, e0 + step, ... (one thread: e0 = indptr[u], step 1; the block: e0 = indptr[u] + tid,
// step blockDim) from du = D[u] as read now; a v this thread lowers gets its bit in the next frontier G.
template <typename T>
__device__ __forceinline__ void tfr_relax(T* row, const int* __restrict__ indptr, const int* __restrict__ indices,
                                          const T* __restrict__ weights, unsigned* nxt, int words, int u, int e0,
                                          int step)
{
    const T du = tfr_load(row + u);
    const int e1 = indptr[u + 1];
    for (int e = e0; e < e1; e += step) {
        const int v = indices[e];
        const T nd = du + weights[e];
        if (nd < tfr_load(row + v)) {
            const T old = tfr_atomic_min(row + v, nd);
            if (nd < old)                                  // this thread lowered D[v]: v is in F_{t+1}
                atomicOr(nxt + tfr_word(v, words), tfr_bit(v, words));
        }
    }
}

// grid = (k,), block = (TFR_THREADS,), dynamic shared memory = 2 * ceil(n / 32) * 4 bytes.
// D: k x n, row b for source sources[b]; rounds[b]: rounds run, or -1 if still not done after 2n + 1.
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
        cur[i] = i == tfr_word(s, words) ? tfr_bit(s, words) : 0u;
        nxt[i] = 0u;
    }
    __syncthreads();

    // the heavy vertices (out-degree >= TFR_HEAVY) the scan of round t met, relaxed by the whole block in round
    // t + 1: list (rnd & 1) is read in round rnd, list (rnd + 1) & 1 filled by its scan
    __shared__ int heavy[2][TFR_HEAVY_SLOTS];
    __shared__ int heavy_count[2];
    if (tid == 0)
        heavy_count[0] = heavy_count[1] = 0;
    __syncthreads();

    int rnd = 0;
    bool more = true;
    while (more && rnd <= 2 * n) {                   // at most 2n rounds are needed (header); 2n + 1 allowed
        const int p = rnd & 1, q = p ^ 1;
        const int deferred = min(heavy_count[p], TFR_HEAVY_SLOTS);
        for (int h = 0; h < deferred; ++h) {         // the block shares each deferred vertex's edges
            const int u = heavy[p][h];
            tfr_relax(row, indptr, indices, weights, nxt, words, u, indptr[u] + tid, nt);
        }
        for (int i = tid; i < words; i += nt) {
            unsigned w32 = cur[i];
            while (w32) {
                const int u = tfr_vertex(i, __ffs(w32) - 1, words);
                w32 &= w32 - 1;
                if (indptr[u + 1] - indptr[u] >= TFR_HEAVY) {
                    const int slot = atomicAdd(heavy_count + q, 1);
                    if (slot < TFR_HEAVY_SLOTS) {    // deferred to the next round; else walked here, as a light one
                        heavy[q][slot] = u;
                        continue;
                    }
                }
                tfr_relax(row, indptr, indices, weights, nxt, words, u, indptr[u], 1);
            }
        }
        __syncthreads();                                   // G and list q complete, F and list p read by all
        bool mine = heavy_count[q] != 0;
        for (int i = tid; i < words; i += nt) {
            cur[i] = 0u;                                   // F becomes next round's G: empty
            mine |= nxt[i] != 0u;
        }
        if (tid == 0)
            heavy_count[p] = 0;                            // list p is refilled by the next round's scan
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
