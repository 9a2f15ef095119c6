/* The expression language's front end (docs/expressions.md): C's operators and
 * Python's (Kernel Tuner restrictions are Python expressions) in one grammar.
 *
 * Text is parsed once by recursive descent straight into bytecode for the stack machine
 * of expr_eval.c (expr_internal.h): code emission and the parser, one function a
 * precedence level; the tokens come from expr_lex.c. Names are resolved to slots here; types are
 * checked at evaluation, because a slot's type is only known from the value bound to it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr_parse_internal.h"

/* Parser recursion bound: keeps hostile input ("((((...") off the C stack. */
#define EXPR_MAX_DEPTH 100

/* ---- code emission --------------------------------------------------------- */

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    if (ncap > SIZE_MAX / elem)
        return CUTUNE_ENOMEM;
    void *nb = realloc(*buf, ncap * elem);
    if (!nb)
        return CUTUNE_ENOMEM;
    *buf = nb;
    *cap = ncap;
    return 0;
}

/* Stack effect of each op, so that the parser knows the deepest stack. */
static int stack_effect(int op)
{
    switch (op) {
    case OP_CONST:
    case OP_LOAD:
    case OP_IN_BEGIN: return 1;
    case OP_NEG:
    case OP_POS:
    case OP_NOT:
    case OP_BOOL:
    case OP_JUMP:
    case OP_CEIL:
    case OP_FLOOR:
    case OP_LOG2:
    case OP_ABS: return 0;
    default: /* binary ops, OP_AND/OR/JFALSE on the fall-through path, IN_STEP/END */ return -1;
    }
}

static int emit(parser *p, int op, int32_t arg, size_t off)
{
    cutune_expr *e = p->e;
    if (grow((void **)&e->code, &p->capcode, e->ncode + 1, sizeof *e->code))
        return cutune_err(p->err, p->errlen, CUTUNE_ENOMEM, "out of memory");
    e->code[e->ncode++] = (insn){.op = (uint8_t)op, .arg = arg, .col = (uint32_t)off + 1};
    p->sp += stack_effect(op);
    if (p->sp > e->max_stack)
        e->max_stack = p->sp;
    if (e->max_stack > EXPR_MAX_STACK)
        return cutune_err(p->err, p->errlen, CUTUNE_EPARSE,
                          "expression too complex at column %d (evaluation stack over %d) in '%s'",
                          (int)off + 1, EXPR_MAX_STACK, expr_shown(p));
    return 0;
}

static int emit_const(parser *p, sval v, size_t off)
{
    cutune_expr *e = p->e;
    if (grow((void **)&e->pool, &p->cappool, e->npool + 1, sizeof *e->pool)) {
        if (v.t == CUTUNE_VALUE_STRING)
            free((char *)v.s);
        return cutune_err(p->err, p->errlen, CUTUNE_ENOMEM, "out of memory");
    }
    e->pool[e->npool++] = v;
    return emit(p, OP_CONST, (int32_t)(e->npool - 1), off);
}

static int note_slot(parser *p, size_t slot)
{
    cutune_expr *e = p->e;
    size_t i = 0;
    while (i < e->nslots && e->slots[i] < slot)
        i++;
    if (i < e->nslots && e->slots[i] == slot)
        return 0;
    if (grow((void **)&e->slots, &p->capslots, e->nslots + 1, sizeof *e->slots))
        return cutune_err(p->err, p->errlen, CUTUNE_ENOMEM, "out of memory");
    memmove(e->slots + i + 1, e->slots + i, (e->nslots - i) * sizeof *e->slots);
    e->slots[i] = slot;
    e->nslots++;
    return 0;
}

/* ---- parser ---------------------------------------------------------------- */

static int parse_ternary(parser *p);

static int expect(parser *p, int tok, const char *what)
{
    if (p->tok != tok)
        return expr_syntax_error(p, p->tstart, what);
    return expr_next(p);
}

static const struct func {
    const char *name;
    int op;
    int minargs; /* -1: no upper bound */
    int maxargs;
} funcs[] = {
    {"min", OP_MIN, 1, -1},    {"max", OP_MAX, 1, -1},  {"ceil", OP_CEIL, 1, 1},
    {"floor", OP_FLOOR, 1, 1}, {"log2", OP_LOG2, 1, 1}, {"pow", OP_POW, 2, 2},
    {"abs", OP_ABS, 1, 1},
};

