// Preloaded into the noticeboard CLI by tests (LD_PRELOAD): the first open(2) of the folder named by
// NOTICEBOARD_FAIL_OPEN (the path itself, or its last parts after a slash) that asks for a folder and follows no link
// (O_DIRECTORY | O_NOFOLLOW, as the writer opens a folder it holds) fails with EMFILE, "Too many open files"; every
// other open goes through. So a test makes exactly the open that checks that folder fail, as running out of file
// descriptors would, without the build running out of them before it gets there: tests run as root, whom no
// permission stops, and a low RLIMIT_NOFILE fails the scan of the site's folders first. NOTICEBOARD_FAIL_OPENS asks for
// more: that many of the first such opens fail (the check's, then the listing's that looks in the folder again), or,
// set to "all", every one.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int met;

// With NOTICEBOARD_FAIL_OPEN_FILE set, the opens that fail are of a file instead: any open of that path without
// O_DIRECTORY (a marker or a manifest the writer reads).
static int isOfTheKind(int flags) {
    if (getenv("NOTICEBOARD_FAIL_OPEN_FILE") != NULL) return (flags & O_DIRECTORY) == 0;
    return (flags & (O_DIRECTORY | O_NOFOLLOW)) == (O_DIRECTORY | O_NOFOLLOW);
}

static int isTheEntry(const char *path, int flags) {
    const char *name = getenv("NOTICEBOARD_FAIL_OPEN");
    if (name == NULL || path == NULL || !isOfTheKind(flags)) return 0;
    size_t length = strlen(path), nameLength = strlen(name);
    if (length < nameLength || strcmp(path + length - nameLength, name) != 0) return 0;
    return length == nameLength || path[length - nameLength - 1] == '/';
}

// NOTICEBOARD_FAIL_OPEN_SKIP: how many such opens go through before the failing ones (none when unset).
static int isToFail(void) {
    const char *count = getenv("NOTICEBOARD_FAIL_OPENS"), *skip = getenv("NOTICEBOARD_FAIL_OPEN_SKIP");
    int skipped = skip == NULL ? 0 : atoi(skip);
    int seen = __atomic_fetch_add(&met, 1, __ATOMIC_SEQ_CST);
    if (seen < skipped) return 0;
    if (count != NULL && strcmp(count, "all") == 0) return 1;
    return seen < skipped + (count == NULL ? 1 : atoi(count));
}

static int openOrFail(const char *path, int flags, mode_t mode) {
    if (isTheEntry(path, flags) && isToFail()) {
        errno = EMFILE;
        return -1;
    }
    static int (*realOpen)(const char *, int, ...);
    if (realOpen == NULL) realOpen = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    return realOpen(path, flags, mode);
}

// The mode is there only when the call makes a file.
static mode_t modeArgument(int flags, va_list arguments) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(arguments, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = modeArgument(flags, arguments);
    va_end(arguments);
    return openOrFail(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = modeArgument(flags, arguments);
    va_end(arguments);
    return openOrFail(path, flags, mode);
}
