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
    serve) echo 4 ;;
    cli) echo 5 ;;
    *) echo x ;;
    esac
}

bad=0
files=0
for f in src/*/*.c src/*/*.h; do
    layer=$(basename "$(dirname "$f")")
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
[ "$bad" -eq 0 ]
