"""The git guards: force-push and pushes to protected branches, other history- or
work-destroying git commands, and skipping the repository's own hooks (--no-verify)."""

from __future__ import annotations

from fnmatch import fnmatchcase

from forge_hookd.shell.commands import Command
from forge_hookd.guards.base import ALLOWED, ASK, DENY, Context, Guard, Option, Ruling, git_args, long_flags, operands, short_flags

PROTECTED = ["main", "master", "release/*", "production"]


def _branch_of(refspec: str) -> str:
    """The remote branch a refspec pushes to: ``+HEAD:refs/heads/main`` -> ``main``."""
    dst = refspec.lstrip("+").rpartition(":")[2] if ":" in refspec else refspec.lstrip("+")
    for prefix in ("refs/heads/", "heads/"):
        if dst.startswith(prefix):
            return dst[len(prefix):]
    return dst


class ForcePush(Guard):
    name = "force_push"
    summary = "Force-pushing, and pushing to or deleting protected branches"
    catches = ("git push --force", "git push -f origin feature", "git push origin +main",
               "git push --force-with-lease origin main", "git push origin HEAD:main", "git push --delete origin main",
               "git push --mirror")
    options = (
        Option("protected_branches", "list", PROTECTED, "Branches (globs) no push may rewrite, and pushes to ask about"),
        Option("push_to_protected", "decision", ASK, "What a plain push to a protected branch is"),
        Option("force_with_lease", "decision", "allow",
               "What --force-with-lease to a branch that is not protected is"),
    )

    def judge_command(self, command: Command, context: Context) -> Ruling:
        git = git_args(command)
        if git is None or git[0] != "push":
            return ALLOWED
        args = git[1]
        shown = " ".join(command.argv)
        longs, shorts = long_flags(args), short_flags(args)
        refs = [r for r in operands(args)[1:]]  # the first operand is the remote
        branches = [_branch_of(r) for r in refs]
        protected = [b for b in branches if self._protected(b)]
        lease = bool(longs & {"--force-with-lease", "--force-if-includes"})
        if "--mirror" in longs or ("--force" in longs or "f" in shorts) and not lease:
            return self.verdict(DENY, shown, "rewrites published history (force push)",
                                "Use --force-with-lease on your own branch, or open a pull request")
        if any(r.startswith("+") for r in refs):
            return self.verdict(DENY, shown, "force-pushes with a +refspec",
                                "Push without '+', or use --force-with-lease on your own branch")
        deleting = "--delete" in longs or "d" in shorts or any(r.startswith(":") for r in refs)
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


class DestructiveGit(Guard):
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
        why = _destroys(sub, args)
        if why is None or any(_allowed(sub, args, a) for a in self.opts["allow"]):
            return ALLOWED
        return self.verdict(DENY, " ".join(command.argv), why[0], why[1])


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
    if sub == "reset" and ({"--hard", "--merge", "--keep"} & longs):
        flag = next(iter({"--hard", "--merge", "--keep"} & longs))
        return f"discards uncommitted changes (reset {flag})", "Commit or stash first; use git reset --soft or --mixed"
    if sub == "clean" and ("f" in shorts or "--force" in longs) and not ("n" in shorts or "--dry-run" in longs):
        return "deletes untracked files (clean -f)", "Run git clean -n first and delete what you mean by name"
    if sub == "checkout" and _checkout_discards(args, shorts, longs, ops):
        return "discards changes in the working tree", "Commit or stash first (git stash push)"
    if sub == "restore" and not ({"--staged", "-S"} & set(args)) and ops or sub == "restore" and "--worktree" in longs:
        return "discards changes in the working tree (restore)", "Commit or stash first (git stash push)"
    if sub == "switch" and ({"--discard-changes", "--force"} & longs or "f" in shorts) and \
            not shorts & {"c", "C"}:
        return "discards changes in the working tree", "Commit or stash first"
    if sub == "branch" and ("D" in shorts or {"--delete", "--force"} <= longs or "--delete" in longs and "f" in shorts):
        return "force-deletes a branch (branch -D)", "Use git branch -d, which refuses to lose unmerged work"
    if sub == "stash" and ops[:1] in (["drop"], ["clear"]):
        return f"throws away stashed work (stash {ops[0]})", "Apply or inspect the stash first (git stash show -p)"
    if sub in ("filter-branch", "filter-repo"):
        return "rewrites the whole history", "Ask the user; history rewrites are done by hand"
    if sub == "reflog" and ops[:1] in (["expire"], ["delete"]):
        return "drops the reflog, the last way back to lost commits", "Leave the reflog alone"
    if sub == "gc" and any(a.startswith("--prune=now") or a == "--prune=all" for a in args):
        return "prunes unreachable commits now", "Run git gc without --prune=now"
    if sub == "update-ref" and "-d" in args:
        return "deletes a ref", "Use git branch -d or git tag -d"
    if sub == "worktree" and ops[:1] == ["remove"] and ("f" in shorts or "--force" in longs):
        return "removes a worktree with its changes", "Commit in the worktree first; remove it without --force"
    return None


def _checkout_discards(args: list[str], shorts: set[str], longs: set[str], ops: list[str]) -> bool:
    """checkout -f, checkout -- PATHS, checkout . and checkout REF PATHS overwrite the
    working tree; creating a branch (-b) or switching does not."""
    if "f" in shorts or "--force" in longs:
        return True
    if shorts & {"b", "B"} or "--orphan" in longs:
        return False
    if "--" in args and args.index("--") + 1 < len(args):
        return True
    return "." in ops or len(ops) > 1 and any("." in op or "/" in op for op in ops[1:])


class NoVerify(Guard):
    name = "no_verify"
    summary = "Skipping the repository's own hooks (--no-verify, -n, HUSKY=0, core.hooksPath)"
    catches = ("git commit --no-verify -m x", "git commit -nm x", "git push --no-verify", "HUSKY=0 git commit -m x",
               "git -c core.hooksPath=/dev/null commit -m x")
    options = ()

    def judge_command(self, command: Command, context: Context) -> Ruling:
        git = git_args(command)
        if git is None:
            return ALLOWED
        sub, args = git
        shown = " ".join(command.argv)
        skip = "--no-verify" in long_flags(args) or (sub == "commit" and "n" in _commit_shorts(args))
        if sub in ("commit", "push", "merge", "rebase", "am", "cherry-pick", "revert") and skip:
            return self.verdict(DENY, shown, "skips the repository's hooks (--no-verify)",
                                "Fix what the hook reports, then commit without --no-verify")
        hooks_path = any(a.startswith("core.hooksPath") for a in command.args[: command.args.index(sub)]
                         if sub in command.args)
        skip_vars = [a for a in command.assignments if a.split("=", 1)[0] in ("HUSKY", "HUSKY_SKIP_HOOKS", "SKIP",
                                                                                "PRE_COMMIT_ALLOW_NO_CONFIG")]
        if sub in ("commit", "push", "merge") and (hooks_path or any(_skips(v) for v in skip_vars)):
            return self.verdict(DENY, shown, "switches the repository's hooks off",
                                "Fix what the hook reports, then commit with the hooks on")
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


def _skips(assignment: str) -> bool:
    name, _, value = assignment.partition("=")
    return (name == "HUSKY" and value == "0") or (name != "HUSKY" and value not in ("", "0"))