static int parse_call(parser *p, size_t name_off, size_t name_len)
{
    const struct func *f = NULL;
    for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
        if (strlen(funcs[i].name) == name_len &&
            memcmp(funcs[i].name, p->src + name_off, name_len) == 0)
            f = &funcs[i];
    if (!f)
        return cutune_err(p->err, p->errlen, CUTUNE_ENOTFOUND,
                          "unknown function '%.*s' at column %d in '%s'", (int)name_len,
                          p->src + name_off, expr_col_of(p, name_off), expr_shown(p));
    int rc = expr_next(p); /* past '(' */
    if (rc)
        return rc;
    int nargs = 0;
    if (p->tok != T_RPAREN) {
        for (;;) {
            if ((rc = parse_ternary(p)))
                return rc;
            nargs++;
            /* fold min/max pairwise so the stack stays flat for long lists */
            if (nargs > 1 && (f->op == OP_MIN || f->op == OP_MAX) &&
                (rc = emit(p, f->op, 0, name_off)))
                return rc;
            if (p->tok != T_COMMA)
                break;
            if ((rc = expr_next(p)))
                return rc;
        }
    }
    if ((rc = expect(p, T_RPAREN, "expected ',' or ')' in the arguments")))
        return rc;
    if (nargs < f->minargs || (f->maxargs >= 0 && nargs > f->maxargs))
        return cutune_err(p->err, p->errlen, CUTUNE_EPARSE,
                          "syntax error at column %d: %s() takes %s%d argument%s, got %d in '%s'",
                          expr_col_of(p, name_off), f->name, f->maxargs < 0 ? "at least " : "",
                          f->minargs, f->minargs == 1 ? "" : "s", nargs, expr_shown(p));
    if (f->op != OP_MIN && f->op != OP_MAX)
        return emit(p, f->op, 0, name_off);
    return 0;
}

static int parse_primary(parser *p)
{
    int rc;
    size_t off = p->tstart;
    switch (p->tok) {
    case T_INT:
        if ((rc = emit_const(p, (sval){.t = CUTUNE_VALUE_INT, .i = p->ival}, off)))
            return rc;
        return expr_next(p);
    case T_REAL:
        if ((rc = emit_const(p, (sval){.t = CUTUNE_VALUE_REAL, .r = p->rval}, off)))
            return rc;
        return expr_next(p);
    case T_STRING: {
        char *s = p->sval;
        p->sval = NULL; /* the pool owns it from here */
        if ((rc = emit_const(p, (sval){.t = CUTUNE_VALUE_STRING, .s = s}, off)))
            return rc;
        return expr_next(p);
    }
    case T_LPAREN:
        if ((rc = expr_next(p)) || (rc = parse_ternary(p)))
            return rc;
        return expect(p, T_RPAREN, "expected ')'");
    case T_IDENT: {
        size_t len = p->tlen;
        const char *name = p->src + off;
        if ((rc = expr_next(p)))
            return rc;
        if (p->tok == T_LPAREN)
            return parse_call(p, off, len);
        for (size_t i = 0; p->syms && i < p->syms->n; i++) {
            const char *sn = p->syms->names[i];
            if (sn && strlen(sn) == len && memcmp(sn, name, len) == 0) {
                if ((rc = note_slot(p, i)))
                    return rc;
                return emit(p, OP_LOAD, (int32_t)i, off);
            }
        }
        int k = expr_constant(name, len);
        if (k >= 0)
            return emit_const(p, (sval){.t = CUTUNE_VALUE_INT, .i = k}, off);
        return cutune_err(p->err, p->errlen, CUTUNE_ENOTFOUND,
                          "unknown parameter '%.*s' at column %d in '%s'", (int)len, name,
                          expr_col_of(p, off), expr_shown(p));
    }
    default: return expr_syntax_error(p, off, "expected a value");
    }
}

/* One more level of recursion, refused past EXPR_MAX_DEPTH. */
static int enter(parser *p, size_t off)
{
    if (++p->depth > EXPR_MAX_DEPTH)
        return cutune_err(p->err, p->errlen, CUTUNE_EPARSE,
                          "expression nested too deeply at column %d (limit %d) in '%s'",
                          expr_col_of(p, off), EXPR_MAX_DEPTH, expr_shown(p));
    return 0;
}

static int parse_unary(parser *p);

/* a ** b, as in Python: right-associative (2 ** 3 ** 2 is 2 ** 9), tighter than a unary
 * operator on its left (-2 ** 2 is -4) and looser than one on its right (2 ** -1 is 0.5). */
static int parse_power(parser *p)
{
    int rc = parse_primary(p);
    if (rc || p->tok != T_STARSTAR)
        return rc;
    size_t off = p->tstart;
    if (!(rc = enter(p, off)) && !(rc = expr_next(p)) && !(rc = parse_unary(p)))
        rc = emit(p, OP_POW, 0, off);
    p->depth--;
    return rc;
}

static int parse_unary(parser *p)
{
    int op;
    switch (p->tok) {
    case T_MINUS: op = OP_NEG; break;
    case T_PLUS: op = OP_POS; break;
    case T_NOT: op = OP_NOT; break;
    default: return parse_power(p);
    }
    size_t off = p->tstart;
    int rc = enter(p, off);
    if (!rc)
        rc = expr_next(p);
    if (!rc)
        rc = parse_unary(p);
    if (!rc)
        rc = emit(p, op, 0, off);
    p->depth--;
    return rc;
}

