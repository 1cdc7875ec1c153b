#!/bin/sh
# steps.sh: make check's driver: runs make targets on two workers (one a core), each taking the first target whose prerequisite is done, prints each target's time and worker, and fails if any failed.
# usage: steps.sh TARGET[:AFTER]...   in the order to start them (longest first);
#        a target with :AFTER starts only once the target AFTER has passed.
set -u
MAKE=${MAKE:-make}
WORKERS=${STEPS_WORKERS:-2}
WAIT_MAX=${STEPS_WAIT_MAX:-3600} # seconds a worker waits for a prerequisite at the most
log=$(mktemp -d /tmp/ngoma-steps.XXXXXX)
trap 'rm -rf "$log"' EXIT
t0=$(date +%s)

# A target is claimed by making its directory (mkdir is atomic: one worker
# wins); it passed when $log/ok.TARGET exists; any failure stops them all.
worker() { # number
    waited=0
    while [ ! -e "$log/failed" ]; do
        picked= left=0
        for spec in "$@"; do
            target=${spec%%:*}
            after=${spec#"$target"}
            after=${after#:}
            [ -d "$log/claim.$target" ] && continue
            left=1
            [ -n "$after" ] && [ ! -e "$log/ok.$after" ] && continue
            mkdir "$log/claim.$target" 2>/dev/null || continue
            picked=$target
            break
        done
        if [ -z "$picked" ]; then
            [ $left = 0 ] && return 0
            waited=$((waited + 1))
            if [ $waited -gt "$WAIT_MAX" ]; then
                echo "steps.sh: worker $W waited $WAIT_MAX s for a prerequisite" >&2
                touch "$log/failed"
                return 1
            fi
            sleep 1
            continue
        fi
        waited=0
        s=$(date +%s)
        $MAKE --no-print-directory "$picked"
        rc=$?
        echo "$W $picked $((s - t0)) $(($(date +%s) - s)) $rc" >>"$log/times"
        if [ $rc -eq 0 ]; then touch "$log/ok.$picked"; else touch "$log/failed"; fi
    done
    return 1
}

pids=
W=1
while [ $W -le "$WORKERS" ]; do
    worker "$@" &
    pids="$pids $!"
    W=$((W + 1))
done
failed=0
for p in $pids; do
    wait "$p" || failed=1
done
[ -e "$log/failed" ] && failed=1

echo "make check, the time of each target (seconds; $WORKERS workers, one a core, each starting the next target ready):"
printf '  %-8s %-26s %7s %7s  %s\n' worker target "start" "took" ""
sort -n -k3 "$log/times" | while read -r w target start took rc; do
    if [ "$rc" = 0 ]; then st=ok; else st="FAILED ($rc)"; fi
    printf '  %-8s %-26s %7s %7s  %s\n' "$w" "$target" "$start" "$took" "$st"
done
for spec in "$@"; do
    target=${spec%%:*}
    [ -d "$log/claim.$target" ] || echo "  $target did not run"
done
printf '  %-35s %7s\n' total $(($(date +%s) - t0))
[ $failed -eq 0 ]
