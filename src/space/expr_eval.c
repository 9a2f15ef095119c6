/* The expression language's evaluator (docs/expressions.md): one loop over the
 * bytecode that expr_parse.c compiled (expr_internal.h), on a stack of typed values.
 * Types are checked here, because a slot's type is only known from the value bound to
 * it; messages name the operator as the source spells it and its column. Also the
 * queries on a compiled expression (the slots it reads, its text). */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "expr_internal.h"

/* ---- evaluation ------------------------------------------------------------ */

static const char *op_name(int op)
{
    switch (op) {
    case OP_NEG: return "unary -";
    case OP_POS: return "unary +";
    case OP_NOT: return "!";
    case OP_ADD: return "+";
    case OP_SUB: return "-";
    case OP_MUL: return "*";
    case OP_DIV: return "/";
    case OP_IDIV: return "//";
    case OP_MOD: return "%";
    case OP_PYMOD: return "%%";
    case OP_LT: return "<";
    case OP_LE: return "<=";
    case OP_GT: return ">";
    case OP_GE: return ">=";
    case OP_EQ: return "==";
    case OP_NE: return "!=";
    case OP_AND: return "&&";
    case OP_OR: return "||";
    case OP_JFALSE: return "?:";
    case OP_MIN: return "min()";
    case OP_MAX: return "max()";
    case OP_CEIL: return "ceil()";
    case OP_FLOOR: return "floor()";
    case OP_LOG2: return "log2()";
    case OP_POW: return "pow()";
    case OP_ABS: return "abs()";
    default: return "?";
    }
}

/* The operator as the source spells it: 'and' for &&, '**' for pow(), the comparison of a
 * chain's link. */
static const char *op_label(const cutune_expr *e, const insn *in)
{
    const char *at = e->text + in->col - 1;
    switch (in->op) {
    case OP_NOT: return *at == 'n' ? "not" : "!";
    case OP_AND:
    case OP_OR:
    case OP_BOOL: /* at the && or || whose right operand it tests */
        return *at == 'a' ? "and" : *at == 'o' ? "or" : *at == '&' ? "&&" : "||";
    case OP_POW: return *at == '*' ? "**" : "pow()";
    case OP_CHAIN: return op_name(in->sub);
    default: return op_name(in->op);
    }
}

static double num(const sval *v)
{
    return v->t == CUTUNE_VALUE_INT ? (double)v->i : v->r;
}

static int type_error(const cutune_expr *e, const insn *in, char *err, size_t errlen)
{
    return cutune_err(err, errlen, CUTUNE_EINVAL,
                      "type error at column %u: string operand to '%s' in '%s'", in->col,
                      op_label(e, in), e->text);
}

static int math_error(const cutune_expr *e, const insn *in, const char *what, char *err,
                      size_t errlen)
{
    return cutune_err(err, errlen, CUTUNE_EMATH, "%s at column %u in '%s'", what, in->col, e->text);
}

/* An integer against a real, as Python compares them: exactly (-1, 0, 1; 2 when r is NaN).
 * Through doubles, 2^53 + 1 would equal 2^53.0. */
static int cmp_int_real(long long i, double r)
{
    if (isnan(r))
        return 2;
    if (r >= 9223372036854775808.0)
        return -1;
    if (r < -9223372036854775808.0)
        return 1;
    double fl = floor(r);
    long long ri = (long long)fl; /* in range: exact */
    if (i != ri)
        return i < ri ? -1 : 1;
    return fl == r ? 0 : -1; /* i == floor(r) < r when r has a fraction */
}

/* a against b, both numbers: -1, 0, 1, or 2 when unordered (NaN). */
static int cmp_num(const sval *a, const sval *b)
{
    if (a->t == CUTUNE_VALUE_INT && b->t == CUTUNE_VALUE_INT)
        return (a->i > b->i) - (a->i < b->i);
    if (a->t == CUTUNE_VALUE_INT)
        return cmp_int_real(a->i, b->r);
    if (b->t == CUTUNE_VALUE_INT) {
        int c = cmp_int_real(b->i, a->r);
        return c == 2 ? 2 : -c;
    }
    double x = a->r, y = b->r;
    return x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
}

static int equal(const sval *a, const sval *b)
{
    int as = a->t == CUTUNE_VALUE_STRING, bs = b->t == CUTUNE_VALUE_STRING;
    if (as || bs) /* a string equals only an equal string, never a number */
        return as && bs && strcmp(a->s, b->s) == 0;
    return cmp_num(a, b) == 0;
}

