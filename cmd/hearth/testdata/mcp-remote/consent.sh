#!/bin/sh
# The browser mcp-remote opens for the OAuth consent (see consent.mjs).
exec node "$(dirname "$0")/consent.mjs" "$1" >>"${HEARTH_CONSENT_LOG:-/dev/stderr}" 2>&1
