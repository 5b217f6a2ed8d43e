// Preloaded into the noticeboard CLI by tests (LD_PRELOAD): the first open(2) of the folder named by
// NOTICEBOARD_FAIL_OPEN (the path itself, or its last parts after a slash) that asks for a folder and follows no link
// (O_DIRECTORY | O_NOFOLLOW, as the writer opens a folder it holds) fails with EMFILE, "Too many open files"; every
// other open goes through. So a test makes exactly the open that checks that folder fail, as running out of file
// descriptors would, without the build running out of them before it gets there: tests run as root, whom no
// permission stops, and a low RLIMIT_NOFILE fails the scan of the site's folders first. NOTICEBOARD_FAIL_OPENS asks for
// more: that many of the first such opens fail (the check's, then the listing's that looks in the folder again), or,
// set to "all", every one.
//
// More, each opt-in, each leaving everything else as it is. NOTICEBOARD_FAIL_FOLLOWING_OPEN names a folder (as
// NOTICEBOARD_FAIL_OPEN does) one open(2) of which that asks for a folder and follows a link (O_DIRECTORY without
// O_NOFOLLOW) fails with EMFILE: the first, or the NOTICEBOARD_FAIL_FOLLOWING_OPEN_NTH one (2 for the second).
// NOTICEBOARD_FAIL_OPENDIR names a folder (as
// NOTICEBOARD_FAIL_OPEN does) every opendir(3) of which fails with EMFILE: Foundation's contentsOfDirectory lists a
// folder so, following a link, and glibc's opendir opens it with a call of its own that no preload sees.
// NOTICEBOARD_FAIL_READDIR names an entry: readdir(3) returns NULL with errno EIO ("Input/output error") where it would
// return that entry, as a failing disk makes it part-way through a folder.
#define _GNU_SOURCE
#include <dirent.h>
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

// Whether `path` is the folder `name`: the path itself, or its last parts after a slash.
static int isNamed(const char *path, const char *name) {
    if (name == NULL || path == NULL) return 0;
    size_t length = strlen(path), nameLength = strlen(name);
    if (length < nameLength || strcmp(path + length - nameLength, name) != 0) return 0;
    return length == nameLength || path[length - nameLength - 1] == '/';
}

static int isTheEntry(const char *path, int flags) {
    return isOfTheKind(flags) && isNamed(path, getenv("NOTICEBOARD_FAIL_OPEN"));
}

static int metFollowing;

// Whether this open of `path` is the one NOTICEBOARD_FAIL_FOLLOWING_OPEN and NOTICEBOARD_FAIL_FOLLOWING_OPEN_NTH name.
static int isTheFollowingOpenToFail(const char *path, int flags) {
    if ((flags & (O_DIRECTORY | O_NOFOLLOW)) != O_DIRECTORY || !isNamed(path, getenv("NOTICEBOARD_FAIL_FOLLOWING_OPEN"))) return 0;
    const char *nth = getenv("NOTICEBOARD_FAIL_FOLLOWING_OPEN_NTH");
    return __atomic_add_fetch(&metFollowing, 1, __ATOMIC_SEQ_CST) == (nth == NULL ? 1 : atoi(nth));
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
    if ((isTheEntry(path, flags) && isToFail()) || isTheFollowingOpenToFail(path, flags)) {
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

DIR *opendir(const char *path) {
    if (isNamed(path, getenv("NOTICEBOARD_FAIL_OPENDIR"))) {
        errno = EMFILE;
        return NULL;
    }
    static DIR *(*realOpendir)(const char *);
    if (realOpendir == NULL) realOpendir = (DIR * (*)(const char *)) dlsym(RTLD_NEXT, "opendir");
    return realOpendir(path);
}

// `entry`, or NULL with EIO when it is the one NOTICEBOARD_FAIL_READDIR names.
static void *failingAt(void *entry, const char *name) {
    const char *failing = getenv("NOTICEBOARD_FAIL_READDIR");
    if (entry == NULL || failing == NULL || strcmp(name, failing) != 0) return entry;
    errno = EIO;
    return NULL;
}

struct dirent *readdir(DIR *stream) {
    static struct dirent *(*realReaddir)(DIR *);
    if (realReaddir == NULL) realReaddir = (struct dirent * (*)(DIR *)) dlsym(RTLD_NEXT, "readdir");
    struct dirent *entry = realReaddir(stream);
    return failingAt(entry, entry == NULL ? NULL : entry->d_name);
}

struct dirent64 *readdir64(DIR *stream) {
    static struct dirent64 *(*realReaddir64)(DIR *);
    if (realReaddir64 == NULL) realReaddir64 = (struct dirent64 * (*)(DIR *)) dlsym(RTLD_NEXT, "readdir64");
    struct dirent64 *entry = realReaddir64(stream);
    return failingAt(entry, entry == NULL ? NULL : entry->d_name);
}
