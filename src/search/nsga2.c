/* NSGA-II's building blocks (include/cutune/pareto.h): fast non-dominated sorting and
 * crowding distance after Deb, Pratap, Agarwal and Meyarivan, "A fast and elitist
 * multiobjective genetic algorithm: NSGA-II", IEEE TEC 6(2):182-197, 2002 (III-A, III-B),
 * and the two-objective hypervolume (a sweep over the points sorted by the first
 * objective). Pure functions: the multi-objective summary and exports use them. */
#include <math.h>
#include <stdlib.h>

#include "cutune/pareto.h"

static int has_nan(const double *p, size_t m)
{
    for (size_t j = 0; j < m; j++)
        if (isnan(p[j]))
            return 1;
    return 0;
}

/* 1 when a dominates b (minimisation). */
static int dominates(const double *a, const double *b, size_t m)
{
    int better = 0;
    for (size_t j = 0; j < m; j++) {
        if (a[j] > b[j])
            return 0;
        better |= a[j] < b[j];
    }
    return better;
}

size_t cutune_pareto_sort(const double *f, size_t n, size_t m, size_t *rank)
{
    if (n == 0)
        return 0;
    size_t *count = calloc(n, sizeof *count); /* how many dominate i */
    size_t *dom_start = calloc(n + 1, sizeof *dom_start);
    size_t *front = malloc(n * sizeof *front), *next = malloc(n * sizeof *next);
    size_t *dom = NULL, ndom = 0, fronts = 0;
    /* S_i (the points i dominates) as one array: two passes, count then fill */
    for (size_t i = 0; count && dom_start && i < n; i++)
        for (size_t k = 0; k < n; k++)
            if (i != k && !has_nan(f + i * m, m) && !has_nan(f + k * m, m) &&
                dominates(f + i * m, f + k * m, m))
                ndom++;
    dom = malloc((ndom ? ndom : 1) * sizeof *dom);
    if (!count || !dom_start || !front || !next || !dom)
        goto out;
    ndom = 0;
    for (size_t i = 0; i < n; i++) {
        dom_start[i] = ndom;
        rank[i] = CUTUNE_PARETO_NONE;
        if (has_nan(f + i * m, m))
            continue;
        for (size_t k = 0; k < n; k++) {
            if (i == k || has_nan(f + k * m, m))
                continue;
            if (dominates(f + i * m, f + k * m, m))
                dom[ndom++] = k;
            else if (dominates(f + k * m, f + i * m, m))
                count[i]++;
        }
    }
    dom_start[n] = ndom;
    size_t nf = 0;
    for (size_t i = 0; i < n; i++)
        if (!has_nan(f + i * m, m) && count[i] == 0)
            front[nf++] = i;
    while (nf > 0) {
        size_t nn = 0;
        for (size_t a = 0; a < nf; a++) {
            size_t i = front[a];
            rank[i] = fronts;
            for (size_t d = dom_start[i]; d < dom_start[i + 1]; d++)
                if (--count[dom[d]] == 0)
                    next[nn++] = dom[d];
        }
        fronts++;
        size_t *t = front;
        front = next;
        next = t;
        nf = nn;
    }
out:
    free(count);
    free(dom_start);
    free(front);
    free(next);
    free(dom);
    return fronts;
}

/* Sort the point indices v[0..k) by objective j, then by index (insertion sort: fronts are
 * small, and no global state, so that benchmark threads may call this at once). */
static void sort_by(const double *f, size_t m, size_t j, size_t *v, size_t k)
{
    for (size_t a = 1; a < k; a++) {
        size_t x = v[a], b = a;
        while (b > 0 && (f[v[b - 1] * m + j] > f[x * m + j] ||
                         (f[v[b - 1] * m + j] == f[x * m + j] && v[b - 1] > x))) {
            v[b] = v[b - 1];
            b--;
        }
        v[b] = x;
    }
}

