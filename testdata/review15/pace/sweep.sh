#!/bin/bash
# usage: sweep.sh binary N...   prints races and gc count per N
b=$1; shift
for n in "$@"; do
  out=$(N=$n GODEBUG=gctrace=1 $b 2>&1)
  echo "N=$n races=$(grep -c 'DATA RACE' <<<"$out") gcs=$(grep -c '^gc ' <<<"$out")"
done