/* Exact integer power by squaring; 1 on overflow. */
static int ipow(long long b, long long x, long long *out)
{
    long long r = 1;
    while (x > 0) {
        if ((x & 1) && __builtin_mul_overflow(r, b, &r))
            return 1;
        x >>= 1;
        if (x && __builtin_mul_overflow(b, b, &b))
            return 1;
    }
    *out = r;
    return 0;
}

/* REAL to INT as Python's math.ceil/floor do; 1 when it does not fit. */
static int real_to_int(double r, long long *out)
{
    if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
        return 1;
    *out = (long long)r;
    return 0;
}

/* a OP b for a comparison op into *out (0 or 1); a string may only be tested for equality. */
static int compare(const cutune_expr *e, const insn *in, int op, const sval *a, const sval *b,
                   int *out, char *err, size_t errlen)
{
    if (op == OP_EQ || op == OP_NE) {
        *out = equal(a, b) ^ (op == OP_NE);
        return 0;
    }
    if (a->t == CUTUNE_VALUE_STRING || b->t == CUTUNE_VALUE_STRING)
        return type_error(e, in, err, errlen);
    int c = cmp_num(a, b); /* -1, 0, 1; 2 when unordered (NaN) */
    *out = op == OP_LT   ? c == -1
           : op == OP_LE ? (c == -1 || c == 0)
           : op == OP_GT ? c == 1
                         : (c == 1 || c == 0);
    return 0;
}

/* Python's float floor division x // y, y != 0: floor of the exact quotient, computed as
 * CPython does (Objects/floatobject.c, _float_div_mod) so that the result is the one Python
 * prints, e.g. 1 // 0.1 is 9.0 (0.1 is a little above 1/10). */
static double floor_div(double x, double y)
{
    double mod = fmod(x, y), div = (x - mod) / y;
    if (mod != 0 && (y < 0) != (mod < 0))
        div -= 1.0;
    if (div == 0)
        return copysign(0.0, x / y);
    double f = floor(div);
    return div - f > 0.5 ? f + 1.0 : f;
}

/* Python's float remainder x % y, y != 0: the sign of y, as CPython computes it
 * (Objects/floatobject.c, float_rem): fmod, moved into y's sign; a zero takes y's sign. */
static double py_mod(double x, double y)
{
    double mod = fmod(x, y);
    if (mod != 0) {
        if ((y < 0) != (mod < 0))
            mod += y;
    } else {
        mod = copysign(0.0, y);
    }
    return mod;
}

