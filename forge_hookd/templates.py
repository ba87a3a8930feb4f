"""Ready-made hooks. Event data reaches them only through FORGE_* variables and stdin,
never by substitution into the command text (DESIGN.md: no string templating); the
guard among them is a built-in guard (guards/), judged without a process."""

from __future__ import annotations

from forge_hookd.registry import Hook

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
    # The built-in privilege_escalation guard, judged in-process (guards/privilege.py):
    # until issue 22 a shell hook in awk, kept in bench/block_sudo_awk.sh as the baseline
    # of its cost. Its reason still begins "Blocked: WORD not allowed".
    "block_sudo": Hook(
        "tool:pre_execute:bash", guard="privilege_escalation",
        description="Block shell commands that raise privileges (sudo, doas, sudoedit, pkexec, su, "
                    "chmod 777, chown of the system): the built-in privilege_escalation guard",
    ),
}
