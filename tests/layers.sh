#!/bin/sh
# layers.sh: checks that every file of src/ includes only its own layer's headers and those of layers below it.
set -eu
cd "$(dirname "$0")/.."

# The layers from the bottom up (docs/architecture.md); layers of one rank
# know nothing of each other.
rank() {
    case $1 in
    lib) echo 0 ;;
    store | games | render) echo 1 ;;
    core | mail) echo 2 ;;
    judge) echo 3 ;;
    intake | site) echo 4 ;;
    serve) echo 5 ;;
    cli) echo 6 ;;
    *) echo x ;;
    esac
}

bad=0
files=0
for f in src/*/*.c src/*/*.h src/*/*/*.c src/*/*/*.h; do
    [ -e "$f" ] || continue
    # Its layer: the folder under src/ (a game may have a folder of its own in games/).
    layer=$(echo "$f" | cut -d/ -f2)
    mine=$(rank "$layer")
    if [ "$mine" = x ]; then
        echo "layers.sh: $f is in src/$layer, which is no layer" >&2
        bad=$((bad + 1))
        continue
    fi
    files=$((files + 1))
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        case $inc in
        */*) dep=${inc%%/*} ;;
        *)
            echo "layers.sh: $f includes \"$inc\" without its layer folder" >&2
            bad=$((bad + 1))
            continue
            ;;
        esac
        [ "$dep" = "$layer" ] && continue
        theirs=$(rank "$dep")
        if [ "$theirs" = x ] || [ "$theirs" -ge "$mine" ]; then
            echo "layers.sh: $f ($layer) includes $inc ($dep): a layer includes only layers below it" >&2
            bad=$((bad + 1))
        fi
    done
done
echo "layers.sh: $files files, $bad wrong includes"

# Direction between files too: a file that uses another (includes the
# header of a .c, or a header of types that includes one) is never used
# by it, by way of any others. tsort finds the circles.
includes_of() { sed -n 's/^#include "\([^"]*\)".*/\1/p' "$1"; }
# The .c files a file uses: through headers that have no .c of their own.
uses() { # file, headers seen
    for inc in $(includes_of "$1"); do
        case " $2 " in *" $inc "*) continue ;; esac
        if [ -f "src/${inc%.h}.c" ]; then
            echo "src/${inc%.h}.c"
        elif [ -f "src/$inc" ]; then
            uses "src/$inc" "$2 $inc"
        fi
    done
}
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in src/*/*.c src/*/*/*.c; do
    [ -e "$f" ] || continue
    echo "$f $f" >>"$edges"
    for d in $(uses "$f" "${f#src/}" | sort -u); do
        [ "$d" = "$f" ] || echo "$d $f" >>"$edges"
    done
done
circles=$(tsort "$edges" 2>&1 >/dev/null | grep -v "input contains a loop" | sed 's/^tsort: //' | tr '\n' ' ')
if [ -n "$circles" ]; then
    echo "layers.sh: files that use each other, by way of others: $circles" >&2
    bad=$((bad + 1))
fi
[ -n "$circles" ] || echo "layers.sh: $(wc -l <"$edges") uses between files, no circle"
[ "$bad" -eq 0 ]
