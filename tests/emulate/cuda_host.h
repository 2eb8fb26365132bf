// A CPU emulation of the little CUDA that the tuned kernels use, so that tests without a GPU can run
// the real kernel sources (tests/test_tuned_emulated.py).  Each CUDA thread is a fiber (ucontext) of one
// OS thread; the blocks of a launch run one after another, so __shared__ becomes a static (shared by the
// running block's fibers).  Between two barriers the fibers run in an order shuffled by a seeded
// generator; __syncthreads waits for every fiber of the block, the warp intrinsics for the 32 lanes of
// the warp (the kernels' full masks); a wait that can never be met (a barrier some threads skip) aborts.
// cp.async copies are performed either at the wait that completes their group, as late as the hardware
// may (a read of a stage before its wait sees stale data), or with APSP_EMU_COPY_EARLY at the issue, as
// early as it may (a stage refilled while others still read it shows): the tests build both.  Not a GPU model: no timing, no memory model beyond "a barrier orders"; what it
// checks is the kernels' logic.
#pragma once
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <ucontext.h>
#include <utility>
#include <vector>

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __align__(x) __attribute__((aligned(x)))

using std::max;
using std::min;

struct alignas(16) int4 {
    int x, y, z, w;
};
inline int4 make_int4(int a, int b, int c, int d) { return int4{a, b, c, d}; }
struct alignas(16) float4 {
    float x, y, z, w;
};
inline float4 make_float4(float a, float b, float c, float d) { return float4{a, b, c, d}; }
using ::fminf;

struct emu_dim3 {
    unsigned x = 1, y = 1, z = 1;
};
inline emu_dim3 threadIdx, blockIdx, blockDim, gridDim;

inline int __viaddmin_s32(int a, int b, int c) { return std::min(a + b, c); }
inline int atomicMin(int* p, int v)                 // blocks run one after another: no other writer
{
    const int old = *p;
    *p = std::min(old, v);
    return old;
}
inline int atomicAdd(int* p, int v)
{
    const int old = *p;
    *p = old + v;
    return old;
}
inline unsigned atomicOr(unsigned* p, unsigned v)
{
    const unsigned old = *p;
    *p = old | v;
    return old;
}
inline int __ffs(unsigned x) { return x ? __builtin_ctz(x) + 1 : 0; }
inline int __float_as_int(float f)
{
    int i;
    std::memcpy(&i, &f, sizeof i);
    return i;
}
inline float __int_as_float(int i)
{
    float f;
    std::memcpy(&f, &i, sizeof f);
    return f;
}
inline void* emu_dynamic_shared = nullptr;    // a kernel's extern __shared__ array: the harness points it at a buffer

enum EmuState { EMU_RUN, EMU_BLOCK_WAIT, EMU_WARP_WAIT, EMU_DONE };
struct EmuFiber {
    ucontext_t ctx;
    EmuState state = EMU_RUN;
    emu_dim3 tid;
    std::unique_ptr<char[]> stack;
    std::vector<std::pair<void*, const void*>> open;                  // cp.async: the open group
    std::deque<std::vector<std::pair<void*, const void*>>> groups;     // committed, oldest first
};
inline ucontext_t emu_scheduler;
inline EmuFiber* emu_cur = nullptr;
inline int emu_slot[1024];                     // the warp intrinsics' exchange, one slot per thread
inline void (*emu_trampoline_body)(void*) = nullptr;
inline void* emu_trampoline_arg = nullptr;

inline void emu_yield(EmuState s)
{
    emu_cur->state = s;
    swapcontext(&emu_cur->ctx, &emu_scheduler);
}

inline void __syncthreads() { emu_yield(EMU_BLOCK_WAIT); }
inline void __syncwarp(unsigned = 0xffffffffu) { emu_yield(EMU_WARP_WAIT); }   // the 32 lanes of the warp (full masks)

inline unsigned emu_tid();
inline int __syncthreads_or(int pred)       // a barrier that also ORs every thread's pred (read between two waits)
{
    const unsigned t = emu_tid(), nt = blockDim.x * blockDim.y * blockDim.z;
    emu_slot[t] = pred != 0;
    emu_yield(EMU_BLOCK_WAIT);
    int r = 0;
    for (unsigned i = 0; i < nt; ++i)
        r |= emu_slot[i];
    emu_yield(EMU_BLOCK_WAIT);
    return r;
}

inline unsigned emu_tid() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

inline unsigned __ballot_sync(unsigned, int pred)
{
    const unsigned t = emu_tid(), w0 = t & ~31u;
    emu_slot[t] = pred != 0;
    emu_yield(EMU_WARP_WAIT);
    unsigned r = 0;
    for (int i = 0; i < 32; ++i)
        r |= (unsigned)(emu_slot[w0 + i] != 0) << i;
    emu_yield(EMU_WARP_WAIT);
    return r;
}
inline bool __any_sync(unsigned m, int pred) { return __ballot_sync(m, pred) != 0; }
inline int __shfl_sync(unsigned, int v, int src)
{
    const unsigned t = emu_tid(), w0 = t & ~31u;
    emu_slot[t] = v;
    emu_yield(EMU_WARP_WAIT);
    int r = emu_slot[w0 + (src & 31)];
    emu_yield(EMU_WARP_WAIT);
    return r;
}

