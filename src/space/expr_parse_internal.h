/* What the expression parser (expr_parse.c) and its lexer (expr_lex.c) share: the
 * tokens and the parser's state, which the lexer advances. */
#ifndef CUTUNE_SPACE_EXPR_PARSE_INTERNAL_H
#define CUTUNE_SPACE_EXPR_PARSE_INTERNAL_H

#include <stddef.h>

#include "expr_internal.h"

enum tok {
    T_EOF,
    T_INT,
    T_REAL,
    T_STRING,
    T_IDENT,
    T_IN,
    T_PLUS,
    T_MINUS,
    T_STAR,
    T_STARSTAR, /* ** */
    T_SLASH,
    T_SLASHSLASH, /* // */
    T_PERCENT,
    T_PERCENTPERCENT, /* %% */
    T_NOT,            /* ! */
    T_KW_NOT,         /* not (the keyword: looser than the comparisons) */
    T_LT,
    T_LE,
    T_GT,
    T_GE,
    T_EQ,
    T_NE,
    T_AND, /* && and the keyword and */
    T_OR,  /* || and the keyword or */
    T_QUESTION,
    T_COLON,
    T_LPAREN,
    T_RPAREN,
    T_LBRACKET,
    T_RBRACKET,
    T_COMMA,
};

typedef struct parser {
    const char *src;
    const cutune_symtab *syms;
    size_t pos; /* scan position */
    /* current token */
    int tok;
    size_t tstart; /* byte offset where it starts */
    size_t tlen;
    long long ival;
    double rval;
    char *sval; /* T_STRING: decoded text (owned until moved to the pool) */
    /* output */
    cutune_expr *e;
    size_t capcode;
    size_t cappool;
    size_t capslots;
    int depth; /* current recursion depth */
    int sp;    /* stack depth of the code emitted so far */
    char *err;
    size_t errlen;
    char quoted[200]; /* the expression as errors quote it (shown) */
} parser;

/* Advance p to the next token (p->tok, p->tstart, p->tlen; numbers in ival / rval, a
 * string decoded into sval); an error is written to p->err. */
int expr_next(parser *p);
/* The expression as an error quotes it: whole up to EXPR_QUOTE_MAX bytes, else its start
 * and its length, so that a generated expression of megabytes makes a line, not a page. */
#define EXPR_QUOTE_MAX 160
const char *expr_shown(parser *p);
/* The 1-based column of byte offset off. */
int expr_col_of(const parser *p, size_t off);
/* "syntax error at column C: WHAT, found TOKEN in 'TEXT'", CUTUNE_EPARSE. */
int expr_syntax_error(parser *p, size_t off, const char *what);
/* A constant's value (true/True 1, false/False 0) for the name of len bytes; -1: none. */
int expr_constant(const char *name, size_t len);

#endif
