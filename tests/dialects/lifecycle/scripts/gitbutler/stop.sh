#!/bin/sh
# forge test fixture: our own stand-in for GitButler's `but cursor stop`
# (gitbutlerapp/gitbutler crates/but-cursor/src/lib.rs at commit
# 079f07615aeb52636f085771dc4117298cf639fd, FSL-1.0-MIT; nothing copied): it prints
# CursorHookOutput::default(), {"continue":false,"userMessage":"","agentMessage":""}, exit 0.
# Cursor reads no followup_message there: the agent stops.
cat > /dev/null
printf '%s\n' '{"continue":false,"userMessage":"","agentMessage":""}'
