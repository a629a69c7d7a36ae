#!/bin/sh
# Starts one process of the platform. The image holds them all; pick one with the APP variable
# or the container's command (the command wins):
#
#   gateway | otp | sms-dispatcher | billing | webhook-notifier   run that app
#   migrate                                                       apply database migrations, exit
#   admin <command> [args...]                                     run the admin CLI
#
# Arguments after the app's name are passed on to it.
set -eu

# register.js and the compiled paths below are relative to the image's root (/app).
cd "$(dirname "$0")/.."

if [ "$#" -gt 0 ]; then
  APP=$1
  shift
fi
APP=${APP:-}

admin_cli=dist/out/tools/admin/src/main.js

apps() {
  ls dist/out/apps 2>/dev/null | tr '\n' ' '
}

case "$APP" in
  '')
    echo "entrypoint: no app given. Set APP or pass one of: $(apps)migrate admin" >&2
    exit 64
    ;;
  migrate)
    exec node -r ./tools/runtime/register.js "$admin_cli" db:migrate "$@"
    ;;
  admin)
    exec node -r ./tools/runtime/register.js "$admin_cli" "$@"
    ;;
  */* | .*)
    echo "entrypoint: '$APP' is not an app name" >&2
    exit 64
    ;;
esac

main="dist/out/apps/$APP/src/main.js"
if [ ! -f "$main" ]; then
  echo "entrypoint: unknown app '$APP'. Known: $(apps)migrate admin" >&2
  exit 64
fi
# Node's own options for an app, as `npm start` gives them (tools/dev-stack/src/processes.ts).
node_flags=
case "$APP" in
  sms-dispatcher) node_flags="--max-semi-space-size=64 --no-allocation-site-pretenuring --heap-growing-percent=200" ;;
esac
# shellcheck disable=SC2086 # node_flags is a list of words
exec node $node_flags -r ./tools/runtime/register.js "$main" "$@"
