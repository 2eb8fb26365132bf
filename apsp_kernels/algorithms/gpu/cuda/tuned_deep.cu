// tuned_deep: all-pairs (or some-rows) shortest paths of a sparse graph aimed at DEEP, THIN graphs (paths,
// rings, long tails): ONE WARP PER SOURCE, several sources a block, every round inside the warp with
// __syncwarp only, the frontier a small queue in shared memory (a bitmap behind it when it overflows).
// NOT a paper kernel: faithful=False.  Non-negative weights only (the launcher refuses others).
//
// Why: tuned_frontier runs a source's rounds in a block of 64-128 threads with two block barriers a round
// and a scan of the whole frontier bitmap (ceil(n/32) words) every round.  On a path or a ring a round
// lowers one or two vertices, so a source costs ~n rounds of barrier latency plus n scans of n/32 words:
// latency bound (7-9x the 16-core CPU at n = 16384).  Here a round is a warp's: no block barrier (a
// __syncwarp costs a few cycles), and when the frontier is small (the deep case) the round walks a queue
// of the frontier's vertices instead of scanning the bitmap, so a path's round is one vertex's latency
// chain (its queue slot, du and its CSR row, the edge, atomicMin, the pushes; no pre-read of D[v] there).
// A block holds WARPS sources (blockDim.x / 32, the launcher's choice from shared memory), so an SM runs
// as many sources as it holds warps (48 at n = 16384, where the shared slices are the limit), not the
// 16-32 blocks of tuned_frontier.  Options weighed: delta-stepping buckets help weighted wide
// graphs, not a path (one vertex a bucket either way); a label-correcting queue without rounds needs a
// dedupe and an overflow story too, and its exactness argument is the same; rounds with a queue keep
// tuned_frontier's invariant word for word.
//
// Warp w of block b solves source s = sources[b * WARPS + w] into row b * WARPS + w of D (k x n, row pitch
// n, int32 with INF of common.cuh or float32 with +inf); warps past k return at once (there is no block
// barrier anywhere, so they may).  The warp's shared slice: two bitmaps C (this round's frontier) and N
// (the next) of ceil(n/32) words, two queues QC, QN of DEEP_QCAP vertices, and two counters.  N's bitmap
// is the frontier exactly; the queue lists its first DEEP_QCAP vertices and the counter counts all of
// them.  A lane that lowers D[v] (atomicMin returned more than nd) sets bit v of N with atomicOr; the
// lane that turned the bit on takes a slot (atomicAdd on the counter) and writes v there if the slot is
// below DEEP_QCAP.  So a vertex enters a round's queue at most once.
// A round with c vertices: c <= DEEP_QCAP: the warp splits into min(32, c rounded up to a power of two)
// groups of lanes, a queued vertex a group, the group's lanes striding over its out-edges (one vertex: all 32
// lanes on its edges, a hub spread over the warp; a ring's two at once); then the words
// of C holding the queued vertices are zeroed (every set bit of C is queued, so the whole word may go).
// c > DEEP_QCAP (a wide round: a clique, a grid's middle): the lanes scan C's words as tuned_frontier does,
// each relaxing the out-edges of the vertices it finds, and zero the words.  __syncwarp; every lane reads
// N's counter and lane 0 zeroes C's (the next round's N counter); __syncwarp; swap C and N.  Two
// __syncwarp a round, no block barrier.  Initially D = INF, D[s] = 0, C = {s}.
// __syncwarp orders the warp's shared and global accesses (CUDA: memory ordering among the threads
// taking part); reads of D are volatile (other lanes lower D[v] within the round: never served stale
// from L1, never a data race).  The emulation (tests/emulate/cuda_host.h) runs the lanes as fibers in a
// shuffled order between two __syncwarp, so nothing here relies on lanes running in lock step: every
// cross-lane write is an atomic or is read only after a __syncwarp.
//
// Exact: tuned_frontier's argument holds as written (cuda/tuned_frontier.cu), rounds and all: at each
// round boundary every edge u -> v whose tail is not in the frontier satisfies D[v] <= D[u] + w; a round
// relaxes every out-edge of every frontier vertex (the queue holds all of them when c <= DEEP_QCAP, the
// bitmap when not), and a vertex lowered after its du was read is put in the next frontier by whoever
// lowered it.  So an empty frontier means Bellman's inequalities hold, D[s] = 0, and every value written
// is a real walk's length: D is the distances.  At most n rounds; the loop allows n + 1 and writes -1 to
// rounds[row] if the frontier is still not empty (a bug: the launcher raises), else the rounds run.
// float32: as tuned_frontier (atomicMin on the bit patterns of non-negative floats is an exact min; the
// launcher makes -0.0 weights +0.0; fl(a + w) >= a for w >= 0, so the result is the minimum over paths of
// the left-to-right float32 sum, whatever the order).  int32: du <= INF = 2^30 - 1, w <= MAX_PATH_WEIGHT
// < 2^29, so du + w < 2^31.
//
// Choices: rounds are kept (a round is a warp's, not a block's); a queue slot
// per vertex, not per push.  Known costs: a wide frontier (over DEEP_QCAP) is scanned by 32 lanes, not
// 128, and a queued round gives a vertex 32 / groups lanes whatever its degree (a wide, shallow graph is
// tuned_frontier's or tuned_sparse's); the shared slice is 8 ceil(n/32) + 8 DEEP_QCAP + 8 bytes a source.
#include "common.cuh"

