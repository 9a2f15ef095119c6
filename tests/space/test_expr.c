/* Unit tests of the expression language (src/space/expr_parse.c, expr_eval.c). */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune/expr.h"

/* slots: a=7, b=-3, s="abc", r=2.5, z=0 */
static const char *const names[] = {"a", "b", "s", "r", "z"};
static const cutune_symtab syms = {names, 5};
static cutune_value vars[5];

static int setup(void **state)
{
    vars[0] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = 7};
    vars[1] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = -3};
    vars[2] = (cutune_value){.type = CUTUNE_VALUE_STRING, .s = "abc"};
    vars[3] = (cutune_value){.type = CUTUNE_VALUE_REAL, .r = 2.5};
    vars[4] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = 0};
    return 0;
}

static char err[512];

/* Parse and evaluate; returns the status of whichever step failed. */
static int eval(const char *text, cutune_value *out)
{
    cutune_expr *e = NULL;
    err[0] = '\0';
    int rc = cutune_expr_parse(text, &syms, &e, err, sizeof err);
    if (rc) {
        assert_null(e);
        return rc;
    }
    rc = cutune_expr_eval(e, vars, out, err, sizeof err);
    cutune_expr_free(e);
    return rc;
}

static void check_int(const char *text, long long want)
{
    cutune_value v;
    int rc = eval(text, &v);
    if (rc)
        fail_msg("'%s': %d %s", text, rc, err);
    if (v.type != CUTUNE_VALUE_INT || v.i != want)
        fail_msg("'%s': got type %d i=%lld r=%g, want INT %lld", text, v.type, v.i, v.r, want);
}

static void check_real(const char *text, double want)
{
    cutune_value v;
    int rc = eval(text, &v);
    if (rc)
        fail_msg("'%s': %d %s", text, rc, err);
    if (v.type != CUTUNE_VALUE_REAL || fabs(v.r - want) > 1e-12 * (1 + fabs(want)))
        fail_msg("'%s': got type %d i=%lld r=%.17g, want REAL %.17g", text, v.type, v.i, v.r, want);
}

/* Expect failure rc with every fragment in the message. */
static void check_error(const char *text, int want_rc, const char *frag1, const char *frag2)
{
    cutune_value v;
    int rc = eval(text, &v);
    if (rc != want_rc)
        fail_msg("'%s': rc %d, want %d (%s)", text, rc, want_rc, err);
    if (frag1 && !strstr(err, frag1))
        fail_msg("'%s': message '%s' lacks '%s'", text, err, frag1);
    if (frag2 && !strstr(err, frag2))
        fail_msg("'%s': message '%s' lacks '%s'", text, err, frag2);
}

static void test_literals(void **state)
{
    check_int("42", 42);
    check_int("0x20", 32);
    check_int("0XfF", 255);
    check_real("1.5", 1.5);
    check_real("1e-3", 1e-3);
    check_real(".5", 0.5);
    check_real("2.", 2.0);
    check_real("1E+2", 100.0);
    check_int("true", 1);
    check_int("false", 0);
    check_int("True", 1);
    check_int("False", 0);
    check_int("  7\t", 7);
    /* a STRING result points into the expression: check it before the free */
    static const char *const lits[][2] = {
        {"\"str\"", "str"}, {"'it\\'s'", "it's"}, {"\"a\\\"b\\n\"", "a\"b\n"}, {"''", ""}};
    for (size_t k = 0; k < sizeof lits / sizeof lits[0]; k++) {
        cutune_expr *e = NULL;
        cutune_value v;
        assert_int_equal(cutune_expr_parse(lits[k][0], &syms, &e, err, sizeof err), 0);
        assert_int_equal(cutune_expr_eval(e, vars, &v, err, sizeof err), 0);
        assert_int_equal(v.type, CUTUNE_VALUE_STRING);
        assert_string_equal(v.s, lits[k][1]);
        cutune_expr_free(e);
    }
    check_int("9223372036854775807", 9223372036854775807LL);
}

static void test_variables(void **state)
{
    check_int("a", 7);
    check_int("b", -3);
    check_real("r", 2.5);
    check_int("a * b", -21);
    check_real("a * r", 17.5);
}

static void test_precedence(void **state)
{
    check_int("1 + 2 * 3", 7);
    check_int("(1 + 2) * 3", 9);
    check_int("2 * 3 % 4", 2);
    check_int("-2 * 3", -6);
    check_int("- -2", 2);
    check_int("+3", 3);
    check_int("!0 + 1", 2);
    check_int("!a", 0);
    check_int("(1 < 2) == 1", 1);
    check_int("2 == 1 + 1", 1);
    check_int("1 + 1 < 3", 1);
    check_int("1 || 0 && 0", 1);
    check_int("0 && 1 || 1", 1);
    check_int("a > 5 && b < 0", 1);
    check_int("1 ? 2 : 3 + 4", 2);
    check_int("0 ? 2 : 3 + 4", 7);
    check_int("a in (7) && 1", 1);
    check_int("a + 1 in (8, 9)", 1);
    check_int("(a in (7)) == 1", 1);
}

