#ifndef CCMARK_THREADS_H
#define CCMARK_THREADS_H

#include <cmark-gfm.h>

/// cmark's allocator, counting the bytes cmark holds on the calling thread: each parse runs on one thread
/// from start to end, so each has a count of its own while others run. Blocks carry their size in a header.
cmark_mem *nb_cmark_counting_allocator(void);

/// Starts the calling thread's count again, at a parse's start.
void nb_cmark_count_restart(void);

/// The most the calling thread's count has reached since it started again.
long long nb_cmark_count_peak(void);

/// Frees a block from the counting allocator (the HTML cmark renders comes from the document's allocator).
void nb_cmark_counting_free(void *pointer);

/// How many of cmark-gfm's calls to change its table of special characters came to this file's stand-in
/// (`cmark_manage_extensions_special_characters`) rather than to the library's own; 0 if none ever has.
long nb_cmark_table_calls(void);

#endif
