// Thread coarsening of Harish & Narayanan's two-phase SSSP: seed 001 (Pathak et al., IIT
// Kharagpur), Section 4.3, applied to its corrected version (Section 4.2: Algorithms 10-12 with
// lines 6-7 of Algorithm 11 made atomic).  The uncoarsened kernels are harish.cu's
// harish_kernel1_atomic_ua and harish_kernel2 ("corrected"); these do the same work per vertex.
// Coarsening: "we manually merged the computation of coarsening factor number of threads into a
// single thread in the SSSP kernels" -- both phases, CF in {1, 2, 4, 8, 16} (Fig. 5).
// Readings (the seed shows no code for this):
//  - which threads merge: thread t does the work of the CF consecutive threads t*CF .. t*CF+CF-1
//    of the uncoarsened kernel, one vertex after the other (merging neighbouring threads, the
//    plain manual form; the grid shrinks by CF).
//  - the coarsened kernels are those of the corrected version, so that every factor returns exact
//    distances and the times compare like with like; CF = 1 is the corrected version itself.
//  - phase 2 ends with Ua[v] = Ca[v] as harish_kernel2 does (Harish & Narayanan's kernel 2; seed
//    001's Algorithm 12 omits it).  After phase 2, Ua[v] == Ca[v] either way, so it changes nothing
//    but keeps CF = 1 identical to the uncoarsened corrected kernel.
// Initialisation per source is harish.cu's harish_init (the seed's host code, Alg. 10 lines 2-7).
#include "common.cuh"

template <int CF>
__global__ void sssp_phase1_coarsened(const int* Va, const int* Ea, const int* Wa, unsigned char* Ma,
                                      const int* Ca, int* Ua, int n)
{
    int first = (blockIdx.x * blockDim.x + threadIdx.x) * CF;
    for (int c = 0; c < CF; ++c) {
        int tid = first + c;
        if (tid >= n)
            return;
        if (!Ma[tid])
            continue;
        Ma[tid] = 0;
        int cost = Ca[tid];
        for (int e = Va[tid]; e < Va[tid + 1]; ++e)
            atomicMin(&Ua[Ea[e]], cost + Wa[e]);     // Alg. 11 lines 6-7, atomic (Section 4.2)
    }
}

template <int CF>
__global__ void sssp_phase2_coarsened(unsigned char* Ma, int* Ca, int* Ua, int* changed, int n)
{
    int first = (blockIdx.x * blockDim.x + threadIdx.x) * CF;
    for (int c = 0; c < CF; ++c) {
        int tid = first + c;
        if (tid >= n)
            return;
        if (Ca[tid] > Ua[tid]) {                       // Alg. 12
            Ca[tid] = Ua[tid];
            Ma[tid] = 1;
            *changed = 1;
        }
        Ua[tid] = Ca[tid];
    }
}

template __global__ void sssp_phase1_coarsened<1>(const int*, const int*, const int*, unsigned char*, const int*, int*, int);
template __global__ void sssp_phase1_coarsened<2>(const int*, const int*, const int*, unsigned char*, const int*, int*, int);
template __global__ void sssp_phase1_coarsened<4>(const int*, const int*, const int*, unsigned char*, const int*, int*, int);
template __global__ void sssp_phase1_coarsened<8>(const int*, const int*, const int*, unsigned char*, const int*, int*, int);
template __global__ void sssp_phase1_coarsened<16>(const int*, const int*, const int*, unsigned char*, const int*, int*, int);
template __global__ void sssp_phase2_coarsened<1>(unsigned char*, int*, int*, int*, int);
template __global__ void sssp_phase2_coarsened<2>(unsigned char*, int*, int*, int*, int);
template __global__ void sssp_phase2_coarsened<4>(unsigned char*, int*, int*, int*, int);
template __global__ void sssp_phase2_coarsened<8>(unsigned char*, int*, int*, int*, int);
template __global__ void sssp_phase2_coarsened<16>(unsigned char*, int*, int*, int*, int);
