/* The parse reference of benches/whole-process.sh: reads all of standard
 * input with read() into one growing buffer, folds every decimal integer
 * into an XOR and prints it. Nothing else: no validation, no output per
 * number. Build: cc -O2 -o parse-floor parse-floor.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap);
    if (!buf) return 1;
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) return 1;
        }
        ssize_t got = read(0, buf + len, cap - len);
        if (got < 0) return 1;
        if (got == 0) break;
        len += (size_t)got;
    }
    uint64_t fold = 0, value = 0;
    int in_number = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned digit = (unsigned char)buf[i] - '0';
        if (digit < 10) {
            value = value * 10 + digit;
            in_number = 1;
        } else if (in_number) {
            fold ^= value;
            value = 0;
            in_number = 0;
        }
    }
    if (in_number) fold ^= value;
    printf("%llu\n", (unsigned long long)fold);
    free(buf);
    return 0;
}
