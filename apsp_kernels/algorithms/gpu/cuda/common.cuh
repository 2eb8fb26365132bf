// Shared by every kernel of the study.  APSP_INF is passed in by the launcher (gpu_runtime.compile_options,
// from apsp_kernels.graph.INF = 2^30 - 1, so that INF + INF fits in int32: kernels that, like the
// papers', add without checking for INF cannot overflow).  Defined once, in Python.
#pragma once
#ifndef APSP_INF
#error "APSP_INF is passed as a define by apsp_kernels.gpu_runtime.compile_options (graph.INF)"
#endif
