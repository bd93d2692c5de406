#!/usr/bin/env bash
# Runs the example host `shop-demo`, setting up and building it first when needed:
#   ./shop-demo.sh --headless --keys "enter enter"
exec "$(dirname "$0")/scripts/run-product.sh" shop-demo "$@"