static int parse_mul(parser *p)
{
    int rc = parse_unary(p);
    while (!rc && (p->tok == T_STAR || p->tok == T_SLASH || p->tok == T_SLASHSLASH ||
                   p->tok == T_PERCENT || p->tok == T_PERCENTPERCENT)) {
        int op = p->tok == T_STAR         ? OP_MUL
                 : p->tok == T_SLASH      ? OP_DIV
                 : p->tok == T_SLASHSLASH ? OP_IDIV
                 : p->tok == T_PERCENT    ? OP_MOD
                                          : OP_PYMOD;
        size_t off = p->tstart;
        if (!(rc = expr_next(p)) && !(rc = parse_unary(p)))
            rc = emit(p, op, 0, off);
    }
    return rc;
}

static int parse_add(parser *p)
{
    int rc = parse_mul(p);
    while (!rc && (p->tok == T_PLUS || p->tok == T_MINUS)) {
        int op = p->tok == T_PLUS ? OP_ADD : OP_SUB;
        size_t off = p->tstart;
        if (!(rc = expr_next(p)) && !(rc = parse_mul(p)))
            rc = emit(p, op, 0, off);
    }
    return rc;
}

/* x in (a, b, ...), x in [a, b, ...], x not in (...): membership in a literal list, which
 * may end in a comma as Python's (32,) does. At the 'in' or the 'not' of 'not in'. */
static int parse_in_list(parser *p)
{
    int rc, close;
    size_t off = p->tstart;
    int negate = p->tok == T_KW_NOT;
    if (negate) {
        if ((rc = expr_next(p)))
            return rc;
        if (p->tok != T_IN)
            return expr_syntax_error(p, p->tstart, "expected 'in' after 'not'");
    }
    if ((rc = expr_next(p)))
        return rc;
    if (p->tok == T_LPAREN)
        close = T_RPAREN;
    else if (p->tok == T_LBRACKET)
        close = T_RBRACKET;
    else
        return expr_syntax_error(p, p->tstart, "expected '(' or '[' after 'in'");
    if ((rc = expr_next(p)))
        return rc;
    if (p->tok == close)
        return expr_syntax_error(p, p->tstart, "expected a value in the list after 'in'");
    if ((rc = emit(p, OP_IN_BEGIN, 0, off)))
        return rc;
    for (;;) {
        if ((rc = parse_ternary(p)) || (rc = emit(p, OP_IN_STEP, 0, off)))
            return rc;
        if (p->tok != T_COMMA)
            break;
        if ((rc = expr_next(p)))
            return rc;
        if (p->tok == close)
            break;
    }
    if ((rc = expect(p, close,
                     close == T_RPAREN ? "expected ',' or ')' in the list after 'in'"
                                       : "expected ',' or ']' in the list after 'in'")) ||
        (rc = emit(p, OP_IN_END, 0, off)))
        return rc;
    return negate ? emit(p, OP_NOT, 0, off) : 0;
}

static int comparison_op(int tok)
{
    switch (tok) {
    case T_LT: return OP_LT;
    case T_LE: return OP_LE;
    case T_GT: return OP_GT;
    case T_GE: return OP_GE;
    case T_EQ: return OP_EQ;
    case T_NE: return OP_NE;
    default: return -1;
    }
}

/* Comparisons chain as in Python: a < b <= c is a < b and b <= c, with b evaluated once and
 * c not at all when a < b is false. Each link but the last is an OP_CHAIN whose jump to the
 * end of the chain is patched afterwards (until then arg links to the previous OP_CHAIN).
 * A chain orders (< <= > >= in, not in) or tests equality (== !=), never both: C reads
 * a < b == c as (a < b) == c and Python as a < b and b == c, so the mix is refused rather
 * than read one way. A list after 'in' cannot be compared on, so 'in' ends a chain. */
