/* The CUDA driver, NVML and cuBLAS, opened at run time: a program linked
 * against libcuda does not even start where there is no driver (DESIGN.md). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

int cutune_cuda_error_is_sticky(cu_result r)
{
    switch (r) {
    case CU_ERROR_ILLEGAL_ADDRESS:
    case CU_ERROR_LAUNCH_TIMEOUT:
    case CU_ERROR_CONTEXT_IS_DESTROYED:
    case CU_ERROR_ASSERT:
    case CU_ERROR_HARDWARE_STACK_ERROR:
    case CU_ERROR_ILLEGAL_INSTRUCTION:
    case CU_ERROR_MISALIGNED_ADDRESS:
    case CU_ERROR_INVALID_ADDRESS_SPACE:
    case CU_ERROR_INVALID_PC:
    case CU_ERROR_LAUNCH_FAILED: return 1;
    default: return 0;
    }
}

/* First of several exported names: the _v2 entry points carry the ABI the
 * unsuffixed macros of cuda.h select, and older drivers lack the newest. */
static void *sym(void *lib, const char *const *names)
{
    for (size_t i = 0; names[i]; i++) {
        void *p = dlsym(lib, names[i]);
        if (p)
            return p;
    }
    return NULL;
}

#define LOAD(field, ...)                                                                           \
    do {                                                                                           \
        static const char *const n_[] = {__VA_ARGS__, NULL};                                       \
        *(void **)&d->field = sym(d->lib, n_);                                                     \
        if (!d->field) {                                                                           \
            missing = n_[0];                                                                       \
            goto out_close;                                                                        \
        }                                                                                          \
    } while (0)

#define LOAD_OPT(lib_, field, name)                                                                \
    do {                                                                                           \
        *(void **)&d->field = dlsym(lib_, name);                                                   \
    } while (0)

