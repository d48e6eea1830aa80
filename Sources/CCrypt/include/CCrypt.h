// The system's libcrypt (libxcrypt) for password hashing: yescrypt ("$y$") hashes.
#ifndef LOCKER_CCRYPT_H
#define LOCKER_CCRYPT_H

#include <stddef.h>

/// Hashes `password` with a fresh yescrypt salt into `out` (NUL-terminated).
/// Returns 0 on success, -1 when libcrypt fails (the reason is in errno).
int lk_password_hash(const char *password, char *out, size_t out_size);

/// Checks `password` against a stored hash in constant time. Returns 1 when it matches,
/// 0 when not, -1 when the stored hash is not usable.
int lk_password_verify(const char *password, const char *stored);

/// Fills `out` with `count` random bytes from the kernel. Returns 0 on success.
int lk_random_bytes(unsigned char *out, size_t count);

#endif
