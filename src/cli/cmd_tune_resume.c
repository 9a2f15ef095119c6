/* --resume in `cutune [tune]`: a resumed run continues exactly as it was started. The
 * journal's header restores the seed, budget, batch, parallel, searcher and evaluator and
 * the space mode, and what the command line gives beside it must agree; once the target is
 * loaded, its spec, space and file must be the journal's too. Each refusal names the
 * journal and the difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "tune_internal.h"

/* Is evaluator ename with argument eargs (its default filled in) the one a journal was
 * started with (name, then argument: equal strings, or paths to the same file)? */
static int same_evaluator(const char *ename, const char *eargs, const char *name, const char *arg)
{
    if (strcmp(ename, name) != 0)
        return 0;
    if (!eargs)
        eargs = "";
    if (!arg)
        arg = "";
    return strcmp(eargs, arg) == 0 || (*eargs && *arg && cutune_path_same(eargs, arg));
}

/* Do NAME:ARGS a and b name one searcher with one setting? The same text, or the same
 * options once the type resolves them for the budget (pop=8,cx=0.5 and cx=0.50,pop=8). */
static int same_searcher(const char *a, const char *b, size_t budget)
{
    if (strcmp(a, b) == 0)
        return 1;
    size_t na = strcspn(a, ":"), nb = strcspn(b, ":");
    if (na != nb || strncmp(a, b, na) != 0 || na >= 64)
        return 0;
    char name[64];
    memcpy(name, a, na);
    name[na] = '\0';
    const cutune_searcher_type *t = cutune_searcher_find(name, NULL, 0);
    static char ra[4096], rb[4096];
    return t &&
           cutune_searcher_resolve_options(t, a[na] ? a + na + 1 : "", budget, ra, sizeof ra, NULL,
                                           0) == 0 &&
           cutune_searcher_resolve_options(t, b[nb] ? b + nb + 1 : "", budget, rb, sizeof rb, NULL,
                                           0) == 0 &&
           strcmp(ra, rb) == 0;
}