#define DEEP_MAX_WARPS 8      // launch bound: 256 threads; the launcher's WARPS is at most this
#define DEEP_QCAP 64          // queue slots a round (tuned/deep.py QCAP says the same; a CPU test compares)
#define DEEP_FULL 0xffffffffu

__device__ __forceinline__ int deep_inf(const int*) { return APSP_INF; }
__device__ __forceinline__ float deep_inf(const float*) { return __int_as_float(0x7f800000); }

__device__ __forceinline__ int deep_atomic_min(int* p, int x) { return atomicMin(p, x); }
__device__ __forceinline__ float deep_atomic_min(float* p, float x)      // exact for x >= +0 and *p >= +0
{
    return __int_as_float(atomicMin(reinterpret_cast<int*>(p), __float_as_int(x)));
}

template <typename T>
__device__ __forceinline__ T deep_load(const T* p) { return *reinterpret_cast<const volatile T*>(p); }

// One warp's shared slice, as ints: two bitmaps, two queues, two counters (round t: C the halves of parity
// t & 1, N the others).
__device__ __forceinline__ int deep_slice_words(int words) { return 2 * words + 2 * DEEP_QCAP + 2; }

// Lower D[v] to nd if that is lower; the lane that lowers it puts v in the next frontier (bit, and a queue
// slot if its bit was off and a slot is left).  PREREAD: a plain read of D[v] first, so that an edge that
// lowers nothing costs a load, not an atomic (the wide rounds: most of a clique's edges lower nothing); the
// queued rounds go straight to the atomic, which returns the old value anyway: on a path every edge lowers
// its head, and the read would be one more memory round trip in the round's latency chain.
template <bool PREREAD, typename T>
__device__ __forceinline__ void deep_relax(T* row, int v, T nd, unsigned* nbits, int* nq, int* ncount)
{
    if (PREREAD && !(nd < deep_load(row + v)))
        return;
    if (!(nd < deep_atomic_min(row + v, nd)))
        return;                                       // another lane got there first with as low a value
    const unsigned bit = 1u << (v & 31);
    if (atomicOr(nbits + (v >> 5), bit) & bit)
        return;                                       // already in the next frontier
    const int slot = atomicAdd(ncount, 1);
    if (slot < DEEP_QCAP)
        nq[slot] = v;
}

// A queued round: the warp splits into groups, as many as the queue has vertices (a power of two, at most
// 32), each of 32 / groups lanes; group g relaxes the out-edges of queued vertices g, g + groups, ..., its
// lanes striding over them (one vertex: the whole warp on its edges; a ring's two: 16 lanes each, in
// parallel, not one after the other).  Then the words of C that held them are zeroed (each set bit of C is
// queued).
template <typename T>
__device__ __forceinline__ void deep_queue_round(T* row, const int* __restrict__ indptr, const int* __restrict__ indices,
                                                 const T* __restrict__ weights, int lane, int c, unsigned* cbits,
                                                 const int* cq, unsigned* nbits, int* nq, int* ncount)
{
    int groups = 1;                                   // the next power of two >= c, at most 32
    while (groups < c && groups < 32)
        groups <<= 1;
    const int width = 32 / groups, g = lane / width, gl = lane % width;
    for (int j = g; j < c; j += groups) {
        const int u = cq[j];
        const T du = deep_load(row + u);
        const int e1 = indptr[u + 1];
        for (int e = indptr[u] + gl; e < e1; e += width)
            deep_relax<false>(row, indices[e], du + weights[e], nbits, nq, ncount);
    }
    for (int j = lane; j < c; j += 32)
        cbits[cq[j] >> 5] = 0u;
}

