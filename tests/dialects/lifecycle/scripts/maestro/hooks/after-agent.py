# forge test fixture: our own reproduction (in Python) of the AfterAgent hook of
# josstei/maestro-orchestrate (hooks/hook-runner.js gemini after-agent, its Gemini adapter)
# at commit 4f5d434dded8a5e58808ad60f56c6e410f57cf7e (Apache-2.0; nothing copied). What it
# reproduces: when an agent is active and the answer lacks "## Task Report", and
# stop_hook_active is false, it "requests a retry" by answering, exit 0,
#   {"continue": false, "systemMessage": "Handoff report validation failed: ..."}
# which Gemini 0.61.0 reads as "stop the session" (no retry); otherwise {"continue": true}.
import json, sys
hook = json.load(sys.stdin)
active = "agent:" in hook.get("prompt", "")
if active and not hook.get("stop_hook_active") and "## Task Report" not in hook.get("prompt_response", ""):
    print(json.dumps({"continue": False, "systemMessage": "Handoff report validation failed: missing ## Task Report"}))
else:
    print(json.dumps({"continue": True}))
