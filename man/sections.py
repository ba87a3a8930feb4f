"""The prose sections of the man pages (the OPTIONS come from the click commands)."""

from __future__ import annotations

FORGE_HOOK_RUN = {
    "INPUT": """
One JSON object on stdin, exactly the shape HookEvent.to_json() writes:

  {"type": "tool:pre_execute", "timestamp": 1763700000.5,
   "data": {"tool_args": {"command": "ls -la"}},
   "tool_name": "bash", "session_id": "sess_abc123"}

type is required and is one of: tool:pre_execute, tool:post_execute, tool:error, llm:pre_request, llm:post_response, llm:stream_start, llm:stream_end, session:start, session:end, session:message, permission:check, permission:prompt, permission:granted, permission:denied, user:prompt_submit, user:interrupt, and the agent's lifecycle: agent:stop, agent:subagent_start, agent:subagent_stop, session:notification, session:pre_compact, session:post_compact, agent:native (see THE AGENT'S LIFECYCLE). timestamp (number, default now), data (object, default {}), tool_name and session_id (string or null) are optional.

Events that can block (where a deny stops what the agent is about to do, and where forge's own failures deny: a broken payload, a changed or required-but-untrusted project, a --strict error, a bug): tool:pre_execute, user:prompt_submit, permission:check, permission:prompt, llm:pre_request; through --dialect, the agent's own events that wait for permission. A hook may refuse agent:stop, agent:subagent_stop or session:pre_compact, but forge's own failures never do.

Anything else is refused with exit status 2 and no hook run: an unknown key (a misspelt tool for tool_name must not silently skip a tool:pre_execute:bash guard), a wrong type, an unknown event type, more than one document, invalid UTF-8 or JSON, or more than 64 MiB of input (reading stops there). With --event the event is built from the options and stdin is not read.
""",
    "HOOK CONFIG": """
  {"hooks": [
    {"event": "tool:pre_execute:bash", "command": "./scripts/guard.sh",
     "timeout": 5.0, "working_dir": null, "env": {"MODE": "strict"},
     "enabled": true, "detach": false, "description": "Block dangerous shell commands"}
  ]}

event and command (or guard: BUILT-IN GUARDS) are required. id is optional: a name for the hook, unique in its file (letters, digits, -, _ and ., not only digits), that forge-hook enable, disable and remove and FORGE_SKIP take. timeout defaults to 10 seconds and is clamped to [0.1, 600] (an imported hook gets its agent's default); enabled defaults to true; a relative working_dir is relative to the project root, where hooks run by default. detach: true leaves what the hook starts in the background running after it exits. blocking: false makes the hook an observer (see HOOK ANSWERS). max_continues (a whole number) lowers FORGE_MAX_CONTINUES for this hook's refusals of a stop. A hook with a format (see DIALECTS) may also keep its agent's own filters, as forge-hook import writes them: matcher (the agent's matcher, read the agent's way: on tools, a session start's source, a compaction's trigger, a notification's or a subagent's type) and if (Claude's permission rule, Bash(git commit:*)); and fail_closed: true, which makes its plain failure (an exit status other than 0 and 2, output that is not valid JSON) deny.

Hooks run in this order: the global file, then the project file, then each --config file, each in file order. A missing file is no error. A file that is not valid JSON, or a malformed entry, is skipped with a warning naming the file, the entry and the problem (line and column for JSON syntax); every other hook still loads. The global file and --config files hold guards you chose: when one exists but cannot be read or parsed (a trailing comma), every event that can block is denied (exit 1; through --dialect, the agent's deny) with a reason naming the file and the error, and blocked_by is {"source": "config", "reason": ...}; a malformed entry of such a file denies only the events its pattern matches; on other events it is a warning and a message for the person (through --dialect, the agent's user-visible field). A project file follows TRUST. An unknown key in an entry is a warning; the hook still loads. With --strict any warning is an error (exit 2) and no hook runs.
""",
    "THE AGENT'S LIFECYCLE": """
Beyond the seed's sixteen types, an agent's own lifecycle: agent:stop (the agent is about to end its turn), agent:subagent_start and agent:subagent_stop, session:notification (the agent shows the person a notice: a permission prompt waiting, idle), session:pre_compact and session:post_compact (data.trigger: manual or auto), and agent:native for every other native event of an agent, with the native event's name as tool_name, so that patterns name it as a tool (agent:native:Setup, agent:native:*). Re-injecting rules after a compaction is session:start with data.source compact.

A deny on agent:stop or agent:subagent_stop means "do not stop yet": its reason is the agent's next instruction, and context travels only with a deny, as part of its reason. On session:pre_compact a deny stops the compaction where the agent allows it (Claude) and is reported as dropped elsewhere; on agent:subagent_start it stops the subagent where the agent allows it (Cursor). session:notification and session:post_compact are observe only: through a dialect a deny there is reported, never turned into the agent stopping; in the forge protocol the exit statuses stay as they are (a deny exits 1). forge's own failures (a broken payload, a project changed since it was trusted, --require-trust, a --strict config error, a bug) never refuse a stop or a compaction, and neither does a format hook that timed out, could not start or whose script is missing: a broken forge or hook must not trap an agent in a loop.

A stop cannot be refused for ever. data.stop_count (FORGE_STOP_COUNT) says how many times in a row this session's stop was refused already; forge counts per session in ${XDG_STATE_HOME:-~/.local/state}/forge/stops/, and its count decides (the agent's own flag, stop_hook_active or loop_count, stays in data.agent.payload). After FORGE_MAX_CONTINUES refusals in a row (default 5; a hook's max_continues lowers it for that hook) the hooks still run and are recorded, as observers, and the agent is let stop, with a warning and a message saying why; a stop let through starts the count again. A count forge cannot keep (a state directory it cannot write) lets every stop through, with a warning.
""",
    "BUILT-IN GUARDS": """
A hook entry can name a built-in guard instead of a command; it is judged inside forge-hook-run, without a process:

  {"event": "tool:pre_execute", "guard": "destructive_rm"}
  {"event": "tool:pre_execute", "guard": "force_push", "with": {"protected_branches": ["main", "trunk"]}}

The guards (forge-hook guard list shows what each catches and its options; * marks the recommended set that forge-hook add --guards recommended writes):

* destructive_rm *: deleting /, ~, the project itself or anything outside it, by rm, find -delete, xargs rm or an interpreter one-liner (shutil.rmtree); with allow_outside, outside_project
* force_push *: git push --force (by any prefix git takes), -f, +ref, --force-with-lease to a protected branch, pushes to or deletions of protected branches (ask), a ref forced through gh api, a push to a remote the same line added; with protected_branches, push_to_protected, force_with_lease
* destructive_git *: git reset --hard, clean -f, checkout -- ., checkout dir/, restore . and -W -S, read-tree -u --reset, branch -D and -d -f, stash drop and clear, filter-branch, also inside submodule foreach and rebase --exec; with allow
* secret_files *: .env, ~/.ssh, *.pem, cloud credentials, terraform.tfstate read or written by a file tool or reached by a shell command (cat .env, grep -r KEY .env*); gh auth token, kubectl config view --raw, keychains; dotenv loaders in one-liners; git check-ignore .env passes; with patterns, allow
* hardcoded_secrets *: tokens, keys and passwords in content a tool writes or edits; with allow
* remote_code *: curl | sh, base64 -d | bash, downloaded code run later in the line or by a one-liner, uploads of files (curl -d @file, -F, a command's output, aws s3 cp to a bucket, a pipe into nc), reverse shells, tunnels; localhost is no remote; with allow_hosts
* infra_destructive: terraform destroy, kubectl delete, DROP TABLE, TRUNCATE (also piped to psql), fly apps destroy, heroku pg:reset, supabase db reset (asks); with decision
* package_policy: a new dependency through npm, pip, uv, cargo, go, gem (asks); with allow, decision, run_packages
* protected_paths: lockfiles, .git/, CI configuration, files outside the project, by file tools and shell redirections; with paths, allow, outside_project, allow_outside
* privilege_escalation: sudo, doas, pkexec, su, run0, chmod 777, setuid, chown of the system; also named block_sudo (the template); with allow, permissions
* no_verify: git commit and push with --no-verify, -n, HUSKY=0, LEFTHOOK=0, core.hooksPath, GIT_CONFIG_PARAMETERS; pre-commit uninstall and rm .husky/* always
* self_protection *: a tool call that edits forge's config, .forge/ or the trust store, or runs forge-hook trust, disable, remove or install --uninstall, in any spelling (a variable, set --, command -v, a pipe into sh, a git alias, a copy of forge-hook)
* machine_wide: fork bombs, kill -9 -1, shutdown, crontab -r, systemctl disable and mask (asks), LD_PRELOAD, NOPASSWD into sudoers, containers that own the host

A guard denies or asks with a reason that says what matched and how to do it safely; when it finds nothing it gives no answer (never an explicit allow). Shell commands are parsed, not grepped: wrappers (env, nice, timeout, nohup, xargs, sudo, sh -c, bash -lc, eval), quoting, heredocs fed to a shell, &&, ;, | and subshell chains, command substitution, find -exec and interpreter one-liners are seen through, while echo "rm -rf /" and grep sudo auth.log pass. What the parser cannot see is never a silent allow: code piped into a shell or an interpreter from a file or a command, eval of a variable, a command word that is only an expansion, a one-liner that builds a command at run time, a git alias from configuration the line does not show ask, with a reason saying what could not be seen (cannot see what this runs (code piped into sh)); what the line sets for itself (variables, set --, command -v, brace expansion, git aliases) is put in first, and a command word that cannot be resolved is judged as each command a guard knows. The guards are a seatbelt against an agent's mistakes and the evasions a model writes, not a sandbox against a determined adversary. A command longer than 1 MiB or nested deeper than 16 levels is refused as unreadable. Tool arguments are read under every agent's names, and the agent's working directory is where a command starts.

A guard's result is a hook result with no process behind it: exit_code 0 when the guard judged (its decision and reason are its answer), no stdout, stderr or signal; exit_code null with an error when it could not judge. A guard that fails (a bug) denies, never allows. An unknown guard or option is a config warning with a did-you-mean (an error under --strict); the entry still loads and denies, naming the problem. timeout, env, working_dir and detach do not apply to a guard; blocking: false makes it an observer.
""",
    "MATCHING": """
A hook's event is a comma-separated list of patterns; it matches when any one does. With T the event type and T:tool the type plus tool name: * matches every event; an exact T matches whatever the tool; T:tool matches that tool only; shell-style globs (tool:*, tool:*:write, *:bash) are matched, case-sensitively, against T and against T:tool. For an event that came in through a dialect, T:tool is tried with the canonical tool name and with the agent's own: tool:pre_execute:Bash, :run_shell_command and :Shell guard Claude's, Gemini's and Cursor's shell as tool:pre_execute:bash does. forge-hook check names a tool part that looks like a typo of a canonical or an agent's tool name (bsah, Bahs).
""",
    "RUNNING": """
Each hook runs as /bin/sh -c COMMAND in its own session and process group, in its working directory, with the caller's environment plus the variables below plus the hook's env. Its stdin is the event JSON, then end-of-file. stdout and stderr are captured separately, decoded as UTF-8 with replacement and kept up to 1 MiB each; the rest is read and dropped, and the result says stdout_truncated or stderr_truncated.

A hook whose exit status is not 0, that timed out, was killed, could not be started (for example its working directory does not exist) or answered deny says do not continue: the chain stops there and the remaining hooks are listed in skipped, unless --keep-going. A hook that answers ask does not stop the chain, nor does an observer ("blocking": false), whatever it does. With --jobs N up to N hooks run at once and every matching hook runs; results stay in config order and the run is blocked when any blocking hook denies. Sequential is the default: use --jobs for observational events (post-execute, errors, session and llm events), where order does not matter.

On timeout the whole tree the hook started is ended: SIGTERM to its process group and to every descendant, one second of grace, then SIGKILL. When the hook's own process exits, whatever it left running is ended the same way at once (a background child holding its output open never makes the runner wait) unless the hook says "detach": true. The runner makes itself a child subreaper, so double-forked and setsid processes are found too.

--agent-limit N is the seconds the agent waits for this hook command (forge-hook install writes it, equal to the entry's timeout). The agent's clock starts with the process the agent started; forge ends the run max(2 s, 10% of N) before N: hooks still running are ended as on a timeout, hooks not started do not start, also with --jobs. On an event that can block the run is forge's own deny (blocked_by.source "agent-limit") naming the hooks that had not finished and those not started; on any other it proceeds with a warning, the unfinished hooks counting as no answer.

Event data is never substituted into the command text: it reaches a hook only through its environment and stdin. Quote variables in double quotes: echo "tool: $FORGE_TOOL_NAME".

A nested call (a hook that runs forge-hook-run for an event type already being handled up the chain for the same session, tracked in FORGE_HOOK_CHAIN) is a circular trigger: it runs no hooks, says so in warnings and exits 0. An event of another session is another agent (a hook that starts claude -p, whose own hook runs forge-hook-run --dialect claude): it is guarded like any other. A nested run's document on the hook's stdout is that hook's answer (HOOK ANSWERS).

A blocking hook whose command names a file in the project that does not exist (node .claude/hooks/guard.js, python3 .forge/x.py || true, "$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh; python3 -m MOD when the interpreter says "No module named MOD") denies with the reason "script missing: PATH", whatever its exit status, forge hooks and format hooks alike. It is checked when the hook has finished; a path the command tests first ([ -f X ] && sh X), a file outside the project and a word with an unknown variable are left alone.

FORGE_SKIP=ID,ID (as pre-commit's SKIP) keeps the hooks with those ids from running this once: FORGE_SKIP=lint git commit. Never silent: each hook skipped so is a warning (stderr, warnings, the run log) and an entry of skipped_on_request; a name no loaded hook has is a warning with a did-you-mean. Only a hook with an id can be skipped, so a guard you never named cannot be switched off by a variable; event data never sets FORGE_SKIP, and a hook's nested run does not inherit it.

Every hook is named one way in every line for people (the verdict line, --trace, forge-hook list, log and check): its file and its index there, project[2], and its id when it has one, project[2] (lint).
""",
    "OUTPUT": """
stdout carries exactly one JSON document, compact (indented with --pretty), whatever happened; messages for people go to stderr as forge-hook-run: .... With -q (--quiet), for git hooks, Makefiles and terminals, nothing goes to stdout, not even an error document: the one-line verdict (blocked by project[0] 'tool:pre_execute:bash': REASON) or error on stderr and the exit status are the answer, and an allow prints nothing. -q does not go with --dialect (stdout is the agent's) nor with --dry-run (its document is its answer).

  {"version": 1,
   "event": {"type": "tool:pre_execute", "timestamp": 1763700000.5, "data": {},
             "tool_name": "bash", "session_id": null},
   "blocked": true,
   "blocked_by": {"index": 1, "event": "tool:pre_execute:bash",
                  "description": "Block sudo", "reason": "Blocked: sudo not allowed"},
   "decision": "deny", "reason": "Blocked: sudo not allowed",
   "context": [], "messages": [],
   "results": [{"index": 0, "hook": {"event": "tool:*", "command": "echo ok", "source": "global"},
                "exit_code": 0, "signal": null, "stdout": "ok\\n", "stderr": "",
                "stdout_truncated": false, "stderr_truncated": false, "duration": 0.004,
                "timed_out": false, "error": null, "success": true, "should_continue": true,
                "decision": "allow", "answer": null}, ...],
   "skipped": [2], "warnings": [], "duration": 0.011}

index is the hook's position among the hooks this event matched, in run order, counting from 0; skipped and blocked_by use the same numbers (forge-hook-run --dry-run lists them). hook is the hook's config entry plus its source (global, project, or the path of a --config file). exit_code is null for a hook that never started and negative for a signal death, with signal naming it (-15, "SIGTERM"). decision is the run's (allow, deny or ask); blocked is true exactly when it is deny. reason is the denying hook's reason (its answer's reason, else its error for a hook that timed out, could not start or answered malformed, else its stdout, else its stderr, stripped), for ask the asking hooks' reasons one per line, null for allow. data is the event's data as the hooks rewrote it, present only when one did; rewrite_judged, present only when the run's built-in guards judged a rewrite of tool_args, is {"rewritten_by": ["project[0]"], "decision": "deny", "guards": [{"index": 0, "name": "global[0]", "guard": "destructive_rm", "decision": "deny", "reason": "..."}]} (a deny there is blocked_by, naming the guard, with the run's reason naming the rewriting hook); context and messages collect every hook's, in config order. Each result has its own decision and its answer (null for plain output). An interrupted run adds "interrupted" with the signal's name ("SIGTERM", "SIGQUIT" ...). When FORGE_SKIP names anything, "skipped_on_request" lists the hooks it kept from running: [{"id": "lint", "source": "project", "source_index": 0, "event": "tool:*"}]. --dry-run prints {"version": 1, "event": ..., "dry_run": true, "hooks": [{"index": 0, "hook": {...}}], "warnings": [...]}. An error before any hook ran prints {"version": 1, "error": {"kind": "...", "message": "..."}} with kind one of invalid_event, invalid_config, usage, interrupted, system, internal.
""",
    "HOOK ANSWERS": """
A hook can say more than yes or no. When its stdout, stripped, is one JSON object holding at least one of these keys, that object is its answer; anything else is plain output:

* decision: "allow", "deny" or "ask" (let a person decide)
* reason: a string: why, shown for deny and ask
* data: an object: a JSON merge patch (RFC 7386) over the event's data; null deletes a key
* context: a string for the agent's model
* message: a string for the person at the agent

An object with a known key beside an unknown one, a value of the wrong type, a key given twice, or another decision ("block", "Deny") is a malformed answer: the hook's error names the key and the hook denies. So does an answer longer than the 1 MiB output bound, which cannot be read whole; an object whose keys are near-misses of answer keys holding a value of that key's type ({"decison": "deny"}, with a did-you-mean); and stdout holding more than one JSON document, or a document and more text, of which any would be an answer (a deny printed twice as JSON lines). A UTF-8 byte-order mark before the answer is ignored. A typo never turns a deny into an allow.

forge can call forge: the document of a nested forge-hook-run (version beside decision, results or error) is its hook's answer: its decision, reason, context and messages carry over, the decision when the hook exits as forge-hook-run does for it (0, 1, 4). A nested run's error document fails the hook, whatever its exit status.

One hook's decision: a hook that exits non-zero, times out, is killed or cannot start denies, whatever it answered; a hook that exits 0 decides by its answer, allow without one.

The run's decision: deny if a blocking hook denies, else ask if one asks, else allow. The chain stops at the first deny (unless --keep-going); an ask does not stop it. Every hook sees the original event. The data patches of the hooks that did not deny are applied in config order to the original data; where two hooks set the same key differently the later wins and warnings names both. When the run does not deny and its data changes tool_args on an event that can block, the run's blocking built-in guards judge the rewritten input too, in-process; their deny or ask is the run's, with a reason naming the hook that rewrote, and the document's rewrite_judged (also in the run log and --trace) says which guards judged and what each decided. Command hooks are not run again: a rewrite is not a new event; a script hook that must see the final input can run last and be the rewriter, or observe tool:post_execute.

Observers: a hook with "blocking": false never blocks. Its failures, timeouts, denies and asks are recorded in its result and in warnings; the chain goes on and the decision is not changed. Its context and message count; its data does not. The templates log_all, notify_session_start and git_auto_commit are observers.

Adding --dry-run to every git push:

  {"event": "tool:pre_execute:bash", "command": ".forge/push-dry-run"}

where the script reads the event on stdin and prints {"data": {"tool_args": {"command": "git push origin main --dry-run"}}, "context": "..."} for a git push, nothing otherwise (see the README for the whole script).
""",
    "DIALECTS": """
forge-hook-run --dialect NAME (claude, codex, gemini, cursor, copilot, windsurf, cline, qwen, droid, auggie, crush or continue) is an agent's own hook command: it reads that agent's native hook payload on stdin (Claude Code, Codex, Gemini CLI, Cursor, GitHub Copilot CLI, Windsurf, Cline, and the agents that copy Claude's hooks: Qwen Code, Factory Droid, Auggie, Crush, Continue's cn, each an alias of claude with its own tool names, payload fields, timeouts and files), maps it to a forge event (PreToolUse and BeforeTool are tool:pre_execute; Bash and run_shell_command are bash; the tool input is data.tool_args; data.agent holds the agent's name, event, tool and the whole payload), runs the forge hooks, and answers on stdout, stderr and exit status in the agent's own form. stdout belongs to the agent: --report FILE writes the forge document. --print-config prints the hooks snippet for the agent's settings. Cursor's beforeShellExecution (command and cwd at the top level) is tool:pre_execute for bash, like its preToolUse with Shell. Copilot's camelCase payloads (toolArgs a JSON string) name no event, so its hook command names it: --dialect copilot:preToolUse; the PascalCase "VS Code" payloads name theirs. Windsurf reads only exit 2 with the reason on stderr (an ask is a deny saying a person must decide; a rewrite or context is reported as dropped). Cline reads only {"cancel": true, "errorMessage"} on stdout, never an exit status, so every deny, forge's own failures included, is that JSON; contextModification is cut at 50000 characters. Where an agent has no ask (Auggie, Crush, Windsurf, Cline) an ask is a deny saying a person must decide.

No objection is not approval: when no hook objects the answer is "no decision" and the agent's own permission rules apply; only an explicit "decision": "allow" is the agent's allow. Where an agent cannot ask (Codex's PreToolUse, Gemini's BeforeTool, where gemini -p hangs on an ask, Cursor's preToolUse and beforeReadFile, any prompt submission), ask is a deny saying a person must decide; Codex takes allow only with a rewrite. Every Codex answer is valid against Codex's published output schemas. When forge-hook-run cannot do its job (an unreadable payload, a --strict config error, a bad option, an internal error) it denies, naming the problem, on events where the agent waits for permission, and proceeds with a message on stderr elsewhere. A payload whose event differs from the one the command line names (--dialect copilot:preToolUse with "hookName": "agentStop") is a broken payload: it fails as the one of the two that waits for permission. A payload in another known agent's shape is read as that agent's and answered in its form, with a warning on stderr: Codex's PreToolUse (it names its event and has turn_id) reaching --dialect cursor, as Codex's migration of Cursor's hooks makes it; VS Code's agent and the Copilot app, which read .claude/settings.json and send hookEventName, sessionId and their own tool names (run_in_terminal is bash, create_file write, replace_string_in_file edit, read_file read), are read by claude and answered as VS Code reads. One that cannot be read is a broken payload. Copilot's userPromptSubmitted can block (forge's own failures refuse the prompt), and Copilot gets additionalContext on sessionStart, userPromptSubmitted, postToolUse and postToolUseFailure.

The agent's environment is not forge's switchboard: agents pass variables from a project's own files to their hooks (Claude's project settings env, Gemini's .env), and a cloned repository ships them. With --dialect, FORGE_TRUST_PROJECT (a yes word), FORGE_SKIP, FORGE_CONFIG_DIR, FORGE_PROJECT_DIR (unless a forge-hook-run up the process tree set it), FORGE_LOG=0 and FORGE_LOG_FILE are taken out of the run's environment and said on stderr, in warnings and in the agent's user-visible field, unless the global hooks file lists them: {"allow_env": ["FORGE_TRUST_PROJECT"], "hooks": [...]}. allow_env is read from ${XDG_CONFIG_HOME:-~/.config}/forge/hooks.json, never from the file FORGE_CONFIG_DIR names (a file cannot allow the variable that chose it); a project's hooks file allows nothing.

Every native event runs the hooks that ask for it: forge-hook events --agent NAME lists each agent's events and their forge types. The turn's end is agent:stop: Claude's and Codex's Stop, Gemini's AfterAgent, Copilot's agentStop (and Stop), Cursor's stop; subagentStop/SubagentStop is agent:subagent_stop. "Do not stop yet" is written in each agent's form: {"decision": "block", "reason"} for Claude, Codex and Copilot, {"decision": "deny", "reason"} for Gemini, {"followup_message"} for Cursor. Claude's compaction summary (a SubagentStop with an empty agent_type) and Copilot's agentStop inside a subagent are agent:native, so that a "keep working" hook re-prompts neither. Every other event the agent fires (Claude's Setup, Codex's PreModelRequest, Gemini's BeforeToolSelection, Copilot's errorOccurred, Cursor's afterAgentThought, one added in a later release) is agent:native:NAME; forge writes no answer there (WorktreeCreate's hook must print a path) and reports what it dropped.

A hook with "format": "claude" (or "codex", "gemini", "cursor", "copilot") is written for that agent: it gets the agent's payload on stdin (verbatim under that dialect, else built from the forge event), its variables (CLAUDE_PROJECT_DIR; GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_SESSION_ID; CURSOR_PROJECT_DIR), and its exit status and output are read by the agent's rules, as its current docs and CLI state them: Copilot reads a preToolUse or permissionRequest hook that exits non-zero as a deny, and on agentStop only {"decision": "block", "reason"}; Cursor fails open on a failing hook unless the entry says fail_closed (its failClosed), and reads only a non-empty followup_message on stop (continue: false there is no refusal); Gemini's continue: false on AfterAgent ends the session, which under forge lets the agent stop; Claude keeps working on a Stop answer of decision: block or of additionalContext alone, and stops on continue: false. A format hook that times out, dies by a signal or cannot start (126, 127) denies unless it is an observer, and warnings says where that is stricter than the agent; except on a stop or a compaction, where it lets the agent go on. forge-hook import --from AGENT converts an agent's hook settings into such hooks.
""",
    "ENVIRONMENT": """
Every hook gets:

* FORGE_EVENT: the event type
* FORGE_TIMESTAMP: the event timestamp
* FORGE_SESSION_ID: the session id, when the event has one
* FORGE_TOOL_NAME: the tool name, when the event has one
* FORGE_<KEY>: each data key, upper-cased, non-alphanumerics as _; objects and lists as JSON: FORGE_TOOL_ARGS, FORGE_TOOL_RESULT, FORGE_ERROR, FORGE_LLM_MODEL, FORGE_LLM_TOKENS, FORGE_MESSAGE_COUNT, FORGE_PERM_LEVEL, FORGE_PERM_RULE, FORGE_USER_INPUT ...
* FORGE_WORKING_DIR: the directory the hook runs in
* FORGE_PROJECT_DIR: the project root
* FORGE_HOOK_CHAIN: PID.START:TYPE=SESSION,...: the runs up the process tree, their event types and sessions (escaped, a long id by its hash, at most 64 entries: the circular-trigger guard; an entry counts only when that process is an ancestor)
* FORGE_HOOK_VARS: the FORGE_<KEY> data variables this run set, so that a nested run removes them
* FORGE_HOOK_TOKEN: a random token, one per hook run, by which the runner recognises the processes the hook started (also double-forked ones) to end them; leave it as it is

Values have NUL bytes removed, newlines turned into spaces, and are cut at 8 KiB with a ...[truncated] marker; all data variables together stay under 256 KiB (later keys are left out), so no event can make the hook's execve fail. The full event is always on stdin. A data key never overwrites the variables above.

forge-hook-run reads:

* FORGE_CONFIG_DIR: the directory of the global hooks.json
* XDG_CONFIG_HOME: else the global file is ${XDG_CONFIG_HOME:-~/.config}/forge/hooks.json
* FORGE_PROJECT_DIR: the project root, when --project-root is not given
* FORGE_TRUST_PROJECT: 1, true, yes or on (any case) runs project hooks even when their file is not trusted; any other value is ignored with a warning. With --dialect, this one, FORGE_SKIP, FORGE_CONFIG_DIR, FORGE_PROJECT_DIR, FORGE_LOG=0 and FORGE_LOG_FILE are ignored, with a warning the person sees, unless the global hooks file lists them in allow_env (see DIALECTS)
* FORGE_REQUIRE_TRUST: 1, true, yes or on (any case) is --require-trust
* CLAUDE_PROJECT_DIR, GEMINI_PROJECT_DIR, CURSOR_PROJECT_DIR, COPILOT_PROJECT_DIR: with --dialect, where the search for the project root starts (the agent's project directory)
* XDG_STATE_HOME: where the run log, the stop counts and the sessions already told of an untrusted project are (${XDG_STATE_HOME:-~/.local/state}/forge/: runs.jsonl, stops/, trust-told.json; each bounded)
* XDG_DATA_HOME: where the trust records are (${XDG_DATA_HOME:-~/.local/share}/forge/trust.json)
* FORGE_DEBUG: 1 prints a traceback with an internal error
* FORGE_TRACE: 1 is --trace (so that an agent's hook command can be traced unedited); the trace tells each hook's start and end as they happen, a long command shortened (saying its length)
* FORGE_SKIP: ID,ID: the hooks with these ids do not run this once, said on stderr and in the document (see RUNNING); a managed hook always runs
* FORGE_MANAGED_DIR: the managed layer's directory where /etc/forge does not exist; where it does, hooks added after it (see MANAGED POLICY)
* FORGE_LOG: 0 turns the run log off
* FORGE_LOG_FILE: where the run log is, instead of ${XDG_STATE_HOME:-~/.local/state}/forge/runs.jsonl
* FORGE_MAX_CONTINUES: how many refused stops in a row are obeyed before the agent is let stop (a whole number, default 5; see THE AGENT'S LIFECYCLE)
* NO_COLOR: no colour in --trace, even on a terminal
* FORGE_WARM: 0 runs cold even when the resident runner is up
* FORGE_WARM_DIR: the resident runner's directory (its socket), instead of $XDG_RUNTIME_DIR/forge-TAG
* FORGE_WARM_REQUIRED: 1 makes a run that cannot be served warm fail (exit 3, saying why) instead of running cold: for checking that runs are warm (the test suite's --warm)
* FORGE_WARM_IDLE: seconds without a request after which the resident runner exits (3600)
""",
    "FILES": """
* /etc/forge/hooks.json, then /etc/forge/managed.d/*.json (by name): the managed layer, an organisation's hooks; they run first, before the global and project hooks (see MANAGED POLICY)
* $FORGE_CONFIG_DIR/hooks.json or ~/.config/forge/hooks.json: the global hooks
* PROJECT/.forge/hooks.json: the project hooks; the project root is --project-root, else $FORGE_PROJECT_DIR, else the nearest directory upwards holding .forge/hooks.json that is not an untrusted project nested in a trusted one (see TRUST), else the current directory
* ${XDG_DATA_HOME:-~/.local/share}/forge/trust.json: the trusted project files and the SHA-256 of their content
* ${XDG_STATE_HOME:-~/.local/state}/forge/runs.jsonl (and .1, .2): the run log, one JSON line per run, secrets redacted; forge-hook log reads it
* ${XDG_STATE_HOME:-~/.local/state}/forge/export.spool: the records waiting for forge-hook export, when "export" is set in the global or managed file (see MANAGED POLICY)
* ${XDG_STATE_HOME:-~/.local/state}/forge/stops/: how many times in a row each session's stop was refused, one small file per session (named by a hash), removed when a stop is let through; at most 256, none older than 7 days
* $XDG_RUNTIME_DIR/forge-TAG/runner.sock, control.sock, runner.lock: the resident runner's, TAG naming this installation (see WARM RUNNER)
* ${XDG_STATE_HOME:-~/.local/state}/forge/warm-TAG.on: present while forge-hook warm on holds for this installation; warm.log: the resident runner's starts and stops
""",
    "MANAGED POLICY": """
The managed layer (/etc/forge/hooks.json, then /etc/forge/managed.d/*.json by name) holds an organisation's hooks. Each directory from / down to each file, and the file, must be owned by root and not writable by group or others (an ancestor may be, with the sticky bit, as /tmp), checked without following a symbolic link. A file that fails is refused: a warning on every run, and forge denies the events that can block which its hooks would judge (blocked_by {"source": "managed"}); a file that cannot be parsed or read denies every event that can block. Its hooks run first; --no-global, --no-project, FORGE_SKIP, the FORGE_* variables and a project file do not turn them off. "managed_only": true in a managed file leaves the global, project and --config files unread (each one that exists is a warning). A hook's source is managed (hooks.json) or managed:NAME (managed.d/NAME.json). FORGE_MANAGED_DIR is the managed layer only where /etc/forge does not exist (tests, machines without a managed policy); where it does, its files are added after /etc/forge's and its managed_only is ignored with a warning. The self-protection guard covers /etc/forge.

"export": {"syslog": "udp://HOST:PORT" | "tcp://HOST:PORT" | "unix:/PATH"} or {"otlp": true | {"endpoint": URL, "protocol": "http/protobuf" | "http/json", "headers": {...}}} in a managed file or the global file (never a project file, never the environment alone; a managed one wins) spools each run's record, as the run log holds it, for forge-hook export, which sends it as RFC 5424 syslog or as OpenTelemetry spans and log records over OTLP/HTTP (a span per run, a child per hook, parented to the agent's TRACEPARENT, and a log record per run; where OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL and OTEL_EXPORTER_OTLP_HEADERS say, unless the file names an endpoint, which wins). A run only appends to the spool (bounded at 4 MiB, drops counted); FORGE_LOG=0 stops a global export, never a managed one.
""",
    "RUN LOG": """
Every run appends one JSON line to the run log: time, duration, version, the event (type, tool, session, data), the project root, each config file read with its state and trust, every hook that ran (source, pattern, command, exit code, signal, duration, timed_out, decision, reason, error, the last 1 KiB of stdout and stderr), the run's decision (allow, deny, ask, or error for a run that ended in an error document), the deciding hook and its reason, the exit status and the warnings. --dry-run is not logged.

Secrets are redacted before anything is written: the values of keys and variables whose names hold TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE, PWD (not PWD or OLDPWD themselves), KEY, CREDENTIAL, CREDS, AUTH or COOKIE or end in a _PASS word (a quoted value to its closing quote, escaped quotes included; an unquoted one after = or : to the end of its line: DB_PASSWORD=correct horse battery staple), those values again wherever a hook prints them, and the token shapes secret scanners flag, anywhere: OpenAI and Anthropic (sk-...), Stripe (sk_live_...), GitHub (ghp_..., github_pat_...), GitLab (glpat-...), Slack (xox?-..., xapp-...), AWS key ids (AKIA...) and a secret key beside its id, Google (AIza...), npm (npm_...), PyPI, Hugging Face, SendGrid, Vault and more, Bearer ..., PEM and PGP private key blocks, JWTs, URL passwords and curl -u user:password. Redaction takes time linear in what it reads. Every field of a record is cut (texts to 512 characters, output to its last 1 KiB, lists to 50 items), so each record is at most 64 KiB; the file is rotated at 10 MiB, 3 files kept. Concurrent runs never interleave: one write per record, a lock for records over 4 KiB and for rotation. The log must be a regular file: a FIFO, a device or anything else is refused without blocking. A log that cannot be written costs one warning on stderr and in warnings, never the run or its exit status.
""",
    "TRUST": """
A repository you clone must not run commands on your machine just because an agent fired an event in it, and a guard you chose must never switch off in silence. Project hooks run only once a person trusts them with forge-hook trust, which records, under the real path of the project root, the SHA-256 of .forge/hooks.json, of every file under .forge/ (no exemptions), and of every file in the project that a hook's command names: as a word, inside quotes, $(...) or backticks, inside sh -c and bash -c strings, after cd DIR &&, through the agents' project variables ($FORGE_PROJECT_DIR, $CLAUDE_PROJECT_DIR, $GEMINI_PROJECT_DIR, $CURSOR_PROJECT_DIR, $COPILOT_PROJECT_DIR) and through the hook's own env (${CLAUDE_PLUGIN_ROOT}). Project hooks run with PYTHONDONTWRITEBYTECODE=1, so running them never changes what trust covers; a byte-code file that arrives by a pull is covered like any other.

Never trusted (a clone): project hooks do not run; the global ones do; the run says so on stderr and in warnings, and through --dialect in a message the person sees (Claude's, Codex's and Gemini's systemMessage, Cursor's user_message; Copilot's hooks have none) on session start and on the first event that can block in each session.

Changed since trusted (a pull, an edit, a checkout): on an event that can block, when a project hook matches the event as the file now reads (or the file cannot be read), the run is denied (exit 1; through --dialect, the agent's deny) with a reason naming the changed file and the command that re-trusts. blocked_by is {"source": "trust", "reason": ...} with no index; results hold the global hooks that ran. On other events the global hooks run and the change is a warning, agent:stop, agent:subagent_stop and session:pre_compact among them: a hook may refuse a stop, forge's own word never does (THE AGENT'S LIFECYCLE). A .forge/ nested deeper than 32 levels or holding more than 1000 entries cannot be checked: it reads as untrusted (as changed, when it was trusted) with a warning, never a crash.

--require-trust (FORGE_REQUIRE_TRUST=1) makes project hooks that are not trusted an error where one matches the event: exit 2, and through --dialect a deny on events that can block; for git hooks and CI, where skipping would mean passing. --strict turns every trust warning into an error.

Only a person trusts: through --dialect, a tool call that runs forge-hook trust (a path, a wrapper, sh -c, python -m forge_hookd.cli.manage) or writes the trust store is denied before any hook runs, with a reason saying that a person must review and trust.

A directory below the project cannot switch its guards off: a .forge/hooks.json that was never trusted (a dependency under node_modules, a vendored library, a submodule) does not end the search for the project root; the nearest trusted root above it runs its hooks, and the nested file is named in warnings. Through --dialect the search starts at the agent's project directory (CLAUDE_PROJECT_DIR, GEMINI_PROJECT_DIR, CURSOR_PROJECT_DIR or COPILOT_PROJECT_DIR in the hook's environment, Cursor's workspace_roots), not at a cwd that a cd moved.

What trust cannot see: a file that a covered script runs in turn, a path a command builds at run time, and a word it cannot resolve (an unknown variable, a glob, python -m pkg): forge-hook trust lists those words and forge-hook check reports them. A data key of the event never sets a variable that steers forge (FORGE_TRUST_PROJECT, FORGE_CONFIG_DIR, FORGE_LOG ...): it is left out of the hooks' environment, with a warning.

In CI and headless agents, where nobody can review: --trust-project or FORGE_TRUST_PROJECT=1.
""",
    "WARM RUNNER": """
forge-hook warm on starts a per-user resident runner that holds forge imported, and makes forge-hook-run start it again when it is needed (after a reboot, an idle exit, a crash; the event that finds it down runs cold and starts it in the background for the next one). While it is up, forge-hook-run is a thin client: before importing anything but the interpreter's built-in modules it connects to the runner's socket and hands it the run: its arguments, environment, umask, and its stdin, stdout, stderr and working directory as descriptors, so a terminal, a closed pipe and a deleted directory are exactly the client's. The runner forks a worker that does the cold run, word for word: config and trust read on every event, each hook tree ended on its own clock, the same document, messages and exit status. A signal to the client (each one that a cold run answers: see GUARANTEES) is relayed, so the run answers it as a cold run does (the document and 128+n); a client that is killed (an agent's own hook timeout) ends its run's trees at once.

The run is cold, with a note on stderr only under --trace, when no runner is up, when its directory is not the user's own with mode 700, when it is another version of forge or any module it loaded changed on disk since (stale: it retires and the next event starts the new one), when the locale or PYTHONIOENCODING differ from the runner's, when an argument or a FORGE_ variable names the client's own descriptors or process (--report /dev/fd/3, /proc/self/...), when the runner gives no sign of life within 50 ms (stopped, stuck, a stale socket that listens: nothing is passed before a worker's hello, and a run queued behind others waits while the runner itself answers), or when the connection breaks before the worker took stdin. Once the worker has taken stdin, the event cannot be read again: if the worker dies then (killed, out of memory), forge-hook-run answers as for an internal error (the error document, exit 3; under --dialect the agent's failure answer, a deny where the agent waits for permission) and does not run the hooks again, since they may have run, and their effects with them.

The socket lives in $FORGE_WARM_DIR, else $XDG_RUNTIME_DIR/forge-TAG, else $TMPDIR/forge-UID-TAG (or /tmp/forge-UID-TAG), TAG ten hex digits naming this installation (its package directory), so that each installation of one user has its own runner, mark and warm off: a directory the runner makes with mode 700 and both ends check for owner and mode before use. The runner checks each peer's uid (SO_PEERCRED) and serves no other user, and the client checks the runner's. A warm run never escapes its caller's confinement: a client whose security context differs from the runner's (user and group ids with the supplementary groups, no_new_privs, capability sets, any namespace, seccomp mode, LSM label), read from the kernel for its pid, runs cold (setpriv, unshare, a sandbox). It exits after an hour without a request (FORGE_WARM_IDLE seconds). The worker also takes the client's resource limits, nice value and CPU affinity; one it may not take (a hard limit above the runner's, without privilege) makes the run cold. Differences that remain: the run is in the runner's control group; the run log's pid is the worker's.

install.sh builds forge-hook-run as a small C program when the machine has a C compiler (cc, or $CC): the native warm client, which starts no interpreter, hands the run to the runner as the Python client does, and execs the Python launcher (python -I -S) for every run the runner does not serve, with the reason, so the cold run, its --trace note and its failure answers are the Python client's. Without a compiler forge-hook-run is that launcher; a plain pip install keeps pip's console script, which works the same, slower. A warm run with one hook costs about 0.7 x lefthook's one-hook run through the native client, 1.4 x through the launcher and 2 x through pip's script (bench/warm.py, a quiet 2-core machine).
""",
    "EXIT STATUS": """
* 0: proceed (decision allow): no matching hook, or every hook that ran said continue
* 1: blocked (decision deny): a hook said do not continue (non-zero exit, timeout, could not start, answered deny, a malformed answer)
* 4: ask (decision ask): a hook wants a person to decide; nobody may proceed unasked
* 2: bad invocation or bad input (invalid event, unknown option, --strict config problem); no hook ran
* 3: internal error (a bug); still a JSON error document
* 5: the machine refused (a full disk, a read-only directory, a deleted current directory, a name too long): one line on stderr, an error document of kind system
* 128+n: interrupted by signal n (129 SIGHUP, 130 SIGINT, 131 SIGQUIT, 138 SIGUSR1, 140 SIGUSR2, 142 SIGALRM, 143 SIGTERM, and so on for every signal that would end the runner): running hooks were ended, partial results printed
* 141: the reader of stdout went away (as a shell's SIGPIPE): nothing more is written; the hooks had run as usual
""",
    "GUARANTEES": """
What forge-hook-run promises when hooks misbehave, each proved by its test suite through the installed executable, checked by process id:

- Timeouts end the whole tree: background children in the hook's group, setsid children, double-forked daemons whose parent exited, and processes that ignore SIGTERM (SIGKILL after the grace). A run with a timed-out hook returns within its timeout plus the one-second grace plus a small margin: ending a tree takes time linear in its size, and 1000 children left behind are ended within 1.5 s of the hook's timeout or exit on a loaded 2-core machine.
- Nothing is left running after a hook returns, unless the hook says "detach": true; a background child that keeps the hook's output open never makes the runner wait.
- Every signal that would end the runner (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGXCPU and the real-time signals) ends every running hook tree, prints the document with what finished (the interrupted hook reported with its error), and exits 128+n. SIGPIPE and SIGXFSZ stay ignored, as Python leaves them (a closed stdout is exit 141); SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS, SIGTRAP and SIGABRT come from a faulting instruction and are not caught. Before any hook runs (for example while blocked reading stdin) the document is the error document, with the same exit codes; while the document is written a late signal is ignored, so it is never cut short. The exception: a signal in the first ~20 ms, before the Python interpreter has run any of forge-hook-run's code, ends it by the default action, with no document.
- Memory is bounded whatever hooks print: a hook printing 300 MB on stdout and 300 MB on stderr leaves the runner's peak RSS at 44 MiB (measured with /usr/bin/time -v on 2026-11-21), of which 12 MiB is the JSON of the 2 MiB kept.
- Any event: stdin is read up to 64 MiB; a 5 MB argument reaches hooks in full on stdin while its variable is cut; a hook that closes stdin at once or never reads it is fine.
- Any stdin: read whole also when it is non-blocking (O_NONBLOCK inherited from a Node parent); write-only, closed or unreadable it is bad input (exit 2, or the dialect's deny on events that can block), never exit 3. A directory as stdin is refused by CPython itself while starting (exit 1), before any code of forge-hook-run runs.
- Fail closed: where forge cannot do its job on an event that can block, it denies with a reason: a hook that fails, times out or cannot start; a blocking hook whose script is missing; a built-in guard that fails; a malformed answer; a nested run's error; a changed trusted project (TRUST); through a dialect an unreadable payload or stdin, a --strict config error or an internal error. A circular trigger skips hooks only for the same type and session.
- Only file descriptors 0, 1 and 2 reach a hook; every child is reaped, also when a signal interrupts the run.
- Hostile input (random bytes, mutated events, deep nesting, lone surrogates, huge numbers, NUL bytes) never crashes it: exit 2 or 0, a JSON document, no traceback.
- Concurrent invocations in one project are independent.
- --jobs N keeps every one of these per hook: timeouts, bounds and tree kills hold for each hook, and a signal ends them all.

detach is for hooks that start something meant to outlive them (a notifier, a background indexer): redirect its output (cmd >/dev/null 2>&1 &), since the runner stops reading the hook's pipes when the hook exits.
""",
    "EXAMPLES": """
Block sudo in the project, trust the file, then try it:

  forge-hook add --project --template block_sudo && forge-hook trust
  echo '{"type":"tool:pre_execute","tool_name":"bash","data":{"tool_args":{"command":"sudo ls"}}}' \\
    | forge-hook-run | jq -r .blocked_by.reason

From a git hook or a script, without stdin and without the document (-q: the verdict line only when a hook blocks; the same exit status); in a Makefile, write $$SESSION_ID for the shell's variable:

  forge-hook-run -q --event session:start --session-id "$SESSION_ID" --data '{"message_count": 0}'

See what would run, and why a hook does not:

  forge-hook-run --dry-run --event tool:pre_execute --tool bash | jq '.hooks[].hook'

Shell completion of options, event types (colons included), tool names, paths, hook indexes and ids (bash, in ~/.bashrc; zsh_source in ~/.zshrc after compinit; for fish, type -q forge-hook-run; and _FORGE_HOOK_RUN_COMPLETE=fish_source forge-hook-run | source). Each line does nothing once forge is uninstalled:

  command -v forge-hook-run >/dev/null && eval "$(_FORGE_HOOK_RUN_COMPLETE=bash_source forge-hook-run)"
  command -v forge-hook >/dev/null && eval "$(_FORGE_HOOK_COMPLETE=bash_source forge-hook)"
""",
    "SEE ALSO": """
forge-hook(1), jq(1), sh(1). The same engine is a Python library, import forge_hookd: see README.md in the source tree.
""",
}

