# Reading the reports of GNU time (`/usr/bin/time -v -o FILE`); sourced by the benchmarks.

# time_field NAME FILE: the value of the report's line that contains NAME (after its last ": ").
time_field() { grep -F "$1" "$2" | awk -F': ' '{ print $NF }'; }

# wall_seconds FILE: the elapsed wall time, reported as h:mm:ss or m:ss, in seconds.
wall_seconds() {
  time_field "Elapsed (wall clock)" "$1" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'
}
