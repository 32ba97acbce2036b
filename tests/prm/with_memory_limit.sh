#!/bin/sh
# usage: with_memory_limit.sh ARGS...: runs $HAMILTON_BINARY ARGS under
# 'ulimit -v $MEMORY_LIMIT_KB' (the address-space limit a batch system or a
# user sets), for the tests of the continuum's memory estimate
ulimit -v "$MEMORY_LIMIT_KB" || exit 77
exec "$HAMILTON_BINARY" "$@"