static void test_associativity(void **state)
{
    check_int("10 - 3 - 2", 5);
    check_int("100 / 10 / 5", 2);
    check_int("2 - 3 + 4", 3);
    check_int("17 % 5 % 3", 2);
    check_int("2 * 3 / 4", 1);
    check_int("1 ? 2 : 0 ? 3 : 4", 2);
    check_int("0 ? 2 : 0 ? 3 : 4", 4);
    check_int("0 ? 2 : 1 ? 3 : 4", 3);
    check_int("1 ? 0 ? 5 : 6 : 7", 6);
    check_int("3 > 2 > 1", 1);   /* 3 > 2 and 2 > 1, as in Python */
    check_int("(3 > 2) > 1", 0); /* C's reading, spelled out */
}

static void test_division(void **state)
{
    check_int("7 / 2", 3);
    check_int("-7 / 2", -3);
    check_int("7 / -2", -3);
    check_int("7 % 3", 1);
    check_int("-7 % 3", -1);
    check_int("7 % -3", 1);
    check_int("a / b", -2);
    check_int("a % b", 1);
    check_real("7.0 / 2", 3.5);
    check_real("7 / 2.0", 3.5);
    check_real("a / r", 2.8);
    check_real("7.5 % 2", 1.5);
    check_real("-7.5 % 2", -1.5);
    check_real("7 % 2.5", 2.0);
    check_int("(-9223372036854775807 - 1) % -1", 0);
    /* % is C's (sign of the dividend), not Python's: Python gives -7 % 3 == 2, 7 % -3 == -2 */
    check_int("-7 % 3 == 2", 0);
}

/* Python's floor division: toward minus infinity, where C's / truncates toward zero. */
static void test_floor_division(void **state)
{
    check_int("7 // 2", 3);
    check_int("-7 // 2", -4);
    check_int("7 // -2", -4);
    check_int("-7 // -2", 3);
    check_int("6 // -3", -2);
    check_int("-6 // 3", -2);
    check_int("0 // -5", 0);
    check_int("a // b", -3); /* 7 // -3: -2.33 floors to -3 */
    check_int("b // 2", -2);
    check_int("a / b", -2); /* C's / beside it */
    check_int("-7 / 2 == -7 // 2", 0);
    check_int("(-9223372036854775807 - 1) // 1", LLONG_MIN);
    check_int("(-9223372036854775807 - 1) // 2", LLONG_MIN / 2);
    check_int("9223372036854775807 // -1", -LLONG_MAX);
    /* a REAL operand gives a REAL, floored as Python floors it */
    check_real("7.5 // 2", 3.0);
    check_real("-7.5 // 2", -4.0);
    check_real("7 // 2.0", 3.0);
    check_real("7.0 // -2", -4.0);
    check_real("r // 1", 2.0);
    check_real("-0.5 // 1", -1.0);
    check_real("0.5 // -1", -1.0);
    check_real("1 // 0.1", 9.0); /* 0.1 is a little more than 1/10: Python says 9.0 too */
    /* same precedence as * / %, left to right */
    check_int("2 * 7 // 4", 3);
    check_int("7 // 2 * 2", 6);
    check_int("100 // 10 // 3", 3);
    check_int("1 + 7 // 2", 4);
    check_int("7 // 2 % 2", 1);
    check_int("a // 2 * 2 + a % 2 == a", 1);
    check_error("a // z", CUTUNE_EMATH, "division by zero", "column 3");
    check_error("1.0 // 0", CUTUNE_EMATH, "division by zero", "column 5");
    check_error("r // 0.0", CUTUNE_EMATH, "division by zero", NULL);
    check_error("(-9223372036854775807 - 1) // -1", CUTUNE_EMATH, "overflow", "column 28");
    check_error("s // 2", CUTUNE_EINVAL, "'//'", "column 3");
    check_error("7 // // 2", CUTUNE_EPARSE, "column 6", NULL);
    check_error("7 /// 2", CUTUNE_EPARSE, "column 5", NULL);
}

