"""The git guards: force-push and pushes to protected branches, other history- or
work-destroying git commands, and skipping the repository's own hooks (--no-verify)."""

from __future__ import annotations

from collections.abc import Mapping
from fnmatch import fnmatchcase
from typing import Any

from forge_hookd.shell.commands import HOOK_DIRS, Command, Parsed
from forge_hookd.guards.base import ALLOWED, ASK, DENY, Context, Guard, Option, Ruling, command_cwd, git_args, long_flags, \
    operands, request_method, resolve, short_flags
from forge_hookd.guards.paths import adds_hook, written_paths
from forge_hookd.shell.lazyre import Lazy

PROTECTED = ["main", "master", "release/*", "production"]


def _branch_of(refspec: str) -> str:
    """The remote branch a refspec pushes to: ``+HEAD:refs/heads/main`` -> ``main``."""
    dst = refspec.lstrip("+").rpartition(":")[2] if ":" in refspec else refspec.lstrip("+")
    for prefix in ("refs/heads/", "heads/"):
        if dst.startswith(prefix):
            return dst[len(prefix):]
    return dst


class ForcePush(Guard):
    heads = ("git", "gh")
    name = "force_push"
    summary = "Force-pushing, and pushing to or deleting protected branches"
    catches = ("git push --force", "git push -f origin feature", "git push origin +main",
               "git push --force-with-lease origin main", "git push origin HEAD:main", "git push --delete origin main",
               "git push --mirror", "gh pr merge 12")
    options = (
        Option("protected_branches", "list", PROTECTED, "Branches (globs) no push may rewrite, and pushes to ask about"),
        Option("push_to_protected", "decision", ASK, "What a plain push to a protected branch is"),
        Option("force_with_lease", "decision", "allow",
               "What --force-with-lease to a branch that is not protected is"),
    )

    def judge_shell(self, parsed: Parsed, context: Context) -> Ruling:
        added: dict[str, str] = {}
        for command in parsed.commands:
            git = git_args(command)
            if git is not None and git[0] == "remote" and git[1][:1] in (["add"], ["set-url"]):
                ops = operands(git[1][1:])
                if len(ops) >= 2:
                    added[ops[0]] = ops[1]
            elif git is not None and git[0] == "push" and operands(git[1])[:1] and operands(git[1])[0] in added:
                remote = operands(git[1])[0]
                return self.verdict(DENY, " ".join(command.argv), f"pushes to {added[remote]}, a remote the same "
                                    "command added: the repository leaves for an address nobody reviewed",
                                    "Push to the project's own remote, or ask the user")
        return super().judge_shell(parsed, context)

    def judge_unmapped(self, tool: str, tool_args: Mapping[str, Any], context: Context) -> Ruling:
        """An MCP tool that pushes (``mcp__git__git_push``, ``mcp__github__push_files``) or
        merges a pull request, judged by its arguments as the git or gh command it is."""
        from forge_hookd.guards import shape  # loaded already: a tool forge does not know

        words = set(shape.name_words(shape.own_name(tool))) if shape.is_mcp(tool) else set()
        if "merge" in words and words & {"pull", "pr", "request"}:
            return self._mcp_verdict(self.opts["push_to_protected"], tool, "merges a pull request into its base "
                                     "branch, a push to the branch it protects", "Leave it for a person to merge")
        if "push" not in words:
            return super().judge_unmapped(tool, tool_args, context)
        if any(tool_args.get(k) is True for k in ("force", "forcePush", "force_push")):
            return self._mcp_verdict(DENY, tool, "rewrites published history (force push)",
                                     "Push without force, or open a pull request")
        branch = next((v for k in ("branch", "ref", "remote_branch", "target_branch", "refspec")
                       if isinstance(v := tool_args.get(k), str) and v), "")
        if branch and self._protected(_branch_of(branch)) and self.opts["push_to_protected"] != "allow":
            return self._mcp_verdict(self.opts["push_to_protected"], tool, f"pushes to the protected branch "
                                     f"{_branch_of(branch)}", "Push a feature branch and open a pull request")
        return super().judge_unmapped(tool, tool_args, context)

    def _mcp_verdict(self, decision: str, tool: str, why: str, safely: str) -> Ruling:
        return ALLOWED if decision == "allow" else self.verdict(decision, tool, f"{why} (an MCP tool)", safely)

    def judge_command(self, command: Command, context: Context) -> Ruling:
        api = _api_forces_ref(command)
        if api is not None:
            return self.verdict(DENY, " ".join(command.argv), api, "Open a pull request instead")
        if _syncs_by_force(command):
            return self.verdict(DENY, " ".join(command.argv), "hard-resets a branch to its source's (gh repo sync "
                                "--force): the branch's own commits are dropped, as by a force push",
                                "Sync without --force; merge or rebase what the branch has of its own")
        merge = _merges_a_pull_request(command)
        if merge is not None:
            decision = DENY if merge == "--admin" else self.opts["push_to_protected"]
            why = ("merges a pull request past its branch protection (--admin)" if merge == "--admin" else
                   "merges a pull request into its base branch, a push to the branch it protects")
            return ALLOWED if decision == "allow" else self.verdict(
                decision, " ".join(command.argv), why, "Leave the pull request for a person to merge")
        git = git_args(command)
        if git is None or git[0] != "push":
            return ALLOWED
        args = git[1]
        shown = " ".join(command.argv)
        longs, shorts = long_flags(args), short_flags(args)
        if "--dry-run" in longs or "n" in shorts:
            return ALLOWED  # git push -n / --dry-run: says what it would push, pushes nothing
        refs = [r for r in operands(args)[1:]]  # the first operand is the remote
        branches = [_branch_of(r) for r in refs]
        protected = [b for b in branches if self._protected(b)]
        lease = bool(longs & {"--force-with-lease", "--force-if-includes"})
        if "--mirror" in longs or ("--force" in longs or "f" in shorts) and not lease:
            return self.verdict(DENY, shown, "rewrites published history (force push)",
                                "Use --force-with-lease on your own branch, or open a pull request")
        if "--prune" in longs:
            return self.verdict(DENY, shown, "deletes every remote branch that has no local one (push --prune)",
                                "Delete the branches you mean by name: git push origin --delete NAME")
        if any(r.startswith("+") for r in refs):
            return self.verdict(DENY, shown, "force-pushes with a +refspec",
                                "Push without '+', or use --force-with-lease on your own branch")
        deleting = "--delete" in longs or "d" in shorts or any(r.startswith(":") for r in refs)
        tag = next((r.lstrip(":") for r in refs if (r.startswith(":") or deleting) and _names_a_tag(r.lstrip(":"))),
                   None)
        if tag is not None:
            return self.verdict(DENY, shown, f"deletes the published tag {tag.removeprefix('refs/tags/')}",
                                "Ask the user; a release tag others may have fetched is removed by hand")
        if protected and deleting:
            return self.verdict(DENY, shown, f"deletes the protected branch {protected[0]}",
                                "Ask the user; protected branches are deleted by hand")
        if lease:
            if protected or not refs:
                what = f"the protected branch {protected[0]}" if protected else "the current branch"
                decision = DENY if protected else self.opts["force_with_lease"]
                return self.verdict(decision, shown, f"force-pushes (with lease) to {what}",
                                    "Force-push only your own feature branch, named explicitly")
            return self.verdict(self.opts["force_with_lease"], shown, "force-pushes (with lease)",
                                "Prefer a new commit") if self.opts["force_with_lease"] != "allow" else ALLOWED
        if protected and self.opts["push_to_protected"] != "allow":
            return self.verdict(self.opts["push_to_protected"], shown, f"pushes to the protected branch {protected[0]}",
                                "Push a feature branch and open a pull request")
        return ALLOWED

    def _protected(self, branch: str) -> bool:
        return any(fnmatchcase(branch, p) for p in self.opts["protected_branches"])


