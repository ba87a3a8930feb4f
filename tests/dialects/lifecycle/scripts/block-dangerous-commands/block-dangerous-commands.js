// forge test fixture: our own reproduction of the protocol of
// karanb192/claude-code-hooks plugins/block-dangerous-commands/block-dangerous-commands.js
// at commit 811aeb7279e2517efb86acf800b73ff2089f3da8 (MIT, Copyright (c) 2026 Karan Bansal;
// nothing of it is copied: the library's rules keep fetched code out of the repository).
// What it reproduces: a Claude PreToolUse hook on Bash that prints
//   {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
//    "permissionDecisionReason": "🚨 [rm-home] rm targeting home directory"}}
// for a command such as `rm -rf ~/`, and {} otherwise. Run with CLAUDE_PLUGIN_ROOT unset,
// `node "/block-dangerous-commands.js"` cannot find the module and exits 1: Claude then runs
// the command (issue 21, gap 2).
let raw = '';
process.stdin.on('data', (chunk) => { raw += chunk; });
process.stdin.on('end', () => {
  const { tool_name: tool, tool_input: input } = JSON.parse(raw);
  const command = (input && input.command) || '';
  if (tool !== 'Bash') return console.log('{}');
  const rules = [
    { id: 'rm-home', regex: /\brm\s+(-.+\s+)*["']?~\/?["']?(\s|$|[;&|])/, reason: 'rm targeting home directory' },
    { id: 'rm-root', regex: /\brm\s+(-.+\s+)*\/(\s|$)/, reason: 'rm targeting the root directory' },
  ];
  const hit = rules.find((rule) => rule.regex.test(command));
  if (!hit) return console.log('{}');
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny',
    permissionDecisionReason: `🚨 [${hit.id}] ${hit.reason}` } }));
});
