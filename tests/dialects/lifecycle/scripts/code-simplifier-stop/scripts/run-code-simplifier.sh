#!/bin/bash
# forge test fixture: our own reproduction of ChrisMcKee1/agentic-coding-toolkit
# hooks/code-simplifier-stop/scripts/run-code-simplifier.sh at commit
# 565ea038a345879145a00491d7c1fde724227bbf (MIT, Copyright (c) 2026 Chris McKee; nothing
# copied). It exits 0 with no output unless the payload mentions an edit tool (a stop
# payload never does): the agent stops.
INPUT=$(cat)
printf '%s\n' "$INPUT" >> "${RECORD_TO:-/dev/null}"
exit 0