/* ** as in Python: right-associative, above unary minus on its left, below it on its right. */
static void test_power(void **state)
{
    check_int("2 ** 10", 1024);
    check_int("2**10", 1024);
    check_int("2 ** 3 ** 2", 512);
    check_int("(2 ** 3) ** 2", 64);
    check_int("-2 ** 2", -4);
    check_int("-2**2 == -4", 1);
    check_int("(-2) ** 2", 4);
    check_int("- -2 ** 2", 4);
    check_int("2 * 3 ** 2", 18);
    check_int("2 ** 2 * 3", 12);
    check_int("2 ** 3 // 3", 2);
    check_int("1 + 2 ** 2", 5);
    check_int("a ** 2", 49);
    check_int("b ** 3", -27);
    check_int("0 ** 0", 1);
    check_int("2 ** 62", 4611686018427387904LL);
    check_int("!0 ** 2", 1); /* ! is unary too: !(0 ** 2) */
    check_int("2 ** 2 ** 0", 2);
    check_real("2 ** -1", 0.5);
    check_real("2 ** -2 ** 2", 0.0625); /* 2 ** -(2 ** 2) */
    check_real("-2 ** -2", -0.25);
    check_real("r ** 2", 6.25);
    check_real("4 ** 0.5", 2.0);
    check_real("2.0 ** 3", 8.0);
    check_int("pow(2, 10) == 2 ** 10", 1);
    check_error("2 ** 64", CUTUNE_EMATH, "overflow", "column 3");
    check_error("0 ** -1", CUTUNE_EMATH, "negative power", NULL);
    check_error("(-8.0) ** 0.5", CUTUNE_EMATH, "domain", NULL);
    check_error("s ** 2", CUTUNE_EINVAL, "'**'", "column 3");
    check_error("2 ** * 3", CUTUNE_EPARSE, "column 6", NULL);
    check_error("2 **", CUTUNE_EPARSE, "column 5", "end of input");
}

static void test_ternary_and_in(void **state)
{
    check_int("a > 5 ? 10 : 20", 10);
    check_int("a < 5 ? 10 : 20", 20);
    check_real("z ? 1 : 0.5", 0.5);
    check_real("r ? r : 1", 2.5);
    check_int("a in (1, 7, 9)", 1);
    check_int("a in (1, 2)", 0);
    check_int("a in (1, 3 + 4)", 1);
    check_int("r in (2.5)", 1);
    check_int("a in (7.0)", 1);
    check_int("s in (\"x\", \"abc\")", 1);
    check_int("s in ('x', 'y')", 0);
    check_int("s in (1, 2)", 0);
    check_int("1 in (\"1\")", 0);
    check_int("s == \"abc\"", 1);
    check_int("s != \"abc\"", 0);
    check_int("s == 1", 0);
    check_int("s != 1", 1);
    check_int("!(a in (1, 2))", 1);
}

/* Python's and / or / not beside C's && / || / !; both pairs give 0 or 1. */
static void test_python_logic(void **state)
{
    check_int("1 and 1", 1);
    check_int("1 and 0", 0);
    check_int("0 or 1", 1);
    check_int("0 or 0", 0);
    check_int("3 and 5", 1); /* Python gives 5; only the truth counts in a restriction */
    check_int("0 or 2.5", 1);
    check_int("not 0", 1);
    check_int("not a", 0);
    check_int("not not a", 1);
    check_int("not r", 0);
    check_int("a > 5 and b < 0", 1);
    check_int("a > 5 and not b < 0", 0);
    check_int("a > 5 && b < 0 or z", 1);
    check_int("z || not z", 1);
    check_int("!z and not z", 1);
    check_int("True and not False", 1);
    check_int("True + True", 2);
    check_int("a == 7 and True", 1);
    /* and binds tighter than or, as && binds tighter than || */
    check_int("1 or 0 and 0", 1);
    check_int("0 and 1 or 1", 1);
    check_int("(1 or 0) and 0", 0);
    check_int("1 || 0 and 0", 1);
    check_int("0 and 1 || 1", 1);
    /* not binds looser than the comparisons and arithmetic, tighter than and */
    check_int("not 1 == 2", 1);
    check_int("not a == 7", 0);
    check_int("not z + 1", 0); /* not (z + 1) */
    check_int("!z + 1", 2);    /* (!z) + 1: C's ! is unary */
    check_int("not a < 5", 1);
    check_int("not 0 and 0", 0); /* (not 0) and 0 */
    check_int("not (0 and 0)", 1);
    check_int("not 0 or 0", 1);
    check_int("not a in (7,)", 0); /* not (a in (7,)) */
    check_int("not 1 < a < 5", 1); /* not (1 < a and a < 5) */
    check_int("not z ? 10 : 20", 10);
    /* short-circuit */
    check_int("z and 1 / 0", 0);
    check_int("1 or 1 / 0", 1);
    check_int("0 and s + 1", 0);
    check_int("z and a / z or 3", 1);
    /* keywords are not names */
    check_error("and", CUTUNE_EPARSE, "column 1", "expected a value");
    check_error("a and", CUTUNE_EPARSE, "column 6", "end of input");
    check_error("not", CUTUNE_EPARSE, "column 4", NULL);
    check_error("a or or b", CUTUNE_EPARSE, "column 6", NULL);
    check_error("a not b", CUTUNE_EPARSE, "column 7", "expected 'in' after 'not'");
    check_error("a + not b", CUTUNE_EPARSE, "column 5", "expected a value");
    check_error("a andb", CUTUNE_EPARSE, "column 3", NULL); /* andb is a name, not and */
    check_error("notz", CUTUNE_ENOTFOUND, "unknown parameter 'notz'", NULL);
    check_error("s and 1", CUTUNE_EINVAL, "'and'", "column 3");
    check_error("0 or s", CUTUNE_EINVAL, "'or'", "column 3");
    check_error("not s", CUTUNE_EINVAL, "'not'", "column 1");
    check_error("s && 1", CUTUNE_EINVAL, "'&&'", NULL);

    assert_true(cutune_expr_is_keyword("and"));
    assert_true(cutune_expr_is_keyword("not"));
    assert_true(cutune_expr_is_keyword("in"));
    assert_true(cutune_expr_is_keyword("True"));
    assert_true(cutune_expr_is_keyword("false"));
    assert_false(cutune_expr_is_keyword("AND"));
    assert_false(cutune_expr_is_keyword("none"));
    assert_false(cutune_expr_is_keyword(NULL));
}