static int run(const cutune_expr *e, const cutune_value *vars, sval *res, char *err, size_t errlen)
{
    sval stack[EXPR_MAX_STACK + 1];
    int sp = -1; /* index of the top */
    const insn *code = e->code;
    size_t pc = 0, n = e->ncode;
    while (pc < n) {
        const insn *in = &code[pc++];
        sval *a, *b;
        switch ((enum op)in->op) {
        case OP_CONST: stack[++sp] = e->pool[in->arg]; break;
        case OP_LOAD: {
            const cutune_value *v = &vars[in->arg];
            sval *t = &stack[++sp];
            t->t = v->type;
            if (v->type == CUTUNE_VALUE_INT)
                t->i = v->i;
            else if (v->type == CUTUNE_VALUE_REAL)
                t->r = v->r;
            else
                t->s = v->s ? v->s : "";
            break;
        }
        case OP_NEG:
            a = &stack[sp];
            if (a->t == CUTUNE_VALUE_STRING)
                return type_error(e, in, err, errlen);
            if (a->t == CUTUNE_VALUE_REAL)
                a->r = -a->r;
            else if (a->i == LLONG_MIN)
                return math_error(e, in, "integer overflow", err, errlen);
            else
                a->i = -a->i;
            break;
        case OP_POS:
            if (stack[sp].t == CUTUNE_VALUE_STRING)
                return type_error(e, in, err, errlen);
            break;
        case OP_NOT:
        case OP_BOOL:
            a = &stack[sp];
            if (a->t == CUTUNE_VALUE_STRING)
                return type_error(e, in, err, errlen);
            a->i = (a->t == CUTUNE_VALUE_INT ? a->i != 0 : a->r != 0) ^ (in->op == OP_NOT);
            a->t = CUTUNE_VALUE_INT;
            break;
        case OP_ADD:
        case OP_SUB:
        case OP_MUL:
        case OP_DIV:
        case OP_IDIV:
        case OP_MOD:
        case OP_PYMOD:
        case OP_POW:
            b = &stack[sp--];
            a = &stack[sp];
            if (a->t == CUTUNE_VALUE_STRING || b->t == CUTUNE_VALUE_STRING)
                return type_error(e, in, err, errlen);
            if (a->t == CUTUNE_VALUE_INT && b->t == CUTUNE_VALUE_INT) {
                long long x = a->i, y = b->i, r = 0;
                int ovf = 0;
                switch (in->op) {
                case OP_ADD: ovf = __builtin_add_overflow(x, y, &r); break;
                case OP_SUB: ovf = __builtin_sub_overflow(x, y, &r); break;
                case OP_MUL: ovf = __builtin_mul_overflow(x, y, &r); break;
                case OP_DIV:
                case OP_IDIV:
                case OP_MOD:
                case OP_PYMOD: {
                    int rem = in->op == OP_MOD || in->op == OP_PYMOD;
                    if (y == 0)
                        return math_error(e, in, rem ? "remainder by zero" : "division by zero",
                                          err, errlen);
                    if (x == LLONG_MIN && y == -1)
                        ovf = !rem; /* x % -1 is 0, but C traps on it */
                    else if (in->op == OP_MOD)
                        r = x % y;
                    else if (in->op == OP_PYMOD) /* the sign of the divisor */
                        r = x % y + (x % y != 0 && (x % y < 0) != (y < 0) ? y : 0);
                    else /* C truncates; // floors: one less when inexact with mixed signs */
                        r = x / y - (in->op == OP_IDIV && x % y != 0 && (x < 0) != (y < 0));
                    break;
                }
                default: /* OP_POW: negative exponents leave the integers, as in Python */
                    if (y < 0) {
                        if (x == 0)
                            return math_error(e, in, "zero to a negative power", err, errlen);
                        a->t = CUTUNE_VALUE_REAL;
                        a->r = pow((double)x, (double)y);
                        continue;
                    }
                    ovf = ipow(x, y, &r);
                    break;
                }
                if (ovf)
                    return math_error(e, in, "integer overflow", err, errlen);
                a->i = r;
            } else {
                double x = num(a), y = num(b), r;
                switch (in->op) {
                case OP_ADD: r = x + y; break;
                case OP_SUB: r = x - y; break;
                case OP_MUL: r = x * y; break;
                case OP_DIV:
                case OP_IDIV:
                    if (y == 0)
                        return math_error(e, in, "division by zero", err, errlen);
                    r = in->op == OP_DIV ? x / y : floor_div(x, y);
                    break;
                case OP_MOD:
                case OP_PYMOD:
                    if (y == 0)
                        return math_error(e, in, "remainder by zero", err, errlen);
                    r = in->op == OP_MOD ? fmod(x, y) : py_mod(x, y);
                    break;
                default:
                    if (x == 0 && y < 0)
                        return math_error(e, in, "zero to a negative power", err, errlen);
                    r = pow(x, y);
                    if (isnan(r) && !isnan(x) && !isnan(y))
                        return math_error(e, in, "pow() domain error", err, errlen);
                    break;
                }
                a->t = CUTUNE_VALUE_REAL;
                a->r = r;
            }
            break;
        case OP_LT:
        case OP_LE:
        case OP_GT:
        case OP_GE:
        case OP_EQ:
        case OP_NE:
        case OP_CHAIN: {
            int op = in->op == OP_CHAIN ? in->sub : in->op, truth = 0, rc;
            b = &stack[sp--];
            a = &stack[sp];
            if ((rc = compare(e, in, op, a, b, &truth, err, errlen)))
                return rc;
            if (in->op == OP_CHAIN && truth) {
                *a = *b; /* the left operand of the next link */
                break;
            }
            a->t = CUTUNE_VALUE_INT;
            a->i = truth;
            if (in->op == OP_CHAIN)
                pc = (size_t)in->arg;
            break;
        }
        case OP_AND:
        case OP_OR: {
            a = &stack[sp];
            if (a->t == CUTUNE_VALUE_STRING)
                return type_error(e, in, err, errlen);
            int truth = a->t == CUTUNE_VALUE_INT ? a->i != 0 : a->r != 0;
            if (truth == (in->op == OP_OR)) {
                a->t = CUTUNE_VALUE_INT;
                a->i = truth;
                pc = (size_t)in->arg;
            } else {
                sp--;
            }
            break;
        }
        case OP_JFALSE: {
            a = &stack[sp--];
            if (a->t == CUTUNE_VALUE_STRING)
                return type_error(e, in, err, errlen);
            if (!(a->t == CUTUNE_VALUE_INT ? a->i != 0 : a->r != 0))
                pc = (size_t)in->arg;
            break;
        }
        case OP_JUMP: pc = (size_t)in->arg; break;
        case OP_IN_BEGIN: stack[++sp] = (sval){.t = CUTUNE_VALUE_INT, .i = 0}; break;
        case OP_IN_STEP:
            b = &stack[sp--];
            if (!stack[sp].i && equal(&stack[sp - 1], b))
                stack[sp].i = 1;
            break;
        case OP_IN_END:
            stack[sp - 1] = stack[sp];
            sp--;
            break;
        case OP_MIN:
        case OP_MAX: {
            b = &stack[sp--];
            a = &stack[sp];
            if (a->t == CUTUNE_VALUE_STRING || b->t == CUTUNE_VALUE_STRING)
                return type_error(e, in, err, errlen);
            int c = cmp_num(b, a); /* exactly, as Python orders an int and a float */
            int b_less = c == -1, b_more = c == 1;
            /* ties keep the first argument, as Python's min and max do */
            if (in->op == OP_MIN ? b_less : b_more)
                *a = *b;
            break;
        }
        case OP_CEIL:
        case OP_FLOOR:
            a = &stack[sp];
            if (a->t == CUTUNE_VALUE_STRING)
                return type_error(e, in, err, errlen);
            if (a->t == CUTUNE_VALUE_REAL) {
                long long r;
                if (real_to_int(in->op == OP_CEIL ? ceil(a->r) : floor(a->r), &r))
                    return math_error(e, in,
                                      in->op == OP_CEIL ? "ceil() result out of integer range"
                                                        : "floor() result out of integer range",
                                      err, errlen);
                a->t = CUTUNE_VALUE_INT;
                a->i = r;
            }
            break;
        case OP_LOG2:
            a = &stack[sp];
            if (a->t == CUTUNE_VALUE_STRING)
                return type_error(e, in, err, errlen);
            if (!(num(a) > 0))
                return math_error(e, in, "log2() of a value <= 0", err, errlen);
            a->r = log2(num(a));
            a->t = CUTUNE_VALUE_REAL;
            break;
        case OP_ABS:
            a = &stack[sp];
            if (a->t == CUTUNE_VALUE_STRING)
                return type_error(e, in, err, errlen);
            if (a->t == CUTUNE_VALUE_REAL)
                a->r = fabs(a->r);
            else if (a->i == LLONG_MIN)
                return math_error(e, in, "integer overflow", err, errlen);
            else if (a->i < 0)
                a->i = -a->i;
            break;
        }
    }
    *res = stack[0];
    return 0;
}

