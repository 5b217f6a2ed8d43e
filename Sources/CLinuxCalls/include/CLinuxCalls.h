#ifndef CLINUX_CALLS_H
#define CLINUX_CALLS_H

/// Atomically swaps two paths on the same filesystem (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise.
int nb_rename_exchange(const char *first, const char *second);

/// Opens a path only to name it (O_PATH), following symbolic links: the file itself is not opened, so a
/// device's open has no effect. Returns the descriptor, or -1 with errno set.
int nb_open_path(const char *path);

/// Opens `relative` for reading, non-blocking, below the folder `folder` names, only if resolving it (its
/// symbolic links included) stays below that folder: openat2 with RESOLVE_BENEATH, which the kernel checks
/// as it resolves. Returns the descriptor, or -1 with errno set: EXDEV where the path would leave the
/// folder or uses an absolute link, ENOSYS where the kernel has no openat2.
int nb_open_beneath(int folder, const char *relative);

/// Opens `relative` below the folder `folder` names, as open(2) with `flags` (O_CLOEXEC added) and `mode`, only
/// if resolving it meets no symbolic link, on the way or at its end, and stays below that folder: openat2 with
/// RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, which the kernel checks as it resolves. Returns the descriptor, or -1
/// with errno set: ELOOP where a link is met, EXDEV where the path would leave the folder, ENOSYS where the kernel
/// has no openat2 (before Linux 5.6; a sandbox may answer EPERM instead).
int nb_open_within(int folder, const char *relative, int flags, unsigned int mode);

#endif
