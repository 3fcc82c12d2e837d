#!/usr/bin/env bash
# Runs the shard jobs of a streamed certificate with GNU parallel, then joins their records
# into the certificate (see docs/streamed-certificates.md, "Jobs on several machines").
#
# usage: scripts/stream-jobs.sh JOBS_FILE [JOBS]
#   JOBS_FILE: what `puzzlec prove MODEL -o DIR --stream --jobs JOBS_FILE` wrote, one
#   command a line. JOBS: how many run at once (default: one per core; each job streams its
#   shard into two checkers, so it needs the memory of one shard, --max-memory at most).
#   A job log is kept beside the file: run the script again after a stop or a failure, and
#   only the jobs that failed or did not run are run again.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 JOBS_FILE [JOBS]" >&2; exit 2; }
file=$1 jobs=${2:-100%}
command -v parallel >/dev/null || { echo "$0: GNU parallel is not on PATH (Debian package parallel)" >&2; exit 2; }
[ -s "$file" ] || { echo "$0: $file: no jobs" >&2; exit 2; }
parallel --will-cite --jobs "$jobs" --joblog "$file.log" --resume-failed < "$file"
# Every line is `PUZZLEC prove DIR/model.toml -o DIR --job NAME`: the same with --join
# writes the manifest, or names the shard that is missing, duplicated, failed or foreign.
first=$(head -n 1 "$file")
eval "${first% --job *} --join"
