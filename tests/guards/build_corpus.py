"""Builds tests/guards/corpus/*.jsonl from the test suites of public guard projects.

Not run by the tests: the corpus files are committed. It reads git mirrors of the
projects (paths given on the command line) and keeps, per case, where it came from
(repository, path, commit, licence). Each project's verdict is kept as
``peer_expected``; ``expected`` is the pack's intended decision, set here and then
reviewed by hand (tests/guards/corpus/README.md says how the two can differ).

    python tests/guards/build_corpus.py --safety-net DIR --dcg DIR --karanb DIR
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent / "corpus"

_CALL = re.compile(r"""\b(shouldBlock|shouldAllow|bashBlocked|bashAllowed|fileBlocked|fileAllowed|assertBlocked|
                       assertAllowed)\(\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.)*`)\s*
                       (?:,\s*([^()\n]*(?:\([^()\n]*\)[^()\n]*)*))?\)""", re.VERBOSE)
_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "`": "`", "$": "$", "0": "\0"}


def _js_string(literal: str) -> str:
    body = literal[1:-1]
    return re.sub(r"\\(u\{?[0-9a-fA-F]{4,5}\}?|x[0-9a-fA-F]{2}|.)",
                  lambda m: _JS_ESCAPE(m.group(1)), body)


def _JS_ESCAPE(esc: str) -> str:
    if esc[0] in "ux" and len(esc) > 1:
        return chr(int(esc.strip("ux{}"), 16))
    return _JS_ESCAPES.get(esc, esc)


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def category(command: str, tool: str = "bash") -> str:
    """The guard a case is about, from its text alone (never from our verdict)."""
    c = command
    if tool != "bash":
        return "secret_files"
    rules = [
        ("self_protection", r"forge-hook|\.forge\b|forge_hookd"),
        ("no_verify", r"--no-verify|HUSKY=|core\.hooksPath|\bcommit\s+-[a-z]*n"),
        ("force_push", r"\bpush\b"),
        ("destructive_git", r"\bgit\b|\bGIT\b"),
        ("secret_files", r"\.env\b|\.ssh|\.pem\b|credentials|secrets\.|\.netrc|\.npmrc|\.pypirc|id_rsa|\.kube|"
                         r"\bprintenv\b|\$\{?[A-Z_]*(?:SECRET|KEY|TOKEN|PASSWORD)"),
        ("remote_code", r"\bcurl\b|\bwget\b|base64|\bnc\b|ngrok|/dev/tcp|\bssh\b.*-R|\bscp\b|\brsync\b"),
        ("privilege_escalation", r"\bsudo\b|\bdoas\b|\bpkexec\b|\bsu\b|\bchmod\b|\bchown\b"),
        ("infra_destructive", r"terraform|kubectl|helm|\baws\b|gcloud|\baz\b|docker|podman|DROP|TRUNCATE|psql|"
                              r"mysql|redis|mongo|\bdb:|crontab"),
        ("package_policy", r"\bnpm\b|\bpip3?\b|\byarn\b|\bpnpm\b|\bcargo\b|\bgo (?:get|install)|\bgem\b|\buv\b"),
        ("destructive_rm", r"\brm\b|\bfind\b|shred|unlink|\bdd\b|mkfs|rmtree|rmSync|rimraf|\bRM\b"),
    ]
    for name, pattern in rules:
        if re.search(pattern, c):
            return name
    return "other"


def _case(command: str, peer: str, source: dict[str, str], *, tool: str = "bash",
          note: str | None = None) -> dict[str, Any]:
    tool_input = {"command": command} if tool == "bash" else {"file_path": command}
    case: dict[str, Any] = {"category": category(command, tool), "tool": tool, "tool_input": tool_input,
                            "expected": peer, "peer_expected": peer, "source": source}
    if note:
        case["note"] = note
    return case


def from_js_tests(repo: Path, name: str, paths: list[str], licence: str) -> list[dict[str, Any]]:
    commit = _git(repo, "rev-parse", "HEAD").strip()
    cases = []
    for path in paths:
        text = _git(repo, "show", f"HEAD:{path}")
        for block in re.split(r"\n\s*(?:it|test)\(", text):
            if re.search(r"withEnv|worktree|Fixture|mkdtemp|config:|Config\b|process\.env", block):
                continue  # depends on an environment or files we do not recreate
            for match in _CALL.finditer(block):
                fn, literal, rest = match.groups()
                if fn in ("shouldBlock", "shouldAllow", "bashBlocked", "bashAllowed", "fileBlocked", "fileAllowed") \
                        and rest and re.search(r"'(?:strict|critical|main|master)'", rest):
                    continue  # a stricter level, or a branch we cannot know without I/O
                command = _js_string(literal)
                if not command.strip() or "${" in literal and literal.startswith("`"):
                    continue
                peer = "deny" if "Block" in fn else "allow"
                tool = "read" if fn.startswith("file") else "bash"
                cases.append(_case(command, peer, {"repository": name, "path": path, "commit": commit,
                                                   "licence": licence}, tool=tool))
    return cases


