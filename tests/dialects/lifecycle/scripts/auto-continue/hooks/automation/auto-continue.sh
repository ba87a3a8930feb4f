#!/bin/bash
# forge test fixture: our own reproduction of itsmeboris/ai-agent-ecosystem
# hooks/automation/auto-continue.sh at commit 4a3bda65642d8b9bcd165a81072257f13583c5f6 (MIT,
# Copyright (c) 2025 AI Agent Ecosystem; nothing copied). Installed user-level
# (~/.cursor/hooks.json, command ./hooks/automation/auto-continue.sh, relative to ~/.cursor).
# A Cursor stop hook: with status "completed", loop_count < 4 and a pending task in
# <workspace_roots[0]>/workspaces/SHARED_PROGRESS.md it answers
#   {"followup_message": "🔄 Auto-continuing execution: ... (Auto-loop N/4)"}
# else {"followup_message": ""}; it logs to ~/.cursor/auto-continue.log. Always exit 0.
input=$(cat)
status=$(printf '%s' "$input" | jq -r '.status // empty')
loop_count=$(printf '%s' "$input" | jq -r '.loop_count // 0')
root=$(printf '%s' "$input" | jq -r '.workspace_roots[0] // empty')
echo "STOP status=$status loop_count=$loop_count" >> ~/.cursor/auto-continue.log
progress="$root/workspaces/SHARED_PROGRESS.md"
if [[ "$status" == "completed" && $loop_count -lt 4 && -f "$progress" ]] && grep -q "Status.*Pending" "$progress"; then
  jq -n --arg msg "🔄 Auto-continuing execution: pending tasks in SHARED_PROGRESS.md. (Auto-loop $((loop_count + 1))/4)" \
    '{followup_message: $msg}'
  exit 0
fi
echo '{"followup_message":""}'