/* x in [...], x in (...), x not in ...: literal lists, as Python writes them. */
static void test_python_membership(void **state)
{
    check_int("a in [1, 7]", 1);
    check_int("a in [1, 2]", 0);
    check_int("a not in [1, 2]", 1);
    check_int("a not in (7, 8)", 0);
    check_int("a in (7,)", 1); /* a one-element tuple */
    check_int("a in [1, 7,]", 1);
    check_int("a in [7]", 1);
    check_int("s in [\"x\", \"abc\"]", 1);
    check_int("s not in ('abc',)", 0);
    check_int("a + 1 not in [8]", 0);
    check_int("a in [1, 2] or a in (7, 8)", 1);
    check_int("a in [b + 10, 2 ** 3 - 1]", 1);
    check_int("r in [2.5]", 1);
    check_int("True in [1]", 1);
    check_int("a in [1, 2] ? 10 : 20", 20);
    check_error("a in [1, 2)", CUTUNE_EPARSE, "column 11", "']'");
    check_error("a in (1, 2]", CUTUNE_EPARSE, "column 11", "')'");
    check_error("a in []", CUTUNE_EPARSE, "column 7", "a value in the list");
    check_error("a in [,]", CUTUNE_EPARSE, "column 7", NULL);
    check_error("a in [1,,]", CUTUNE_EPARSE, "column 9", NULL);
    check_error("a in 7", CUTUNE_EPARSE, "column 6", "'(' or '['");
    check_error("a not (1, 2)", CUTUNE_EPARSE, "column 7", "expected 'in' after 'not'");
    check_error("a not", CUTUNE_EPARSE, "column 6", "'in'");
    check_error("a in [1, s + 1]", CUTUNE_EINVAL, "type error", "column 12");
}

/* Chained comparisons: a < b < c is a < b and b < c, b evaluated once. */
static void test_chained_comparisons(void **state)
{
    check_int("1 < 2 < 3", 1);
    check_int("1 < 3 < 2", 0);
    check_int("3 > 2 > 1", 1);
    check_int("1 <= 1 < 2", 1);
    check_int("1 < 1 <= 2", 0);
    check_int("32 <= a * 8 <= 1024", 1);   /* 56 */
    check_int("32 <= a * 2 <= 1024", 0);   /* 14 */
    check_int("32 <= a * 256 <= 1024", 0); /* 1792 */
    check_int("0 < a < 10 < 100", 1);
    check_int("0 < a < 10 < 5", 0);
    check_int("b < z < a", 1);
    check_int("1 < r < 3", 1);
    check_int("1 < r * 2 < 5", 0);
    check_int("2 < r <= 2.5", 1);
    /* an int against a float exactly, as Python: past 2^53 their doubles are one */
    check_int("9007199254740993 == 9007199254740992.0", 0);
    check_int("9007199254740993 > 9007199254740992.0", 1);
    check_int("9007199254740992.0 < 2 ** 53 + 1", 1);
    check_int("2 ** 53 == 2.0 ** 53", 1);
    check_int("3 < 3.5 and 4 > 3.5 and 3 == 3.0", 1);
    check_real("min(9007199254740993, 9007199254740992.0)", 9007199254740992.0);
    check_int("9007199254740993 in (9007199254740992.0, 1)", 0);
    /* equality chains as Python's too: a == b == c is a == b and b == c */
    check_int("2 == 2 == 2", 1);
    check_int("a == 7 == 7", 1);
    check_int("a == 7 == 1", 0); /* C's (a == 7) == 1 would be 1 */
    check_int("1 != 2 != 1", 1); /* 1 != 2 and 2 != 1 */
    check_int("s == \"abc\" == s", 1);
    check_int("s != \"x\" != 1", 1);
    /* a chain may end in a membership test on its last operand */
    check_int("0 < a in (7, 8)", 1);
    check_int("8 < a in (7, 8)", 0);
    check_int("b < a not in (1, 2)", 1);
    check_int("0 < a < 9 in [9]", 1);
    /* the chain binds like one comparison */
    check_int("1 < a < 10 and a < 8", 1);
    check_int("1 < a < 5 || 1", 1);
    check_int("1 < a < 10 ? 5 : 6", 5);
    check_int("1 + 1 < a - 1 < 2 * 5", 1);
    /* a false link skips the rest, as Python's does */
    check_int("1 > 2 > 1 / 0", 0);
    check_int("1 < 0 < s", 0);
    check_error("1 < 2 < 1 / 0", CUTUNE_EMATH, "division by zero", "column 11");
    check_error("1 < s < 3", CUTUNE_EINVAL, "'<'", "column 3");
    check_error("1 < 2 <= s", CUTUNE_EINVAL, "'<='", "column 7");
    /* == and < in one chain: C and Python disagree, so it is refused */
    check_error("1 < 2 == 1", CUTUNE_EPARSE, "column 7", "add parentheses");
    check_error("a == b < 1", CUTUNE_EPARSE, "column 8", "'=='");
    check_error("a != b in (1, 2)", CUTUNE_EPARSE, "column 8", "add parentheses");
    check_error("1 < a < 9 != 0", CUTUNE_EPARSE, "column 11", NULL);
    check_error("a in (7) == 1", CUTUNE_EPARSE, "column 10", "'in' list");
    check_error("a in [7] < 2", CUTUNE_EPARSE, "column 10", "'in' list");
    check_error("a < < 2", CUTUNE_EPARSE, "column 5", NULL);
    check_error("1 < 2 <", CUTUNE_EPARSE, "column 8", "end of input");
}

