/* The GPU fingerprint of a live device: the driver API and NVML, both dlopened (cutune
 * starts without a driver, DESIGN.md) and asked only for attributes, so no context is
 * made in this process (the worker process owns the GPU). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "db_internal.h"

/* CUdevice_attribute values (cuda.h) */
#define ATTR_CLOCK_RATE 13        /* kHz */
#define ATTR_SM_COUNT 16          /* multiprocessors */
#define ATTR_MEMORY_CLOCK_RATE 36 /* kHz */

typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_device_get_fn)(int *, int);
typedef int (*cu_name_fn)(char *, int, int);
typedef int (*cu_attr_fn)(int *, int, int);
typedef int (*cu_mem_fn)(size_t *, int);
typedef int (*cu_version_fn)(int *);
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_driver_fn)(char *, unsigned);

/* The driver version as NVML says it ("580.159.04"), or "" */
static void nvml_driver(char *buf, size_t len)
{
    buf[0] = '\0';
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    nvml_init_fn init = (nvml_init_fn)dlsym(h, "nvmlInit_v2");
    nvml_driver_fn version = (nvml_driver_fn)dlsym(h, "nvmlSystemGetDriverVersion");
    nvml_init_fn shutdown = (nvml_init_fn)dlsym(h, "nvmlShutdown");
    char v[96] = "";
    if (init && version && init() == 0) {
        if (version(v, sizeof v) == 0)
            snprintf(buf, len, "%s", v);
        if (shutdown)
            shutdown();
    }
    dlclose(h);
}

int cutune_db_gpu_probe(int ordinal, cutune_db_gpu *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return cutune_err(err, errlen, CUTUNE_ENODEV, "no CUDA driver (libcuda.so.1): %s",
                          dlerror());
    cu_init_fn init = (cu_init_fn)dlsym(h, "cuInit");
    cu_device_get_fn get = (cu_device_get_fn)dlsym(h, "cuDeviceGet");
    cu_name_fn name = (cu_name_fn)dlsym(h, "cuDeviceGetName");
    cu_attr_fn attr = (cu_attr_fn)dlsym(h, "cuDeviceGetAttribute");
    cu_mem_fn mem = (cu_mem_fn)dlsym(h, "cuDeviceTotalMem_v2");
    cu_version_fn version = (cu_version_fn)dlsym(h, "cuDriverGetVersion");
    int dev = 0, rc = 0;
    if (!init || !get || !name || !attr || !mem || !version || init(0) != 0 ||
        get(&dev, ordinal) != 0) {
        rc = cutune_err(err, errlen, CUTUNE_ENODEV, "no CUDA device %d", ordinal);
        goto out;
    }
    char n[sizeof g->name] = "";
    int sms = 0, clock = 0, memclock = 0, drv = 0;
    size_t bytes = 0;
    if (name(n, (int)sizeof n, dev) != 0 || attr(&sms, ATTR_SM_COUNT, dev) != 0 ||
        mem(&bytes, dev) != 0 || version(&drv) != 0) {
        rc = cutune_err(err, errlen, CUTUNE_ENODEV, "CUDA device %d: its attributes cannot be read",
                        ordinal);
        goto out;
    }
    attr(&clock, ATTR_CLOCK_RATE, dev); /* beside the key: left 0 when unknown */
    attr(&memclock, ATTR_MEMORY_CLOCK_RATE, dev);
    snprintf(g->name, sizeof g->name, "%s", n);
    g->sm_count = sms;
    g->memory_mib = (long long)(bytes >> 20);
    snprintf(g->cuda, sizeof g->cuda, "%d.%d", drv / 1000, drv % 1000 / 10);
    nvml_driver(g->driver, sizeof g->driver);
    snprintf(g->clocks, sizeof g->clocks, "sm %d MHz, memory %d MHz", clock / 1000,
             memclock / 1000);
    snprintf(g->fingerprint, sizeof g->fingerprint, "%s|%d SMs|%lld MiB|driver %s|CUDA %s", g->name,
             g->sm_count, g->memory_mib, g->driver[0] ? g->driver : "?", g->cuda);
out:
    dlclose(h);
    return rc;
}
