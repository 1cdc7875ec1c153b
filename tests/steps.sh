#!/bin/sh
# steps.sh: make check's driver: runs steps of make targets in turn, a step's lanes at once (one a core), prints each target's time, and fails if any failed.
# usage: steps.sh STEP...   where a STEP is LANE[+LANE...] and a LANE is TARGET[,TARGET...] run in turn
set -u
MAKE=${MAKE:-make}
log=$(mktemp /tmp/ngoma-steps.XXXXXX)
trap 'rm -f "$log" "$log".*' EXIT
t0=$(date +%s)
failed=0

# One lane: its targets in turn, each timed; it stops at the first that fails.
lane() { # targets (comma-separated), file for their times
    for target in $(echo "$1" | tr ',' ' '); do
        s=$(date +%s)
        $MAKE --no-print-directory "$target"
        rc=$?
        echo "$target $(( $(date +%s) - s )) $rc" >>"$2"
        [ $rc -eq 0 ] || return $rc
    done
}

n=0
for step in "$@"; do
    n=$((n + 1))
    s=$(date +%s)
    pids= k=0
    for l in $(echo "$step" | tr '+' ' '); do
        k=$((k + 1))
        lane "$l" "$log.$n.$k" &
        pids="$pids $!"
    done
    for p in $pids; do
        wait "$p" || failed=1
    done
    i=1
    while [ $i -le $k ]; do
        [ -f "$log.$n.$i" ] && sed "s/^/$( [ $k -gt 1 ] && echo "  lane $i: " )/" "$log.$n.$i" >>"$log"
        i=$((i + 1))
    done
    echo "step $n $(( $(date +%s) - s ))" >>"$log"
    [ $failed -eq 0 ] || break
done

echo "make check, the time of each step (seconds; a step's lanes run at once, one a core):"
while read -r line; do
    set -- $line
    case $1 in
    step) printf '  %-34s %5s\n' "step $2, in all" "$3" ;;
    lane) if [ "$5" = 0 ]; then st=ok; else st="FAILED ($5)"; fi
          printf '    lane %s %-26s %5s  %s\n' "${2%:}" "$3" "$4" "$st" ;;
    *) if [ "$3" = 0 ]; then st=ok; else st="FAILED ($3)"; fi
       printf '    %-32s %5s  %s\n' "$1" "$2" "$st" ;;
    esac
done <"$log"
printf '  %-34s %5s\n' total $(( $(date +%s) - t0 ))
[ $failed -eq 0 ]