static void test_functions(void **state)
{
    check_int("min(3, 1, 2)", 1);
    check_int("max(3, 1, 2)", 3);
    check_int("min(5)", 5);
    check_int("max(3, 1.5)", 3);
    check_real("max(3, 3.5)", 3.5);
    check_int("min(2, 2.0)", 2); /* ties keep the first, as Python does */
    check_int("ceil(2.1)", 3);
    check_int("ceil(-2.1)", -2);
    check_int("floor(-2.1)", -3);
    check_int("floor(2.9)", 2);
    check_int("ceil(7)", 7);
    check_int("ceil(7 / 2)", 3); /* INT / INT truncates before ceil sees it */
    check_int("ceil(7 / 2.0)", 4);
    check_real("log2(8)", 3.0);
    check_real("log2(0.5)", -1.0);
    check_int("pow(2, 10)", 1024);
    check_int("pow(-3, 3)", -27);
    check_int("pow(5, 0)", 1);
    check_real("pow(2, -1)", 0.5);
    check_real("pow(2.0, 0.5)", sqrt(2.0));
    check_real("pow(4, 0.5)", 2.0);
    check_int("abs(-3)", 3);
    check_int("abs(b)", 3);
    check_real("abs(-2.5)", 2.5);
    check_int("max(a, b, 0) + min(a, b)", 4);
}

static void test_short_circuit(void **state)
{
    check_int("0 && 1 / 0", 0);
    check_int("1 || 1 / 0", 1);
    check_int("z && a / z", 0);
    check_int("1 ? 2 : 1 / 0", 2);
    check_int("0 ? 1 / 0 : 3", 3);
    check_int("1 && 2", 1);
    check_int("0 || 2.5", 1);
    check_int("0.0 || 0", 0);
    check_int("0 && s + 1", 0);
}

static void test_syntax_errors(void **state)
{
    check_error("1 + * 2", CUTUNE_EPARSE, "column 5", "1 + * 2");
    check_error("(1 + 2", CUTUNE_EPARSE, "column 7", "expected ')'");
    check_error("1 + 2)", CUTUNE_EPARSE, "column 6", NULL);
    check_error("a ? 1", CUTUNE_EPARSE, "column 6", "':'");
    check_error("a = 1", CUTUNE_EPARSE, "column 3", "==");
    check_error("a & b", CUTUNE_EPARSE, "column 3", "&&");
    check_error("2x", CUTUNE_EPARSE, "column 1", "malformed number");
    check_error("0x", CUTUNE_EPARSE, "column 1", "malformed number");
    check_error("1e", CUTUNE_EPARSE, "column 1", "malformed number");
    check_error("1.2.3", CUTUNE_EPARSE, "column 1", NULL);
    check_error("9223372036854775808", CUTUNE_EPARSE, "out of range", NULL);
    check_error("1e999", CUTUNE_EPARSE, "out of range", NULL);
    check_error("\"abc", CUTUNE_EPARSE, "column 1", "unterminated");
    check_error("a in 1, 2", CUTUNE_EPARSE, "column 6", "'('");
    check_error("a in ()", CUTUNE_EPARSE, "column 7", NULL);
    check_error("a in (1, 2", CUTUNE_EPARSE, "column 11", NULL);
    check_error("min()", CUTUNE_EPARSE, "column 1", "min()");
    check_error("pow(1)", CUTUNE_EPARSE, "column 1", "pow() takes 2 arguments, got 1");
    check_error("ceil(1, 2)", CUTUNE_EPARSE, "ceil() takes 1 argument, got 2", NULL);
    check_error("min(1,)", CUTUNE_EPARSE, "column 7", NULL);
    check_error("a # b", CUTUNE_EPARSE, "column 3", "'#'");
}

