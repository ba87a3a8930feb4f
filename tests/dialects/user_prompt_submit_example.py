#!/usr/bin/env python3
"""After the UserPromptSubmit example of Claude Code's hooks reference: block a prompt
that looks like it holds a secret (JSON "decision": "block" on exit 0), else add the
time as context (plain stdout on exit 0, which Claude adds to the model's context)."""

import datetime
import json
import re
import sys

try:
    input_data = json.load(sys.stdin)
except json.JSONDecodeError as e:
    print(f"Error: Invalid JSON input: {e}", file=sys.stderr)
    sys.exit(1)

prompt = input_data.get("prompt", "")
if re.search(r"(?i)\b(password|secret|key|token)\s*[:=]", prompt):
    print(json.dumps({"decision": "block",
                      "reason": "Security policy violation: Prompt contains potential secrets. "
                                "Please rephrase your request without sensitive information."}))
    sys.exit(0)
print(f"Current time: {datetime.datetime.now()}")
sys.exit(0)
