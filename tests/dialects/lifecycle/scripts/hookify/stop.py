# forge test fixture: our own reproduction of the protocol of anthropics/claude-code
# plugins/hookify/hooks/stop.py with examples/require-tests-stop.local.md, at commit
# 59372c0921b0170e81f9c63777962d02347411d5 ("All rights reserved"; nothing copied). What it
# reproduces: a Stop rule whose condition is that the transcript does not contain the literal
# text "npm test|pytest|cargo test" blocks the stop, exit 0:
#   {"decision": "block", "reason": "**[require-tests-run]** ...", "systemMessage": "..."}
import json, sys
hook = json.load(sys.stdin)
transcript = open(hook["transcript_path"], encoding="utf-8").read()
if "npm test|pytest|cargo test" not in transcript:
    reason = "**[require-tests-run]**\nTests not detected in transcript! Run the tests before stopping."
    print(json.dumps({"decision": "block", "reason": reason, "systemMessage": reason}))
