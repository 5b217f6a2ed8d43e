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

static int isTheFolder(const char *path, int flags) {
    const char *name = getenv("NOTICEBOARD_FAIL_OPEN");
    if (name == NULL || path == NULL || (flags & (O_DIRECTORY | O_NOFOLLOW)) != (O_DIRECTORY | O_NOFOLLOW)) return 0;
    size_t length = strlen(path), nameLength = strlen(name);
    if (length < nameLength || strcmp(path + length - nameLength, name) != 0) return 0;
    return length == nameLength || path[length - nameLength - 1] == '/';
}

static int isToFail(void) {
    const char *count = getenv("NOTICEBOARD_FAIL_OPENS");
    if (count != NULL && strcmp(count, "all") == 0) return 1;
    int failing = count == NULL ? 1 : atoi(count);
    return __atomic_fetch_add(&met, 1, __ATOMIC_SEQ_CST) < failing;
}

static int openOrFail(const char *path, int flags, mode_t mode) {
    if (isTheFolder(path, flags) && isToFail()) {
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
