#!/bin/sh
# standing.sh: ratings, reliability, draws and concessions by the CLI, checked against tests/standing.py's own computation.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-standing.XXXXXX)
trap 'rm -rf "$T"' EXIT
timeout 300 /usr/bin/python3 "$ROOT/tests/standing.py" "$1" "$T/ngoma.db"