int cutune_expr_eval(const cutune_expr *e, const cutune_value *vars, cutune_value *out, char *err,
                     size_t errlen)
{
    sval r;
    int rc = run(e, vars, &r, err, errlen);
    if (rc)
        return rc;
    *out = (cutune_value){.type = r.t};
    if (r.t == CUTUNE_VALUE_INT)
        out->i = r.i;
    else if (r.t == CUTUNE_VALUE_REAL)
        out->r = r.r;
    else
        out->s = r.s;
    return 0;
}

int cutune_expr_eval_double(const cutune_expr *e, const cutune_value *vars, double *out, char *err,
                            size_t errlen)
{
    sval r;
    int rc = run(e, vars, &r, err, errlen);
    if (rc)
        return rc;
    if (r.t == CUTUNE_VALUE_STRING)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "type error in '%s': the result is a string, not a number", e->text);
    *out = num(&r);
    return 0;
}

int cutune_expr_max_slot(const cutune_expr *e)
{
    return e->nslots ? (int)e->slots[e->nslots - 1] : -1;
}

int cutune_expr_uses(const cutune_expr *e, size_t slot)
{
    size_t lo = 0, hi = e->nslots;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e->slots[mid] == slot)
            return 1;
        if (e->slots[mid] < slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

const char *cutune_expr_text(const cutune_expr *e)
{
    return e->text;
}
