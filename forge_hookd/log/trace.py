"""``forge-hook-run --trace`` (or ``FORGE_TRACE=1``): what the run does and why, for
people, on stderr: each config file read or not and why, each hook that matched and
each that did not and why, each start, end, exit, decision and duration, the run's
decision. Colour only on a terminal (and never with ``NO_COLOR``).

The :class:`Tracer` formats; the line goes to the ``write`` it is given (the CLI
prints, the library does not), as it is: the tracer makes control characters in what
it quotes visible itself, so that its own colour codes can pass.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from forge_hookd.registry import hook_name
from forge_hookd.text import short_command, visible

if TYPE_CHECKING:
    from forge_hookd.events import HookEvent
    from forge_hookd.registry import Hook
    from forge_hookd.results import HookResult

_COLOURS = {"good": "32", "bad": "31", "ask": "33", "dim": "2", "head": "1"}


class Tracer:
    """Narrates one run through ``write(line)``."""

    def __init__(self, write: Callable[[str], None], *, colour: bool) -> None:
        self.write = write
        self.colour = colour and "NO_COLOR" not in os.environ
        self.hooks: list[Hook] = []

    def _paint(self, text: str, tone: str) -> str:
        return f"\033[{_COLOURS[tone]}m{text}\033[0m" if self.colour else text

    def say(self, text: str, tone: str | None = None) -> None:
        text = visible(text)  # a hook's command or output must not drive the terminal
        self.write("trace: " + (self._paint(text, tone) if tone else text))

    # -- config ----------------------------------------------------------------------
    def not_read(self, scope: str, why: str) -> None:
        self.say(f"{scope} hooks file not read: {why}", "dim")

    def file(self, entry: dict[str, Any]) -> None:
        """One config file, as :func:`forge_hookd.log.runlog.file_entry` describes it."""
        scope, path, state = entry["scope"], entry["path"], entry["state"]
        if state == "loaded":
            trust = "" if entry["trust"] == "own" else f", {entry['trust']}"
            problems = f", {entry['warnings']} warning(s)" if entry["warnings"] else ""
            self.say(f"read {scope} {path}: {entry['hooks']} hook(s){trust}{problems}", "good")
        elif state == "not run":
            self.say(f"read {scope} {path}: its hooks do not run: the file is {entry['trust']} "
                     f"(forge-hook trust)", "bad")
        elif state == "refused":
            self.say(f"refused {scope} {path}: it fails the managed layer's checks, so forge denies the events "
                     "its hooks would judge", "bad")
        else:
            self.say(f"not read {scope} {path}: {state}", "dim")

    # -- matching ----------------------------------------------------------------------
    def matching(self, hooks: list[Hook], event: HookEvent, *, skipped: dict[int, str] | None = None) -> None:
        """Each loaded hook: matched, or why not (disabled, its pattern, ``skipped`` on
        request: ``id(hook)`` -> why)."""
        subject = event.type.value + (f":{event.tool_name}" if event.tool_name else "")
        per_source: dict[str | None, int] = {}
        skipped = skipped or {}
        if not hooks:
            self.say(f"event {subject}: no hooks loaded", "dim")
        for hook in hooks:
            index = per_source[hook.source] = per_source.get(hook.source, -1) + 1
            name = f"{_name(hook, index)} '{hook.event_pattern}'"
            if not hook.enabled:
                self.say(f"skip {name}: disabled", "dim")
            elif not hook.matches(event):
                self.say(f"skip {name}: pattern does not match {subject}", "dim")
            elif id(hook) in skipped:
                self.say(f"skip {name}: {skipped[id(hook)]}", "ask")
            else:
                self.say(f"match {name}: {_short(hook.action)}", "good")

    # -- running --------------------------------------------------------------------------
    def running(self, hooks: list[Hook]) -> None:
        """The hooks about to run, in run order: what the run's indexes name."""
        self.hooks = list(hooks)

    def started(self, index: int, hook: Hook) -> None:
        self.say(f"start {_name(hook, index)} '{hook.event_pattern}': {_short(hook.action)}")

    def ended(self, result: HookResult) -> None:
        """One hook's end, told as it happens."""
        guard = result.hook.guard
        how = (f"guard {guard} judged in-process" if guard and result.exit_code == 0
               else f"timed out ({result.error})" if result.timed_out
               else f"killed by {result.signal}" if result.signal
               else f"could not judge: {result.error}" if guard
               else f"could not start: {result.error}" if result.exit_code is None
               else f"exit {result.exit_code}")
        self.say(f"end {_name(result.hook, result.index)}: {how}, {result.decision}, {result.duration:.3f} s",
                 _tone(result.decision))

    def finished(self, doc: dict[str, Any], exit_status: int) -> None:
        """The hooks the chain never reached and the run's decision, from its document."""
        for index in doc.get("skipped") or []:
            self.say(f"{self._named(index)} did not run: an earlier hook stopped the chain", "dim")
        if doc.get("rewrite_judged"):
            self._rewrite(doc["rewrite_judged"])
        decision = doc.get("decision") or "allow"
        blocker: dict[str, Any] = doc.get("blocked_by") or next(  # an ask has no blocker: the first asking hook
            (r for r in [*(doc.get("results") or []), *(doc.get("rewrite_judged") or {}).get("guards", [])]
             if decision != "allow" and r.get("decision") == decision), {})
        reason = doc.get("reason") or ""
        who = self._named(blocker["index"]) if "index" in blocker else f"forge ({blocker.get('source')})"
        by = f" by {who}" + (f": {_short(reason)}" if reason else "") if blocker else ""
        self.say(f"decision {decision}{by}; exit {exit_status}; {doc.get('duration', 0):.3f} s",
                 _tone(decision))

    def _rewrite(self, judged: dict[str, Any]) -> None:
        """The tool input a hook rewrote, judged again by the run's guards (issue 32)."""
        guards, decision = judged.get("guards") or [], str(judged.get("decision"))
        self.say(f"rewrite of the tool input by {', '.join(judged.get('rewritten_by') or ['a hook'])}: "
                 f"judged again by {len(guards)} guard(s), {decision}", _tone(decision))
        for guard in guards:
            reason = guard.get("reason") or ""
            self.say(f"rewrite judged by {self._named(guard['index'])}: guard {guard.get('guard')}, "
                     f"{guard.get('decision')}" + (f": {_short(reason)}" if reason else ""), _tone(guard["decision"]))

    def _named(self, index: int) -> str:
        return _name(self.hooks[index], index) if 0 <= index < len(self.hooks) else f"hook {index}"


def _name(hook: Hook, index: int) -> str:
    """The hook's one name (registry.hook_name): ``project[2]``; a library caller's
    hook, read from no file, by its place in the run."""
    return hook_name(hook.source, hook.source_index, hook.id, run_index=index)


def _tone(decision: str) -> str:
    return {"allow": "good", "deny": "bad"}.get(decision, "ask")


def _short(text: str, limit: int = 80) -> str:
    """One line, cut (saying how long it was), secrets masked (stderr may end up in an
    agent's transcript)."""
    from forge_hookd.log.redact import redact_text  # 0.7 ms, only when tracing with the log off (bench/README.md)

    return short_command(redact_text(" ".join(text.split())), limit)  # masked as the line reads
