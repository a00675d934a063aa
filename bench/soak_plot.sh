#!/bin/bash
# Draw bench/soak.py's samples (CSV: t_s, objects, objects_per_s, jobs,
# runner_peak_kib, fcgi_rss_kib) as a PNG with gnuplot: objects imported a
# second, queued jobs, and RSS (MiB) over time.
#
#   bench/soak_plot.sh soak.csv soak.png
set -euo pipefail
csv=$1 png=$2
if ! command -v gnuplot >/dev/null; then
	if [ "$(id -u)" = 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnuplot-nox >/dev/null
	else
		echo "soak_plot.sh: gnuplot is not installed (apt-get install gnuplot-nox)" >&2
		exit 1
	fi
fi
gnuplot <<GP
set datafile separator ","
set datafile missing ""
set key autotitle columnhead
set terminal pngcairo size 1200,900
set output "$png"
set multiplot layout 3,1 title "bench/soak"
set xlabel "seconds"
set ylabel "objects/s"
plot "$csv" using 1:3 with lines title "imported a second"
set ylabel "jobs"
plot "$csv" using 1:4 with lines title "queued jobs"
set ylabel "MiB"
plot "$csv" using 1:(\$5 / 1024) with points pt 7 ps 0.5 title "runner peak RSS", \
     "$csv" using 1:(\$6 / 1024) with lines title "FastCGI responder RSS"
unset multiplot
GP