static int parse_compare(parser *p)
{
    enum { CHAIN_NONE, CHAIN_ORDER, CHAIN_EQUALITY };
    int rc = parse_add(p), kind = CHAIN_NONE, pending = -1, after_in = 0;
    size_t pending_off = 0;
    int32_t chain = -1;
    while (!rc) {
        int op = comparison_op(p->tok), in = p->tok == T_IN || p->tok == T_KW_NOT;
        if (op < 0 && !in)
            break;
        size_t off = p->tstart;
        int k = (op == OP_EQ || op == OP_NE) ? CHAIN_EQUALITY : CHAIN_ORDER;
        if (after_in)
            return expr_syntax_error(p, off,
                                     "a comparison cannot follow an 'in' list: add parentheses");
        if (kind != CHAIN_NONE && k != kind)
            return expr_syntax_error(p, off,
                                     "'==' and '!=' do not chain with '<', '<=', '>', '>=' or 'in' "
                                     "(C and Python read this differently: add parentheses)");
        kind = k;
        if (pending >= 0) {
            if ((rc = emit(p, OP_CHAIN, chain, pending_off)))
                return rc;
            chain = (int32_t)(p->e->ncode - 1);
            p->e->code[chain].sub = (uint8_t)pending;
            pending = -1;
        }
        if (in) {
            rc = parse_in_list(p);
            after_in = 1;
        } else if (!(rc = expr_next(p)) && !(rc = parse_add(p))) {
            pending = op;
            pending_off = off;
        }
    }
    if (!rc && pending >= 0)
        rc = emit(p, pending, 0, pending_off);
    while (!rc && chain >= 0) {
        int32_t prev = p->e->code[chain].arg;
        p->e->code[chain].arg = (int32_t)p->e->ncode;
        chain = prev;
    }
    return rc;
}

/* not x, Python's: looser than the comparisons (not a == b is not (a == b)) and tighter
 * than and/&&; C's ! stays a unary operator, tighter than every binary one. */
static int parse_not(parser *p)
{
    if (p->tok != T_KW_NOT)
        return parse_compare(p);
    size_t off = p->tstart;
    int rc = enter(p, off);
    if (!rc)
        rc = expr_next(p);
    if (!rc)
        rc = parse_not(p);
    if (!rc)
        rc = emit(p, OP_NOT, 0, off);
    p->depth--;
    return rc;
}

/* && / and, || / or: a conditional jump over the right operand, patched afterwards. */
static int parse_logic(parser *p, int tok, int op, int (*operand)(parser *))
{
    int rc = operand(p);
    while (!rc && p->tok == tok) {
        size_t off = p->tstart;
        size_t jump = p->e->ncode;
        if ((rc = emit(p, op, 0, off)) || (rc = expr_next(p)) || (rc = operand(p)) ||
            (rc = emit(p, OP_BOOL, 0, off)))
            break;
        p->e->code[jump].arg = (int32_t)p->e->ncode;
    }
    return rc;
}

static int parse_and(parser *p)
{
    return parse_logic(p, T_AND, OP_AND, parse_not);
}

static int parse_or(parser *p)
{
    return parse_logic(p, T_OR, OP_OR, parse_and);
}

/* cond ? a : b, right-associative; lowest precedence. */
static int parse_ternary(parser *p)
{
    size_t off = p->tstart;
    int rc = enter(p, off);
    if (rc || (rc = parse_or(p)) || p->tok != T_QUESTION)
        goto out;
    off = p->tstart;
    size_t jfalse = p->e->ncode;
    if ((rc = emit(p, OP_JFALSE, 0, off)) || (rc = expr_next(p)) || (rc = parse_ternary(p)))
        goto out;
    size_t jend = p->e->ncode;
    if ((rc = emit(p, OP_JUMP, 0, off)) || (rc = expect(p, T_COLON, "expected ':' of '?:'")))
        goto out;
    p->e->code[jfalse].arg = (int32_t)p->e->ncode;
    p->sp--; /* the else branch starts where the then branch did */
    if ((rc = parse_ternary(p)))
        goto out;
    p->e->code[jend].arg = (int32_t)p->e->ncode;
out:
    p->depth--;
    return rc;
}

int cutune_expr_parse(const char *text, const cutune_symtab *syms, cutune_expr **out, char *err,
                      size_t errlen)
{
    int rc;
    cutune_expr *e = NULL;
    parser p = {.src = text, .syms = syms, .err = err, .errlen = errlen};
    if (!out)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "cutune_expr_parse: out is NULL");
    *out = NULL;
    if (!text)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "cutune_expr_parse: text is NULL");
    e = calloc(1, sizeof *e);
    if (!e || !(e->text = strdup(text))) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out_free;
    }
    p.e = e;
    if ((rc = expr_next(&p)))
        goto out_free;
    if (p.tok == T_EOF) {
        rc = cutune_err(err, errlen, CUTUNE_EPARSE, "empty expression");
        goto out_free;
    }
    if ((rc = parse_ternary(&p)))
        goto out_free;
    if (p.tok != T_EOF) {
        rc = expr_syntax_error(&p, p.tstart, "unexpected input after the expression");
        goto out_free;
    }
    *out = e;
    return 0;
out_free:
    free(p.sval);
    cutune_expr_free(e);
    return rc;
}

void cutune_expr_free(cutune_expr *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->npool; i++)
        if (e->pool[i].t == CUTUNE_VALUE_STRING)
            free((char *)e->pool[i].s);
    free(e->pool);
    free(e->code);
    free(e->slots);
    free(e->text);
    free(e);
}