#: a release's name: v1.0, 2.3.1, v1.2.0-rc.1 (a branch is seldom named so; a tag nearly always)
_RELEASE = Lazy(r"v?[0-9]+(?:\.[0-9]+)+(?:[-+.][0-9A-Za-z.-]*)?")


def _names_a_tag(ref: str) -> bool:
    """Whether a deleted ref is a tag: ``refs/tags/X``, or a release's version (``git push origin
    --delete v1.0``, ``:v2.3.1``), which is a tag's name however the push spells it."""
    return ref.startswith("refs/tags/") or _RELEASE.fullmatch(ref) is not None


def _merges_a_pull_request(command: Command) -> str | None:
    """``gh pr merge``: ``"--admin"`` when it bypasses the branch's protection, ``""``
    for a merge now or when the checks pass (``--auto``), None for anything else
    (``--disable-auto`` merges nothing)."""
    if command.name != "gh" or command.args[:2] != ("pr", "merge"):
        return None
    args = command.args[2:]
    if "--disable-auto" in args:
        return None
    return "--admin" if "--admin" in args else ""


def _syncs_by_force(command: Command) -> bool:
    """``gh repo sync --force``: the destination branch (a fork's, or the local one) set to the
    source's, whatever it had of its own."""
    return command.name == "gh" and command.args[:2] == ("repo", "sync") and "--force" in command.args


