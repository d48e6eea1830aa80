// glibc's malloc settings (malloc.h), which Swift's Glibc module does not export.
#ifndef LOCKER_CMALLOC_H
#define LOCKER_CMALLOC_H

#include <stddef.h>

/// Buffers of `bytes` and more are mapped from the kernel and given back to it when freed,
/// always: glibc otherwise raises this threshold to the largest buffer freed so far
/// (mallopt M_MMAP_THRESHOLD, which turns that off). Call before any thread starts.
/// Returns 1 on success.
int lk_map_buffers_from(size_t bytes);

#endif
