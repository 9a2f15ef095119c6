/* The built-in reference cublas_gemm_abt: row-major C = alpha A B^T + beta C with A M x K,
 * B N x K and C M x N, all of one type (float, half or bfloat16), through cublasGemmEx
 * with FP32 computation: the matching-precision reference of a tensor-core GEMM in the
 * "TN" layout (kernels/gemm_h.cu). Column-major, C^T = alpha op_T(B) A^T + beta C^T: B
 * transposed, A as is. */
#include "worker_internal.h"

enum { BLAS_OP_N = 0, BLAS_OP_T = 1, BLAS_COMPUTE_32F = 68, BLAS_GEMM_DEFAULT = -1 };

/* cudaDataType of an element type (library_types.h), or -1. */
static int blas_type(int t)
{
    return t == CUTUNE_ELEM_FLOAT ? 0 : t == CUTUNE_ELEM_HALF ? 2 : t == CUTUNE_ELEM_BF16 ? 14 : -1;
}

static float scalar_f(const cutune_cuda_setup *su, const cutune_cuda_launch *l, int32_t i,
                      float dflt)
{
    if (i < 0)
        return dflt;
    if (su->args[i].type == CUTUNE_ELEM_DOUBLE) {
        double d;
        memcpy(&d, &l->bits[i], 8);
        return (float)d;
    }
    float f;
    memcpy(&f, &l->bits[i], 4);
    return f;
}

int worker_reference_gemm_abt(worker *w, const cutune_cuda_launch *l, cutune_cuda_reply *r)
{
    const cutune_cuda_setup *su = &w->setup;
    char berr[256];
    if (cutune_cuda_drv_load_cublas(&w->drv, berr, sizeof berr) < 0 || !w->drv.cublas_gemm_ex) {
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        r->fatal = 1;
        worker_log(r, "%s",
                   w->drv.blas_lib ? "reference 'cublas_gemm_abt': libcublas lacks "
                                     "cublasGemmEx"
                                   : berr);
        return -1;
    }
    if (!w->blas && w->drv.cublas_create(&w->blas) != 0) {
        w->blas = NULL;
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        r->fatal = 1;
        worker_log(r, "reference 'cublas_gemm_abt': cublasCreate failed");
        return -1;
    }
    int t = blas_type(su->args[su->gemm_c].type);
    float alpha = scalar_f(su, l, su->gemm_alpha, 1.0f);
    float beta = scalar_f(su, l, su->gemm_beta, 0.0f);
    int m = (int)su->gemm_m, n = (int)su->gemm_n, k = (int)su->gemm_k;
    int st = w->drv.cublas_gemm_ex(w->blas, BLAS_OP_T, BLAS_OP_N, n, m, k, &alpha,
                                   (const void *)(uintptr_t)w->bufs[su->gemm_b].d, t, k,
                                   (const void *)(uintptr_t)w->bufs[su->gemm_a].d, t, k, &beta,
                                   (void *)(uintptr_t)w->bufs[su->gemm_c].d, t, n, BLAS_COMPUTE_32F,
                                   BLAS_GEMM_DEFAULT);
    cu_result rc = w->drv.ctx_synchronize();
    if (st != 0 || rc != CU_SUCCESS) {
        if (rc == CU_SUCCESS)
            rc = CU_ERROR_LAUNCH_FAILED;
        worker_runtime_fail(w, r, "reference 'cublas_gemm_abt' failed", rc);
        return -1;
    }
    return 0;
}