FORGE_HOOK = {
    "TRUST": """
Project hooks run only once a person trusts them. forge-hook trust [DIR] records, under the real path of the project root, in ${XDG_DATA_HOME:-~/.local/share}/forge/trust.json, the SHA-256 of .forge/hooks.json, of every file under .forge/ (no exemptions), and of every file in the project that a hook's command names (as a word, inside quotes, $(...), backticks, sh -c strings, after cd DIR &&, through $FORGE_PROJECT_DIR, $CLAUDE_PROJECT_DIR, $GEMINI_PROJECT_DIR and the other agents' project variables, and through the hook's own env), and prints what it covers and the words it cannot see: an unknown variable, a glob, python -m pkg. forge-hook check reports those words too. A path that is not UTF-8 is keyed by its bytes.

Any change to a covered file (a pull, an editor, a checkout) makes the project changed: forge-hook-run then denies events that can block where a project hook matches, until the project is trusted again, and warns elsewhere; forge-hook list shows each hook's trust (trusted, untrusted, changed) and why. forge-hook-run --require-trust (FORGE_REQUIRE_TRUST=1) makes untrusted project hooks an error, for git hooks and CI. Through an agent's dialect, a tool call that runs forge-hook trust or writes the trust store is denied: only a person trusts, after reviewing. A .forge/ deeper than 32 levels or with more than 1000 entries cannot be trusted.

Edits made with forge-hook add, remove, enable and disable --project keep a project trusted if it was trusted before the edit (you made the change); an untrusted one stays untrusted. The global file is yours and always trusted. What trust cannot see: what a covered script runs in turn, a path built at run time.

In CI and headless agents: forge-hook-run --trust-project, or FORGE_TRUST_PROJECT=1.
""",
    "SAFE WRITES": """
Every write is a read-modify-write under an exclusive lock, written to a temporary file in the same directory, fsynced, then renamed over the original: a reader never sees half a file and concurrent forge-hook commands never lose each other's changes. Unknown top-level keys, unknown keys in entries, and the order of hooks are kept. A file that cannot be parsed is never overwritten: the command fails with the parse error and leaves the bytes as they were.

Nothing is left beside the file. The lock is an flock on the file's directory (no hooks.json.lock is created; a killed holder's lock goes with it); where a directory cannot be locked (NFS), a lock file in $XDG_RUNTIME_DIR/forge-hook-UID/, which keeps out writers on this machine only. A lock held by another process is waited for FORGE_LOCK_TIMEOUT seconds (10 by default) with a line on stderr naming the holder's pid, then the command fails with exit status 5 and the file untouched. Temporary files are named .hooks.json.PID.RANDOM.tmp; one left by a writer killed mid-write is removed by the next write. A symlinked file is written through its link: the link stays a link and its target changes. The trust records are written the same way.

When the machine refuses a write (a full disk, a read-only directory), the command prints one line naming the file and the reason and exits 5; the file stays as it was and no temporary file is left.
""",
    "IMPORT": """
forge-hook import --from claude|codex|gemini|cursor|copilot [FILE] --project|--global [--dry-run] converts an agent's hook settings (default: .claude/settings.json and .claude/settings.local.json, .codex/hooks.json, .gemini/settings.json, .cursor/hooks.json or every .github/hooks/*.json of the project, or the user's file in the home directory for --global; Codex's inline [hooks] tables in config.toml are not read) into forge hooks with "format" set. Each hook behaves as it did under its agent. Event names become forge event types (agent:native:NAME for an event forge has no type of its own for); a matcher Edit|Write becomes two patterns, an exact tool name its canonical forge name, mcp__server__.* a glob, and any other matcher (a regular expression, Gemini's unanchored ones, a session start's startup|resume, a compaction's trigger, a notification's type) stays the hook's matcher, read the agent's way; where the agent ignores a matcher (Claude's Stop) so does forge. Claude's if stays the hook's if (Codex ignores it, and the import says so). A hook without a timeout gets its agent's default: 600 s for Claude and Codex (Claude's SessionEnd 1.5 s), 60 s for Gemini (whose timeouts, in milliseconds, become seconds), 30 s for Copilot. async and asyncRewake become an observer ("blocking": false); Claude's onFailure: block and Cursor's failClosed become fail_closed; Cursor's loop_limit becomes max_continues. Copilot's bash or command (or exec), timeoutSec or timeout, cwd and env become command, timeout, working_dir and env. A plugin's hooks/hooks.json (its .claude-plugin/plugin.json beside) gets CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA in its env, as Claude sets them (and Codex's PLUGIN_ROOT and PLUGIN_DATA, Copilot's COPILOT_PLUGIN_ROOT); Claude's exec form (command plus args) becomes the shell command that runs the same argv. A Gemini extension's hooks/hooks.json has ${extensionPath}, ${/} and ${workspacePath} substituted as Gemini does when it loads it. A user-level ~/.cursor/hooks.json's commands run from ~/.cursor, which their relative paths are relative to. A Cursor matcher on beforeShellExecution (a regex over the command text) has no pattern form. What forge cannot run (an http, prompt, agent or mcp_tool hook, a PowerShell-only handler), an event the agent does not fire, and Claude's WorktreeCreate (its hook replaces git's worktree creation) are named on stderr and skipped; what is kept otherwise than the agent has it (asyncRewake's wake-up, once) is said as a note. Importing again adds nothing: a hook already in the file is not added twice. --dry-run prints {"hooks": [...], "skipped": [...], "notes": [...]} and writes nothing.
""",
    "WARM": """
forge-hook warm on starts the per-user resident runner (see forge-hook-run(1), WARM RUNNER) and leaves ${XDG_STATE_HOME:-~/.local/state}/forge/warm-TAG.on (TAG: this installation's), by which forge-hook-run starts it again when needed; a runner of another version is stopped and a new one started. forge-hook warm off removes the mark and stops the runner; runs in progress finish first. forge-hook warm status says whether it is up, since when, the runs it served and is serving, the runs it refused (they ran cold: stale, another security context...), its pid, version and socket, whether it is stale, and whether restarts are on (--json for all of it, with the CPU time it and its workers used); it exits 0 when a runner of this version is up, 1 otherwise. The runner logs its starts and stops (never hook output) to ${XDG_STATE_HOME:-~/.local/state}/forge/warm.log.
""",
    "INSTALLING INTO AGENTS": """
forge-hook install --agent AGENT|all --project|--global (AGENT: claude, codex, gemini, cursor, copilot, windsurf, cline, qwen, droid, auggie, crush, continue, opencode or kilo) puts forge-hook-run --dialect AGENT into the agent's own settings file as its hook command for every event forge handles (forge-hook-run --dialect copilot:EVENT per event for Copilot, whose camelCase payloads do not name their event). The files: .claude/settings.json and ~/.claude/settings.json ($CLAUDE_CONFIG_DIR); .codex/hooks.json and ~/.codex/hooks.json ($CODEX_HOME); .gemini/settings.json and ~/.gemini/settings.json ($GEMINI_CLI_HOME); .cursor/hooks.json and ~/.cursor/hooks.json; .github/hooks/forge.json and ~/.copilot/hooks/forge.json ($COPILOT_HOME); .windsurf/hooks.json and ~/.codeium/windsurf/hooks.json (the command exits 2 with a reason when forge-hook-run cannot be started); .qwen/settings.json, .factory/hooks.json, .augment/settings.json, crush.json, .continue/settings.json and the user's ones (cn reads .claude/settings.json too: doctor says where forge would run twice). For Cline, an executable per event in .clinerules/hooks/ or ~/Documents/Cline/Hooks/, which prints Cline's cancel JSON itself when forge-hook-run cannot be started. For OpenCode and Kilo, which have no shell hooks, forge's plugin forge-hook-run.js in .opencode/plugins/ or ~/.config/opencode/plugins/, .kilo/plugin/ or ~/.config/kilo/plugin/: it sends forge's own event JSON to forge-hook-run, throws with the reason on a deny or an ask, applies a rewrite to the tool's arguments, and throws when forge-hook-run cannot be run. all is every agent found here: its CLI on PATH (claude, codex, gemini, cursor-agent or cursor, copilot, windsurf, cline, qwen, droid, auggie, crush, cn, opencode, kilo) or its directory in your home; --agent again names another agent, and each one named is wired. A user's file (--global) names this install's forge-hook-run by its absolute path (the native warm client where install.sh built one, so every event gets the fastest warm path), which an agent started from a desktop launcher or a fresh home finds too. A project's file, which a team commits, runs forge-hook-run from PATH. Each command is a shell function called with forge-hook-run's words: forge_run() { command -v "$1" >/dev/null 2>&1 || { echo 'forge-hook-run is not on PATH: ...' >&2; return 2; }; ... }; forge_run forge-hook-run --dialect AGENT ...; where forge-hook-run is not installed, or is there but cannot start (its #! interpreter gone, say the virtualenv's Python upgraded away, or not executable: the shell's 127 or 126), the agent gets its blocking form (exit 2, the reason on stderr) on events that can block and exit 1 (a failure it shows) on the others, never the shell's exit 127, which Claude and Codex read as proceed; a user's file names this install's path the same way. The function runs forge-hook-run as its child, not by exec (whose failure ends the shell with 127 before any fallback), passes its output and exit status through unchanged, and hands the agent's SIGTERM, SIGINT or SIGHUP on to it as SIGTERM. Installing again replaces the command an older install wrote, in place; a forge-hook-run entry with options of your own is left alone. Every entry gets the agent's hook timeout at forge's ceiling, 600 s (Claude, Codex, Cursor timeout in seconds, Gemini timeout in milliseconds, Copilot timeoutSec; the smallest maximum of every program that reads the file: VS Code's agent, Copilot CLI and Continue read .claude/settings.json, and none documents one), and --agent-limit with the same seconds on its command (Claude's SessionEnd: 30).

The file is edited as text: forge's entry is appended after yours in each event's list, a missing key is added, and nothing else changes, byte for byte (Gemini's comments included). An event where forge-hook-run already runs for that agent is left alone, so a second install changes nothing; an entry of forge-hook-run whose arguments or variables turn hooks off (--no-global, --no-project, --trust-project, --project-root elsewhere, FORGE_SKIP=... or env FORGE_...=... in front of it, as a cloned repository may ship) does not count: forge's own entry goes beside it, and stderr says so. A value you set (Gemini's hooksConfig.enabled: false) is kept and named on stderr. A file that does not parse is not touched: one line names it with line and column, exit 2. Writes are as for hooks files (SAFE WRITES); a file install creates follows your umask.

Codex runs a hook only once its hash is trusted in ~/.codex/config.toml, as codex's /hooks records it. install records that trust for the entries it wrote, as a block of [hooks.state."FILE:EVENT:GROUP:INDEX"] tables appended to config.toml, and only when the file parsed again is exactly the old one plus those tables; otherwise it leaves config.toml alone and says to trust the hooks in /hooks. It says, and does not change, a project Codex does not trust or hooks switched off under [features].

--uninstall takes out exactly what install put in, from records in ${XDG_STATE_HOME:-~/.local/state}/forge/installs.json (no copy of your file is kept: the records hold hashes and forge's own entries). A file nobody changed since is back byte for byte; a file install created is removed with the directories it made; in a file you edited since, forge's entries and the keys it added are taken out by value and everything else is kept, and stderr says so. Entries of forge-hook-run that install did not write are left, and named. ./install.sh --uninstall does this first for every file in your home that install wired (and stops the warm runner) while forge is still there to do it; when one will not come out it removes nothing and says the command to run; a project's files it lists and never edits, as they may be another repository's.

forge-hook doctor says, per agent found (or with a settings file in the project), which of its settings files run forge-hook-run and on which of its events, in its own names, and exits 1 with one line per finding: an event forge handles that a wired file leaves out; forge-hook-run running twice on one event; another agent's --dialect, or a Copilot event without :EVENT; forge-hook-run not found where the settings name it, looked up on this PATH as an agent started here would (one finding per file, naming the events); an entry whose timeout is not its --agent-limit; an event whose forge hooks (their timeouts summed in order, a hook without one 10 s; the longest with --jobs; built-in guards none) can outlast the agent's limit less forge's margin (forge-hook check names both of these too); Claude's disableAllHooks, Gemini's hooksConfig.enabled: false, Codex's hooks switched off, a forge hook or the project not trusted by Codex; an agent's own hook that would run twice, once from its settings and once imported into a forge hooks file ("format": AGENT) on an event forge-hook-run runs on; a forge-hook-run entry that turns hooks off (above); a project's own settings that steer forge: Claude's settings env and Gemini's .env setting FORGE_TRUST_PROJECT, FORGE_SKIP, FORGE_CONFIG_DIR, FORGE_PROJECT_DIR, FORGE_LOG=0, FORGE_LOG_FILE, HOME or XDG_CONFIG_HOME/XDG_DATA_HOME/XDG_STATE_HOME, Codex's [features] hooks = false in .codex/config.toml; and an agent found here that an install named (the install records) with forge-hook-run in none of its settings. It names every other program known to read a file forge wrote, in a line "also read by PROGRAM: FILE: forge-hook-run there runs on its events too" (not a finding): VS Code's agent (.claude/settings.json, .claude/settings.local.json, ~/.claude/settings.json, .github/hooks/*.json; it ignores matchers), the Copilot app (Claude's three files; it ignores matchers), Copilot CLI (.claude/settings.json beside its own hooks) and Continue's cn (.claude/settings.json and ~/.claude/settings.json beside its own); where one of them reads forge-hook-run in two agents' files on one of its events, forge runs twice, a finding (Copilot CLI wired by forge and .claude/settings.json wired by forge: forge-hook-run runs 2 times on Copilot CLI's preToolUse). --json prints {"agents": [...], "findings": N}, each agent with also_read_by: per program, program, agent (forge's name for it or null), files, forge (those running forge-hook-run) and note.
""",
    "BUILT-IN GUARDS": """
forge-hook guard list [--json] names every built-in guard (forge-hook-run(1), BUILT-IN GUARDS), what it catches, its options with their kind and default, and whether it is in the recommended set. forge-hook add --guard NAME [--with JSON] writes one guard entry (on tool:pre_execute unless --event says otherwise), and forge-hook add --guards recommended writes the recommended set in one step (--guards also takes all, or names separated by commas); a guard already in the file, by its name or alias and whatever its options, is left as it is, so running it twice changes nothing. An unknown guard or option is refused before anything is written.

forge-hook guard test NAME [--with JSON] [--tool TOOL] [--content TEXT] [--cwd DIR] [--rewrite JSON] [--json] -- COMMAND|PATH says what guard NAME decides on one tool call, what matched, and how the command was read (each simple command, how it was reached: via sh -c, wrapped in sudo, after cd DIR, fed by curl). After --, one argument is a command line as written; several are one command's words, quoted back as a shell needs them. With --tool read, write, edit, glob or grep the argument is a path, and --content the text written. --rewrite takes a hook's data answer ({"tool_args": {"command": "rm -rf ~"}}): the guard also judges the call as rewritten, as a run does. It exits 0 for allow, 1 for deny, 4 for ask; with --rewrite, the stricter of the two.
""",
    "POLICY TESTS": """
forge-hook test FILE [--dialect AGENT[:EVENT]] [--trust-project] [--json] runs every case of a fixtures file through forge-hook-run's pipeline, against the hooks configured here (built-in guards and command hooks alike; command hooks run for real), and compares each run's decision with the one the case expects:

  {"cases": [
    {"name": "no sudo", "command": "sudo apt install x", "expect": "deny", "reason": "Blocked: sudo"},
    {"name": "Claude reads .env", "dialect": "claude", "expect": "deny",
     "payload": {"hook_event_name": "PreToolUse", "cwd": "{project}", "tool_name": "Read",
                 "tool_input": {"file_path": "{project}/.env"}}},
    {"name": "a session starts", "event": {"type": "session:start"}, "expect": "allow"}]}

A case has one of command (a bash pre-tool call), event (a forge event) or payload (an agent's own, read as the case's dialect or --dialect reads it); expect is allow, deny or ask; reason, if given, must be part of the run's reason. {project} in any string is the project root. The report says ok or FAIL per case and, for each failure, the expected decision (-) and the actual one (+) with the hook that decided and its reason. A file that is not valid JSON, or a case that cannot be used, is a usage error (exit 2) naming the case.
""",
    "REPLAY": """
forge-hook replay N [--trust-project] [--json] fires the event of run N of forge-hook log (1 is the latest) again, in the project it ran in (or --project-root), against the hooks configured today, and shows the decision then and now, each hook then (-) and now (+), and how many did not run. It replays what the run log kept: the event's type, tool, session and data, bounded (each string cut at 512 characters) and redacted, and for an agent's run the agent's name, event and tool but not its payload (so not its working directory: guards judge from the project root). A value the log cut or masked is replayed as it holds it, and the replay names it. Files, the environment and the time are today's, and command hooks run for real.
""",
    "EXIT STATUS": """
* 0: done; for check, no problems; for doctor, all is well; for test, every case passed; for replay, the decision is the same; for guard test, allow
* 1: check or doctor found problems; remove matched no hook; a test case failed; replay's decision changed; guard test: deny
* 4: guard test: ask
* 2: bad invocation or input: an unknown option or subcommand, a missing --global/--project, a malformed hook, no such index or id, an id two hooks hold, a file or trust records that cannot be parsed (the message says which)
* 3: internal error (a bug); FORGE_DEBUG=1 prints the traceback
* 5: the machine refused: a full disk, a read-only directory, a name too long, a deleted current directory, a lock held past FORGE_LOCK_TIMEOUT (one line says which)
* 141: the reader of stdout went away (as a shell's SIGPIPE: forge-hook list | head -1)
""",
    "ENVIRONMENT": """
* FORGE_CONFIG_DIR, XDG_CONFIG_HOME: where the global hooks file is (as for forge-hook-run)
* FORGE_PROJECT_DIR: the project root when --project-root is not given
* XDG_DATA_HOME: where the trust records are
* XDG_STATE_HOME: where install keeps its records (forge/installs.json)
* CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, COPILOT_HOME: where install, doctor and import find an agent's user settings, as the agent does
* FORGE_LOCK_TIMEOUT: seconds to wait for a lock another process holds (default 10)
* FORGE_MANAGED_DIR: the managed layer where /etc/forge does not exist (list, check and doctor show it; see forge-hook-run(1), MANAGED POLICY)
* FORGE_TRUST_PROJECT: 1, true, yes or on (any case) makes list --event count untrusted project hooks as running
* FORGE_LOG_FILE, XDG_STATE_HOME: where the run log is (log reads it); FORGE_LOG=0: it is off
* FORGE_WARM_DIR, XDG_RUNTIME_DIR, TMPDIR: where the resident runner's socket is (warm)
* FORGE_WARM_IDLE: seconds without a request after which the resident runner exits (3600)
""",
    "EXAMPLES": """
  forge-hook add --project --template block_sudo
  forge-hook add --global --event 'tool:post_execute:write,tool:post_execute:edit' \\
      --command 'ruff format --quiet .' --timeout 30 --description 'Format after edits'
  forge-hook trust                      # after reviewing .forge/hooks.json
  forge-hook list --event tool:pre_execute --tool bash
  forge-hook check || echo 'fix the lines above'
  forge-hook add --project --id lint --event 'tool:post_execute:write' --command 'ruff check .'
  forge-hook disable --project lint             # or by index: forge-hook disable --project 0
  FORGE_SKIP=lint git commit                    # skip it this once, said on stderr
  forge-hook list --json | jq -r '.[] | select(.trusted | not) | .file'
  forge-hook log --decision deny --since 1h     # what was blocked in the last hour, and why
  forge-hook log --show 1                       # the latest run, whole
  forge-hook install --agent claude --project   # forge-hook-run as Claude Code's hook command
  forge-hook doctor                             # wired where? anything running twice?
  forge-hook install --agent all --global --uninstall
  forge-hook add --global --guards recommended  # the built-in guards; twice changes nothing
  forge-hook guard test destructive_rm -- 'find ~ -name "*.log" | xargs rm -rf'
  forge-hook guard test secret_files --tool read -- ~/.aws/credentials
  forge-hook test --trust-project tests/policy.json   # in CI: exit 1 if a case fails
  forge-hook replay 1                           # would today's hooks still decide the same?
""",
    "SEE ALSO": """
forge-hook-run(1), jq(1).
""",
}
