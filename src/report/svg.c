/* SVG primitives for the report: axes (linear and log), ticks, legends, colours. */
#include <math.h>
#include <string.h>

#include "report_internal.h"

void rep_html(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

void rep_num(char *buf, size_t len, double x)
{
    if (!isfinite(x))
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, "%.4g", x);
}

const char *rep_status_colour(int status)
{
    static const char *const c[] = {"#1f77b4", "#d62728", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f"};
    return status >= 0 && status < (int)(sizeof c / sizeof c[0]) ? c[status] : "#000000";
}

const char *rep_run_colour(size_t r)
{
    static const char *const c[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    return c[r % (sizeof c / sizeof c[0])];
}

static double nice_step(double range)
{
    double raw = range / 5, mag = pow(10, floor(log10(raw))), r = raw / mag;
    return (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
}

void rep_axis_fit(rep_axis *a, double lo, double hi, int log_scale)
{
    a->log = log_scale;
    if (!isfinite(lo) || !isfinite(hi)) {
        lo = log_scale ? 1 : 0;
        hi = log_scale ? 10 : 1;
    }
    if (log_scale) {
        if (!(lo > 0))
            lo = hi > 0 ? hi / 10 : 1;
        if (!(hi > lo))
            hi = lo * 1.1;
        if (log10(hi) - log10(lo) < 1) { /* under a decade: a margin, ticks at nice steps */
            a->lo = lo / 1.06;
            a->hi = hi * 1.06;
            return;
        }
        double l = floor(log10(lo) * 2) / 2, h = ceil(log10(hi) * 2) / 2;
        a->lo = pow(10, l);
        a->hi = pow(10, h);
    } else {
        if (hi <= lo) {
            hi = lo + 1;
            lo = lo - (lo > 0 ? 0 : 1) * 0;
        }
        double s = nice_step(hi - lo);
        a->lo = floor(lo / s) * s;
        a->hi = ceil(hi / s) * s;
        if (a->hi <= a->lo)
            a->hi = a->lo + s;
    }
}

double rep_axis_px(const rep_axis *a, double v)
{
    double t = a->log ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo))
                      : (v - a->lo) / (a->hi - a->lo);
    return a->p0 + t * (a->p1 - a->p0);
}

rep_frame rep_frame_make(double w, double h, double ml, double mr, double mt, double mb)
{
    return (rep_frame){.w = w, .h = h, .left = ml, .right = w - mr, .top = mt, .bottom = h - mb};
}

void rep_svg_begin(FILE *f, const char *id, const rep_frame *fr, const char *title)
{
    fprintf(f,
            "<svg id=\"%s\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" "
            "height=\"%g\" viewBox=\"0 0 %g %g\" role=\"img\"><title>",
            id, fr->w, fr->h, fr->w, fr->h);
    rep_html(f, title);
    fputs("</title>\n", f);
}

void rep_svg_end(FILE *f)
{
    fputs("</svg>\n", f);
}

/* Tick values of an axis into t (at most max). */
static size_t ticks(const rep_axis *a, double *t, size_t max)
{
    size_t n = 0;
    if (a->log && log10(a->hi) - log10(a->lo) < 1.2) { /* a narrow range: linear steps */
        double s = nice_step(a->hi - a->lo);
        for (double v = ceil(a->lo / s) * s; v <= a->hi && n < max; v += s)
            t[n++] = v;
    } else if (a->log) {
        double l = log10(a->lo), h = log10(a->hi);
        int few = h - l <= 2.5;
        for (double e = floor(l); e <= ceil(h) && n < max; e++)
            for (int m = 1; m <= 5 && n < max; m += few ? (m == 1 ? 1 : 3) : 9) {
                double v = m * pow(10, e);
                if (v >= a->lo * 0.999 && v <= a->hi * 1.001)
                    t[n++] = v;
            }
    } else {
        double s = nice_step(a->hi - a->lo);
        for (double v = a->lo; v <= a->hi + s * 1e-9 && n < max; v += s)
            t[n++] = fabs(v) < s * 1e-9 ? 0 : v;
    }
    return n;
}

void rep_axes(FILE *f, const rep_frame *fr, const rep_axis *xa, const rep_axis *ya,
              const char *xlabel, const char *ylabel)
{
    double t[64];
    char buf[32];
    fprintf(f,
            "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"#fff\" stroke=\"#444\"/>\n",
            fr->left, fr->top, fr->right - fr->left, fr->bottom - fr->top);
    if (ya) {
        size_t n = ticks(ya, t, 64);
        for (size_t i = 0; i < n; i++) {
            double y = rep_axis_px(ya, t[i]);
            rep_num(buf, sizeof buf, t[i]);
            fprintf(f,
                    "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    "<text x=\"%g\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
                    fr->left, y, fr->right, y, fr->left - 4, y + 4, buf);
        }
    }
    if (xa) {
        size_t n = ticks(xa, t, 64);
        for (size_t i = 0; i < n; i++) {
            double x = rep_axis_px(xa, t[i]);
            rep_num(buf, sizeof buf, t[i]);
            fprintf(f,
                    "<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" stroke=\"#ddd\"/>"
                    "<text x=\"%.1f\" y=\"%g\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
                    x, fr->top, x, fr->bottom, x, fr->bottom + 15, buf);
        }
    }
    fprintf(f, "<text x=\"%g\" y=\"%g\" font-size=\"12\" text-anchor=\"middle\">",
            (fr->left + fr->right) / 2, fr->h - 6);
    rep_html(f, xlabel);
    fprintf(f,
            "</text>\n<text transform=\"translate(14 %g) rotate(-90)\" font-size=\"12\" "
            "text-anchor=\"middle\">",
            (fr->top + fr->bottom) / 2);
    rep_html(f, ylabel);
    fputs("</text>\n", f);
}

static double legend_width(size_t n, const char *const *labels)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w = strlen(labels[i]) > w ? strlen(labels[i]) : w;
    return 24 + 6.5 * (double)w;
}

