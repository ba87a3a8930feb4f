#!/bin/bash
# forge test fixture: our own reproduction of the protocol of github/awesome-copilot
# hooks/tool-guardian/guard-tool.sh at commit ab7544d03d4c49fdd07f5958e1888ad39c4118e2
# (MIT, Copyright GitHub, Inc.; nothing copied). What it reproduces: under `set -euo
# pipefail` it looks for "toolInput" in the payload (Copilot's preToolUse payload says
# "toolArgs"), and that grep failing ends the script with exit 1 on every call; a threat
# pattern found exits 1 too. Copilot 1.0.102 denies every preToolUse whose hook exits
# non-zero ("hook errored"): every tool call is denied.
set -euo pipefail
INPUT=$(cat)
TOOL_INPUT=$(printf '%s' "$INPUT" | grep -oE '"toolInput"\s*:\s*"[^"]*"' | head -1)
if printf '%s' "$TOOL_INPUT" | grep -qE 'rm -rf /|git reset --hard'; then
  echo "threat detected" && exit 1
fi
exit 0
