// forge test fixture: our own reproduction of the protocol of
// karanb192/claude-code-hooks plugins/notify-permission/notify-permission.js at commit
// 811aeb7279e2517efb86acf800b73ff2089f3da8 (MIT, Copyright (c) 2026 Karan Bansal; nothing
// copied). What it reproduces: a Notification hook (matcher permission_prompt|idle_prompt|
// elicitation_dialog) that appends the notification to ~/.claude/hooks-logs/ and prints {}.
const fs = require('fs');
const path = require('path');
let raw = '';
process.stdin.on('data', (chunk) => { raw += chunk; });
process.stdin.on('end', () => {
  const note = JSON.parse(raw);
  const dir = path.join(process.env.HOME, '.claude', 'hooks-logs');
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, 'notifications.jsonl'),
    JSON.stringify({ type: note.notification_type, message: note.message }) + '\n');
  console.log('{}');
});
