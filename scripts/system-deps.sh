#!/usr/bin/env bash
# Debian packages the test suite needs beyond Python: redis-server (tests start private Redis
# servers to simulate a broker outage) and chromium (the browser tests drive Debian's chromium
# through Playwright; Playwright never downloads a browser here), curl and jq (the documentation's
# shell samples, which tests/docs/test_doc_samples.py runs against a live Mnemo, call the API with
# curl and read its answers with jq). Idempotent: installs only what is missing.
set -euo pipefail
need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v jq >/dev/null 2>&1 || need+=(jq)
if ((${#need[@]})); then
  echo "installing Debian packages: ${need[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