int cli_tune_resume_restore(cli_tune_options *o, int mpi_rank, cli_tune_resume *r, char *err,
                            size_t errlen)
{
    static char resume_evaluator[4200];
    const char *resume_path = o->resume;
    cutune_recording *resume;
    int rc;
    if (!resume_path)
        return 0;
    /* one writer per journal: a run holding it refuses the resume before anything
     * (rank 0's: the other ranks only read what to evaluate with) */
    rc = mpi_rank ? 0 : cutune_journal_check_free(resume_path, err, errlen);
    if (rc < 0)
        return rc;
    rc = cutune_recording_load(resume_path, &r->journal, err, errlen);
    if (rc < 0) {
        char why[1024];
        if (cli_not_a_journal("resume", resume_path, why, sizeof why) < 0)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "--resume=%s", why);
        return rc;
    }
    resume = r->journal;
    if (!resume->format || strcmp(resume->format, "cutune_journal") != 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--resume=%s: not a cutune journal",
                          resume_path);
    if (cutune_journal_is_compressed(resume_path))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--resume=%s: a gzip-compressed journal cannot be appended to "
                          "(gunzip it, then resume from the plain file)",
                          resume_path);
    /* the space mode: restored like the seed; the other one given is refused */
    if (resume->cartesian == 0 && o->so.cartesian)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the run was started without --cartesian (a resumed run "
                          "continues as it was started)",
                          resume_path);
    if (resume->cartesian == 1)
        o->so.cartesian = 1;
    /* A resumed run continues exactly as it was started: the same seed,
     * budget, searcher (with its arguments) and evaluator, since any of
     * them changes what the searcher proposes or what is measured, and the
     * journal's header must keep describing every line under it. */
    static char started_searcher[512];
    char given[512];
    /* "NAME:" (empty arguments, recorded as "") is NAME, on either side */
    int sa = resume->searcher_args && *resume->searcher_args;
    snprintf(started_searcher, sizeof started_searcher, "%s%s%s",
             resume->searcher ? resume->searcher : "", sa ? ":" : "",
             sa ? resume->searcher_args : "");
    snprintf(given, sizeof given, "%s", o->searcher ? o->searcher : "");
    size_t glen = strlen(given);
    if (glen && given[glen - 1] == ':') /* "bo:" is "bo" with no arguments */
        given[glen - 1] = '\0';
    /* --batch and --parallel compared as the tuner made them of the run's options:
     * parallel raised to the batch, both capped at the budget (the header records what the
     * run ran with) */
    size_t cap = resume->budget ? resume->budget : (size_t)-1;
    size_t eb = o->batch < cap ? o->batch : cap;
    size_t b_for_p = o->have_batch ? o->batch : resume->batch;
    size_t ep = o->parallel > b_for_p ? o->parallel : b_for_p;
    ep = ep < cap ? ep : cap;
    if (o->have_seed && o->seed != resume->seed)
        rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                        "--resume=%s: --seed=%lu differs from the journal's seed %lu "
                        "(a resumed run continues as it was started)",
                        resume_path, o->seed, resume->seed);
    else if (o->have_budget && resume->budget && o->budget < resume->budget)
        rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                        "--resume=%s: --budget=%lu is below the journal's budget %zu (a "
                        "resumed run continues as it was started, or is extended)",
                        resume_path, o->budget, resume->budget);
    else if (!o->target && !resume->target)
        rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                        "--resume=%s: the journal does not record its kernel or recording: "
                        "give it",
                        resume_path);
    else if (o->have_batch && resume->batch && eb != resume->batch)
        rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                        "--resume=%s: --batch=%lu differs from the journal's batch %zu "
                        "(a resumed run continues as it was started)",
                        resume_path, o->batch, resume->batch);
    else if (o->parallel && resume->parallel && ep != resume->parallel)
        rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                        "--resume=%s: --parallel=%lu differs from the journal's parallel %zu "
                        "(a resumed run continues as it was started)",
                        resume_path, o->parallel, resume->parallel);
    else if (o->searcher && !same_searcher(given, started_searcher, resume->budget))
        rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                        "--resume=%s: --searcher=%s differs from the journal's searcher %s",
                        resume_path, given, started_searcher);
    if (rc < 0)
        return rc;
    if (o->journal && strcmp(o->journal, resume_path) != 0)
        r->journal_conflict = o->journal;
    if (resume->seed == 0 || resume->seed > 4294967295UL) /* --seed's range, and why */
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s:1: header.seed: %lu is not 1..4294967295 (the generator takes "
                          "32-bit seeds and treats 0 as 4357: the run it names cannot be "
                          "continued)",
                          resume_path, resume->seed);
    o->seed = resume->seed;
    if (!o->target)
        o->target = resume->target;
    /* a run extended past its budget (--resume --budget=N) holds more evaluations than its
     * header's budget: resumed, it goes on to what it holds at least, never dropping any */
    size_t held = resume->nrecords;
    if (resume->budget && held > resume->budget && o->have_budget && o->budget < held)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--resume=%s: --budget=%lu is below the %zu evaluations the journal "
                          "holds (its run was extended past its budget %zu): --budget=%zu or "
                          "more continues it",
                          resume_path, o->budget, held, resume->budget, held);
    /* With batches, the extension's own budget decides the rounds' sizes as the run made
     * them; the journal does not record it, and a guess (what it holds) would replay the
     * rounds otherwise and leave an evaluation out of the journal */
    if (resume->budget && held > resume->budget && !o->have_budget && resume->batch > 1)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--resume=%s: its run was extended past its budget %zu (it holds %zu "
                          "evaluations) with --batch=%zu, and the journal does not record the "
                          "budget it was extended to: give that --budget again",
                          resume_path, resume->budget, held, resume->batch);
    if (resume->budget && held > resume->budget && !o->have_budget) {
        o->budget = held;
        o->have_budget = 1;
    }
    if (resume->budget && o->have_budget && o->budget > resume->budget) {
        /* the searcher keeps the plan it was started with and goes on past it */
        r->searcher_budget = resume->budget;
    } else if (resume->budget) {
        o->budget = resume->budget;
    }
    if (resume->parallel)
        o->parallel = resume->parallel;
    else if (!o->parallel) /* a journal from before "parallel": one in flight per round */
        o->parallel = resume->batch ? resume->batch : o->batch;
    if (resume->batch)
        o->batch = resume->batch;
    else /* a journal from before the header had "batch" */
        fprintf(stderr,
                "%s: %s does not record its batch size; resuming with --batch=%lu (give "
                "the batch it was started with, or the run will propose differently)\n",
                cli_progname, resume_path, o->batch);
    if (resume->searcher) /* as the header names it (the same options given otherwise) */
        o->searcher = started_searcher;
    r->user_evaluator = o->evaluator; /* compared once its default argument is known */
    if (!o->evaluator && resume->evaluator) {
        snprintf(resume_evaluator, sizeof resume_evaluator, "%s%s%s", resume->evaluator,
                 resume->evaluator_arg ? ":" : "",
                 resume->evaluator_arg ? resume->evaluator_arg : "");
        o->evaluator = resume_evaluator;
    }
    /* the warm start: restored like the searcher; another one given is refused. One taken
     * from the database (--warm-start=auto) is named "database: GPU, sizes ..." in the
     * header: it is built again from the database, and its prior hash checked */
    int from_db = resume->warm_start && strncmp(resume->warm_start, "database: ", 10) == 0;
    if (from_db && o->warm_start && strcmp(o->warm_start, "auto") != 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: --warm-start=%s differs from the journal's warm start, "
                          "--warm-start=auto (%s)",
                          resume_path, o->warm_start, resume->warm_start);
    if (!from_db && resume->warm_start && o->warm_start && strcmp(o->warm_start, "none") != 0 &&
        !cli_warm_start_same(o->warm_start, resume->warm_start))
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: --warm-start=%s differs from the journal's warm start %s "
                          "(a resumed run continues as it was started)",
                          resume_path, o->warm_start, resume->warm_start);
    if (resume->warm_start && o->warm_start && strcmp(o->warm_start, "none") == 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the run was started with --warm-start=%s: "
                          "--warm-start=none is not allowed",
                          resume_path, resume->warm_start);
    /* a prior pooled from several shapes' journals (--sizes --shape-warm=all) has no one
     * file to rebuild it from here: resumed cold, the run would go on differently */
    if (!o->sizes && !resume->warm_start && resume->warm_start_hash)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the run was warm-started from several shapes' journals "
                          "(--sizes --shape-warm=all): resume the whole run with "
                          "--resume=PREFIX --sizes=LIST",
                          resume_path);
    if (resume->warm_start)
        o->warm_start = from_db ? "auto" : resume->warm_start;
    o->journal = resume_path;
    return 0;
}

