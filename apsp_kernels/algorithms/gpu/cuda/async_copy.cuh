#pragma once
// Used by tuned_fw.cu (and tuned_fw_ooc.cu through it) and tuned_elimination.cu.
// cp.async: 16-byte global -> shared copies, grouped by commit, complete at cp_async_wait<N> (all but the
// N newest groups).  APSP_HOST_EMULATION is defined only by the tests' CPU emulation (tests/emulate/),
// which queues the copies and performs them at the wait, as late as the hardware may.
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem)
{
#ifdef APSP_HOST_EMULATION
    apsp_emulated_copy16(smem, gmem);
#else
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
#endif
}

__device__ __forceinline__ void cp_async_commit()
{
#ifdef APSP_HOST_EMULATION
    apsp_emulated_commit();
#else
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}

template <int N>
__device__ __forceinline__ void cp_async_wait()
{
#ifdef APSP_HOST_EMULATION
    apsp_emulated_wait(N);
#else
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}