def _api_forces_ref(command: Command) -> str | None:
    """``gh api -X PATCH repos/o/r/git/refs/heads/main -F force=true`` and ``-X DELETE`` of a
    ref: a force push or a branch deletion through the GitHub API."""
    if command.name != "gh" or command.args[:1] != ("api",):
        return None
    args = list(command.args)
    if not any("/git/refs/" in a for a in args):
        return None
    method = request_method("gh", args)
    if method == "DELETE":
        return "deletes a branch or tag through the GitHub API"
    if method in ("PATCH", "POST", "PUT") and any(a.replace(" ", "") in ("force=true", "force=1") for a in args):
        return "force-moves a ref through the GitHub API (force push)"
    return None


class DestructiveGit(Guard):
    heads = ("git",)
    name = "destructive_git"
    summary = "git commands that throw away work or history"
    catches = ("git reset --hard", "git clean -fd", "git checkout -- .", "git restore .", "git branch -D x",
               "git stash drop", "git stash clear", "git filter-branch", "git reflog expire --expire=now --all",
               "git gc --prune=now", "git checkout -f", "git switch --discard-changes")
    options = (Option("allow", "list", [], "Subcommands to let through, as written ('reset --hard', 'clean -f')"),)

    def judge_command(self, command: Command, context: Context) -> Ruling:
        git = git_args(command)
        if git is None:
            return ALLOWED
        sub, args = git
        if any(w[0].rsplit("/", 1)[-1] == "xargs" for w in command.wrappers):
            args = [*args, "<input>"]  # `git ls-files -m | xargs git checkout --`: the paths come on its input
        why, decision = _destroys(sub, args), DENY
        if why is None and sub == "apply" and _reverses_the_worktree_diff(command, args):
            why = ("discards the working tree's changes (git diff reversed by git apply -R)",
                   "Commit or stash first (git stash push); save the diff to a file if you mean to undo it")
        if why is None:
            why, decision = _moves_branch(sub, args), ASK
        if why is None or any(_allowed(sub, args, a) for a in self.opts["allow"]):
            return ALLOWED
        return self.verdict(decision, " ".join(command.argv), why[0], why[1])


def _reverses_the_worktree_diff(command: Command, args: list[str]) -> bool:
    """``git diff | git apply -R``: the uncommitted changes read and applied backwards, which is
    ``git checkout -- .`` spelt otherwise; a patch file reversed (``git apply -R fix.patch``) keeps
    the file, and a diff saved first is a way back."""
    if not ({"-R", "--reverse"} & set(args) or "R" in short_flags(args)) or \
            [op for op in operands(args) if op not in ("-", "<input>")] or \
            {"--check", "--stat", "--numstat", "--summary"} & set(args) and "--apply" not in args:
        return False  # a patch file, or a check that applies nothing
    for feeder in command.feeders:
        fed = git_args(feeder)
        if fed is not None and fed[0] == "diff" and not {"--cached", "--staged"} & set(fed[1]):
            return True
    return False


def _allowed(sub: str, args: list[str], allowed: str) -> bool:
    words = allowed.split()
    return bool(words) and words[0] == sub and all(w in args for w in words[1:])


# short options whose value is glued on or follows (checkout -bNAME, switch -c NAME, commit -m MSG)
_VALUE_SHORTS = {"checkout": "bB", "switch": "cC", "branch": "", "clean": "e", "stash": "m", "restore": "s",
                 "commit": "mFCct", "push": "o", "reset": ""}


def _shorts(sub: str, args: list[str]) -> tuple[set[str], list[str]]:
    """The short flags of a git subcommand and its operands, knowing which options
    take a value (``checkout -b x`` has no -f and no operand ``x``)."""
    takes = _VALUE_SHORTS.get(sub, "")
    letters: set[str] = set()
    ops: list[str] = []
    skip = rest = False
    for arg in args:
        if skip:
            skip = False
        elif rest or not arg.startswith("-") or arg == "-":
            ops.append(arg)
        elif arg == "--":
            rest = True
        elif not arg.startswith("--"):
            for k, letter in enumerate(arg[1:], start=1):
                letters.add(letter)
                if letter in takes:
                    skip = k == len(arg) - 1
                    break
        elif arg in ("--orphan", "--branch", "--message", "--create", "--force-create") and "=" not in arg:
            skip = True
    return letters, ops


