#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CLinuxCalls.h"

int nb_rename_exchange(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
}

int nb_open_path(const char *path) {
    return open(path, O_PATH | O_CLOEXEC);
}

int nb_open_beneath(int folder, const char *relative) {
    // glibc 2.36 has no wrapper for openat2.
    struct open_how how = {.flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK, .resolve = RESOLVE_BENEATH};
    return (int)syscall(SYS_openat2, folder, relative, &how, sizeof how);
}

int nb_open_within(int folder, const char *relative, int flags, unsigned int mode) {
    // openat2 refuses a mode without O_CREAT or O_TMPFILE.
    int creates = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
    struct open_how how = {
        .flags = (unsigned long long)(flags | O_CLOEXEC),
        .mode = creates ? mode : 0,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
    };
    return (int)syscall(SYS_openat2, folder, relative, &how, sizeof how);
}
