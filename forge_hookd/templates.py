"""Ready-made hooks. Event data reaches them only through FORGE_* variables and stdin,
never by substitution into the command text (DESIGN.md: no string templating)."""

from __future__ import annotations

from .registry import Hook

_LOG_ALL = (
    'dir="${XDG_STATE_HOME:-$HOME/.local/state}/forge" && mkdir -p "$dir" && '
    "printf '%s\\t%s\\t%s\\t%s\\n' \"$FORGE_TIMESTAMP\" \"$FORGE_EVENT\" "
    '"${FORGE_TOOL_NAME:--}" "${FORGE_SESSION_ID:--}" >> "$dir/events.log"'
)

_NOTIFY_SESSION_START = (
    'msg="forge session started: ${FORGE_SESSION_ID:-unknown}"; '
    'if command -v notify-send >/dev/null 2>&1; then notify-send "Forge" "$msg" || true; fi; '
    'echo "$msg"'
)

_GIT_AUTO_COMMIT = (
    "git rev-parse --is-inside-work-tree >/dev/null 2>&1 || exit 0; "
    "git add -A && { git diff --cached --quiet || "
    'git commit -q -m "forge: auto-commit after ${FORGE_TOOL_NAME:-tool}"; }'
)

# block_sudo judges data.tool_args.command of the event JSON on stdin (the variable may be
# cut at 8 KiB), in POSIX awk so that it needs nothing beyond the shell's own tools (no
# python3 on PATH, no jq): one gsub puts each JSON token on a line, a walk keeps the key
# of every level, gsubs unescape the command (linear, also for a 100,000-line heredoc),
# and a privilege-raising word is looked for where a command starts: at the start, after
# ; & | ( $( ` { ! a newline or a quote (as in sh -c "sudo ..."), after assignments
# (FOO=1) and wrappers (env, exec, nohup ...), with or without a path (/usr/bin/sudo).
# A guard rail against mistakes, not a sandbox: s"u"do, $(printf sudo) or a script that
# calls sudo pass. Its cost is in bench/README.md (bench/guards.py).
_BLOCK_SUDO = "awk '" + r"""{ s = s $0 "\n" }
END {
  gsub(/"([^"\\]|\\.)*"|[][{}:,]/, "\n&\n", s)
  n = split(s, t, "\n"); d = 0
  for (i = 1; i <= n; i++) {
    x = t[i]; sub(/^[ \t\r]+/, "", x); sub(/[ \t\r]+$/, "", x)
    if (x == "") continue
    if (x == "{" || x == "[") { d++; key[d] = ""; continue }
    if (x == "}" || x == "]") { d--; continue }
    if (substr(x, 1, 1) != "\"") continue
    for (j = i + 1; j <= n && t[j] ~ /^[ \t\r]*$/; j++) ;
    if (t[j] ~ /^[ \t\r]*:/) { key[d] = x; i = j; continue }
    if (d == 3 && key[1] == "\"data\"" && key[2] == "\"tool_args\"" && key[3] == "\"command\"") cmd = cmd "\n" x
  }
  c = cmd
  gsub(/\\\\/, "\001", c)
  gsub(/\\[nr]/, "\n", c); gsub(/\\u[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]|\\[tbf]/, " ", c)
  gsub(/\\/, "", c); gsub(/\001/, "\\", c)
  split("sudo doas sudoedit pkexec su", w, " ")
  for (k = 1; k <= 5; k++)
    if (c ~ ("(^|[\n;&|(`{!\"\047])[ \t]*(([A-Za-z_][A-Za-z0-9_]*=[^ \t;&|()]*|env|exec|command|nohup|nice|time|builtin|then|do|else|xargs)[ \t]+)*([^ \t\n;&|()`]*/)?\\\\?[\"\047]?" w[k] "[\"\047]?([ \t\n;&|)`]|$)")) {
      print "Blocked: " w[k] " not allowed"; exit 1
    }
}
""" + "'"

HOOK_TEMPLATES: dict[str, Hook] = {
    "log_all": Hook(
        "*", _LOG_ALL, timeout=5.0, blocking=False,
        description="Append every event to ${XDG_STATE_HOME:-~/.local/state}/forge/events.log",
    ),
    "notify_session_start": Hook(
        "session:start", _NOTIFY_SESSION_START, timeout=5.0, blocking=False,
        description="Say (and notify, where notify-send exists) that a session started",
    ),
    "git_auto_commit": Hook(
        "tool:post_execute:write,tool:post_execute:edit", _GIT_AUTO_COMMIT, timeout=30.0, blocking=False,
        description="Commit every change after a write or edit tool ran",
    ),
    "block_sudo": Hook(
        "tool:pre_execute:bash", _BLOCK_SUDO, timeout=5.0,
        description="Block shell commands that raise privileges (sudo, doas, sudoedit, pkexec, su); "
                    "a guard rail against mistakes, not a sandbox",
    ),
}
