#!/usr/bin/env bash
# Build the minimal C ncurses baseline.
#   OUT=path  output binary (relative to the current directory);
#             default: "list" beside this script.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cc -O2 -o "${OUT:-$here/list}" "$here/list.c" -lncursesw
