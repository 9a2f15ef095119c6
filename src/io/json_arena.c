/* A bump arena for cJSON trees that are parsed once and thrown away whole.
 *
 * A Kernel Tuner cache of 17,956 entries is about a million cJSON nodes;
 * freeing them one by one cost a quarter of the load time and malloc another
 * sixth (callgrind, `cutune space GEMM_P100.json.gz`). cJSON's allocation
 * hooks are process-wide, so they are installed once and route to the arena
 * only while the calling thread has one active (other threads, and this one
 * outside the window, get plain malloc/free). A tree built inside the window
 * must not be cJSON_Delete'd after it: cutune_json_arena_end releases it. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "io_internal.h"

#define ARENA_BLOCK (1u << 20)

typedef struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} arena_block;

static _Thread_local cutune_json_arena *active;
static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static void *arena_alloc(cutune_json_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    arena_block *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->used = 0;
        b->cap = cap;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    return p;
}

static void *hook_malloc(size_t n)
{
    return active ? arena_alloc(active, n) : malloc(n);
}

static void hook_free(void *p)
{
    if (!active)
        free(p); /* inside the window memory goes back with the arena */
}

static void install_hooks(void)
{
    cJSON_Hooks h = {.malloc_fn = hook_malloc, .free_fn = hook_free};
    cJSON_InitHooks(&h);
}

void cutune_json_arena_begin(cutune_json_arena *a)
{
    pthread_once(&hooks_once, install_hooks);
    a->head = NULL;
    a->prev = active;
    active = a;
}

void cutune_json_arena_end(cutune_json_arena *a)
{
    active = a->prev;
    for (arena_block *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    a->head = NULL;
}