// A wide round: each lane scans words lane, lane + 32, ... of C, relaxes the out-edges of the vertices it
// finds, and zeroes the words.
template <typename T>
__device__ __forceinline__ void deep_scan_round(T* row, const int* __restrict__ indptr, const int* __restrict__ indices,
                                                const T* __restrict__ weights, int lane, int words, unsigned* cbits,
                                                unsigned* nbits, int* nq, int* ncount)
{
    for (int i = lane; i < words; i += 32) {
        unsigned w32 = cbits[i];
        cbits[i] = 0u;
        while (w32) {
            const int u = (i << 5) + (__ffs(w32) - 1);
            w32 &= w32 - 1;
            const T du = deep_load(row + u);
            const int e1 = indptr[u + 1];
            for (int e = indptr[u]; e < e1; ++e)
                deep_relax<true>(row, indices[e], du + weights[e], nbits, nq, ncount);
        }
    }
}

// grid = (ceil(k / WARPS),), block = (32 WARPS,), dynamic shared memory = WARPS * deep_slice_words(words) * 4.
// D: k x n, row r for source sources[r]; rounds[r]: rounds run, or -1 if still not done after n + 1.
template <typename T>
__global__ void __launch_bounds__(32 * DEEP_MAX_WARPS)
deep_solve(T* D, const int* __restrict__ indptr, const int* __restrict__ indices, const T* __restrict__ weights,
           const int* __restrict__ sources, int n, int k, int* rounds)
{
#ifdef APSP_HOST_EMULATION
    int* const smem = static_cast<int*>(emu_dynamic_shared);
#else
    extern __shared__ int deep_dynamic[];
    int* const smem = deep_dynamic;
#endif
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int r = blockIdx.x * (blockDim.x >> 5) + warp;
    if (r >= k)
        return;                                       // the whole warp: no barrier waits for it
    const int words = (n + 31) >> 5;
    int* const slice = smem + (size_t)warp * deep_slice_words(words);
    unsigned* const bits = reinterpret_cast<unsigned*>(slice);      // C and N: halves by the round's parity
    int* const queues = slice + 2 * words;
    int* const counts = queues + 2 * DEEP_QCAP;
    const int s = sources[r];
    T* const row = D + (size_t)r * (size_t)n;
    const T inf = deep_inf(row);

    for (int v = lane; v < n; v += 32)
        row[v] = v == s ? T(0) : inf;
    for (int i = lane; i < 2 * words; i += 32)
        bits[i] = i == (s >> 5) ? 1u << (s & 31) : 0u;
    if (lane == 0) {
        queues[0] = s;
        counts[0] = 1;
        counts[1] = 0;
    }
    __syncwarp(DEEP_FULL);

    // The round's C and N are computed from its parity p, not kept as six swapped pointers: fewer live
    // registers (the pointers spilled under the launch bound).
    int rnd = 0, c = 1;
    while (c > 0 && rnd <= n) {                       // at most n rounds are needed (header); n + 1 allowed
        const int p = rnd & 1;
        unsigned* const cbits = bits + p * words;
        unsigned* const nbits = bits + (p ^ 1) * words;
        int* const cq = queues + p * DEEP_QCAP;
        int* const nq = queues + (p ^ 1) * DEEP_QCAP;
        if (c <= DEEP_QCAP)
            deep_queue_round(row, indptr, indices, weights, lane, c, cbits, cq, nbits, nq, counts + (p ^ 1));
        else
            deep_scan_round(row, indptr, indices, weights, lane, words, cbits, nbits, nq, counts + (p ^ 1));
        __syncwarp(DEEP_FULL);                        // N and its queue complete, C zeroed, D's writes seen
        c = counts[p ^ 1];
        if (lane == 0)
            counts[p] = 0;                            // C's counter becomes the next round's N counter: no one
                                                      // reads it now (its count was read a round ago, before
                                                      // that round's second __syncwarp)
        __syncwarp(DEEP_FULL);                        // the zero seen before the next round's pushes, and
                                                      // N's count read by all before it is zeroed a round on
        ++rnd;
    }
    if (lane == 0)
        rounds[r] = c > 0 ? -1 : rnd;
}

template __global__ void deep_solve<int>(int*, const int*, const int*, const int*, const int*, int, int, int*);
template __global__ void deep_solve<float>(float*, const int*, const int*, const float*, const int*, int, int, int*);
