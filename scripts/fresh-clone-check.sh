#!/usr/bin/env bash
# Proof that the README's set-up works on a fresh clone with nothing beside it: clones this
# repository's HEAD into an empty temporary folder (nothing beside it, no .cache, no dist/), runs the
# README's two set-up commands there word for word — `npm install && npm start`, asking the server's
# /meta which Unihan release it serves, then `npm ci && npm test`. Not part of `npm test` (it runs
# the whole suite itself).
#
#   bash scripts/fresh-clone-check.sh            # keeps nothing; prints timings and the checks
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/hanja-fresh-XXXXXX)"
# Readable by all, like a checkout in a home or CI folder: the CLI tests run it as another user.
chmod 755 "$work"
server=""
# Every process working in the clone (npm, the shell it starts, tsx and the server under it).
stop_clone_processes() {
  for cwd in /proc/[0-9]*/cwd; do
    pid=${cwd#/proc/}
    pid=${pid%/cwd}
    [ "$pid" = "$$" ] && continue
    case "$(readlink "$cwd" 2>/dev/null)" in "$work/clone"*) kill -TERM "$pid" 2>/dev/null || true ;; esac
  done
}
cleanup() {
  cd /
  stop_clone_processes
  rm -rf "$work"
}
trap cleanup EXIT
unset UNIHAN_ZIP DIST_DIR
pinned="$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).version)' "$repo/pipeline/data/unihan/pin.json")"

git clone --quiet "$repo" "$work/clone"
cd "$work/clone"
echo "fresh clone of $(git rev-parse --short HEAD) in $work/clone; beside it: $(ls -A "$work" | tr '\n' ' ')"
[ "$(ls -A "$work")" = clone ] && [ ! -e .cache ] && [ ! -e dist ] || { echo "not a fresh folder" >&2; exit 1; }

# The README's first command: install and serve (building the data first).
started=$(date +%s)
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})')
(npm install --no-audit --no-fund && PORT=$port npm start) > "$work/start.log" 2>&1 &
server=$!
for _ in $(seq 1 600); do grep -qs '"msg":"listening"' "$work/start.log" && break; kill -0 "$server" 2>/dev/null || break; sleep 0.5; done
grep -q '"msg":"listening"' "$work/start.log" || { tail -30 "$work/start.log"; echo "npm install && npm start did not serve" >&2; exit 1; }
echo "npm install && npm start: listening after $(( $(date +%s) - started )) s; $(grep -m1 '^building dist/' "$work/start.log" || echo 'no build')"
meta="$(curl -fsS "http://127.0.0.1:$port/hanja/v1/meta")"
served="$(node -e 'const m=JSON.parse(process.argv[1]); process.stdout.write(`${m.data.unihan_version} (${m.data.source}), ${m.counts.characters} characters`)' "$meta")"
echo "GET /hanja/v1/meta: Unihan $served"
case "$served" in
  "$pinned "*) echo "OK: the fresh clone serves the pinned Unihan $pinned" ;;
  *) echo "FAILED: the fresh clone serves $served, not the pinned $pinned" >&2; exit 1 ;;
esac
stop_clone_processes
wait "$server" 2>/dev/null || true

# The README's second command: install and run the whole suite.
started=$(date +%s)
npm ci --no-audit --no-fund > "$work/ci.log" 2>&1 || { tail -30 "$work/ci.log"; exit 1; }
echo "npm ci: $(( $(date +%s) - started )) s"
started=$(date +%s)
npm test > "$work/test.log" 2>&1 || {
  cp "$work/test.log" /tmp/hanja-fresh-test.log
  grep -E "FAIL|✗|×" "$work/test.log" | head -40
  echo "npm test FAILED after $(( $(date +%s) - started )) s; the whole log: /tmp/hanja-fresh-test.log" >&2
  exit 1
}
echo "npm test: $(( $(date +%s) - started )) s; $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/test.log" | tail -1)"