void rep_legend(FILE *f, const rep_frame *fr, size_t n, const char *const *colours,
                const char *const *labels)
{
    rep_legend_at(f, fr->right - legend_width(n, labels) - 6, fr->top + 6, n, colours, labels);
}

void rep_legend_at(FILE *f, double x, double y, size_t n, const char *const *colours,
                   const char *const *labels)
{
    double bw = legend_width(n, labels);
    fprintf(f,
            "<g class=\"legend\"><rect x=\"%.1f\" y=\"%g\" width=\"%.1f\" height=\"%g\" "
            "fill=\"#fff\" fill-opacity=\"0.85\" stroke=\"#999\"/>\n",
            x, y, bw, 16.0 * (double)n + 6);
    for (size_t i = 0; i < n; i++) {
        double yy = y + 14 + 16.0 * (double)i;
        fprintf(f,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/><text "
                "x=\"%.1f\" y=\"%.1f\" font-size=\"11\">",
                x + 6, yy - 9, colours[i], x + 20, yy);
        rep_html(f, labels[i]);
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
}

void rep_colour_map(double t, char *buf, size_t len)
{
    /* viridis at 0, 0.25, 0.5, 0.75, 1 (matplotlib's table), interpolated linearly */
    static const double c[5][3] = {
        {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    t = !(t >= 0) ? 0 : t > 1 ? 1 : t;
    double s = t * 4;
    int k = s >= 4 ? 3 : (int)s;
    double u = s - k;
    snprintf(buf, len, "#%02x%02x%02x", (int)lround(c[k][0] + u * (c[k + 1][0] - c[k][0])),
             (int)lround(c[k][1] + u * (c[k + 1][1] - c[k][1])),
             (int)lround(c[k][2] + u * (c[k + 1][2] - c[k][2])));
}