static void test_trailing_and_empty(void **state)
{
    check_error("1 2", CUTUNE_EPARSE, "column 3", "after the expression");
    check_error("a b", CUTUNE_EPARSE, "column 3", NULL);
    check_error("(a) (b)", CUTUNE_EPARSE, "column 5", NULL);
    check_error("", CUTUNE_EPARSE, "empty", NULL);
    check_error("   \t", CUTUNE_EPARSE, "empty", NULL);
}

static void test_unknown_names(void **state)
{
    check_error("a + zz", CUTUNE_ENOTFOUND, "unknown parameter 'zz' at column 5", NULL);
    check_error("MWG", CUTUNE_ENOTFOUND, "'MWG'", "column 1");
    check_error("sqrt(4)", CUTUNE_ENOTFOUND, "unknown function 'sqrt'", "column 1");
    check_error("min", CUTUNE_ENOTFOUND, "unknown parameter 'min'", NULL);
    /* a NULL symbol table sees no names at all */
    cutune_expr *e = NULL;
    assert_int_equal(cutune_expr_parse("x", NULL, &e, err, sizeof err), CUTUNE_ENOTFOUND);
    assert_null(e);
    assert_int_equal(cutune_expr_parse("1 + 2", NULL, &e, err, sizeof err), 0);
    cutune_expr_free(e);
}

/* %% is Python's remainder, the sign of the divisor: the remainder of //, as a T1 file's
 * Conditions mean '%' (C's % beside it keeps the sign of the dividend). */
static void test_python_remainder(void **state)
{
    check_int("7 %% 3", 1);
    check_int("-7 %% 3", 2);
    check_int("7 %% -3", -2);
    check_int("-7 %% -3", -1);
    check_int("6 %% -3", 0);
    check_int("0 %% -5", 0);
    check_int("a %% b", -2); /* 7 %% -3 */
    check_int("a % b", 1);   /* C's % beside it */
    check_int("(-9223372036854775807 - 1) %% -1", 0);
    check_int("(-9223372036854775807 - 1) %% 3", 1);
    check_int("9223372036854775807 %% -2", -1);
    /* the remainder of //: a == (a // b) * b + a %% b, for every sign */
    check_int("-7 // 3 * 3 + -7 %% 3 == -7 and 7 // -3 * -3 + 7 %% -3 == 7", 1);
    check_int("b // 2 * 2 + b %% 2 == b", 1);
    /* a REAL operand: fmod moved into the divisor's sign, as Python's float % */
    check_real("7.5 %% 2", 1.5);
    check_real("-7.5 %% 2", 0.5);
    check_real("7.5 %% -2", -0.5);
    check_real("-7.5 %% -2", -1.5);
    check_real("7 %% 2.5", 2.0);
    check_real("-1 %% 2.5", 1.5);
    check_real("r %% -1", -0.5);
    /* the precedence of * / // %, left to right */
    check_int("2 * -7 %% 4", 2);   /* (2 * -7) %% 4: -14 %% 4 */
    check_int("-17 %% 5 %% 3", 0); /* (-17 %% 5) %% 3: 3 %% 3 */
    check_int("1 + -7 %% 3", 3);
    check_error("a %% z", CUTUNE_EMATH, "remainder by zero", "column 3");
    check_error("r %% 0.0", CUTUNE_EMATH, "remainder by zero", NULL);
    check_error("a %%% 2", CUTUNE_EPARSE, "column 5", NULL);
}

static void test_math_errors(void **state)
{
    check_error("a / (b + 3)", CUTUNE_EMATH, "division by zero", "column 3");
    check_error("a % z", CUTUNE_EMATH, "remainder by zero", "column 3");
    check_error("1.0 / 0", CUTUNE_EMATH, "division by zero", "column 5");
    check_error("r % 0.0", CUTUNE_EMATH, "remainder by zero", NULL);
    check_error("log2(0)", CUTUNE_EMATH, "log2()", "column 1");
    check_error("log2(b)", CUTUNE_EMATH, "log2()", NULL);
    check_error("pow(0, -1)", CUTUNE_EMATH, "negative power", NULL);
    check_error("pow(-8.0, 0.5)", CUTUNE_EMATH, "domain", NULL);
    check_error("9223372036854775807 + 1", CUTUNE_EMATH, "overflow", "column 21");
    check_error("-9223372036854775807 - 2", CUTUNE_EMATH, "overflow", NULL);
    check_error("3037000500 * 3037000500", CUTUNE_EMATH, "overflow", NULL);
    check_error("(-9223372036854775807 - 1) / -1", CUTUNE_EMATH, "overflow", NULL);
    check_error("pow(2, 64)", CUTUNE_EMATH, "overflow", NULL);
    check_error("ceil(1e30)", CUTUNE_EMATH, "integer range", NULL);
    check_error("abs(-9223372036854775807 - 1)", CUTUNE_EMATH, "overflow", NULL);
    check_error("-(-9223372036854775807 - 1)", CUTUNE_EMATH, "overflow", NULL);
}

