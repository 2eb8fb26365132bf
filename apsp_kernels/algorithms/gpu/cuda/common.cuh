// Shared by every kernel of the study.  INF = 2^30 - 1 so that INF + INF fits in
// int32: kernels that (like the papers') add without checking for INF cannot overflow.
#pragma once
#define APSP_INF 1073741823
