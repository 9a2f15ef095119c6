# Convergence plots of cutune bench: best-so-far fraction of optimum against
# evaluations, median and 5-95% band over 50 seeds per searcher.
# Run from the results folder: gnuplot plots.gp
# Manifest 0430dee-326b8119 (results.json)
set key bottom right
set grid
set xlabel 'evaluations'
set ylabel 'fraction of optimum (t_{opt} / t_{best})'
set yrange [0:1.02]
set xrange [1:200]
set style fill transparent solid 0.18 noborder

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_GEMM_GTX_1080Ti.png'
set title 'GEMM_GTX_1080Ti (GeForce GTX 1080 Ti, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_GEMM_GTX_1080Ti.svg'
set title 'GEMM_GTX_1080Ti (GeForce GTX 1080 Ti, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_GEMM_GTX_1080Ti.pdf'
set title 'GEMM_GTX_1080Ti (GeForce GTX 1080 Ti, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_GEMM_P100.png'
set title 'GEMM_P100 (Tesla P100-PCIE-12GB, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_GEMM_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_GEMM_P100.svg'
set title 'GEMM_P100 (Tesla P100-PCIE-12GB, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_GEMM_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_GEMM_P100.pdf'
set title 'GEMM_P100 (Tesla P100-PCIE-12GB, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_GEMM_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_GEMM_RTX_2070_SUPER.png'
set title 'GEMM_RTX_2070_SUPER (GeForce RTX 2070 SUPER, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_GEMM_RTX_2070_SUPER.svg'
set title 'GEMM_RTX_2070_SUPER (GeForce RTX 2070 SUPER, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_GEMM_RTX_2070_SUPER.pdf'
set title 'GEMM_RTX_2070_SUPER (GeForce RTX 2070 SUPER, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_convolution_GTX_1080Ti.png'
set title 'convolution_GTX_1080Ti (GeForce GTX 1080 Ti, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_convolution_GTX_1080Ti.svg'
set title 'convolution_GTX_1080Ti (GeForce GTX 1080 Ti, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_convolution_GTX_1080Ti.pdf'
set title 'convolution_GTX_1080Ti (GeForce GTX 1080 Ti, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.png'
set title 'convolution_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.svg'
set title 'convolution_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.pdf'
set title 'convolution_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_convolution_P100.png'
set title 'convolution_P100 (Tesla P100-PCIE-12GB, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_convolution_P100.svg'
set title 'convolution_P100 (Tesla P100-PCIE-12GB, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_convolution_P100.pdf'
set title 'convolution_P100 (Tesla P100-PCIE-12GB, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_convolution_RTX_2070_SUPER.png'
set title 'convolution_RTX_2070_SUPER (GeForce RTX 2070 SUPER, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_convolution_RTX_2070_SUPER.svg'
set title 'convolution_RTX_2070_SUPER (GeForce RTX 2070 SUPER, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_convolution_RTX_2070_SUPER.pdf'
set title 'convolution_RTX_2070_SUPER (GeForce RTX 2070 SUPER, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_convolution_milo_A4000.png'
set title 'convolution_milo_A4000 (NVIDIA RTX A4000, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_convolution_milo_A4000.svg'
set title 'convolution_milo_A4000 (NVIDIA RTX A4000, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_convolution_milo_A4000.pdf'
set title 'convolution_milo_A4000 (NVIDIA RTX A4000, convolution_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_convolution_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_dedispersion_milo_A4000.png'
set title 'dedispersion_milo_A4000 (NVIDIA RTX A4000, dedispersion_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_dedispersion_milo_A4000.svg'
set title 'dedispersion_milo_A4000 (NVIDIA RTX A4000, dedispersion_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_dedispersion_milo_A4000.pdf'
set title 'dedispersion_milo_A4000 (NVIDIA RTX A4000, dedispersion_kernel)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_gemm_AMD_Vega.png'
set title 'gemm_AMD_Vega (AMD Vega, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_gemm_AMD_Vega.svg'
set title 'gemm_AMD_Vega (AMD Vega, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_gemm_AMD_Vega.pdf'
set title 'gemm_AMD_Vega (AMD Vega, Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.png'
set title 'gemm_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.svg'
set title 'gemm_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.pdf'
set title 'gemm_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), Xgemm)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_pnpoly_GTX_1080Ti.png'
set title 'pnpoly_GTX_1080Ti (x86_64, cn_pnpoly_host)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_pnpoly_GTX_1080Ti.svg'
set title 'pnpoly_GTX_1080Ti (x86_64, cn_pnpoly_host)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_pnpoly_GTX_1080Ti.pdf'
set title 'pnpoly_GTX_1080Ti (x86_64, cn_pnpoly_host)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.png'
set title 'pnpoly_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), cn_pnpoly)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.svg'
set title 'pnpoly_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), cn_pnpoly)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.pdf'
set title 'pnpoly_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), cn_pnpoly)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_pnpoly_P100.png'
set title 'pnpoly_P100 (x86_64, cn_pnpoly_host)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_pnpoly_P100.svg'
set title 'pnpoly_P100 (x86_64, cn_pnpoly_host)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_pnpoly_P100.pdf'
set title 'pnpoly_P100 (x86_64, cn_pnpoly_host)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_pnpoly_RTX_2070_SUPER.png'
set title 'pnpoly_RTX_2070_SUPER (x86_64, cn_pnpoly_host)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_pnpoly_RTX_2070_SUPER.svg'
set title 'pnpoly_RTX_2070_SUPER (x86_64, cn_pnpoly_host)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_pnpoly_RTX_2070_SUPER.pdf'
set title 'pnpoly_RTX_2070_SUPER (x86_64, cn_pnpoly_host)'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_GEMM_GTX_1080Ti.png'
set title 'GEMM_GTX_1080Ti (GeForce GTX 1080 Ti, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_GEMM_GTX_1080Ti.svg'
set title 'GEMM_GTX_1080Ti (GeForce GTX 1080 Ti, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_GEMM_GTX_1080Ti.pdf'
set title 'GEMM_GTX_1080Ti (GeForce GTX 1080 Ti, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_GEMM_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_GEMM_P100.png'
set title 'GEMM_P100 (Tesla P100-PCIE-12GB, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_GEMM_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_GEMM_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_GEMM_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_GEMM_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_GEMM_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_GEMM_P100.svg'
set title 'GEMM_P100 (Tesla P100-PCIE-12GB, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_GEMM_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_GEMM_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_GEMM_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_GEMM_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_GEMM_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_GEMM_P100.pdf'
set title 'GEMM_P100 (Tesla P100-PCIE-12GB, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_GEMM_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_GEMM_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_GEMM_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_GEMM_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_GEMM_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_GEMM_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_GEMM_RTX_2070_SUPER.png'
set title 'GEMM_RTX_2070_SUPER (GeForce RTX 2070 SUPER, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_GEMM_RTX_2070_SUPER.svg'
set title 'GEMM_RTX_2070_SUPER (GeForce RTX 2070 SUPER, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_GEMM_RTX_2070_SUPER.pdf'
set title 'GEMM_RTX_2070_SUPER (GeForce RTX 2070 SUPER, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_GEMM_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_convolution_GTX_1080Ti.png'
set title 'convolution_GTX_1080Ti (GeForce GTX 1080 Ti, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_convolution_GTX_1080Ti.svg'
set title 'convolution_GTX_1080Ti (GeForce GTX 1080 Ti, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_convolution_GTX_1080Ti.pdf'
set title 'convolution_GTX_1080Ti (GeForce GTX 1080 Ti, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_convolution_GTX_TitanX_Maxwell.png'
set title 'convolution_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_convolution_GTX_TitanX_Maxwell.svg'
set title 'convolution_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_convolution_GTX_TitanX_Maxwell.pdf'
set title 'convolution_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_convolution_P100.png'
set title 'convolution_P100 (Tesla P100-PCIE-12GB, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_convolution_P100.svg'
set title 'convolution_P100 (Tesla P100-PCIE-12GB, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_convolution_P100.pdf'
set title 'convolution_P100 (Tesla P100-PCIE-12GB, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_convolution_RTX_2070_SUPER.png'
set title 'convolution_RTX_2070_SUPER (GeForce RTX 2070 SUPER, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_convolution_RTX_2070_SUPER.svg'
set title 'convolution_RTX_2070_SUPER (GeForce RTX 2070 SUPER, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_convolution_RTX_2070_SUPER.pdf'
set title 'convolution_RTX_2070_SUPER (GeForce RTX 2070 SUPER, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_convolution_milo_A4000.png'
set title 'convolution_milo_A4000 (NVIDIA RTX A4000, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_convolution_milo_A4000.svg'
set title 'convolution_milo_A4000 (NVIDIA RTX A4000, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_convolution_milo_A4000.pdf'
set title 'convolution_milo_A4000 (NVIDIA RTX A4000, convolution_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_convolution_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_convolution_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_dedispersion_milo_A4000.png'
set title 'dedispersion_milo_A4000 (NVIDIA RTX A4000, dedispersion_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_dedispersion_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_dedispersion_milo_A4000.svg'
set title 'dedispersion_milo_A4000 (NVIDIA RTX A4000, dedispersion_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_dedispersion_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_dedispersion_milo_A4000.pdf'
set title 'dedispersion_milo_A4000 (NVIDIA RTX A4000, dedispersion_kernel)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_dedispersion_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_dedispersion_milo_A4000.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_gemm_AMD_Vega.png'
set title 'gemm_AMD_Vega (AMD Vega, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_gemm_AMD_Vega.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_gemm_AMD_Vega.svg'
set title 'gemm_AMD_Vega (AMD Vega, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_gemm_AMD_Vega.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_gemm_AMD_Vega.pdf'
set title 'gemm_AMD_Vega (AMD Vega, Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_gemm_AMD_Vega.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_gemm_AMD_Vega.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_gemm_GTX_TitanX_Maxwell.png'
set title 'gemm_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_gemm_GTX_TitanX_Maxwell.svg'
set title 'gemm_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_gemm_GTX_TitanX_Maxwell.pdf'
set title 'gemm_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), Xgemm)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_gemm_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_pnpoly_GTX_1080Ti.png'
set title 'pnpoly_GTX_1080Ti (x86_64, cn_pnpoly_host)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_pnpoly_GTX_1080Ti.svg'
set title 'pnpoly_GTX_1080Ti (x86_64, cn_pnpoly_host)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_pnpoly_GTX_1080Ti.pdf'
set title 'pnpoly_GTX_1080Ti (x86_64, cn_pnpoly_host)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_GTX_1080Ti.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.png'
set title 'pnpoly_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), cn_pnpoly)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.svg'
set title 'pnpoly_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), cn_pnpoly)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.pdf'
set title 'pnpoly_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), cn_pnpoly)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_GTX_TitanX_Maxwell.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_pnpoly_P100.png'
set title 'pnpoly_P100 (x86_64, cn_pnpoly_host)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_pnpoly_P100.svg'
set title 'pnpoly_P100 (x86_64, cn_pnpoly_host)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_pnpoly_P100.pdf'
set title 'pnpoly_P100 (x86_64, cn_pnpoly_host)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_P100.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_P100.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_P100.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_P100.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/cartesian_pnpoly_RTX_2070_SUPER.png'
set title 'pnpoly_RTX_2070_SUPER (x86_64, cn_pnpoly_host)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/cartesian_pnpoly_RTX_2070_SUPER.svg'
set title 'pnpoly_RTX_2070_SUPER (x86_64, cn_pnpoly_host)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/cartesian_pnpoly_RTX_2070_SUPER.pdf'
set title 'pnpoly_RTX_2070_SUPER (x86_64, cn_pnpoly_host)'."\n".'cartesian convention, 50 seeds, median and 5-95% band, manifest 0430dee-326b8119'
plot 'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:11 with lines lw 2 lc 4 title 'bo', \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:15:16 with filledcurves lc 5 notitle, \
     'plots/cartesian_pnpoly_RTX_2070_SUPER.dat' using 1:14 with lines lw 2 lc 5 title 'bo:preset=plain'
unset output
}
