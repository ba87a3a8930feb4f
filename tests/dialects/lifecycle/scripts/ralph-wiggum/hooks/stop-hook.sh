#!/usr/bin/env python3
# forge test fixture: our own reproduction (in Python) of the protocol of the Ralph Wiggum
# plugin's Stop hook, anthropics/claude-code plugins/ralph-wiggum/hooks/stop-hook.sh at commit
# 68f90e05dd919b626c43351624fd0dc10c70b341 (that repository is "All rights reserved",
# Anthropic's Commercial Terms of Service, so nothing of it is copied here).
# What it reproduces: with .claude/ralph-loop.local.md present (frontmatter iteration,
# max_iterations, completion_promise; the body is the prompt), it reads the transcript named
# by transcript_path (Claude's JSONL), and unless the last assistant text holds
# <promise>PROMISE</promise> it bumps the iteration and answers, exit 0,
#   {"decision": "block", "reason": <the prompt>, "systemMessage": "🔄 Ralph iteration N | ..."}
# which keeps Claude working; with the promise, or at max_iterations, it says so and exits 0.
import json, os, re, sys

hook = json.load(sys.stdin)
state = ".claude/ralph-loop.local.md"
if not os.path.isfile(state):
    sys.exit(0)
text = open(state, encoding="utf-8").read()
head, _, prompt = text.partition("\n---\n")
fields = dict(line.split(":", 1) for line in head.strip("-\n").splitlines() if ":" in line)
iteration, most = int(fields["iteration"].strip()), int(fields["max_iterations"].strip())
promise = fields.get("completion_promise", "null").strip().strip('"')
if most > 0 and iteration >= most:
    print(f"🛑 Ralph loop: Max iterations ({most}) reached.")
    os.remove(state)
    sys.exit(0)
last = ""
for line in open(hook["transcript_path"], encoding="utf-8"):
    if '"role":"assistant"' in line:
        message = json.loads(line)["message"]
        last = "\n".join(c["text"] for c in message["content"] if c.get("type") == "text")
found = re.search(r"<promise>(.*?)</promise>", last, re.S)
if promise not in ("", "null") and found and " ".join(found.group(1).split()) == promise:
    print(f"✅ Ralph loop: Detected <promise>{promise}</promise>")
    os.remove(state)
    sys.exit(0)
with open(state, "w", encoding="utf-8") as out:
    out.write(text.replace(f"iteration: {iteration}", f"iteration: {iteration + 1}", 1))
print(json.dumps({"decision": "block", "reason": prompt.strip(),
                  "systemMessage": f"🔄 Ralph iteration {iteration + 1} | To stop: output <promise>{promise}</promise>"}))