def from_dcg(repo: Path) -> list[dict[str, Any]]:
    commit = _git(repo, "rev-parse", "HEAD").strip()
    cases = []
    for path in _git(repo, "ls-tree", "-r", "--name-only", "HEAD", "tests/corpus").split():
        if not path.endswith(".toml") or "edge_cases/regex" in path or "unicode" in path:
            continue
        doc = tomllib.loads(_git(repo, "show", f"HEAD:{path}"))
        for case in doc.get("case", []):
            expected = case.get("expected")
            command = case.get("command")
            if expected not in ("allow", "deny") or not isinstance(command, str) or not command.strip():
                continue
            cases.append(_case(command, expected, {"repository": "Dicklesworthstone/destructive_command_guard",
                                                   "path": path, "commit": commit, "licence": "MIT"},
                               note=case.get("description")))
    return cases


# Where the pack's decision differs from the project's test, by design: (pattern over the
# command or path, the pack's decision, why). A pattern matches the whole text.
REVIEW: list[tuple[str, str, str]] = [
    (r"rm -[rR] /some/path", "deny", "stricter: a recursive delete outside the project (the peer needs -rf)"),
    (r"rm -f /some/path", "deny", "stricter: protected_paths refuses writes outside the project"),
    (r"rm -rf ~/Documents", "deny", "stricter: a recursive delete outside the project"),
    (r"rm -rf `pwd`/escape", "allow", "`pwd` is the project: the path stays inside it"),
    (r"\$\( cd \.\.; echo ok \) && rm -rf build", "allow", "the cd runs in a command substitution: build is in "
                                                          "the project"),
    (r"TMPDIR=\S* rm -rf \$TMPDIR/test-dir", "ask", "TMPDIR set in the line: the target is unknown, the pack asks"),
    (r"rm -rf (7|123) ?> ?/dev/null", "allow", "a relative path inside the project (the peer's test has no cwd)"),
    (r"rm -rf \./build", "allow", "inside the project (the peer's test has no cwd and refuses any relative rm -rf)"),
    (r"git clean -nf", "allow", "-n is a dry run: git deletes nothing"),
    (r"git push --force-with-lease origin main", "deny", "stricter: a lease on a protected branch is still a force "
                                                         "push (issue 22)"),
    (r"(sudo env VAR=1 git status|sudo git status|sudo rm -rf /tmp/test|echo ok \| xargs sudo --)", "deny",
     "the pack includes privilege_escalation: sudo is refused whatever it runs"),
    (r"GIT CHECKOUT -- file", "deny", "UNMET: on a case-sensitive file system GIT is not git; the pack reads "
                                     "command names as the shell does"),
    (r"echo (/|ok) \| xargs (--arg-file=|-a )/tmp/paths rm -rf", "ask", "the paths come from a file: unknown, the "
                                                                      "pack asks"),
    (r"echo ok \| (xargs -I\{\} bash -c \{\}|xargs bash -c|parallel bash -c \{\})", "allow",
     "the input is written in the line (ok): the command it builds is harmless"),
    (r"echo 'rm -rf /' \| xargs bash -c", "deny", "the line means the text as code: plain xargs splits it into "
     "words (bash -c runs `rm` alone), with -0 or -d it runs it whole; judged as the code it means, as the peer does"),
    (r"(command -V|1A=2|A-B=2|=2) git reset --hard", "allow", "git never runs: command -V describes it, and a "
                                                            "word that is not an assignment is the command"),
    (r"(node|ruby|perl) -e \"rm -rf /\"", "allow", "not code in that language (a syntax error): nothing is deleted"),
    (r"cd /tmp && bash -c \"rm -rf foo\"", "allow", "/tmp/foo: the pack allows deleting under /tmp"),
    (r"(busybox )?find \. -name (\"\*\.pyc\"|'\*\.tmp') -(delete|exec rm -r --force \{\} \\;)", "allow",
     "a narrowed find inside the project: it deletes the matching files only"),
    (r"find /tmp -execdir (env )?rm -rf \{\} \+", "allow", "under /tmp: allowed"),
    (r"find \. -exec rm -[rf] \{\} \\;", "deny", "stricter: an unnarrowed find deletes everything in the project"),
    (r"docker system prune -a|kubectl delete namespace prod|kubectl delete all --all|docker volume rm vol", "ask",
     "infra_destructive asks"),
    (r"echo yes \| rm -rf && echo done", "allow", "rm -rf with no operand deletes nothing"),
    (r"git push origin (main|master)( --tags)?", "ask", "a push to a protected branch: the pack asks"),
    (r"git push (main|master)", "allow", "pushes to a remote named main/master: no protected branch is named"),
    (r"git push (--force|-f) origin feature", "deny", "stricter: every force push is refused (use --force-with-lease)"),
    (r"git branch (-d|--delete) (main|master)", "allow", "-d refuses to delete unmerged work; a local branch is not "
                                                          "the remote"),
    (r"git branch -D old-branch", "deny", "branch -D loses unmerged work (issue 22)"),
    (r"gh (pr merge|pr close|issue close).*", "deny", "UNMET: the pack has no guard for GitHub pull requests and "
                                                      "issues"),
    (r"gh (release|repo) delete.*", "ask", "infra_destructive asks"),
    (r":\(\)\{:\|:&\};:", "deny", "UNMET: a fork bomb is in no category of the pack"),
    (r"(cat \.env|printenv|echo \$SECRET_KEY|rm ~/\.ssh/id_rsa|base64 \.env)", "deny",
     "the pack includes secret_files (the peer delegates these to another hook)"),
]


