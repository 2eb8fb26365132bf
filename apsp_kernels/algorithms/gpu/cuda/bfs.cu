// Breadth-first search on the GPU: the three approaches of seed 001 (Pathak et al., IIT Kharagpur,
// "Accelerating large graph algorithms on GPU using CUDA"), Section 3, Algorithms 1-9.
// Graph: the compacted adjacency list of Section 2.1, Va (row offsets, |V| + 1 of them: Va[u + 1]
// ends u's list where the seed starts each list with its size) and Ea (heads); undirected graphs
// hold both directions.  Dist_a: the level (edge count from the source), APSP_INF = unreached.
//  * parallelBFS (Algs. 1-2): one thread per vertex, level-synchronous; a vertex on the current
//    level lowers each neighbour to level + 1; a global flag, set by any thread that changed
//    something, decides on the host whether another level runs.
//  * queueBFS (Algs. 3-4): one thread per vertex of the current queue cQ; a neighbour still at
//    INF is claimed with atomicMin (only the thread that saw INF come back wins), gets its parent
//    and a slot of the next queue nQ through atomicAdd on nQ's size.
//  * scanBFS (§3.3, Algs. 5-9): per level nextLayer (Alg. 6), countDegrees (Alg. 7), a prefix
//    scan of the degrees, populateNextQueue (Alg. 9).
// Readings and deviations:
//  - Alg. 6 line 8 stores "P_a[v] = u", while Algs. 7 and 9 test "P_a[v] = E_a.index(v)": we
//    store the edge's index in E_a, which makes both tests literal.  The write is a race when two
//    frontier vertices share an unvisited neighbour; any one index survives, and the two later
//    kernels read that one, so each new vertex enters nQ exactly once.
//  - Algs. 8 and 5 line 13 (a hand-written shared-memory scan per block, plus a scan of the block
//    sums): replaced by one device-wide inclusive scan, cupy.cumsum, in the launcher.  With a
//    global scan Alg. 9's block offset ("i = PreDeg_a[...]") is 0 and a thread's first slot is
//    the inclusive sum of the threads before it, Deg_a[tid - 1] in Alg. 9's notation.
//  - Alg. 1 creates a parent array that its kernel never writes; the launcher allocates and
//    initialises it all the same (as the host code does), so the host work matches.
//  - NUM_THREADS (threads per block) is not stated in the seed; the launcher passes it (default
//    1024, gpu/bfs.py says why).
#include "common.cuh"

// Per source: Dist_a = INF but 0 at S; P_a = p_init but p_source at S (Alg. 1: INF and INF;
// Alg. 3: INF and -1; Alg. 5: -1 and -1); the first queue holds S (parallelBFS, which has no
// queue, passes a one-slot scratch array).
extern "C" __global__ void bfs_init(int* Dist, int* P, int* Q, int n, int source, int p_init, int p_source)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    Dist[tid] = tid == source ? 0 : APSP_INF;
    P[tid] = tid == source ? p_source : p_init;
    if (tid == source)
        Q[0] = source;
}

// Algorithm 2.
extern "C" __global__ void parallel_bfs_kernel(int level, const int* Va, const int* Ea, int* Dist, int* flag, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    bool f = false;
    if (tid < n && Dist[tid] == level) {
        int u = tid;
        for (int e = Va[u]; e < Va[u + 1]; ++e) {
            int v = Ea[e];
            if (level + 1 < Dist[v]) {      // every writer stores the same level + 1
                Dist[v] = level + 1;
                f = true;
            }
        }
    }
    if (f)
        *flag = 1;
}

// Algorithm 4.
extern "C" __global__ void queue_bfs_kernel(int l, const int* Va, const int* Ea, int* Dist, int* P,
                                            const int* cQ, int cQ_size, int* nQ, int* nQ_size)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= cQ_size)
        return;
    int u = cQ[tid];
    for (int e = Va[u]; e < Va[u + 1]; ++e) {
        int v = Ea[e];
        if (Dist[v] == APSP_INF && atomicMin(&Dist[v], l + 1) == APSP_INF) {
            P[v] = u;
            int pos = atomicAdd(nQ_size, 1);
            nQ[pos] = v;
        }
    }
}

// Algorithm 6 (P_a holds the index in E_a of the edge that reached v: see the header).
extern "C" __global__ void scan_next_layer(int l, const int* Va, const int* Ea, int* P, int* Dist,
                                           const int* cQ, int cQ_size)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= cQ_size)
        return;
    int u = cQ[tid];
    for (int e = Va[u]; e < Va[u + 1]; ++e) {
        int v = Ea[e];
        if (Dist[v] > l + 1) {
            Dist[v] = l + 1;
            P[v] = e;
        }
    }
}

// Algorithm 7: how many of u's neighbours u itself put on the next level.
extern "C" __global__ void scan_count_degrees(const int* Va, const int* Ea, const int* P, const int* cQ,
                                              int cQ_size, int* Deg)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= cQ_size)
        return;
    int u = cQ[tid];
    int d = 0;
    for (int e = Va[u]; e < Va[u + 1]; ++e) {
        int v = Ea[e];
        if (P[v] == e && v != u)
            ++d;
    }
    Deg[tid] = d;
}

// Algorithm 9, with PreDeg the inclusive scan of Deg over the whole queue (see the header).
extern "C" __global__ void scan_populate_next_queue(const int* Va, const int* Ea, const int* P, const int* cQ,
                                                    int cQ_size, int* nQ, const int* PreDeg)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= cQ_size)
        return;
    int s = tid > 0 ? PreDeg[tid - 1] : 0;
    int u = cQ[tid];
    int c = 0;
    for (int e = Va[u]; e < Va[u + 1]; ++e) {
        int v = Ea[e];
        if (P[v] == e && v != u) {
            nQ[s + c] = v;
            ++c;
        }
    }
}
