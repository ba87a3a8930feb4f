#!/usr/bin/env python3
"""A trimmed copy of anthropics/claude-code examples/hooks/bash_command_validator_example.py
(the logic unchanged: a Claude Code PreToolUse hook that rejects grep and find -name).
The tests run it, unmodified in behaviour, as a "format": "claude" hook under every dialect."""

import json
import re
import sys

_VALIDATION_RULES = [
    (r"^grep\b(?!.*\|)", "Use 'rg' (ripgrep) instead of 'grep' for better performance and features"),
    (r"^find\s+\S+\s+-name\b",
     "Use 'rg --files | rg pattern' or 'rg --files -g pattern' instead of 'find -name' for better performance"),
]


def _validate_command(command):
    return [message for pattern, message in _VALIDATION_RULES if re.search(pattern, command)]


def main():
    try:
        input_data = json.load(sys.stdin)
    except json.JSONDecodeError as e:
        print(f"Error: Invalid JSON input: {e}", file=sys.stderr)
        sys.exit(1)  # Exit code 1 shows stderr to the user but not to Claude
    if input_data.get("tool_name", "") != "Bash":
        sys.exit(0)
    command = input_data.get("tool_input", {}).get("command", "")
    if not command:
        sys.exit(0)
    issues = _validate_command(command)
    if issues:
        for message in issues:
            print(f"• {message}", file=sys.stderr)
        sys.exit(2)  # Exit code 2 blocks tool call and shows stderr to Claude


if __name__ == "__main__":
    main()
