#!/usr/bin/env bash
# Prints the newest supported Python (3.13, 3.12, 3.11) found on this machine, as an absolute
# path; with "--all", every supported one found, newest first, one per line. Looks on PATH
# (python3.13 ...), in pyenv's versions and in the usual system folders, and keeps only an
# interpreter that really runs, is that version and can make a virtualenv.
set -uo pipefail
SUPPORTED=(3.13 3.12 3.11)
check() {  # $1: candidate executable, $2: wanted "3.x"; prints its resolved path if good
  local exe=$1 want=$2
  "$exe" - "$want" <<'PY' 2>/dev/null
import sys, venv, ensurepip  # venv and ensurepip: Debian ships them apart (python3-venv)
want = tuple(int(p) for p in sys.argv[1].split("."))
sys.exit(0 if sys.version_info[:2] == want and print(sys.executable) is None else 1)
PY
}
found=()
for v in "${SUPPORTED[@]}"; do
  for exe in "python$v" "$HOME"/.pyenv/versions/"$v"*/bin/"python$v" "/usr/local/bin/python$v" "/usr/bin/python$v"; do
    if path=$(check "$exe" "$v") && [ -n "$path" ]; then found+=("$path"); break; fi
  done
done
if [ ${#found[@]} -eq 0 ]; then
  echo "no supported Python found (need 3.11, 3.12 or 3.13; or set PYTHON=...)" >&2
  exit 1
fi
if [ "${1:-}" = "--all" ]; then printf '%s\n' "${found[@]}"; else echo "${found[0]}"; fi
