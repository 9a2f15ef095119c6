# Convergence plots of cutune bench: best-so-far fraction of optimum against
# evaluations, median and 5-95% band over 250 seeds per searcher.
# Run from the results folder: gnuplot plots.gp
set key bottom right
set grid
set xlabel 'evaluations'
set ylabel 'fraction of optimum (t_{opt} / t_{best})'
set yrange [0:1.02]
set xrange [1:60]
set style fill transparent solid 0.18 noborder

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_convolution_GTX_1080Ti.png'
set title "convolution_GTX_1080Ti (GeForce GTX 1080 Ti, convolution_kernel)\nconstraint-aware convention, 250 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'bo:pairs=0'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_convolution_GTX_1080Ti.svg'
set title "convolution_GTX_1080Ti (GeForce GTX 1080 Ti, convolution_kernel)\nconstraint-aware convention, 250 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'bo:pairs=0'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_gemm_AMD_Vega.png'
set title "gemm_AMD_Vega (AMD Vega, Xgemm)\nconstraint-aware convention, 250 seeds, median and 5-95% band"
plot 'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:5 with lines lw 2 lc 2 title 'bo:pairs=0'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_gemm_AMD_Vega.svg'
set title "gemm_AMD_Vega (AMD Vega, Xgemm)\nconstraint-aware convention, 250 seeds, median and 5-95% band"
plot 'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:5 with lines lw 2 lc 2 title 'bo:pairs=0'
unset output
