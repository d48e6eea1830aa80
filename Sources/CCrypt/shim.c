// Password hashing through libxcrypt: crypt_gensalt_rn picks a random yescrypt salt,
// crypt_rn hashes into caller-owned memory (thread-safe, no static buffers).
#include "CCrypt.h"

#include <crypt.h>
#include <errno.h>
#include <string.h>
#include <sys/random.h>

int lk_password_hash(const char *password, char *out, size_t out_size) {
    char salt[CRYPT_GENSALT_OUTPUT_SIZE];
    if (crypt_gensalt_rn("$y$", 0, NULL, 0, salt, sizeof salt) == NULL) return -1;
    struct crypt_data data;
    memset(&data, 0, sizeof data);
    const char *hash = crypt_rn(password, salt, &data, sizeof data);
    if (hash == NULL || hash[0] == '*') return -1;
    size_t length = strlen(hash);
    if (length + 1 > out_size) { errno = ERANGE; return -1; }
    memcpy(out, hash, length + 1);
    return 0;
}

int lk_password_verify(const char *password, const char *stored) {
    struct crypt_data data;
    memset(&data, 0, sizeof data);
    const char *hash = crypt_rn(password, stored, &data, sizeof data);
    if (hash == NULL || hash[0] == '*') return -1;
    size_t a = strlen(hash), b = strlen(stored);
    if (a != b) return 0;
    unsigned char difference = 0;
    for (size_t i = 0; i < a; i++) difference |= (unsigned char)(hash[i] ^ stored[i]);
    return difference == 0 ? 1 : 0;
}

int lk_random_bytes(unsigned char *out, size_t count) {
    size_t done = 0;
    while (done < count) {
        ssize_t n = getrandom(out + done, count - done, 0);
        if (n < 0) { if (errno == EINTR) continue; return -1; }
        done += (size_t)n;
    }
    return 0;
}
