#!/bin/sh
# steps.sh: runs make targets one after another (or two at once, joined by +), prints each one's time, and fails if any failed; make check's driver.
# usage: steps.sh TARGET|TARGET+TARGET ...
set -u
MAKE=${MAKE:-make}
log=$(mktemp /tmp/ngoma-steps.XXXXXX)
trap 'rm -f "$log" "$log".*' EXIT
fails=0
t0=$(date +%s)
run_one() { # target, file for its time
    s=$(date +%s)
    $MAKE --no-print-directory "$1"
    rc=$?
    echo "$1 $(( $(date +%s) - s )) $rc" >"$2"
    return $rc
}
n=0
for step in "$@"; do
    n=$((n + 1))
    case $step in
    *+*)
        a=${step%%+*} b=${step#*+}
        run_one "$a" "$log.$n.a" & pa=$!
        run_one "$b" "$log.$n.b"; rb=$?
        wait $pa; ra=$?
        cat "$log.$n.a" "$log.$n.b" >>"$log"
        [ $ra -eq 0 ] && [ $rb -eq 0 ] || fails=$((fails + 1))
        ;;
    *)
        run_one "$step" "$log.$n" || fails=$((fails + 1))
        cat "$log.$n" >>"$log"
        ;;
    esac
    [ $fails -eq 0 ] || break
done
echo "make check, the time of each step (seconds; two at once share the cores):"
while read -r name secs rc; do
    if [ "$rc" = 0 ]; then st=ok; else st="FAILED ($rc)"; fi
    printf '  %-22s %5s  %s\n' "$name" "$secs" "$st"
done <"$log"
printf '  %-22s %5s\n' total $(( $(date +%s) - t0 ))
[ $fails -eq 0 ]