int cutune_pareto_crowding(const double *f, size_t m, const size_t *idx, size_t k, double *dist)
{
    size_t *order = malloc((k ? k : 1) * sizeof *order);
    size_t *pos = malloc((k ? k : 1) * sizeof *pos);
    if (!order || !pos) {
        free(order);
        free(pos);
        return -1;
    }
    for (size_t i = 0; i < k; i++)
        dist[i] = 0;
    for (size_t j = 0; j < m && k > 0; j++) {
        for (size_t i = 0; i < k; i++)
            order[i] = idx[i];
        sort_by(f, m, j, order, k);
        for (size_t i = 0; i < k; i++) /* order[i] is idx[pos[i]] */
            for (size_t q = 0; q < k; q++)
                if (idx[q] == order[i]) {
                    pos[i] = q;
                    break;
                }
        double lo = f[order[0] * m + j], hi = f[order[k - 1] * m + j];
        dist[pos[0]] = dist[pos[k - 1]] = INFINITY;
        if (!(hi > lo))
            continue;
        for (size_t i = 1; i + 1 < k; i++)
            dist[pos[i]] += (f[order[i + 1] * m + j] - f[order[i - 1] * m + j]) / (hi - lo);
    }
    free(order);
    free(pos);
    return 0;
}

double cutune_pareto_hv2(const double *f, size_t n, const double ref[2])
{
    size_t *order = malloc((n ? n : 1) * sizeof *order), k = 0;
    if (!order)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (f[2 * i] < ref[0] && f[2 * i + 1] < ref[1])
            order[k++] = i;
    sort_by(f, 2, 0, order, k);
    /* sweep by the first objective: each point adds the strip up to the best second
     * objective seen so far */
    double area = 0, best2 = ref[1];
    for (size_t a = 0; a < k; a++) {
        double y = f[2 * order[a] + 1];
        if (y < best2) {
            area += (ref[0] - f[2 * order[a]]) * (best2 - y);
            best2 = y;
        }
    }
    free(order);
    return area;
}

int cutune_pareto_rank_crowd(const double *f, size_t n, size_t m, size_t *rank, double *crowd)
{
    if (n == 0)
        return 0;
    size_t *idx = malloc(n * sizeof *idx);
    double *d = malloc(n * sizeof *d);
    for (size_t i = 0; i < n; i++)
        rank[i] = CUTUNE_PARETO_NONE; /* stays so for NaN points (and if the sort fails) */
    size_t fronts = idx && d ? cutune_pareto_sort(f, n, m, rank) : 0;
    int rc = idx && d ? 0 : -1;
    for (size_t i = 0; i < n; i++)
        crowd[i] = 0;
    for (size_t r = 0; rc == 0 && r < fronts; r++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (rank[i] == r)
                idx[k++] = i;
        if (cutune_pareto_crowding(f, m, idx, k, d) < 0)
            rc = -1;
        for (size_t i = 0; rc == 0 && i < k; i++)
            crowd[idx[i]] = d[i];
    }
    free(idx);
    free(d);
    return rc;
}

int cutune_pareto_better(const size_t *rank, const double *crowd, size_t a, size_t b)
{
    if (rank[a] != rank[b])
        return rank[a] < rank[b];
    return crowd[a] > crowd[b];
}

size_t cutune_pareto_worst(const double *f, size_t n, size_t m)
{
    size_t *rank = malloc(n * sizeof *rank);
    double *crowd = malloc(n * sizeof *crowd);
    size_t w = (size_t)-1;
    if (rank && crowd && cutune_pareto_rank_crowd(f, n, m, rank, crowd) == 0) {
        w = 0;
        for (size_t i = 1; i < n; i++)
            if (!cutune_pareto_better(rank, crowd, i, w))
                w = i; /* not preferred to the worst so far: worse, or tied and later */
    }
    free(rank);
    free(crowd);
    return w;
}
