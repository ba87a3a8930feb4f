#!/bin/sh
# forge test fixture: our own reproduction of OthmanAdi/planning-with-files
# .github/hooks/scripts/agent-stop.sh at commit 9e94390e5912b1ff296556505cd999ff84838160
# (MIT, Copyright (c) 2026 Ahmad Adi; nothing copied). With unfinished phases in
# task_plan.md it answers Claude's form, which Copilot 1.0.102 ignores on agentStop:
#   {"hookSpecificOutput":{"hookEventName":"AgentStop","additionalContext":"... continue working ..."}}
cat > /dev/null
if [ -f task_plan.md ] && grep -q "in_progress" task_plan.md; then
  printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"AgentStop","additionalContext":"[planning-with-files] Task incomplete (1/2 phases done). Continue working on the remaining phases."}}'
fi