int cutune_cuda_drv_load(cutune_cuda_drv *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    const char *libname = getenv("CUTUNE_LIBCUDA");
    if (!libname || !*libname)
        libname = "libcuda.so.1";
    const char *missing = NULL;
    d->lib = dlopen(libname, RTLD_NOW | RTLD_LOCAL);
    if (!d->lib)
        return cutune_err(err, errlen, CUTUNE_ENODEV, "no CUDA driver (%s not found)", libname);

    LOAD(init, "cuInit");
    LOAD(driver_get_version, "cuDriverGetVersion");
    LOAD(device_get_count, "cuDeviceGetCount");
    LOAD(device_get, "cuDeviceGet");
    LOAD(device_get_name, "cuDeviceGetName");
    LOAD(device_get_attribute, "cuDeviceGetAttribute");
    LOAD(device_get_pci_bus_id, "cuDeviceGetPCIBusId");
    LOAD_OPT(d->lib, device_get_uuid, "cuDeviceGetUuid_v2");
    if (!d->device_get_uuid)
        LOAD_OPT(d->lib, device_get_uuid, "cuDeviceGetUuid");
    LOAD(primary_ctx_retain, "cuDevicePrimaryCtxRetain");
    LOAD(primary_ctx_release, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease");
    LOAD(ctx_set_current, "cuCtxSetCurrent");
    LOAD(ctx_synchronize, "cuCtxSynchronize");
    LOAD(get_error_string, "cuGetErrorString");
    LOAD(module_load_data, "cuModuleLoadData");
    LOAD(module_unload, "cuModuleUnload");
    LOAD(module_get_function, "cuModuleGetFunction");
    LOAD(func_get_attribute, "cuFuncGetAttribute");
    LOAD(func_set_attribute, "cuFuncSetAttribute");
    LOAD(occupancy_max_active_blocks, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    LOAD(mem_alloc, "cuMemAlloc_v2");
    LOAD(mem_free, "cuMemFree_v2");
    LOAD(mem_alloc_host, "cuMemAllocHost_v2");
    LOAD(mem_free_host, "cuMemFreeHost");
    LOAD(memcpy_htod, "cuMemcpyHtoD_v2");
    LOAD(memcpy_dtoh, "cuMemcpyDtoH_v2");
    LOAD(memset_d8, "cuMemsetD8_v2");
    LOAD(memset_d8_async, "cuMemsetD8Async");
    LOAD(launch_kernel, "cuLaunchKernel");
    LOAD(event_create, "cuEventCreate");
    LOAD(event_destroy, "cuEventDestroy_v2", "cuEventDestroy");
    LOAD(event_record, "cuEventRecord");
    LOAD(event_synchronize, "cuEventSynchronize");
    LOAD(event_elapsed_time, "cuEventElapsedTime_v2", "cuEventElapsedTime");
    LOAD_OPT(d->lib, tensor_map_encode_tiled, "cuTensorMapEncodeTiled");

    /* NVML only adds clock, temperature, energy and power metrics: its absence is no
     * error. */
    d->nvml_lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (d->nvml_lib) {
        LOAD_OPT(d->nvml_lib, nvml_init, "nvmlInit_v2");
        LOAD_OPT(d->nvml_lib, nvml_shutdown, "nvmlShutdown");
        LOAD_OPT(d->nvml_lib, nvml_device_by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
        LOAD_OPT(d->nvml_lib, nvml_clock_info, "nvmlDeviceGetClockInfo");
        LOAD_OPT(d->nvml_lib, nvml_temperature, "nvmlDeviceGetTemperature");
        LOAD_OPT(d->nvml_lib, nvml_total_energy, "nvmlDeviceGetTotalEnergyConsumption");
        LOAD_OPT(d->nvml_lib, nvml_power_usage, "nvmlDeviceGetPowerUsage");
        LOAD_OPT(d->nvml_lib, nvml_clock_reasons, "nvmlDeviceGetCurrentClocksEventReasons");
        if (!d->nvml_clock_reasons)
            LOAD_OPT(d->nvml_lib, nvml_clock_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
        if (!d->nvml_init || !d->nvml_device_by_pci || !d->nvml_clock_info ||
            !d->nvml_temperature) {
            dlclose(d->nvml_lib);
            d->nvml_lib = NULL;
            d->nvml_init = NULL;
            d->nvml_total_energy = NULL;
            d->nvml_power_usage = NULL;
            d->nvml_clock_reasons = NULL;
        }
    }
    return 0;

out_close:
    dlclose(d->lib);
    d->lib = NULL;
    return cutune_err(err, errlen, CUTUNE_ENODEV,
                      "no usable CUDA driver (%s lacks %s; driver too old?)", libname, missing);
}

int cutune_cuda_drv_load_cublas(cutune_cuda_drv *d, char *err, size_t errlen)
{
    if (d->cublas_sgemm)
        return 0;
    static const char *const names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so",
                                        "/usr/local/cuda/lib64/libcublas.so", NULL};
    for (size_t i = 0; names[i] && !d->blas_lib; i++)
        d->blas_lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!d->blas_lib)
        return cutune_err(err, errlen, CUTUNE_ENOTFOUND,
                          "reference 'cublas_sgemm': libcublas.so not found");
    LOAD_OPT(d->blas_lib, cublas_create, "cublasCreate_v2");
    LOAD_OPT(d->blas_lib, cublas_destroy, "cublasDestroy_v2");
    LOAD_OPT(d->blas_lib, cublas_sgemm, "cublasSgemm_v2");
    LOAD_OPT(d->blas_lib, cublas_gemm_ex, "cublasGemmEx");
    if (!d->cublas_create || !d->cublas_destroy || !d->cublas_sgemm) {
        dlclose(d->blas_lib);
        d->blas_lib = NULL;
        d->cublas_sgemm = NULL;
        return cutune_err(err, errlen, CUTUNE_ENOTFOUND,
                          "reference 'cublas_sgemm': libcublas lacks cublasSgemm_v2");
    }
    return 0;
}

void cutune_cuda_drv_unload(cutune_cuda_drv *d)
{
    if (!d)
        return;
    if (d->blas_lib)
        dlclose(d->blas_lib);
    if (d->nvml_lib)
        dlclose(d->nvml_lib);
    if (d->lib)
        dlclose(d->lib);
    d->lib = d->nvml_lib = d->blas_lib = NULL;
}

const char *cutune_cuda_drv_strerror(const cutune_cuda_drv *d, cu_result r, char *buf, size_t len)
{
    const char *s = NULL;
    if (d && d->get_error_string && d->get_error_string(r, &s) != CU_SUCCESS)
        s = NULL;
    snprintf(buf, len, "CUDA error %d: %s", r, s ? s : "(no description)");
    return buf;
}

size_t cutune_cuda_elem_size(int t)
{
    switch (t) {
    case CUTUNE_ELEM_DOUBLE:
    case CUTUNE_ELEM_INT64: return 8;
    case CUTUNE_ELEM_HALF:
    case CUTUNE_ELEM_BF16: return 2;
    case CUTUNE_ELEM_UINT8: return 1;
    default: return 4;
    }
}