static void test_type_errors(void **state)
{
    check_error("s + 1", CUTUNE_EINVAL, "type error", "column 3");
    check_error("1 * \"x\"", CUTUNE_EINVAL, "column 3", "'*'");
    check_error("s < \"b\"", CUTUNE_EINVAL, "column 3", NULL);
    check_error("-s", CUTUNE_EINVAL, "column 1", NULL);
    check_error("+s", CUTUNE_EINVAL, "column 1", NULL);
    check_error("!s", CUTUNE_EINVAL, "column 1", NULL);
    check_error("s && 1", CUTUNE_EINVAL, "column 3", NULL);
    check_error("1 && s", CUTUNE_EINVAL, NULL, NULL);
    check_error("s ? 1 : 2", CUTUNE_EINVAL, "column 3", NULL);
    check_error("min(1, s)", CUTUNE_EINVAL, "min()", NULL);
    check_error("ceil(s)", CUTUNE_EINVAL, NULL, NULL);
    check_error("log2(s)", CUTUNE_EINVAL, NULL, NULL);
    check_error("abs(s)", CUTUNE_EINVAL, NULL, NULL);
    check_error("pow(s, 2)", CUTUNE_EINVAL, NULL, NULL);

    /* a string result is fine for eval but not for eval_double */
    cutune_expr *e = NULL;
    double d = 0;
    assert_int_equal(cutune_expr_parse("a > 0 ? s : \"no\"", &syms, &e, err, sizeof err), 0);
    assert_int_equal(cutune_expr_eval_double(e, vars, &d, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "string"));
    cutune_expr_free(e);
    assert_int_equal(cutune_expr_parse("a / 2.0", &syms, &e, err, sizeof err), 0);
    assert_int_equal(cutune_expr_eval_double(e, vars, &d, err, sizeof err), 0);
    assert_true(d == 3.5);
    cutune_expr_free(e);
}

/* An error quotes a long expression by its start and its length, so that the line stays a
 * line; a short one whole. */
static void test_error_quotes_long_expression(void **state)
{
    (void)state;
    char text[2100], big[8192];
    size_t n = 0;
    for (int i = 0; i < 1000; i++)
        text[n++] = '(';
    text[n++] = 'a';
    for (int i = 0; i < 1000; i++)
        text[n++] = ')';
    text[n] = '\0';
    cutune_expr *e = NULL;
    assert_int_equal(cutune_expr_parse(text, &syms, &e, big, sizeof big), CUTUNE_EPARSE);
    assert_null(e);
    assert_non_null(strstr(big, "nested too deeply"));
    assert_non_null(strstr(big, "... (2001 bytes in all)'"));
    assert_true(strlen(big) < 300);
    assert_int_equal(cutune_expr_parse("a +", &syms, &e, big, sizeof big), CUTUNE_EPARSE);
    assert_non_null(strstr(big, "in 'a +'"));
}