def _destroys(sub: str, args: list[str]) -> tuple[str, str] | None:
    if "--help" in args or "-h" in args:
        return None
    longs = long_flags(args)
    shorts, ops = _shorts(sub, args)
    if sub == "reset" and ({"--hard", "--merge"} & longs):  # --keep refuses to lose a local change
        flag = next(iter({"--hard", "--merge"} & longs))
        return f"discards uncommitted changes (reset {flag})", "Commit or stash first; use git reset --soft or --mixed"
    if sub == "clean" and ("f" in shorts or "--force" in longs) and not ("n" in shorts or "--dry-run" in longs):
        return "deletes untracked files (clean -f)", "Run git clean -n first and delete what you mean by name"
    if sub == "checkout" and _checkout_discards(args, shorts, longs, ops):
        return "discards changes in the working tree", "Commit or stash first (git stash push)"
    if sub == "restore" and (not ({"--staged", "-S"} & set(args) or "S" in shorts) and ops or "--worktree" in longs
                             or "W" in shorts):
        return "discards changes in the working tree (restore)", "Commit or stash first (git stash push)"
    if sub == "rm" and ("f" in shorts or "--force" in longs) and not ({"--cached", "--dry-run"} & longs or
                                                                      "n" in shorts) and \
            any(op in _WHOLE_TREE for op in ops):
        return "removes every tracked file with its uncommitted changes (rm -f of the whole tree)", \
            "Remove what you mean by name, or git rm without -f, which refuses to lose a change"
    if sub == "switch" and ({"--discard-changes", "--force"} & longs or "f" in shorts) and \
            not shorts & {"c", "C"}:
        return "discards changes in the working tree", "Commit or stash first"
    if sub == "branch" and ("D" in shorts or ("--delete" in longs or "d" in shorts) and ("--force" in longs or
                                                                                          "f" in shorts)):
        return "force-deletes a branch (branch -D)", "Use git branch -d, which refuses to lose unmerged work"
    if sub == "stash" and ops[:1] in (["drop"], ["clear"]):
        return f"throws away stashed work (stash {ops[0]})", "Apply or inspect the stash first (git stash show -p)"
    if sub in ("filter-branch", "filter-repo"):
        return "rewrites the whole history", "Ask the user; history rewrites are done by hand"
    if sub == "reflog" and ops[:1] in (["expire"], ["delete"]):
        return "drops the reflog, the last way back to lost commits", "Leave the reflog alone"
    if sub == "gc" and any(a.startswith("--prune=now") or a == "--prune=all" for a in args):
        return "prunes unreachable commits now", "Run git gc without --prune=now"
    if sub == "prune" and not {"-n", "--dry-run"} & set(args) and any(a in ("--expire=now", "--expire=all") or a == "--expire" and
                              args[k + 1:k + 2] in (["now"], ["all"]) for k, a in enumerate(args)):
        return "prunes unreachable commits now", "Leave git's own expiry to prune them"
    if sub == "submodule" and ops[:1] == ["deinit"] and ("-f" in args or "--force" in args):
        return "removes submodules' working trees, their local changes with them (submodule deinit -f)", \
            "Commit or stash in each submodule first, then deinit without -f"
    if sub == "read-tree" and ("-u" in args or "--reset" in longs) and ("--reset" in longs or "-m" in args):
        return "overwrites the index and the working tree (read-tree -u --reset)", "Commit or stash first"
    if sub == "checkout-index" and ("f" in shorts or "--force" in longs):
        return "overwrites files in the working tree (checkout-index -f)", "Commit or stash first"
    if sub == "update-ref" and "-d" in args:
        return "deletes a ref", "Use git branch -d or git tag -d"
    if sub == "worktree" and ops[:1] == ["remove"] and ("f" in shorts or "--force" in longs):
        return "removes a worktree with its changes", "Commit in the worktree first; remove it without --force"
    return None


#: operands of git rm that name the whole working tree (a directory of the project is its work,
#: as `rm -rf dir` is destructive_rm's to pass)
_WHOLE_TREE = frozenset({".", "./", ":/", ":/*", "*", "./*", ":(top)"})