int cli_tune_resume_check_target(const cli_tune_options *o, const cli_tune_resume *r,
                                 const cli_target *t, char *err, size_t errlen)
{
    const char *resume_path = o->resume;
    const cutune_recording *resume = r->journal;
    if (!resume)
        return 0;
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)cutune_space_hash(t->space));
    if (t->spec && resume->spec_hash && strcmp(resume->spec_hash, t->spec->hash) != 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the journal is from another spec (%s, hash %s; this run "
                          "%s, hash %s)",
                          resume_path, resume->spec_name ? resume->spec_name : "?",
                          resume->spec_hash, t->spec->name, t->spec->hash);
    if (resume->space_hash && strcmp(resume->space_hash, hash) != 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the journal's space differs from this run's (space hash "
                          "%s, this run %s): its parameters, restrictions (with every --restrict "
                          "it was started with) and sizes (--size) must be the same",
                          resume_path, resume->space_hash, hash);
    /* the recording the run was started on (another GPU's recording of the same
     * space would pass the hashes; journals from before "target" are not checked) */
    if (t->rec && resume->target && !cutune_path_same(t->path, resume->target))
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the run was started on %s, not %s (a resumed run "
                          "continues as it was started)",
                          resume_path, resume->target, t->path);
    if (r->journal_conflict)
        return cutune_err(
            err, errlen, CUTUNE_EINVAL,
            "--resume=%s appends to that journal: --journal=%s is not allowed with it", resume_path,
            r->journal_conflict);
    return 0;
}

int cli_tune_resume_check_evaluator(const cli_tune_options *o, const cli_tune_resume *r,
                                    const char *ename, const char *eargs, char *err, size_t errlen)
{
    const char *resume_path = o->resume;
    const cutune_recording *resume = r->journal;
    if (resume && r->user_evaluator && resume->evaluator &&
        !same_evaluator(ename, eargs, resume->evaluator, resume->evaluator_arg))
        return cutune_err(
            err, errlen, CUTUNE_EMISMATCH,
            "--resume=%s: --evaluator=%s differs from the journal's evaluator %s%s%s (a "
            "resumed run continues as it was started)",
            resume_path, r->user_evaluator, resume->evaluator, resume->evaluator_arg ? ":" : "",
            resume->evaluator_arg ? resume->evaluator_arg : "");
    return 0;
}

int cli_tune_resume_check_space(const cli_tune_options *o, const cli_tune_resume *r,
                                const cli_target *t, char *err, size_t errlen)
{
    const char *resume_path = o->resume;
    const cutune_recording *resume = r->journal;
    if (resume && resume->valid && resume->valid != cutune_space_size(t->space))
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the journal's space held %zu configurations, this run's "
                          "holds %zu (the same --restrict, --size and --cartesian are needed)",
                          resume_path, resume->valid, cutune_space_size(t->space));
    return 0;
}

