/* The compiled form of an expression, shared by the parser (expr_parse.c), which
 * writes it, and the evaluator (expr_eval.c), which runs it: bytecode for a small stack
 * machine, its literal pool and the slots it reads. Names are resolved to slots at parse
 * time so evaluation never touches a string table. */
#ifndef CUTUNE_SPACE_EXPR_INTERNAL_H
#define CUTUNE_SPACE_EXPR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cutune/expr.h"

/* Evaluation stack slots; parse rejects expressions that would need more. */
#define EXPR_MAX_STACK 512

enum op {
    OP_CONST, /* push pool[arg] */
    OP_LOAD,  /* push vars[arg] */
    OP_NEG,
    OP_POS, /* unary +: only checks that the operand is a number */
    OP_NOT,
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,   /* C's: INT / INT truncates toward zero */
    OP_IDIV,  /* Python's //: floors toward minus infinity */
    OP_MOD,   /* C's %: the sign of the dividend */
    OP_PYMOD, /* Python's % (written %%): the sign of the divisor, the remainder of // */
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_EQ,
    OP_NE,
    OP_CHAIN,  /* a link of a chained comparison, sub the comparison: pop b, a; if a sub b
                  push b, else push 0 and jump to arg (the end of the chain) */
    OP_AND,    /* pop a; if a is false push 0 and jump to arg */
    OP_OR,     /* pop a; if a is true push 1 and jump to arg */
    OP_BOOL,   /* top = (top != 0) */
    OP_JFALSE, /* pop a; if a is false jump to arg */
    OP_JUMP,
    OP_IN_BEGIN, /* push the accumulator 0 above x */
    OP_IN_STEP,  /* pop e; acc |= (x == e) */
    OP_IN_END,   /* pop acc; replace x by acc */
    OP_MIN,
    OP_MAX,
    OP_CEIL,
    OP_FLOOR,
    OP_LOG2,
    OP_POW,
    OP_ABS,
};

typedef struct sval {
    int t; /* CUTUNE_VALUE_INT, _REAL or _STRING */
    union {
        long long i;
        double r;
        const char *s;
    };
} sval;

typedef struct insn {
    uint8_t op;   /* enum op */
    uint8_t sub;  /* OP_CHAIN: the comparison op */
    int32_t arg;  /* pool index, slot or jump target */
    uint32_t col; /* 1-based column of the source token, for messages */
} insn;

struct cutune_expr {
    char *text; /* copy of the source */
    insn *code; /* the program */
    size_t ncode;
    sval *pool; /* literals; STRING entries own their text */
    size_t npool;
    size_t *slots; /* distinct slots read, ascending */
    size_t nslots;
    int max_stack; /* deepest evaluation stack the program needs */
};

#endif
