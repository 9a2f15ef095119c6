/* Helpers shared by the subcommands: what the positional argument names (a
 * kernel spec or a recording used as the space) and option parsing. */
#ifndef CUTUNE_CLI_OPTIONS_H
#define CUTUNE_CLI_OPTIONS_H

#include "cutune/cutune.h"

#define CLI_MAX_LIST 64

/** The thing being tuned: a kernel spec, or a recording that is its own space. */
typedef struct cli_target {
    cutune_spec *spec;     /**< kernel spec, or NULL */
    cutune_recording *rec; /**< recording used as the space, or NULL */
    cutune_space *space;   /**< spec->space, or a space built from rec (owned then) */
    char path[4096];       /**< the resolved file */
    void *recorded;        /**< the recorded set a replayed spec's space is filtered by
                                (cli_restrict_to_recording), or NULL */
} cli_target;

typedef struct cli_space_opts {
    cutune_size_override sizes[CLI_MAX_LIST];
    size_t nsizes;
    const char *restrict_exprs[CLI_MAX_LIST];
    size_t nrestrict;
    int cartesian; /**< recording: the full product, not the recorded set */
} cli_space_opts;

/** 1 when path is a recording (gzip, journal, or JSON holding "tune_params"). */
int cli_is_recording(const char *path);
struct option;
/** getopt_long that takes long options only as spelled out in full: a prefix getopt_long
 *  would expand is refused with a message naming the option meant ('?'). */
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);
/** Is path (plain or gzip) a Kernel Tuner cache (not a cutune journal)? */
int cli_is_kt_cache(const char *path);
/** Say on stderr, one line, that r was read short of its end (truncated_tail): a journal's
 *  cut-off last line left out, an unterminated Kernel Tuner cache closed after its last
 *  whole entry. Nothing when it was read whole (or r is NULL). */
void cli_say_truncated_tail(const struct cutune_recording *r);
/** Load path as a recording for what `as` says ("--warm-start=", "db import: "), which
 *  starts every error: a kernel spec given as one is called so, any other file that does
 *  not load keeps the loader's reason ("--warm-start=F: cannot open: ..."). */
int cli_recording_load_for(const char *as, const char *path, struct cutune_recording **out,
                           char *err, size_t errlen);
/** For a file that did not load as a journal where cmd ("report", "profile") reads one:
 *  a kernel spec or a Kernel Tuner cache is called so, with the run that makes a journal
 *  of it, in err (CUTUNE_EINVAL); 0 for any other file (the journal loader's reason
 *  stands). */
int cli_not_a_journal(const char *cmd, const char *path, char *err, size_t errlen);
/** CUTUNE_EINVAL, with "PATH: a kernel spec, not a recording ...", where path is a kernel
 *  spec (a native or T1 file) and not a recording; else 0. */
int cli_spec_not_recording(const char *path, char *err, size_t errlen);
int cli_target_load(const char *arg, const cli_space_opts *o, cli_target *t, char *err,
                    size_t errlen);
void cli_target_free(cli_target *t);

/** Refuses (CUTUNE_EINVAL, exit 2) an output path out, given as option opt, that names the
 *  tuning database db (NULL or "": none) or an input of t: its file, and a spec's kernel
 *  source and recordings. Writing there would destroy what the command reads. */
int cli_refuse_onto_input(const char *opt, const char *out, const cli_target *t, const char *db,
                          char *err, size_t errlen);

/** Restrict a kernel's space to the configurations a recording holds (re-enumerates). */
int cli_restrict_to_recording(cli_target *t, const char *recording, char *err, size_t errlen);

/** The recording a spec replays without a GPU at its sizes (as loaded, after --size): with
 *  "recordings", the one (of those and "recording") whose header sizes are the spec's, else
 *  CUTUNE_ENOTFOUND with a message naming the sizes; without, "recording" (or NULL). */
int cli_spec_recording(const cutune_spec *spec, const char **out, char *err, size_t errlen);

/** Parse NAME=VALUE into a size override (value int or real). */
int cli_parse_size(const char *text, cutune_size_override *out, char *err, size_t errlen);
/** Parse a non-negative integer; 0 on success. */
int cli_parse_ulong(const char *opt, const char *text, unsigned long *out, char *err,
                    size_t errlen);
int cli_parse_double(const char *opt, const char *text, double *out, char *err, size_t errlen);
/* A configuration as its NAME=VALUE text and a newline (never cut). */
void cli_print_config(FILE *f, const cutune_space *s, size_t id);

#endif
