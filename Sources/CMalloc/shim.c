#include "CMalloc.h"
#include <malloc.h>

int lk_map_buffers_from(size_t bytes) {
    return mallopt(M_MMAP_THRESHOLD, (int)bytes);
}