#: branches whose move is never a topic's own business
_MAIN_BRANCHES = frozenset({"main", "master", "trunk", "develop", "development", "production", "prod", "stable"})
_NO_COMMIT = "0" * 40


def _moves_branch(sub: str, args: list[str]) -> tuple[str, str] | None:
    """``git branch -f B START``, ``checkout -B``/``switch -C B START``, ``update-ref
    refs/heads/B NEW``: a branch set to another commit leaves its own commits behind
    (only the reflog still knows them). Asked when the branch is a main one or START
    walks back (``HEAD~3``, ``B^``, ``B@{2}``); set to its own upstream (``branch -f
    topic origin/topic``) or to a new name it loses nothing."""
    ops = operands(args)
    if sub == "branch" and ("--force" in args or "f" in short_flags(args)) and not _branch_listing(args) and ops:
        branch, start = ops[0], ops[1] if len(ops) > 1 else "HEAD"
    elif sub in ("checkout", "switch") and len(args) > 1:
        flag = next((k for k, a in enumerate(args) if a in ("-B", "-C", "--force-create")), None)
        if flag is None or flag + 1 >= len(args):
            return None
        branch, start = args[flag + 1], next(iter(operands(args[flag + 2:])), "HEAD")
    elif sub == "update-ref" and "--stdin" not in args and len(ops) >= 2 and ops[0].startswith("refs/heads/"):
        if ops[2:3] == [_NO_COMMIT] or ops[2:3] == ["0" * 64]:
            return None  # an old value of zeros: update-ref only creates, and fails on a branch that exists
        branch, start = ops[0][len("refs/heads/"):], ops[1]
    else:
        return None
    if start.rpartition("/")[2] == branch and "/" in start and not any(c in start for c in "~^@"):
        return None  # its own upstream (origin/topic): the published commits
    walks_back = any(c in start for c in "~^") or "@{" in start
    if branch in _MAIN_BRANCHES or branch.startswith("release/") or walks_back:
        return (f"moves the branch {branch} to {start}, leaving the commits only it had behind",
                f"Create a new branch at {start} (git branch NEW {start}), or ask the user")
    return None


def _branch_listing(args: list[str]) -> bool:
    """``git branch -f --list``, ``--contains``: lists, sets nothing."""
    return any(a in ("--list", "-l", "--contains", "--merged", "--no-merged", "--show-current") for a in args)


def _checkout_discards(args: list[str], shorts: set[str], longs: set[str], ops: list[str]) -> bool:
    """checkout -f, checkout -- PATHS, checkout . and checkout REF PATHS overwrite the
    working tree; creating a branch (-b) or switching does not."""
    if "f" in shorts or "--force" in longs:
        return True
    if shorts & {"b", "B"} or "--orphan" in longs:
        return False
    if "--" in args and args.index("--") + 1 < len(args):
        return True
    if any(op.endswith("/") or op.startswith("./") or op in (".", ":/") for op in ops):
        return True  # a directory (a branch name never ends with /): its changes go
    return len(ops) > 1 and any("." in op or "/" in op for op in ops[1:])


class NoVerify(Guard):
    heads = ("git",)
    name = "no_verify"
    summary = "Skipping the repository's own hooks (--no-verify, -n, HUSKY=0, core.hooksPath)"
    catches = ("git commit --no-verify -m x", "git commit -nm x", "git push --no-verify", "HUSKY=0 git commit -m x",
               "git -c core.hooksPath=/dev/null commit -m x")
    options = ()

    def judge_command(self, command: Command, context: Context) -> Ruling:
        shown = " ".join(command.argv)
        removed = _removes_hooks(command, context)
        if removed is not None:
            return self.verdict(DENY, shown, removed, "Fix what the hook reports; the hooks are the team's to change")
        git = git_args(command)
        if git is None:
            return ALLOWED
        sub, args = git
        skip = "--no-verify" in long_flags(args) or (sub == "commit" and "n" in _commit_shorts(args))
        if sub in _RUNS_HOOKS and skip:
            return self.verdict(DENY, shown, "skips the repository's hooks (--no-verify)",
                                "Fix what the hook reports, then commit without --no-verify")
        switch = _hooks_switch(command, sub)
        if sub in _RUNS_HOOKS and switch is not None:
            return self.verdict(DENY, shown, f"switches the repository's hooks off ({switch})",
                                "Fix what the hook reports, then commit with the hooks on")
        if sub == "config" and any(a.lower() == "core.hookspath" for a in args) and \
                (len(operands(args)) > 1 or "--unset" in args or "--unset-all" in args):
            return self.verdict(DENY, shown, "changes where git finds the repository's hooks (core.hooksPath)",
                                "Leave core.hooksPath to the team's hook manager")
        return ALLOWED