def _reviewed(case: dict[str, Any]) -> dict[str, Any]:
    text = case["tool_input"].get("command") or case["tool_input"].get("file_path")
    for pattern, expected, note in REVIEW:
        if re.fullmatch(pattern, text):
            case["expected"] = expected
            if note.startswith("UNMET: "):
                case["unmet"] = note[len("UNMET: "):]
            else:
                case["note"] = note
    if case["expected"] == "deny" and case["category"] in ("infra_destructive", "package_policy"):
        case["expected"] = "ask"
    return case


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--safety-net", type=Path, required=True)
    parser.add_argument("--dcg", type=Path, required=True)
    parser.add_argument("--karanb", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=HERE / "peers.jsonl")
    args = parser.parse_args()
    cases = from_js_tests(args.safety_net, "kenryu42/claude-code-safety-net", [
        "tests/core/rules-rm.test.ts", "tests/core/rules-git.test.ts", "tests/core/analyze/edge-cases.test.ts",
        "tests/core/analyze/find.test.ts"], "MIT")
    cases += from_dcg(args.dcg)
    cases += from_js_tests(args.karanb, "karanb192/claude-code-hooks", [
        "plugins/block-dangerous-commands/tests/block-dangerous-commands.test.js",
        "plugins/git-safety/tests/git-safety.test.js", "plugins/protect-secrets/tests/protect-secrets.test.js"], "MIT")
    seen: set[tuple[str, str]] = set()
    with args.out.open("w") as out:
        for case in cases:
            key = (case["tool"], json.dumps(case["tool_input"], sort_keys=True))
            if key in seen:
                continue
            seen.add(key)
            out.write(json.dumps(_reviewed(case), ensure_ascii=False) + "\n")
    print(f"{len(seen)} cases -> {args.out}")


if __name__ == "__main__":
    main()
