/* The worker's tensormap arguments: TMA descriptors (the driver's CUtensorMap, 128 opaque
 * bytes) of the spec's buffers, encoded through cuTensorMapEncodeTiled over the buffer's
 * current allocation and passed to the kernel by value (a `const __grid_constant__`
 * parameter). The tensor is dense and row-major: dimension 0 is contiguous, each next
 * stride the product of the extents before it. Out-of-bounds elements of a box read as
 * zero, so a kernel's tiles may overhang the tensor's edges. */
#include "worker_internal.h"

/* cutune_elem_type -> CUtensorMapDataType (cuda.h's numbering). */
static int tmap_dtype(int type)
{
    switch (type) {
    case CUTUNE_ELEM_UINT8: return 0;
    case CUTUNE_ELEM_UINT32: return 2;
    case CUTUNE_ELEM_INT32: return 3;
    case CUTUNE_ELEM_INT64: return 5;
    case CUTUNE_ELEM_HALF: return 6;
    case CUTUNE_ELEM_FLOAT: return 7;
    case CUTUNE_ELEM_DOUBLE: return 8;
    default: return 9; /* CUTUNE_ELEM_BF16 */
    }
}

/* swizzle bytes -> CUtensorMapSwizzle */
static int tmap_swizzle(int bytes)
{
    return bytes == 128 ? 3 : bytes == 64 ? 2 : bytes == 32 ? 1 : 0;
}

int worker_tensormaps_encode(worker *w, const cutune_cuda_launch *l, cutune_cuda_reply *r)
{
    const cutune_cuda_setup *su = &w->setup;
    for (uint32_t i = 0; i < su->nargs; i++) {
        const cutune_cuda_argdesc *a = &su->args[i];
        if (a->kind != CUTUNE_ARG_TENSORMAP)
            continue;
        if (!w->drv.tensor_map_encode_tiled) {
            r->status = CUTUNE_STATUS_LAUNCH_ERROR;
            worker_log(r, "tensormap '%s': the CUDA driver lacks cuTensorMapEncodeTiled", a->name);
            return -1;
        }
        const wbuf *b = &w->bufs[a->tensor];
        size_t es = cutune_cuda_elem_size(su->args[a->tensor].type);
        uint64_t strides[CUTUNE_TMAP_MAX_RANK], elems = 1;
        uint32_t ones[CUTUNE_TMAP_MAX_RANK];
        for (int d = 0; d < a->trank; d++) {
            ones[d] = 1;
            if (l->tdim[i][d] && elems > UINT64_MAX / l->tdim[i][d])
                elems = UINT64_MAX;
            else
                elems *= l->tdim[i][d];
            if (d + 1 < a->trank)
                strides[d] = elems * es;
        }
        if (elems > b->count) {
            /* the parent checks this too: never let the copy engine read past a buffer */
            r->status = CUTUNE_STATUS_LAUNCH_ERROR;
            worker_log(r, "tensormap '%s': %llu elements, buffer '%s' holds %zu", a->name,
                       (unsigned long long)elems, su->args[a->tensor].name, b->count);
            return -1;
        }
        cu_result rc = w->drv.tensor_map_encode_tiled(
            w->tmaps[i].bytes, tmap_dtype(su->args[a->tensor].type), a->trank,
            (void *)(uintptr_t)b->d, l->tdim[i], strides, l->tbox[i], ones, 0,
            tmap_swizzle(a->swizzle), 3 /* L2 promotion 256B */, 0 /* out of bounds: zeros */);
        if (rc != CU_SUCCESS) {
            char eb[256];
            r->status = CUTUNE_STATUS_LAUNCH_ERROR;
            worker_log(r,
                       "tensormap '%s' (dims %llu x %llu, box %u x %u, swizzle %d): "
                       "cuTensorMapEncodeTiled: %s",
                       a->name, (unsigned long long)l->tdim[i][0],
                       (unsigned long long)(a->trank > 1 ? l->tdim[i][1] : 1), l->tbox[i][0],
                       a->trank > 1 ? l->tbox[i][1] : 1, a->swizzle,
                       worker_strerror(w, rc, eb, sizeof eb));
            return -1;
        }
    }
    return 0;
}
