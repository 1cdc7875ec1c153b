#!/bin/sh
# press.sh: press between players by mail in games of every kind, checked by tests/press.py: who receives each message, and who learns nothing.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ngoma-press.XXXXXX)
trap 'rm -rf "$T"' EXIT
timeout 300 /usr/bin/python3 "$ROOT/tests/press.py" "$1" "$T/work"
