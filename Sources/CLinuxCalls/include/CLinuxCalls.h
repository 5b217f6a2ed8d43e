#ifndef CLINUX_CALLS_H
#define CLINUX_CALLS_H

/// Atomically swaps two paths on the same filesystem (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise.
int nb_rename_exchange(const char *first, const char *second);

/// Opens a path only to name it (O_PATH), following symbolic links: the file itself is not opened, so a
/// device's open has no effect. Returns the descriptor, or -1 with errno set.
int nb_open_path(const char *path);

#endif