static void test_nesting_limit(void **state)
{
    char buf[4096];
    cutune_value v;
    size_t n;
    for (int depth = 50; depth <= 1000; depth += 950) {
        n = 0;
        for (int i = 0; i < depth; i++)
            buf[n++] = '(';
        buf[n++] = '1';
        for (int i = 0; i < depth; i++)
            buf[n++] = ')';
        buf[n] = '\0';
        if (depth == 50)
            check_int(buf, 1);
        else
            check_error(buf, CUTUNE_EPARSE, "nested too deeply", NULL);
    }
    memset(buf, '-', 1000);
    strcpy(buf + 1000, "1");
    check_error(buf, CUTUNE_EPARSE, "nested too deeply", NULL);
    memset(buf, '!', 40);
    strcpy(buf + 40, "1");
    check_int(buf, 1);
    /* the right operand of ** and the operand of not recurse too */
    n = 0;
    for (int i = 0; i < 1000; i++)
        n += (size_t)sprintf(buf + n, "1**");
    strcpy(buf + n, "1");
    check_error(buf, CUTUNE_EPARSE, "nested too deeply", NULL);
    n = 0;
    for (int i = 0; i < 1000; i++)
        n += (size_t)sprintf(buf + n, "not ");
    strcpy(buf + n, "1");
    check_error(buf, CUTUNE_EPARSE, "nested too deeply", NULL);
    n = 0;
    for (int i = 0; i < 40; i++)
        n += (size_t)sprintf(buf + n, "not ");
    strcpy(buf + n, "1");
    check_int(buf, 1);
    /* a long chain is flat: every link jumps to its end */
    n = (size_t)sprintf(buf, "0");
    for (int i = 1; i <= 300; i++)
        n += (size_t)sprintf(buf + n, " < %d", i);
    check_int(buf, 1);
    strcpy(buf + n, " < 0");
    check_int(buf, 0);
    /* long flat expressions are not nesting: they must still parse */
    n = 0;
    n += (size_t)sprintf(buf + n, "min(1");
    for (int i = 0; i < 600; i++)
        n += (size_t)sprintf(buf + n, ",%d", i + 2);
    sprintf(buf + n, ") + a in (0");
    n = strlen(buf);
    for (int i = 0; i < 300; i++)
        n += (size_t)sprintf(buf + n, ",%d", i + 1);
    strcpy(buf + n, ")");
    assert_int_equal(eval(buf, &v), 0);
    assert_int_equal(v.i, 1);
}

static void test_slots_and_text(void **state)
{
    cutune_expr *e = NULL;
    assert_int_equal(cutune_expr_parse("r > 1 && a in (1, 2) && a > 0", &syms, &e, err, sizeof err),
                     0);
    assert_int_equal(cutune_expr_max_slot(e), 3);
    assert_true(cutune_expr_uses(e, 0));
    assert_false(cutune_expr_uses(e, 1));
    assert_false(cutune_expr_uses(e, 2));
    assert_true(cutune_expr_uses(e, 3));
    assert_false(cutune_expr_uses(e, 4));
    assert_false(cutune_expr_uses(e, 99));
    assert_string_equal(cutune_expr_text(e), "r > 1 && a in (1, 2) && a > 0");
    cutune_expr_free(e);

    assert_int_equal(cutune_expr_parse("1 + 2", &syms, &e, err, sizeof err), 0);
    assert_int_equal(cutune_expr_max_slot(e), -1);
    cutune_expr_free(e);
    cutune_expr_free(NULL);

    /* NULL arguments are errors, not crashes; a NULL err buffer is allowed */
    assert_int_equal(cutune_expr_parse(NULL, &syms, &e, err, sizeof err), CUTUNE_EINVAL);
    assert_int_equal(cutune_expr_parse("1", &syms, NULL, err, sizeof err), CUTUNE_EINVAL);
    assert_int_equal(cutune_expr_parse("(", &syms, &e, NULL, 0), CUTUNE_EPARSE);
}

static void test_reuse(void **state)
{
    /* one parse, many evaluations with different bindings */
    cutune_expr *e = NULL;
    assert_int_equal(cutune_expr_parse("a % 4 == 0 ? a / 4 : -1", &syms, &e, err, sizeof err), 0);
    cutune_value local[5];
    memcpy(local, vars, sizeof local);
    for (long long i = -20; i <= 20; i++) {
        cutune_value v;
        local[0].i = i;
        assert_int_equal(cutune_expr_eval(e, local, &v, err, sizeof err), 0);
        assert_int_equal(v.i, i % 4 == 0 ? i / 4 : -1);
    }
    cutune_expr_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_literals, setup),
        cmocka_unit_test_setup(test_variables, setup),
        cmocka_unit_test_setup(test_precedence, setup),
        cmocka_unit_test_setup(test_associativity, setup),
        cmocka_unit_test_setup(test_division, setup),
        cmocka_unit_test_setup(test_floor_division, setup),
        cmocka_unit_test_setup(test_python_remainder, setup),
        cmocka_unit_test_setup(test_power, setup),
        cmocka_unit_test_setup(test_python_logic, setup),
        cmocka_unit_test_setup(test_python_membership, setup),
        cmocka_unit_test_setup(test_chained_comparisons, setup),
        cmocka_unit_test_setup(test_ternary_and_in, setup),
        cmocka_unit_test_setup(test_functions, setup),
        cmocka_unit_test_setup(test_short_circuit, setup),
        cmocka_unit_test_setup(test_syntax_errors, setup),
        cmocka_unit_test_setup(test_trailing_and_empty, setup),
        cmocka_unit_test_setup(test_unknown_names, setup),
        cmocka_unit_test_setup(test_math_errors, setup),
        cmocka_unit_test_setup(test_type_errors, setup),
        cmocka_unit_test_setup(test_nesting_limit, setup),
        cmocka_unit_test_setup(test_error_quotes_long_expression, setup),
        cmocka_unit_test_setup(test_slots_and_text, setup),
        cmocka_unit_test_setup(test_reuse, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
