/* The report of `cutune --sizes` (shapes_run.h): the summary on stdout and the --output
 * JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shapes_run.h"

int shapes_print_summary(int common, const char *warm, int quiet, shape_run *R, size_t n,
                         shape_run *V, size_t nv, const cutune_space *cspace,
                         const cutune_history *ch, const char *cjournal)
{
    int any = 0;
    if (common && ch->best >= 0) {
        any = 1;
        if (quiet) {
            shapes_print_config(cspace, (long)ch->e[ch->best].id);
        } else {
            printf("common: ");
            shapes_print_config(cspace, (long)ch->e[ch->best].id);
            printf("geomean: %.6g ms over %zu shapes (evaluation %ld of %zu; %zu configurations "
                   "valid at every shape; %zu measurements)\n",
                   shapes_best_of(ch), n, ch->best + 1, ch->n, cutune_space_size(cspace),
                   ch->n * n);
        }
    }
    for (size_t i = 0; i < n && !quiet; i++) {
        shape_run *r = &R[i];
        if (common) {
            printf("  shape %s: %.6g ms, %.4f x its best seen (%.6g ms)\n", r->shape->label,
                   r->winner_ms, r->winner_ms / r->best_ms, r->best_ms);
            if (isfinite(r->known_ms) && r->known_ms < r->best_ms)
                printf("    %.4f x the best known there (%.6g ms, in the database)\n",
                       r->winner_ms / r->known_ms, r->known_ms);
            continue;
        }
        if (!r->tuned)
            continue;
        printf("shape %s: ", r->shape->label);
        shapes_print_config(r->t.space, r->winner);
        char from[300] = "cold";
        if (r->from >= 0 && strcmp(warm, "all") == 0)
            snprintf(from, sizeof from, "warm from the shapes tuned before");
        else if (r->from >= 0 && strcmp(warm, "model") == 0)
            snprintf(from, sizeof from, "warm from a model of the shapes tuned before");
        else if (r->from >= 0)
            snprintf(from, sizeof from, "warm from %s", R[r->from].shape->label);
        printf("  time: %.6g ms (%zu evaluations, %zu from the database; %s; journal %s)\n",
               r->winner_ms, r->hist.n, r->hist.reused, from, r->journal);
    }
    for (size_t i = 0; !common && !quiet && i < n; i++)
        any |= R[i].winner >= 0;
    for (size_t i = 0; quiet && !common && i < n; i++) {
        printf("%s: ", R[i].shape->label);
        shapes_print_config(R[i].t.space, R[i].winner);
        any |= R[i].winner >= 0;
    }
    for (size_t i = 0; i < nv && !quiet; i++) {
        shape_run *v = &V[i];
        if (!v->tuned)
            continue;
        printf("validate %s (the configuration of %s): ", v->shape->label,
               v->from >= 0 ? R[v->from].shape->label : "the common run");
        if (v->chosen_stopped)
            printf("not measured (the run was stopped)");
        else if (v->chosen_id < 0)
            printf("not in its space (invalid or not recorded there)");
        else if (v->chosen_status != CUTUNE_STATUS_OK)
            printf("%s", cutune_status_name(v->chosen_status));
        else
            printf("%.6g ms", v->chosen_ms);
        printf("; tuned directly %.6g ms", v->winner_ms);
        if (isfinite(v->chosen_ms / v->winner_ms))
            printf(": loss %.4f", v->chosen_ms / v->winner_ms);
        printf(" (journal %s)\n", v->journal);
    }
    if (common && !quiet)
        printf("journal: %s\n", cjournal);
    return any;
}

/* Configuration id of space as a JSON object: the database's text of it (cutune header
 * --sizes reads the common run's back with cutune_db_config_id). */
static void config_json(FILE *f, const cutune_space *s, long id)
{
    char *text = id >= 0 ? cutune_db_config_text(s, (size_t)id) : NULL;
    fprintf(f, "%s", text ? text : "null");
    free(text);
}

static void num_json(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.17g", x);
    else
        fprintf(f, "null");
}

