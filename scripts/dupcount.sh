#!/usr/bin/env bash
# scripts/dupcount.sh WORKTREE [OUT]: counts repeated-code pairs on the committed tree of WORKTREE's HEAD
# (plus uncommitted changes are NOT included: commit first), leaving out files beginning
# "// Code generated", applied migrations (driver/*/migrations) and Go import blocks. Writes the list to OUT.
set -euo pipefail
wt=$1; out=${2:-/tmp/dups-$(basename $wt).txt}
d=$(mktemp -d); git -C "$wt" archive HEAD | tar -x -C "$d"
( cd "$d"; grep -rl "^// Code generated" --include=*.go . | xargs -r rm -f; rm -rf driver/*/migrations
  # duplicates passes over import lines but reads the lines of a Go import ( … ) block as code: blank them, keeping line numbers
  find . -name '*.go' -print0 | xargs -0r perl -0pi -e 's{^import \((.*?)^\)}{"import (" . ($1 =~ tr/\n//cdr) . ")"}gsme' )
duplicates --repo "$d" --most 200 --seconds 240 > "$out"; rm -rf "$d"; head -1 "$out"; echo "list: $out"
