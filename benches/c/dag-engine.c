/* The DAG-engine reference: a plain single-threaded C engine on the same
 * random DAG as random_dag_edges in benches/src/lib.rs (SplitMix64, the
 * same stream): N nodes, 5N edges. Builds the CSR graph by a counting sort,
 * computes every Grundy value by an iterative depth-first search (mex by a
 * 64-bit mask, an array for degrees of 64 and more), and prints the build
 * and values times and a checksum of the values (the sum of value * node).
 *
 * Build: cc -O2 -o dag-engine dag-engine.c     Run: ./dag-engine [N]     */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t state;
static uint64_t next_u64(void) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint64_t below(uint64_t n) {
    return (uint64_t)(((unsigned __int128)next_u64() * n) >> 64);
}
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define UNKNOWN 0xFFFFFFFFu
#define ON_STACK 0xFFFFFFFEu

int main(int argc, char **argv) {
    size_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 10000000;
    size_t m = 5 * n;
    state = n; /* the seed of the Rust benches: SplitMix64::new(n) */
    uint32_t *label = malloc(n * sizeof *label);
    uint32_t *src = malloc(m * sizeof *src), *dst = malloc(m * sizeof *dst);
    for (size_t i = 0; i < n; i++) label[i] = (uint32_t)i;
    for (size_t i = n - 1; i >= 1; i--) {
        size_t j = below(i + 1);
        uint32_t t = label[i]; label[i] = label[j]; label[j] = t;
    }
    for (size_t e = 0; e < m; e++) {
        uint64_t a = 1 + below(n - 1), b = below(a);
        src[e] = label[a];
        dst[e] = label[b];
    }
    free(label);

    double t0 = now();
    uint32_t *off = calloc(n + 1, sizeof *off);
    uint32_t *tgt = malloc(m * sizeof *tgt);
    for (size_t e = 0; e < m; e++) off[src[e] + 1]++;
    for (size_t v = 0; v < n; v++) off[v + 1] += off[v];
    uint32_t *fill = malloc(n * sizeof *fill);
    for (size_t v = 0; v < n; v++) fill[v] = off[v];
    for (size_t e = 0; e < m; e++) tgt[fill[src[e]]++] = dst[e];
    free(fill);
    double t1 = now();

    uint32_t *val = malloc(n * sizeof *val);
    for (size_t v = 0; v < n; v++) val[v] = UNKNOWN;
    uint32_t *stack_node = malloc(n * sizeof *stack_node);
    uint32_t *stack_cur = malloc(n * sizeof *stack_cur);
    uint32_t *seen = calloc(m + 2, sizeof *seen), stamp = 0;
    for (size_t root = 0; root < n; root++) {
        if (val[root] != UNKNOWN) continue;
        size_t sp = 0;
        stack_node[sp] = (uint32_t)root; stack_cur[sp] = off[root]; sp++;
        val[root] = ON_STACK;
        while (sp) {
            uint32_t u = stack_node[sp - 1], end = off[u + 1];
            uint32_t c = stack_cur[sp - 1];
            int descended = 0;
            for (; c < end; c++) {
                uint32_t w = tgt[c];
                if (val[w] == UNKNOWN) {
                    stack_cur[sp - 1] = c;
                    val[w] = ON_STACK;
                    stack_node[sp] = w; stack_cur[sp] = off[w]; sp++;
                    descended = 1;
                    break;
                }
                if (val[w] == ON_STACK) { fprintf(stderr, "cycle\n"); return 1; }
            }
            if (descended) continue;
            uint32_t deg = end - off[u], g;
            if (deg < 64) {
                uint64_t mask = 0;
                for (uint32_t i = off[u]; i < end; i++)
                    if (val[tgt[i]] < 64) mask |= 1ull << val[tgt[i]];
                g = (uint32_t)__builtin_ctzll(~mask);
            } else {
                stamp++;
                for (uint32_t i = off[u]; i < end; i++)
                    if (val[tgt[i]] <= deg) seen[val[tgt[i]]] = stamp;
                for (g = 0; seen[g] == stamp; g++) {}
            }
            val[u] = g;
            sp--;
        }
    }
    double t2 = now();
    uint64_t sum = 0;
    for (size_t v = 0; v < n; v++) sum += (uint64_t)val[v] * v;
    printf("nodes %zu edges %zu build %.3f s values %.3f s total %.3f s checksum %llu\n",
           n, m, t1 - t0, t2 - t1, t2 - t0, (unsigned long long)sum);
    return 0;
}
