#!/usr/bin/env bash
# tools/book decides what to install by asking dpkg, never by probing files. A fake dpkg-query on
# PATH answers for a machine where libopenblas-dev was removed (apt-get remove leaves its status
# "deinstall ok config-files") while Debian's reference BLAS still provides a cblas.h, and
# libbenchmark-dev was removed too: every command must install libopenblas-dev; only the full check
# (test --all, whose bench group compiles the benchmarks) and bench must install libbenchmark-dev;
# and only bench PyTorch.
set -euo pipefail
book="$(cd "$(dirname "$0")" && pwd)/book"
fake="$(mktemp -d)"
trap 'rm -rf "$fake"' EXIT

cat >"$fake/dpkg-query" <<'FAKE'
#!/bin/sh
# dpkg-query -W -f='${Status}' PACKAGE (the last argument is the package)
for pkg; do :; done
case "$pkg" in
  libopenblas-dev|libbenchmark-dev) printf 'deinstall ok config-files' ;;
  python3-torch) echo "dpkg-query: no packages found matching $pkg" >&2; exit 1 ;;
  *) printf 'install ok installed' ;;
esac
FAKE
chmod +x "$fake/dpkg-query"

fail=0
expect() {  # COMMAND EXPECTED-MISSING...
  local cmd="$1"
  shift
  local got want
  got="$(PATH="$fake:$PATH" "$book" missing "$cmd" | tr '\n' ' ')"
  want="$*"
  [ -n "$want" ] && want="$want "
  if [ "$got" = "$want" ]; then
    echo "ok: tools/book $cmd would install: ${want:-nothing}"
  else
    echo "FAILED: tools/book $cmd would install '$got', expected '$want'"
    fail=1
  fi
}
expect build libopenblas-dev
expect test libopenblas-dev
expect all libopenblas-dev libbenchmark-dev
expect bench libopenblas-dev libbenchmark-dev python3-torch

# Every package of the list is one Debian knows by that exact name (when apt-cache can say).
if command -v apt-cache >/dev/null 2>&1 && apt-cache show cmake >/dev/null 2>&1; then
  if ! apt-cache show $("$book" packages) >/dev/null 2>&1; then
    for pkg in $("$book" packages); do
      apt-cache show "$pkg" >/dev/null 2>&1 || { echo "FAILED: Debian has no package '$pkg'"; fail=1; }
    done
  fi
fi
exit $fail
