/* Tests of cutune_outfile (src/common/outfile.c), each written as the attack it stops:
 * links planted at the temporary or the final path, a colliding FILE.tmp, special files,
 * a file that appears under a no-replace commit; and cutune_path_same's spellings.
 * getrandom is wrapped (-Wl,--wrap=getrandom) so that a test can know the temporary's
 * name in advance, as an attacker who guessed it would. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>

#include <cmocka.h>

#include "cutune/cutune.h"
#include "io_test_util.h"

/* How many calls to answer with fixed bytes (0: the real getrandom). */
static int fixed_calls;

ssize_t __real_getrandom(void *buf, size_t len, unsigned flags);
ssize_t __wrap_getrandom(void *buf, size_t len, unsigned flags)
{
    if (fixed_calls > 0) {
        fixed_calls--;
        memset(buf, 0, len); /* suffix "aaaaaaaaaa" */
        return (ssize_t)len;
    }
    return __real_getrandom(buf, len, flags);
}

typedef struct fixture {
    char *dir;
    char path[4096];   /* the output: DIR/out.json */
    char victim[4096]; /* a file an attacker wants overwritten: DIR/victim */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f || !(f->dir = make_tmpdir())) {
        free(f);
        return -1;
    }
    path_in(f->path, sizeof f->path, f->dir, "out.json");
    path_in(f->victim, sizeof f->victim, f->dir, "victim");
    write_text(f->victim, "precious\n");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rm_tree(f->dir);
    free(f->dir);
    free(f);
    return 0;
}

static void assert_victim_intact(const fixture *f)
{
    char *text = read_text(f->victim, NULL);
    assert_non_null(text);
    assert_string_equal(text, "precious\n");
    free(text);
}

/* text to path as every writer of cutune does */
static int write_out(const char *path, const char *text, char *err, size_t errlen)
{
    cutune_outfile *o = NULL;
    int rc = cutune_outfile_open(path, 0, 0644, &o, err, errlen);
    if (rc < 0)
        return rc;
    fputs(text, cutune_outfile_stream(o));
    return cutune_outfile_commit(o, NULL, err, errlen);
}

/* out.json -> victim: the write is refused, neither the link nor the victim changes. */
static void test_link_at_final_path(void **state)
{
    fixture *f = *state;
    char err[512] = "", link_to[4096] = "";
    assert_int_equal(symlink(f->victim, f->path), 0);
    assert_int_equal(write_out(f->path, "attacker's\n", err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "out.json: is a symbolic link"));
    assert_victim_intact(f);
    assert_true(readlink(f->path, link_to, sizeof link_to - 1) > 0);
    assert_string_equal(link_to, f->victim);
    assert_int_equal(count_hidden(f->dir), 0);
    /* a link that appears after the open, before the commit: refused just the same */
    unlink(f->path);
    cutune_outfile *o = NULL;
    assert_int_equal(cutune_outfile_open(f->path, 0, 0644, &o, err, sizeof err), 0);
    assert_int_equal(symlink(f->victim, f->path), 0);
    fputs("attacker's\n", cutune_outfile_stream(o));
    assert_int_equal(cutune_outfile_commit(o, NULL, err, sizeof err), CUTUNE_EINVAL);
    assert_victim_intact(f);
    assert_int_equal(count_hidden(f->dir), 0);
}

/* The old fixed name out.json.tmp and the exact name the next temporary will have, both
 * planted as links to the victim: the write goes to a fresh name, the victim and the links
 * stay as they were. */