static void str_json(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void sizes_json(FILE *f, const cli_shape *sh)
{
    fprintf(f, "{");
    for (size_t i = 0; i < sh->n; i++)
        fprintf(f, "%s\"%s\":%s", i ? "," : "", sh->names[i], sh->texts[i]);
    fprintf(f, "}");
}

/* --output: the whole run as one JSON object (through cutune_outfile: nothing is left half
 * written). */
int shapes_write_output(const char *path, const run_ctx *c, int common, shape_run *R, size_t n,
                        const cutune_space *cspace, const cutune_history *ch, const char *cjournal,
                        shape_run *V, size_t nv, const char *stop, char *err, size_t errlen)
{
    cutune_outfile *o = NULL;
    int rc = cutune_outfile_open(path, 0, 0644, &o, err, errlen);
    if (rc < 0)
        return rc;
    FILE *f = cutune_outfile_stream(o);
    if (!f) {
        cutune_outfile_abort(o);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    fprintf(f, "{\"mode\":\"%s\",\"kernel\":", common ? "common" : "each");
    str_json(f, R[0].t.spec->name);
    fprintf(f, ",\"searcher\":");
    str_json(f, c->o->searcher ? c->o->searcher : "bo");
    fprintf(f, ",\"evaluator\":\"%s\",\"seed\":%lu,\"budget\":%lu,\"budget_counts\":\"%s\"",
            c->ename, c->o->seed, c->o->budget,
            common ? "configurations, each measured at every shape" : "evaluations per shape");
    fprintf(f, ",\"stop_reason\":\"%s\"", stop);
    if (common) {
        long b = ch->best;
        fprintf(f, ",\"common\":{\"config\":");
        config_json(f, cspace, b >= 0 ? (long)ch->e[b].id : -1);
        fprintf(f, ",\"geomean_ms\":");
        num_json(f, shapes_best_of(ch));
        fprintf(f,
                ",\"space_size\":%zu,\"evaluations\":%zu,\"journal\":", cutune_space_size(cspace),
                ch->n);
        str_json(f, cjournal);
        fprintf(f, "}");
    }
    fprintf(f, ",\"shapes\":[");
    for (size_t i = 0; i < n; i++) {
        shape_run *r = &R[i];
        fprintf(f, "%s{\"label\":\"%s\",\"sizes\":", i ? "," : "", r->shape->label);
        sizes_json(f, r->shape);
        fprintf(f, ",\"config\":");
        config_json(f, r->t.space, r->winner);
        fprintf(f, ",\"time_ms\":");
        num_json(f, r->winner_ms);
        fprintf(f, ",\"best_seen_ms\":");
        num_json(f, r->best_ms);
        fprintf(f, ",\"relative\":");
        num_json(f, r->winner_ms / r->best_ms);
        if (common) {
            fprintf(f, ",\"best_known_ms\":");
            num_json(f, r->known_ms);
        }
        fprintf(f, ",\"evaluations\":%zu,\"reused\":%zu", r->es.nevals, r->es.nreused);
        if (!common) {
            fprintf(f, ",\"journal\":");
            str_json(f, r->journal);
            /* --shape-warm=all or model: every shape tuned before, not one */
            const char *sw = c->o->shape_warm ? c->o->shape_warm : "nearest";
            int pooled = strcmp(sw, "all") == 0 || strcmp(sw, "model") == 0;
            fprintf(f, ",\"warm_from\":%s%s%s", r->from >= 0 ? "\"" : "",
                    r->from < 0 ? "null"
                    : pooled    ? sw
                                : R[r->from].shape->label,
                    r->from >= 0 ? "\"" : "");
        }
        fprintf(f, "}");
    }
    fprintf(f, "],\"validation\":[");
    for (size_t i = 0; i < nv; i++) {
        shape_run *v = &V[i];
        fprintf(f, "%s{\"label\":\"%s\",\"sizes\":", i ? "," : "", v->shape->label);
        sizes_json(f, v->shape);
        fprintf(f, ",\"from\":%s%s%s", v->from >= 0 ? "\"" : "",
                v->from >= 0 ? R[v->from].shape->label : "null", v->from >= 0 ? "\"" : "");
        fprintf(f, ",\"config\":");
        config_json(f, v->t.space, v->chosen_id);
        fprintf(f, ",\"status\":\"%s\",\"chosen_ms\":",
                v->chosen_stopped   ? "stopped"
                : v->chosen_id >= 0 ? cutune_status_name(v->chosen_status)
                                    : "not_in_space");
        num_json(f, v->chosen_ms);
        fprintf(f, ",\"direct_config\":");
        config_json(f, v->t.space, v->winner);
        fprintf(f, ",\"direct_ms\":");
        num_json(f, v->winner_ms);
        fprintf(f, ",\"loss\":");
        num_json(f, v->chosen_ms / v->winner_ms);
        fprintf(f, ",\"journal\":");
        str_json(f, v->journal);
        fprintf(f, "}");
    }
    fprintf(f, "]}\n");
    return cutune_outfile_commit(o, NULL, err, errlen);
}
