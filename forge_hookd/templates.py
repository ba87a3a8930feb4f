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

# The event JSON on stdin holds the full command (the variable may be cut at 8 KiB).
# A "real" sudo is the word alone, also after a JSON escape such as \n: pseudosudo and
# sudoku are not blocked.
_BLOCK_SUDO = (
    "if grep -Eq '(^|[^A-Za-z0-9_-]|\\\\[nrt])sudo([^A-Za-z0-9_-]|$)'; then "
    'echo "Blocked: sudo not allowed"; exit 1; fi'
)

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
        description="Block shell commands that use sudo",
    ),
}