static void test_link_at_temporary(void **state)
{
    fixture *f = *state;
    char err[512] = "", old_tmp[4200], guessed[4200];
    snprintf(old_tmp, sizeof old_tmp, "%s.tmp", f->path);
    snprintf(guessed, sizeof guessed, "%s/.out.json.aaaaaaaaaa", f->dir);
    assert_int_equal(symlink(f->victim, old_tmp), 0);
    assert_int_equal(symlink(f->victim, guessed), 0);
    fixed_calls = 1; /* the first name tried is the guessed one */
    assert_int_equal(write_out(f->path, "{\"ok\": 1}\n", err, sizeof err), 0);
    assert_int_equal(fixed_calls, 0);
    assert_victim_intact(f);
    char *text = read_text(f->path, NULL);
    assert_string_equal(text, "{\"ok\": 1}\n");
    free(text);
    struct stat st;
    assert_int_equal(lstat(old_tmp, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(lstat(guessed, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(count_hidden(f->dir), 1); /* the planted link, nothing of ours */
}

/* A file of the user's named like the old temporary survives a write of its neighbour. */
static void test_colliding_tmp_survives(void **state)
{
    fixture *f = *state;
    char err[512] = "", tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", f->path);
    write_text(tmp, "the user's own file\n");
    assert_int_equal(write_out(f->path, "new\n", err, sizeof err), 0);
    char *text = read_text(tmp, NULL);
    assert_string_equal(text, "the user's own file\n");
    free(text);
    text = read_text(f->path, NULL);
    assert_string_equal(text, "new\n");
    free(text);
}

/* A directory, a pipe, and a path ending in '/' are never replaced. */
static void test_special_files_refused(void **state)
{
    fixture *f = *state;
    char err[512] = "", p[4200];
    path_in(p, sizeof p, f->dir, "fifo");
    assert_int_equal(mkfifo(p, 0600), 0);
    assert_int_equal(write_out(p, "x", err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "fifo: is not a regular file"));
    path_in(p, sizeof p, f->dir, "sub");
    assert_int_equal(mkdir(p, 0700), 0);
    assert_int_equal(write_out(p, "x", err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "is a directory"));
    snprintf(p, sizeof p, "%s/sub/", f->dir);
    assert_int_equal(write_out(p, "x", err, sizeof err), CUTUNE_EINVAL);
    path_in(p, sizeof p, f->dir, "sub");
    rmdir(p);
    assert_int_equal(count_hidden(f->dir), 0);
}

/* Replacing keeps the old file's permissions; an aborted write leaves the old file. */
static void test_replace_keeps_mode_and_abort_keeps_file(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    struct stat st;
    write_text(f->path, "old\n");
    assert_int_equal(chmod(f->path, 0600), 0);
    assert_int_equal(write_out(f->path, "new\n", err, sizeof err), 0);
    assert_int_equal(stat(f->path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    cutune_outfile *o = NULL;
    assert_int_equal(cutune_outfile_open(f->path, 0, 0644, &o, err, sizeof err), 0);
    fputs("half a file", cutune_outfile_stream(o));
    cutune_outfile_abort(o);
    cutune_outfile_abort(NULL);
    char *text = read_text(f->path, NULL);
    assert_string_equal(text, "new\n");
    free(text);
    assert_int_equal(count_hidden(f->dir), 0);
}

/* No-replace: refused at open where something exists, and at commit where something
 * appeared since (the journal's rule: a run never takes another's file). */
static void test_noreplace(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_outfile *o = NULL;
    int fd = -1;
    assert_int_equal(
        cutune_outfile_open(f->victim, CUTUNE_OUTFILE_NOREPLACE, 0644, &o, err, sizeof err),
        CUTUNE_EBUSY);
    assert_null(o);
    assert_int_equal(
        cutune_outfile_open(f->path, CUTUNE_OUTFILE_NOREPLACE, 0644, &o, err, sizeof err), 0);
    assert_int_equal(write(cutune_outfile_fd(o), "mine\n", 5), 5);
    write_text(f->path, "theirs\n");
    assert_int_equal(cutune_outfile_commit(o, &fd, err, sizeof err), CUTUNE_EBUSY);
    assert_int_equal(fd, -1);
    char *text = read_text(f->path, NULL);
    assert_string_equal(text, "theirs\n");
    free(text);
    unlink(f->path);
    /* and when nothing is there: put in place, the descriptor kept open for writing */
    assert_int_equal(
        cutune_outfile_open(f->path, CUTUNE_OUTFILE_NOREPLACE, 0644, &o, err, sizeof err), 0);
    assert_int_equal(write(cutune_outfile_fd(o), "one\n", 4), 4);
    assert_int_equal(cutune_outfile_commit(o, &fd, err, sizeof err), 0);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "two\n", 4), 4);
    close(fd);
    text = read_text(f->path, NULL);
    assert_string_equal(text, "one\ntwo\n");
    free(text);
    assert_int_equal(count_hidden(f->dir), 0);
}

/* What a fatal signal's handler removes: the temporaries still open, not a committed
 * file, nor one committed or aborted before (its slot free again for the next). */
static void test_remove_temporaries(void **state)
{
    fixture *f = *state;
    char err[512] = "", done[4096];
    cutune_outfile *a = NULL, *b = NULL;
    path_in(done, sizeof done, f->dir, "done.json");
    assert_int_equal(write_out(done, "whole\n", err, sizeof err), 0);
    write_text(f->path, "old\n");
    assert_int_equal(cutune_outfile_open(f->path, 0, 0644, &a, err, sizeof err), 0);
    assert_int_equal(cutune_outfile_open(f->path, 0, 0644, &b, err, sizeof err), 0);
    fputs("half a file", cutune_outfile_stream(a));
    assert_int_equal(count_hidden(f->dir), 2);
    cutune_outfile_remove_temporaries();
    assert_int_equal(count_hidden(f->dir), 0);
    char *text = read_text(f->path, NULL);
    assert_string_equal(text, "old\n");
    free(text);
    text = read_text(done, NULL);
    assert_string_equal(text, "whole\n");
    free(text);
    cutune_outfile_abort(a);
    cutune_outfile_abort(b);
    for (int i = 0; i < 100; i++) /* more than the slots, each freed by its commit */
        assert_int_equal(write_out(f->path, "new\n", err, sizeof err), 0);
    assert_int_equal(cutune_outfile_open(f->path, 0, 0644, &a, err, sizeof err), 0);
    cutune_outfile_remove_temporaries();
    assert_int_equal(count_hidden(f->dir), 0);
    cutune_outfile_abort(a);
}

/* Two spellings of one file are one file; a missing file compares by its real folder. */
static void test_path_same(void **state)
{
    fixture *f = *state;
    char a[4200], b[4200], sub[4200], lnk[4200];
    path_in(sub, sizeof sub, f->dir, "sub");
    assert_int_equal(mkdir(sub, 0700), 0);
    path_in(lnk, sizeof lnk, f->dir, "lnk");
    assert_int_equal(symlink(sub, lnk), 0);
    snprintf(a, sizeof a, "%s/sub/x.json", f->dir);
    snprintf(b, sizeof b, "%s/sub/../sub/./x.json", f->dir);
    assert_true(cutune_path_same(a, b)); /* neither exists */
    snprintf(b, sizeof b, "%s/lnk/x.json", f->dir);
    assert_true(cutune_path_same(a, b)); /* through a linked folder */
    snprintf(b, sizeof b, "%s/sub/x.json.tmp", f->dir);
    assert_false(cutune_path_same(a, b));
    path_in(b, sizeof b, f->dir, "hard");
    assert_int_equal(link(f->victim, b), 0);
    assert_true(cutune_path_same(f->victim, b)); /* a hard link: one inode */
    unlink(b);
    assert_false(cutune_path_same(a, NULL));
    unlink(lnk);
    rmdir(sub);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_link_at_final_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_link_at_temporary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_colliding_tmp_survives, setup, teardown),
        cmocka_unit_test_setup_teardown(test_special_files_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace_keeps_mode_and_abort_keeps_file, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_noreplace, setup, teardown),
        cmocka_unit_test_setup_teardown(test_path_same, setup, teardown),
        cmocka_unit_test_setup_teardown(test_remove_temporaries, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
