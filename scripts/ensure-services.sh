#!/usr/bin/env bash
# The brokers the tests talk to: Redis on 127.0.0.1:6379 and RabbitMQ on 127.0.0.1:5672
# (guest/guest). On this kind of machine both run already; if one is down this starts it (and
# installs it first if it is missing). It never stops or reconfigures a running service.
set -euo pipefail
up() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
install_pkg() {
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@"
}
wait_port() {
  for _ in $(seq 1 60); do up "$1" && return 0; sleep 1; done
  echo "$2 did not come up on port $1" >&2; return 1
}
if ! up 6379; then
  command -v redis-server >/dev/null || install_pkg redis-server
  echo "starting Redis on 127.0.0.1:6379"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_port 6379 Redis
fi
if ! up 5672; then
  command -v rabbitmq-server >/dev/null || install_pkg rabbitmq-server
  echo "starting RabbitMQ on 127.0.0.1:5672"
  $SUDO rabbitmq-server -detached || true
  wait_port 5672 RabbitMQ
fi
