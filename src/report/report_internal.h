/* Helpers shared by the files of src/report; not part of the public API. */
#ifndef CUTUNE_REPORT_INTERNAL_H
#define CUTUNE_REPORT_INTERNAL_H

#include <stdio.h>

#include "cutune/report.h"

/** Text escaped for HTML (element content and quoted attributes). */
void rep_html(FILE *f, const char *s);
/** A number as a short text (%.4g, "" for NaN). */
void rep_num(char *buf, size_t len, double x);

/** The strongest interaction of imp above floor whose used[i * nparams + k] is 0 (i < k):
 *  1 with *i, *k and *share, else 0. The caller marks it used. */
int rep_strongest_pair(const cutune_report_importance *imp, const int *used, double floor,
                       size_t *i, size_t *k, double *share);

/** The colour of a status (its legend and markers) and of the r-th run. */
const char *rep_status_colour(int status);
const char *rep_run_colour(size_t r);

/** One axis: data range [lo, hi] onto pixels [p0, p1], linear or log10. */
typedef struct rep_axis {
    double lo, hi;
    double p0, p1;
    int log;
} rep_axis;

/** Widen [lo, hi] to a readable range (log: whole or half decades; linear: nice steps). */
void rep_axis_fit(rep_axis *a, double lo, double hi, int log);
/** Pixel of a data value. */
double rep_axis_px(const rep_axis *a, double v);

/** A plot frame: the SVG element's size and the data area inside its margins. */
typedef struct rep_frame {
    double w, h;        /* SVG size */
    double left, right; /* data area, x */
    double top, bottom; /* data area, y (top < bottom) */
} rep_frame;

rep_frame rep_frame_make(double w, double h, double ml, double mr, double mt, double mb);
/** <svg id=...> with a <title> for screen readers (close with rep_svg_end). */
void rep_svg_begin(FILE *f, const char *id, const rep_frame *fr, const char *title);
void rep_svg_end(FILE *f);
/** Axes with ticks, grid lines and labels; x ticks from xa (NULL: none, for categorical). */
void rep_axes(FILE *f, const rep_frame *fr, const rep_axis *xa, const rep_axis *ya,
              const char *xlabel, const char *ylabel);
/** A legend box of n entries (colour, text) at the frame's top right. */
void rep_legend(FILE *f, const rep_frame *fr, size_t n, const char *const *colours,
                const char *const *labels);
/** The same legend with its top left corner at (x, y). */
void rep_legend_at(FILE *f, double x, double y, size_t n, const char *const *colours,
                   const char *const *labels);
/** A colour for t in [0, 1] (the viridis map, sampled): dark is fast, yellow slow. */
void rep_colour_map(double t, char *buf, size_t len);

#endif
