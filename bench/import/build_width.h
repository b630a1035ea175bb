/* How many builds the import runs at once by default (-j): one per core
 * this process may run on, as many as the memory available holds at one
 * build's peak.  A CUTLASS file's nvcc takes gigabytes (cicc holds the
 * whole device module): a host with many cores and little memory would
 * otherwise have its builds killed.  An explicit -j wins. */
#ifndef HB_BUILD_WIDTH_H
#define HB_BUILD_WIDTH_H

#include <stddef.h>

/* One build's peak memory, taken for every build: the largest measured, 7.4 GB of resident memory for the
 * H100 set's 2048_64_4096.cu (cicc, CUDA 13.0, sm_90a; docs/importer.md), rounded up. */
#define HB_BUILD_PEAK_BYTES (8ULL << 30)

/* min(cores, available / per_build), at least 1; `available` 0 (unknown)
 * leaves the cores alone; cores < 1 counts as 1. */
int hb_build_width(long cores, unsigned long long available_bytes, unsigned long long per_build_bytes);

/* MemAvailable of a /proc/meminfo text, in bytes; 0 when it has none. */
unsigned long long hb_meminfo_available(const char *text);

/* This process's cores (its CPU affinity mask, else the cores online) and
 * the memory available now (/proc/meminfo; 0 when it cannot be read). */
void hb_host_capacity(long *cores, unsigned long long *available_bytes);

#endif