/* Do the canonical texts a[0..n) and b[0..n) hold the same constraints, in any order? */
static int same_constraints(const cutune_objective *a, const cutune_objective *b)
{
    size_t n = cutune_objective_nconstraints(a);
    unsigned char used[64] = {0};
    if (n != cutune_objective_nconstraints(b) || n > sizeof used)
        return 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < n && (used[j] || strcmp(cutune_objective_constraint_canonical(a, i),
                                           cutune_objective_constraint_canonical(b, j)) != 0))
            j++;
        if (j == n)
            return 0;
        used[j] = 1;
    }
    return 1;
}

int cli_tune_check_objective(const cutune_recording *journal, const cutune_objective *obj,
                             const cutune_space *space, const cutune_spec *spec, char *err,
                             size_t errlen)
{
    /* The journal's objective and constraints are parsed as this run's are, and compared
     * in canonical form: "registers<=64" and "registers <= 64", energy and energy_j, a
     * journal from before the header held canonical constraints (its text as given) */
    const char *had = journal->objective ? journal->objective : "time";
    char had_text[1100];
    snprintf(had_text, sizeof had_text, "%s%s", had, journal->objective_max ? ":max" : "");
    const char *had_cons[64];
    char *cons_copy = journal->subject_to ? strdup(journal->subject_to) : NULL;
    size_t ncons = 0;
    for (char *c = cons_copy, *nl; c && ncons < 64; c = nl ? nl + 1 : NULL) {
        if ((nl = strchr(c, '\n')))
            *nl = '\0';
        had_cons[ncons++] = c;
    }
    cutune_objective *was = NULL;
    char e2[512];
    int multi = 0;
    if (cutune_objective_alloc(had_text, had_cons, ncons, space, spec, &was, e2, sizeof e2) < 0)
        multi = cutune_objective_multi_alloc(had_text, had_cons, ncons, space, spec, &was, e2,
                                             sizeof e2) == 0;
    int same = was && !strcmp(cutune_objective_canonical(was), cutune_objective_canonical(obj)) &&
               same_constraints(was, obj);
    cutune_objective_free(was);
    if (same) {
        free(cons_copy);
        return 0;
    }
    /* one line: each constraint as --subject-to 'TEXT' */
    char said[4096] = "";
    size_t n = 0;
    for (size_t i = 0; i < ncons; i++)
        n += (size_t)snprintf(said + n, n < sizeof said ? sizeof said - n : 0, " --subject-to '%s'",
                              had_cons[i]);
    int rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                        "--resume=%s: the run was started with --objective%s=%s%s; give the "
                        "same %s and --subject-to again (they are not restored)",
                        journal->path, multi ? "s" : "", had_text, said,
                        multi ? "objectives" : "objective");
    free(cons_copy);
    return rc;
}

void cli_tune_say_dropped_tail(const cutune_recording *resume)
{
    if (resume && resume->truncated_tail) /* never a silent cut */
        fprintf(stderr,
                "%s: %s: its last line ends without a newline (cut off mid-write): it is "
                "dropped, and what it held is evaluated again\n",
                cli_progname, resume->path);
}
