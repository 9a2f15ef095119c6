# Convergence plots of cutune bench: best-so-far fraction of optimum against
# evaluations, median and 5-95% band over 50 seeds per searcher.
# Run from the results folder: gnuplot plots.gp
set key bottom right
set grid
set xlabel 'evaluations'
set ylabel 'fraction of optimum (t_{opt} / t_{best})'
set yrange [0:1.02]
set xrange [1:20]
set style fill transparent solid 0.18 noborder

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_GEMM_GTX_1080Ti.png'
set title "GEMM_GTX_1080Ti (GeForce GTX 1080 Ti, Xgemm)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_GEMM_GTX_1080Ti.svg'
set title "GEMM_GTX_1080Ti (GeForce GTX 1080 Ti, Xgemm)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_GEMM_P100.png'
set title "GEMM_P100 (Tesla P100-PCIE-12GB, Xgemm)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_GEMM_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_GEMM_P100.svg'
set title "GEMM_P100 (Tesla P100-PCIE-12GB, Xgemm)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_GEMM_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_GEMM_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_P100.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_GEMM_RTX_2070_SUPER.png'
set title "GEMM_RTX_2070_SUPER (GeForce RTX 2070 SUPER, Xgemm)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_GEMM_RTX_2070_SUPER.svg'
set title "GEMM_RTX_2070_SUPER (GeForce RTX 2070 SUPER, Xgemm)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_GEMM_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_convolution_GTX_1080Ti.png'
set title "convolution_GTX_1080Ti (GeForce GTX 1080 Ti, convolution_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_convolution_GTX_1080Ti.svg'
set title "convolution_GTX_1080Ti (GeForce GTX 1080 Ti, convolution_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.png'
set title "convolution_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), convolution_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.svg'
set title "convolution_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), convolution_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_convolution_P100.png'
set title "convolution_P100 (Tesla P100-PCIE-12GB, convolution_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_convolution_P100.svg'
set title "convolution_P100 (Tesla P100-PCIE-12GB, convolution_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_P100.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_convolution_RTX_2070_SUPER.png'
set title "convolution_RTX_2070_SUPER (GeForce RTX 2070 SUPER, convolution_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_convolution_RTX_2070_SUPER.svg'
set title "convolution_RTX_2070_SUPER (GeForce RTX 2070 SUPER, convolution_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_convolution_milo_A4000.png'
set title "convolution_milo_A4000 (NVIDIA RTX A4000, convolution_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_convolution_milo_A4000.svg'
set title "convolution_milo_A4000 (NVIDIA RTX A4000, convolution_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_convolution_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_convolution_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_dedispersion_milo_A4000.png'
set title "dedispersion_milo_A4000 (NVIDIA RTX A4000, dedispersion_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_dedispersion_milo_A4000.svg'
set title "dedispersion_milo_A4000 (NVIDIA RTX A4000, dedispersion_kernel)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_dedispersion_milo_A4000.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_gemm_AMD_Vega.png'
set title "gemm_AMD_Vega (AMD Vega, Xgemm)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_gemm_AMD_Vega.svg'
set title "gemm_AMD_Vega (AMD Vega, Xgemm)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_AMD_Vega.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.png'
set title "gemm_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), Xgemm)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.svg'
set title "gemm_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), Xgemm)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_pnpoly_GTX_1080Ti.png'
set title "pnpoly_GTX_1080Ti (x86_64, cn_pnpoly_host)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_pnpoly_GTX_1080Ti.svg'
set title "pnpoly_GTX_1080Ti (x86_64, cn_pnpoly_host)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_GTX_1080Ti.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.png'
set title "pnpoly_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), cn_pnpoly)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.svg'
set title "pnpoly_GTX_TitanX_Maxwell (GTX Titan X (Maxwell), cn_pnpoly)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_GTX_TitanX_Maxwell.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_pnpoly_P100.png'
set title "pnpoly_P100 (x86_64, cn_pnpoly_host)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_pnpoly_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_pnpoly_P100.svg'
set title "pnpoly_P100 (x86_64, cn_pnpoly_host)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_pnpoly_P100.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_P100.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_pnpoly_RTX_2070_SUPER.png'
set title "pnpoly_RTX_2070_SUPER (x86_64, cn_pnpoly_host)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_pnpoly_RTX_2070_SUPER.svg'
set title "pnpoly_RTX_2070_SUPER (x86_64, cn_pnpoly_host)\nconstraint-aware convention, 50 seeds, median and 5-95% band"
plot 'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:2 with lines lw 2 lc 1 title 'bo', \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_pnpoly_RTX_2070_SUPER.dat' using 1:5 with lines lw 2 lc 2 title 'bo:early=edge'
unset output
