# Convergence plots of cutune bench: best-so-far fraction of optimum against
# evaluations, median and 5-95% band over 50 seeds per searcher.
# Run from the results folder: gnuplot plots.gp
# Manifest 0430dee-22521a21 (results.json)
set key bottom right
set grid
set xlabel 'evaluations'
set ylabel 'fraction of optimum (t_{opt} / t_{best})'
set yrange [0:1.02]
set xrange [1:200]
set style fill transparent solid 0.18 noborder

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_blur.png'
set title 'blur (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_blur.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_blur.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_blur.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_blur.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_blur.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_blur.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_blur.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_blur.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_blur.svg'
set title 'blur (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_blur.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_blur.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_blur.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_blur.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_blur.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_blur.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_blur.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_blur.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_blur.pdf'
set title 'blur (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_blur.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_blur.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_blur.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_blur.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_blur.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_blur.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_blur.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_blur.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_gemm.png'
set title 'gemm (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_gemm.svg'
set title 'gemm (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_gemm.pdf'
set title 'gemm (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_gemm-energy.png'
set title 'gemm-energy (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm-energy.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm-energy.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm-energy.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm-energy.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_gemm-energy.svg'
set title 'gemm-energy (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm-energy.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm-energy.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm-energy.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm-energy.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_gemm-energy.pdf'
set title 'gemm-energy (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm-energy.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm-energy.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm-energy.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm-energy.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm-energy.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_gemm_h.png'
set title 'gemm_h (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_h.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_h.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_h.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_h.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_gemm_h.svg'
set title 'gemm_h (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_h.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_h.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_h.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_h.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_gemm_h.pdf'
set title 'gemm_h (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_h.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_h.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_h.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_h.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_h.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_gemm_h_fp16.png'
set title 'gemm_h_fp16 (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_h_fp16.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_gemm_h_fp16.svg'
set title 'gemm_h_fp16 (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_h_fp16.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_gemm_h_fp16.pdf'
set title 'gemm_h_fp16 (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_h_fp16.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_h_fp16.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_gemm_h_tf32.png'
set title 'gemm_h_tf32 (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_h_tf32.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_gemm_h_tf32.svg'
set title 'gemm_h_tf32 (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_h_tf32.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_gemm_h_tf32.pdf'
set title 'gemm_h_tf32 (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_h_tf32.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_h_tf32.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_gemm_tf32.png'
set title 'gemm_tf32 (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_tf32.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_tf32.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_tf32.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_tf32.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_gemm_tf32.svg'
set title 'gemm_tf32 (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_tf32.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_tf32.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_tf32.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_tf32.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_gemm_tf32.pdf'
set title 'gemm_tf32 (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_gemm_tf32.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_gemm_tf32.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_gemm_tf32.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_gemm_tf32.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_gemm_tf32.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_reduction.png'
set title 'reduction (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_reduction.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_reduction.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_reduction.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_reduction.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_reduction.svg'
set title 'reduction (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_reduction.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_reduction.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_reduction.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_reduction.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_reduction.pdf'
set title 'reduction (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_reduction.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_reduction.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_reduction.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_reduction.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_reduction.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_reduction-energy.png'
set title 'reduction-energy (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_reduction-energy.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_reduction-energy.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_reduction-energy.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_reduction-energy.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_reduction-energy.svg'
set title 'reduction-energy (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_reduction-energy.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_reduction-energy.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_reduction-energy.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_reduction-energy.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_reduction-energy.pdf'
set title 'reduction-energy (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_reduction-energy.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_reduction-energy.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_reduction-energy.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_reduction-energy.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_reduction-energy.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_spmv.png'
set title 'spmv (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_spmv.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_spmv.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_spmv.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_spmv.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_spmv.svg'
set title 'spmv (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_spmv.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_spmv.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_spmv.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_spmv.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_spmv.pdf'
set title 'spmv (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_spmv.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_spmv.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_spmv.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_spmv.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_spmv.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_transpose.png'
set title 'transpose (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_transpose.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_transpose.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_transpose.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_transpose.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_transpose.svg'
set title 'transpose (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_transpose.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_transpose.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_transpose.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_transpose.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_transpose.pdf'
set title 'transpose (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_transpose.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_transpose.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_transpose.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_transpose.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_transpose.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_vector_add.png'
set title 'vector_add (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_vector_add.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_vector_add.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_vector_add.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_vector_add.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_vector_add.svg'
set title 'vector_add (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_vector_add.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_vector_add.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_vector_add.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_vector_add.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_vector_add.pdf'
set title 'vector_add (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_vector_add.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_vector_add.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_vector_add.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_vector_add.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_vector_add.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}

set terminal pngcairo size 900,600 noenhanced
set output 'plots/constraint-aware_xgemm.png'
set title 'xgemm (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_xgemm.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_xgemm.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_xgemm.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_xgemm.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

set terminal svg size 900,600 dynamic noenhanced
set output 'plots/constraint-aware_xgemm.svg'
set title 'xgemm (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_xgemm.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_xgemm.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_xgemm.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_xgemm.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output

if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
set terminal pdfcairo size 6in,4in noenhanced
set output 'plots/constraint-aware_xgemm.pdf'
set title 'xgemm (NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0), )'."\n".'constraint-aware convention, 50 seeds, median and 5-95% band, manifest 0430dee-22521a21'
plot 'plots/constraint-aware_xgemm.dat' using 1:3:4 with filledcurves lc 1 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:2 with lines lw 2 lc 1 title 'random', \
     'plots/constraint-aware_xgemm.dat' using 1:6:7 with filledcurves lc 2 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:5 with lines lw 2 lc 2 title 'grid', \
     'plots/constraint-aware_xgemm.dat' using 1:9:10 with filledcurves lc 3 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:8 with lines lw 2 lc 3 title 'genetic', \
     'plots/constraint-aware_xgemm.dat' using 1:12:13 with filledcurves lc 4 notitle, \
     'plots/constraint-aware_xgemm.dat' using 1:11 with lines lw 2 lc 4 title 'bo'
unset output
}
