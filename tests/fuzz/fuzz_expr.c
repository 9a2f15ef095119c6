/* Fuzz target for the expression language: parse the input against a small
 * symbol table, then evaluate it under a few bindings (ints, a zero, a real,
 * a string) so that type, math and short-circuit paths all run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Smaller limits than a run's (docs/hardening.md), so that no input spends seconds inside
 * them: the limits are what is under test. The standalone runner calls this too. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("CUTUNE_MAX_CONFIGS", "20000", 0);
    setenv("CUTUNE_MAX_INPUT_BYTES", "16M", 0);
    return 0;
}

static const char *const names[] = {"a",   "b",   "z",   "r",     "s",     "N",
                                    "MWG", "VWM", "KWG", "MDIMC", "NDIMC", "MDIMA"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the parser takes a C string: cap the size and terminate it */
    if (size > 4096)
        size = 4096;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    cutune_symtab syms = {names, sizeof names / sizeof names[0]};
    cutune_expr *e = NULL;
    char err[256];
    if (cutune_expr_parse(text, &syms, &e, err, sizeof err) == 0) {
        const cutune_value bindings[][12] = {
            {{.type = CUTUNE_VALUE_INT, .i = 7},
             {.type = CUTUNE_VALUE_INT, .i = -3},
             {.type = CUTUNE_VALUE_INT, .i = 0},
             {.type = CUTUNE_VALUE_REAL, .r = 2.5},
             {.type = CUTUNE_VALUE_STRING, .s = "abc"},
             {.type = CUTUNE_VALUE_INT, .i = 4096},
             {.type = CUTUNE_VALUE_INT, .i = 64},
             {.type = CUTUNE_VALUE_INT, .i = 4},
             {.type = CUTUNE_VALUE_INT, .i = 32},
             {.type = CUTUNE_VALUE_INT, .i = 16},
             {.type = CUTUNE_VALUE_INT, .i = 8},
             {.type = CUTUNE_VALUE_INT, .i = 32}},
            {{.type = CUTUNE_VALUE_INT, .i = INT64_MIN},
             {.type = CUTUNE_VALUE_INT, .i = -1},
             {.type = CUTUNE_VALUE_REAL, .r = 0.0},
             {.type = CUTUNE_VALUE_REAL, .r = -1e308},
             {.type = CUTUNE_VALUE_STRING, .s = ""},
             {.type = CUTUNE_VALUE_INT, .i = INT64_MAX},
             {.type = CUTUNE_VALUE_STRING, .s = "x"},
             {.type = CUTUNE_VALUE_REAL, .r = 0.5},
             {.type = CUTUNE_VALUE_INT, .i = 0},
             {.type = CUTUNE_VALUE_INT, .i = 256},
             {.type = CUTUNE_VALUE_REAL, .r = -0.0},
             {.type = CUTUNE_VALUE_INT, .i = 0}},
        };
        for (size_t k = 0; k < sizeof bindings / sizeof bindings[0]; k++) {
            cutune_value v;
            double d;
            if (cutune_expr_eval(e, bindings[k], &v, err, sizeof err) == 0 &&
                v.type == CUTUNE_VALUE_STRING && !v.s)
                abort(); /* a string result always has text */
            (void)cutune_expr_eval_double(e, bindings[k], &d, err, sizeof err);
        }
        int m = cutune_expr_max_slot(e);
        if (m >= (int)syms.n || (m >= 0 && !cutune_expr_uses(e, (size_t)m)))
            abort();
        if (strcmp(cutune_expr_text(e), text) != 0)
            abort();
        cutune_expr_free(e);
    }
    free(text);
    return 0;
}