inline void apsp_emulated_copy16(void* dst, const void* src)
{
    if (((uintptr_t)dst & 15) || ((uintptr_t)src & 15))
        std::abort();                           // cp.async of 16 bytes needs 16-byte alignment
#ifdef APSP_EMU_COPY_EARLY
    std::memcpy(dst, src, 16);                  // as early as the hardware may: at the issue
#else
    emu_cur->open.emplace_back(dst, src);       // as late as it may: at the wait
#endif
}
inline void apsp_emulated_commit()
{
    emu_cur->groups.push_back(std::move(emu_cur->open));
    emu_cur->open.clear();
}
inline void apsp_emulated_wait(int keep)
{
    while ((int)emu_cur->groups.size() > keep) {
        for (auto& c : emu_cur->groups.front())
            std::memcpy(c.first, c.second, 16);
        emu_cur->groups.pop_front();
    }
}

[[noreturn]] inline void emu_abort(const char* why)
{
    std::fprintf(stderr, "emulated CUDA: %s (block %u,%u)\n", why, blockIdx.x, blockIdx.y);
    std::abort();
}

inline void emu_fiber_entry()
{
    emu_trampoline_body(emu_trampoline_arg);
    if (!emu_cur->open.empty() || !emu_cur->groups.empty())
        emu_abort("a thread ended with cp.async copies not waited for");
    emu_cur->state = EMU_DONE;                  // uc_link returns to the scheduler
}

template <class F>
void emu_call(void* f) { (*static_cast<F*>(f))(); }

inline std::mt19937& emu_rng()
{
    static std::mt19937 g(12345);
    return g;
}

// Run body() as every thread of every block of a launch.  fibers=false: the threads of a block one
// after another, each to its end (kernels with no barrier or warp intrinsic: much faster).
template <class F>
void emu_launch(emu_dim3 grid, emu_dim3 block, bool fibers, F body)
{
    gridDim = grid;
    blockDim = block;
    const unsigned nt = block.x * block.y * block.z;
    if (nt > 1024)
        emu_abort("more than 1024 threads in a block");
    auto tid_of = [&](unsigned t) { return emu_dim3{t % block.x, (t / block.x) % block.y, t / (block.x * block.y)}; };
    static std::vector<EmuFiber> pool;
    constexpr size_t STACK = 256 * 1024;
    if (fibers && pool.size() < nt) {
        pool = std::vector<EmuFiber>(nt);
        for (auto& f : pool)
            f.stack.reset(new char[STACK]);
    }
    std::vector<unsigned> order(nt);
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                blockIdx = {bx, by, bz};
                if (!fibers) {
                    for (unsigned t = 0; t < nt; ++t) {
                        threadIdx = tid_of(t);
                        body();
                    }
                    continue;
                }
                emu_trampoline_body = &emu_call<F>;
                emu_trampoline_arg = &body;
                for (unsigned t = 0; t < nt; ++t) {
                    EmuFiber& f = pool[t];
                    f.state = EMU_RUN;
                    f.tid = tid_of(t);
                    f.open.clear();
                    f.groups.clear();
                    getcontext(&f.ctx);
                    f.ctx.uc_stack.ss_sp = f.stack.get();
                    f.ctx.uc_stack.ss_size = STACK;
                    f.ctx.uc_link = &emu_scheduler;
                    makecontext(&f.ctx, emu_fiber_entry, 0);
                    order[t] = t;
                }
                for (;;) {
                    std::shuffle(order.begin(), order.end(), emu_rng());
                    for (unsigned t : order) {
                        EmuFiber& f = pool[t];
                        if (f.state != EMU_RUN)
                            continue;
                        emu_cur = &f;
                        threadIdx = f.tid;
                        swapcontext(&emu_scheduler, &f.ctx);
                    }
                    unsigned done = 0, at_block = 0;
                    for (unsigned t = 0; t < nt; ++t)
                        done += pool[t].state == EMU_DONE, at_block += pool[t].state == EMU_BLOCK_WAIT;
                    if (done == nt)
                        break;
                    bool released = false;
                    if (at_block == nt) {                    // every thread at the barrier: all go on
                        for (unsigned t = 0; t < nt; ++t)
                            pool[t].state = EMU_RUN;
                        released = true;
                    } else if (at_block > 0 && done > 0) {
                        emu_abort("__syncthreads reached by some threads of a block after others ended");
                    }
                    for (unsigned w0 = 0; w0 < nt; w0 += 32) {   // a warp whose every lane waits goes on
                        unsigned lanes = std::min(32u, nt - w0), waiting = 0, ended = 0;
                        for (unsigned t = w0; t < w0 + lanes; ++t)
                            waiting += pool[t].state == EMU_WARP_WAIT, ended += pool[t].state == EMU_DONE;
                        if (waiting == lanes) {
                            for (unsigned t = w0; t < w0 + lanes; ++t)
                                pool[t].state = EMU_RUN;
                            released = true;
                        } else if (waiting > 0 && ended > 0) {
                            emu_abort("a warp intrinsic reached by some lanes after others ended");
                        }
                    }
                    if (!released)
                        emu_abort("deadlock: threads wait at barriers that can never be met");
                }
            }
}

// The most rounds any row (source) of a per-source kernel reported (tuned_frontier's, tuned_deep's), or -1
// where a row is negative: a frontier left after n + 1 rounds, or a row the kernel never wrote (the harnesses
// start the counts negative).
inline int emu_most_rounds(const std::vector<int>& rounds)
{
    int most = 0;
    for (int r : rounds) {
        if (r < 0)
            return -1;
        most = std::max(most, r);
    }
    return most;
}
