// cmark-gfm's two pieces of process-wide state that stop parses running at once, each made safe here.
#define _GNU_SOURCE
#include "CCmarkThreads.h"
#include <cmark-gfm-extension_api.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- The allocation count, one per thread -------------------------------------------------------------------

// Signed, so that a free the count did not see the allocation of cannot wrap it.
static _Thread_local long long allocated, peak;

// The size cmark asked for goes in a header before each block, so that the count is the same on every run
// (malloc's usable sizes vary with what is free around a block). 16 bytes keep the block aligned as malloc's are.
enum { header_bytes = 16 };

static void count(long long change) {
    allocated += change;
    if (allocated > peak) peak = allocated;
}

static void *counting_calloc(size_t count_of, size_t size) {
    size_t bytes;
    if (__builtin_mul_overflow(count_of, size, &bytes) || bytes > SIZE_MAX - header_bytes) return NULL;
    unsigned char *block = calloc(1, bytes + header_bytes);
    if (!block) return NULL;
    memcpy(block, &bytes, sizeof bytes);
    count((long long)bytes);
    return block + header_bytes;
}

static void *counting_realloc(void *pointer, size_t size) {
    if (!pointer) return counting_calloc(1, size);
    if (size > SIZE_MAX - header_bytes) return NULL;
    unsigned char *block = (unsigned char *)pointer - header_bytes;
    size_t before;
    memcpy(&before, block, sizeof before);
    unsigned char *moved = realloc(block, size + header_bytes);
    if (!moved) return NULL;
    memcpy(moved, &size, sizeof size);
    count((long long)size - (long long)before);
    return moved + header_bytes;
}

void nb_cmark_counting_free(void *pointer) {
    if (!pointer) return;
    unsigned char *block = (unsigned char *)pointer - header_bytes;
    size_t bytes;
    memcpy(&bytes, block, sizeof bytes);
    allocated -= (long long)bytes;
    free(block);
}

static cmark_mem counting_allocator = {counting_calloc, counting_realloc, nb_cmark_counting_free};

cmark_mem *nb_cmark_counting_allocator(void) { return &counting_allocator; }

void nb_cmark_count_restart(void) { allocated = peak = 0; }

long long nb_cmark_count_peak(void) { return peak; }

// ---- The table of characters that start an extension's inlines ----------------------------------------------

// cmark-gfm 0.29 marks the characters its extensions' inlines start with (':' and 'w' for autolinks, '~' for
// strikethrough) in one table for the whole process: each parse adds its extensions' characters before its
// inlines and removes them after, so a parse that ends takes them from another still running, which then
// misses its autolinks. This definition takes the library's place (the library calls the function through
// its PLT, and the program's definition comes first; linked statically, the two definitions would not link).
// The first parse adds the characters with the library's own function, once, and nothing removes them, so
// after it the table is only read. Every parser in this program attaches the same extensions
// (`CmarkSession.extensions`), so the table holds what each parse would have added itself; a parser with fewer
// would see characters it did not ask for (a '~' next to '*' changes how the '*' reads).
static atomic_long table_calls;
static atomic_bool characters_added;
static pthread_mutex_t adding = PTHREAD_MUTEX_INITIALIZER;

void cmark_manage_extensions_special_characters(cmark_parser *parser, int add) {
    atomic_fetch_add_explicit(&table_calls, 1, memory_order_relaxed);
    if (!add || atomic_load_explicit(&characters_added, memory_order_acquire)) return;
    pthread_mutex_lock(&adding);
    if (!atomic_load_explicit(&characters_added, memory_order_relaxed)) {
        void (*library_own)(cmark_parser *, int) =
            (void (*)(cmark_parser *, int))dlsym(RTLD_NEXT, "cmark_manage_extensions_special_characters");
        if (!library_own) {
            fprintf(stderr, "noticeboard: cmark-gfm's cmark_manage_extensions_special_characters not found: %s\n", dlerror());
            abort();
        }
        library_own(parser, 1);
        atomic_store_explicit(&characters_added, true, memory_order_release);
    }
    pthread_mutex_unlock(&adding);
}

long nb_cmark_table_calls(void) { return atomic_load_explicit(&table_calls, memory_order_relaxed); }
