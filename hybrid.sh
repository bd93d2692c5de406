#!/usr/bin/env bash
# Runs the `hybrid` command line, setting up and building it first when needed:
#   ./hybrid.sh render samples/dashboard.json
exec "$(dirname "$0")/scripts/run-product.sh" hybrid "$@"