def _commit_shorts(args: list[str]) -> set[str]:
    """Short flags of git commit, without the value of -m/-F/-C/-c (``-m -n`` is a message)."""
    letters: set[str] = set()
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg == "--":
            break
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
            for k, letter in enumerate(arg[1:], start=1):
                if letter in "mFCcSt":
                    skip = k == len(arg) - 1
                    break
                letters.add(letter)
    return letters


#: git commands that run the repository's hooks
_RUNS_HOOKS = frozenset({"commit", "push", "merge", "rebase", "am", "cherry-pick", "revert", "pull"})
#: hook managers' switches: NAME -> the values that switch the hooks off (None: any but empty)
_SWITCHES: dict[str, tuple[str, ...] | None] = {
    "HUSKY": ("0", "false"), "HUSKY_SKIP_HOOKS": None, "SKIP": None, "PRE_COMMIT_ALLOW_NO_CONFIG": None,
    "LEFTHOOK": ("0", "false"), "LEFTHOOK_EXCLUDE": None, "LEFTHOOK_SKIP": None, "OVERCOMMIT_DISABLE": None,
    "GIT_CONFIG_PARAMETERS": None, "GIT_CONFIG_COUNT": None, "GIT_CONFIG_GLOBAL": None, "GIT_CONFIG_SYSTEM": None,
    "GIT_CONFIG": None, "PRE_COMMIT": ("0",), "SIMPLE_GIT_HOOKS": ("0",)}
#: the hook managers' own files (where the hooks live: shell/commands.HOOK_DIRS)
_HOOK_CONFIGS = (".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".overcommit.yml",
                 ".huskyrc", ".simple-git-hooks.json")
_UNINSTALLERS = {"pre-commit": ("uninstall",), "lefthook": ("uninstall",), "husky": ("uninstall",),
                 "overcommit": ("--uninstall",), "simple-git-hooks": ("uninstall",)}


def _hooks_switch(command: Command, sub: str) -> str | None:
    """The switch that turns the repository's hooks off for this git command: a hook
    manager's variable (its own or exported earlier in the line), ``-c core.hooksPath``."""
    for assignment in (*command.env, *command.assignments):
        name, _, value = assignment.partition("=")
        if name in _SWITCHES:
            values = _SWITCHES[name]
            if (values is None and value not in ("", "0")) or (values is not None and value.lower() in values):
                return assignment
    words = list(command.args)
    head = words[: words.index(sub)] if sub in words else words
    for k, word in enumerate(head):
        key = word.partition("=")[0].lower()
        if key == "--config-env" and word.lower().startswith("--config-env=core.hookspath"):
            return word
        if word in ("-c", "--config-env") and k + 1 < len(head) and head[k + 1].lower().startswith("core.hookspath"):
            return f"{word} {head[k + 1]}"
    return None


def _removes_hooks(command: Command, context: Context) -> str | None:
    """``pre-commit uninstall``, ``rm .husky/pre-commit``, ``mv lefthook.yml x``: the
    repository's hooks taken away, whatever git command comes next. A hook added to
    ``.git/hooks/`` (copied, linked or made executable: paths.adds_hook) is none."""
    ops = operands(list(command.args))
    if ops[:1] and ops[0] in _UNINSTALLERS.get(command.name, ()) or \
            command.name in _UNINSTALLERS and _UNINSTALLERS[command.name][0] in command.args:
        return "uninstalls the repository's hooks"
    if command.name == "npx" and ops[:2] in (["husky", "uninstall"], ["lefthook", "uninstall"]):
        return "uninstalls the repository's hooks"
    for word in written_paths(command):
        clean = word[2:] if word.startswith("./") else word
        folder = next((d for d in HOOK_DIRS if clean.startswith(d) or clean.rstrip("/") == d.rstrip("/")), None)
        if folder is not None:
            path = resolve(word, context, command_cwd(command, context))
            if path is not None and adds_hook(command, path, context, folder.rstrip("/")):
                continue  # a hook added or made executable (chmod +x .husky/pre-commit: husky's own setup)
            return f"changes the repository's hooks ({word})"
        if command.name in ("rm", "mv", "unlink", "truncate", "shred") and clean in _HOOK_CONFIGS:
            return f"removes the hook manager's configuration ({word})"
    return None

