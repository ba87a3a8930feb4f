"""destructive_rm: deleting the filesystem root, the home directory, the project itself
or anything outside the project, by ``rm``, ``find -delete``, ``xargs rm``, or an
interpreter one-liner (``shutil.rmtree``, ``fs.rmSync``, ``FileUtils.rm_rf``)."""

from __future__ import annotations

import posixpath
import re

from forge_hookd.shell.commands import Command
from forge_hookd.guards.base import ALLOWED, ASK, DENY, Context, Guard, Option, Ruling, command_cwd, git_args, in_home_cache, inside, \
    operands, resolve, short_flags, without_cmd_switches
from forge_hookd.shell.lazyre import Lazy

_SYSTEM_DIRS = ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib64", "/opt", "/proc", "/root", "/sbin", "/srv",
                "/sys", "/usr", "/var", "/home", "/Users", "/System", "/Library", "/Applications")
_RM_NAMES = frozenset({"rm", "rmdir", "unlink", "shred", "srm", "wipe", "trash", "trash-put", "gio"})
# find's tests that take a value, and the ones that narrow what it matches
_FIND_VALUE = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type",
                         "-xtype", "-user", "-group", "-uid", "-gid", "-perm", "-size", "-mtime", "-mmin", "-atime",
                         "-amin", "-ctime", "-cmin", "-newer", "-anewer", "-cnewer", "-maxdepth", "-mindepth", "-links",
                         "-inum", "-samefile", "-printf", "-fprint", "-fprintf", "-fls", "-fstype", "-context",
                         "-regextype", "-lname", "-ilname", "-used", "-newermt", "-fprint0"})
# -type, an owner or a file system: every file of that kind, which under a start is all of them
_FIND_FILTERS = _FIND_VALUE - {"-maxdepth", "-mindepth", "-printf", "-fprint", "-fprintf", "-fls", "-regextype",
                               "-fprint0", "-type", "-xtype", "-user", "-group", "-uid", "-gid", "-fstype",
                               "-context"} | {"-empty"}
_DELETERS = Lazy(
    r"""(?:shutil\.rmtree|os\.(?:remove|unlink|rmdir|removedirs|RemoveAll|Remove)|Path\([^)]*\)\.(?:unlink|rmdir)|
         rmSync|rmdirSync|unlinkSync|fs\.(?:rm|rmdir|unlink)(?![A-Za-z])|rimraf(?:\.sync)?|Deno\.remove(?:Sync)?|
         FileUtils\.(?:rm_rf|rm_r|remove_dir|rm)|
         File\.delete|Dir\.rmdir|unlink|rmtree|remove_tree|delete-directory|delete-file)\s*\(?\s*(?:[frbu]?["']([^"']*)["']|([A-Za-z_.()]+))""",
    re.VERBOSE)


_MKTEMP = Lazy(r"(?:\$\(|`)\s*mktemp(?:\s+-[dtqu]+)*(?:\s+(?:-p\s+)?[A-Za-z0-9_./-]*X{3,}[A-Za-z0-9_.-]*)?\s*[)`]"
               r"(?:/[A-Za-z0-9_.-]+)*")


# Programs that repartition or wipe a disk they are given (fdisk and gdisk interactively).
_PARTITIONERS = frozenset({"wipefs", "fdisk", "sfdisk", "parted", "blkdiscard", "gdisk", "cgdisk", "cfdisk"})


def _lists_only(name: str, args: tuple[str, ...]) -> bool:
    """``fdisk -l``, ``sfdisk -l``, ``parted -l``, ``parted /dev/sda print``: a table shown, nothing written."""
    if name in ("fdisk", "sfdisk", "gdisk", "parted") and set(args) & {"-l", "--list"}:
        return True
    ops = [a for a in args if not a.startswith("-")]
    return name == "parted" and len(ops) >= 2 and all(o in ("print", "p", "free", "all", "devices", "list")
                                                      for o in ops[1:])


#: the partition tools that work on an image file as on a disk (blkdiscard needs a device)
_IMAGE_TOOLS = frozenset({"wipefs", "fdisk", "sfdisk", "parted", "gdisk"})


def _image_file_only(command: Command, context: Context) -> bool:
    """``wipefs -a disk.img``, ``parted build/os.img mklabel gpt``, ``mkfs.ext4 -F build/disk.img``,
    ``wipefs --no-act /dev/sda``: an image file of the project (or /tmp) written, no disk; or, with
    wipefs's ``-n``, nothing written at all. A device (``/dev/sda``), a path outside the project or one
    the line cannot resolve is a disk."""
    if command.name not in _IMAGE_TOOLS and not command.name.startswith("mkfs"):
        return False
    args = list(command.args)
    if command.name == "wipefs" and ("--no-act" in args or "n" in short_flags(args)):
        return True
    if any(len(o) == 2 and o[1] == ":" and o[0].isalpha() for o in operands(args)):
        return False  # a Windows drive (`format C:`, read as `mkfs C:`) is a disk, not a file of the project
    cwd = command_cwd(command, context)
    targets = [resolve(o, context, cwd) if cwd is not None else None for o in operands(args)]
    return bool(targets) and all(t is not None and (inside(t, context.project_root) or inside(t, "/tmp")) and
                                 not t.startswith("/dev/") for t in targets)


class DestructiveRm(Guard):
    heads = ("rm", "find")
    name = "destructive_rm"
    summary = "Deleting /, ~, the project itself, or files outside the project"
    catches = ("rm -rf /", "rm -rf ~", "rm -rf ..", "sudo rm -rf /usr", "find / -delete", "find ~ | xargs rm -rf",
               "python -c 'import shutil; shutil.rmtree(\"/\")'", "sh -c 'rm -rf $HOME'", "mkfs.ext4 /dev/sda",
               "dd of=/dev/sda", "rsync -a --delete /tmp/empty/ ./")
    options = (
        Option("allow_outside", "list", ["/tmp", "/var/tmp", "/private/tmp", "/dev/null"],
               "Directories outside the project where deleting is fine"),
        Option("outside_project", "decision", DENY,
               "What deleting something outside the project is (the root, home and system directories are "
               "always deny)"),
    )

    def judge_command(self, command: Command, context: Context) -> Ruling:
        name = command.name
        if name in _RM_NAMES and command.argv:
            return self._rm(command, context)
        if name == "find":
            return self._find(command, context)
        if name in ("fd", "fdfind"):
            return self._fd(command, context)
        if command.via == "find -exec" and name in _RM_NAMES:
            return ALLOWED  # judged with its find: what {} names depends on where find starts
        if (name.startswith("mkfs") or name in _PARTITIONERS and command.args and not _lists_only(name, command.args)) \
                and not _image_file_only(command, context) \
                or name == "sgdisk" and any(a in ("-Z", "--zap-all", "-z", "--zap", "-o", "--clear") for a in command.args):
            return self.verdict(DENY, " ".join(command.argv), "formats, discards or repartitions a disk",
                                "Ask the user to do this by hand")
        if name == "diskutil" and operands(list(command.args))[:1] and operands(list(command.args))[0].lower() in (
                "erasedisk", "erasevolume", "zerodisk", "randomdisk", "secureerase", "partitiondisk", "reformat") \
                or name == "diskutil" and [o.lower() for o in operands(list(command.args))[:2]] in (
                    ["apfs", "deletecontainer"], ["apfs", "deletevolume"], ["apfs", "erasevolume"], ["cs", "delete"],
                    ["apfs", "deletesnapshot"], ["apfs", "deletevolumegroup"]):
            return self.verdict(DENY, " ".join(command.argv), "formats, discards or repartitions a disk",
                                "Ask the user to do this by hand")
        if name == "dd" and any(a.startswith("of=/dev/") and not a.startswith(("of=/dev/null", "of=/dev/zero", "of=/dev/std"))
                                for a in command.args):
            return self.verdict(DENY, " ".join(command.argv), "overwrites a device",
                                "Write to a file inside the project instead")
        if name == "journalctl" and any(a.startswith("--vacuum-") for a in command.args):  # systemd's journal
            return self.verdict(ASK, " ".join(command.argv), "deletes the machine's archived logs (journalctl "
                                "--vacuum-*)", "Leave the system's logs; ask the user")
        if name == "log" and operands(list(command.args))[:1] == ["erase"]:  # macOS's unified log, all of it
            return self.verdict(DENY, " ".join(command.argv), "erases the machine's log (log erase)",
                                "Leave the system's logs; ask the user")
        if name == "rsync" and _rsync_deletes(command.args):
            return self._mirror(command, context)
        pruned = _duplicates_deleted(name, list(command.args))
        if pruned:  # fdupes -dN, jdupes -dN, rdfind -deleteduplicates true: a copy of each set deleted
            return self._duplicates(command, context, pruned)
        moved = _archived_and_removed(name, list(command.args))
        if moved:  # tar --remove-files, zip -m, 7z -sdel: what goes into the archive is deleted
            cwd = command_cwd(command, context)
            for source in moved:
                verdict = self._target(source, cwd, context, " ".join(command.argv), recursive=True)
                if verdict.decision != "allow":
                    return verdict
        code = command.inline_code
        if code is not None:
            return self._code(code[0], code[1], command, context)
        return ALLOWED

    # -- fdupes -d, jdupes -d, rdfind -deleteduplicates ------------------------------------
    def _duplicates(self, command: Command, context: Context, roots: list[str]) -> Ruling:
        """Duplicates deleted under each directory searched: the project's own are the agent's
        work; under the home or the system, which copy survives is the tool's pick, not the user's."""
        cwd = command_cwd(command, context)
        for root in roots:
            path = resolve(root, context, cwd) if cwd is not None or root.startswith(("/", "~", "$")) else None
            if path is None or not inside(path, context.project_root) and \
                    self._danger(path, context, recursive=True) is not None:
                return self.verdict(ASK, " ".join(command.argv), f"deletes every duplicate file it finds under "
                                    f"{root}, keeping the copy it picks, with no look first",
                                    "List the duplicates first (fdupes -r DIR, rdfind -dryrun true DIR) and ask the user")
        return ALLOWED

    # -- rsync --delete --------------------------------------------------------------------
    def _mirror(self, command: Command, context: Context) -> Ruling:
        """``rsync --delete SRC DEST``: DEST made a copy of SRC, everything SRC lacks deleted
        (an empty SRC empties it). Judged as ``rm -r DEST``'s extras: denied where that
        would be (the root, the home, the project itself, a system directory), asked
        elsewhere outside the project, where a mirror may be what the user wants."""
        ops = operands(list(command.args))
        cwd = command_cwd(command, context)
        if len(ops) < 2 or _REMOTE.match(ops[-1]):
            return ALLOWED  # a remote destination: remote_code judges what leaves the machine
        dest = ops[-1]
        path = resolve(dest, context, cwd) if cwd is not None or dest.startswith(("/", "~", "$")) else None
        shown = " ".join(command.argv)
        if path is None:
            return self.verdict(ASK, shown, f"deletes from '{dest}' every file its source lacks (--delete), and "
                                f"'{dest}' cannot be resolved before it runs", "Name the destination inside the project")
        why = self._danger(path, context, recursive=True)
        if why is None:
            return ALLOWED
        decision = why[0] if not why[1].endswith("outside the project") else ASK
        return self.verdict(decision, shown, f"makes {path} a copy of {' '.join(ops[:-1])}: it deletes every file "
                            "there that the source lacks (--delete)", "Sync into a directory of its own "
                            "(rsync -a --delete src/ build/), or ask the user")

    # -- rm -------------------------------------------------------------------------------
    def _rm(self, command: Command, context: Context) -> Ruling:
        args = list(command.args)
        if command.name == "gio" and (not args or args[0] not in ("remove", "trash")):
            return ALLOWED
        flags = short_flags(args)
        recursive = bool(flags & {"r", "R"}) or "--recursive" in args or command.name in ("rmdir",)
        cwd = command_cwd(command, context)
        targets = without_cmd_switches(args, operands(args[1:] if command.name == "gio" else args))
        shown = " ".join(command.argv)
        fed = {"xargs", "parallel"} & set(command.wrapper_names)
        if fed:
            return self._fed(command, context, recursive, targets)
        for target in targets:
            verdict = self._target(target, cwd, context, shown, recursive=recursive)
            if verdict.decision != "allow":
                return verdict
        return ALLOWED

    def _target(self, target: str, cwd: str | None, context: Context, shown: str, *, recursive: bool) -> Ruling:
        if _MKTEMP.fullmatch(target):
            return ALLOWED  # what mktemp just made: a new path under $TMPDIR
        if recursive and re.search(r"(?:^|/)\.[*?]", target):
            return self.verdict(DENY, shown, f"deletes '{target}', a glob that can match '..', the parent directory",
                                "Name the hidden files to delete")
        path = resolve(target, context, cwd) if cwd is not None or target.startswith(("/", "~", "$")) else None
        if path is None:
            if recursive and (target.startswith(("$", "~", "/")) or cwd is None):
                return self.verdict(ASK, shown, f"deletes '{target}', which cannot be resolved before it runs",
                                    "Name the path literally, inside the project")
            emptied = resolve(_MAY_BE_EMPTY.sub("", target), context, cwd) if recursive else None
            if emptied is not None and self._danger(emptied, context, recursive=True) is not None:
                return self.verdict(ASK, shown, f"deletes '{target}', which is {emptied} where what it holds of "
                                    "the line's variables is empty", "Name the path literally, inside the project")
            return ALLOWED
        why = self._danger(path, context, recursive=recursive)
        if why is None:
            return ALLOWED
        decision, reason = why
        return self.verdict(decision, shown, reason, "Delete only paths inside the project (rm -rf ./build), "
                                                     "or ask the user to run it")

    def _danger(self, path: str, context: Context, *, recursive: bool) -> tuple[str, str] | None:
        base = path.rstrip("/*") or "/"
        if base == "/" or path in ("/*", "/."):
            return DENY, "deletes the filesystem root"
        if base == context.home or path == context.home + "/*":
            return DENY, "deletes the home directory"
        if base == context.project_root or path == context.project_root + "/*":
            return (DENY, "deletes the whole project") if recursive else None
        if inside(path, context.project_root):
            return None
        if inside(path, "/dev") and not inside(path, "/dev/shm") and path != "/dev":
            # allow_outside's /dev/null is a place to write to, never a file to delete
            return DENY, f"deletes the device node {path}"
        if any(inside(path, posixpath.normpath(a)) for a in self.opts["allow_outside"]):
            return None
        if in_home_cache(path, context):
            return None
        if base in _SYSTEM_DIRS or posixpath.dirname(base) == "/" or (recursive and inside(context.home, base)):
            return DENY, f"deletes the system directory {base}"
        if not recursive and self.opts["outside_project"] == DENY:
            return ASK, f"deletes {path}, outside the project"
        return self.opts["outside_project"], f"deletes {path}, outside the project"

    def _fed(self, command: Command, context: Context, recursive: bool, targets: list[str]) -> Ruling:
        """``... | xargs rm``, ``parallel rm ::: ...``: what is deleted comes from the input.
        Written in the command line (``echo x |``, ``::: x``), :mod:`shell` hands the
        filled-in command to this guard too; from ``find``, the find's start is judged."""
        shown = " ".join(command.argv)
        cwd = command_cwd(command, context)
        for target in targets:
            if "{}" not in target and "%" not in target:
                verdict = self._target(target, cwd, context, shown, recursive=recursive)
                if verdict.decision != "allow":
                    return verdict
        wrapper = next(w for w in command.wrappers if w[0].rsplit("/", 1)[-1] in ("xargs", "parallel"))
        from_file = any(w.startswith(("-a", "--arg-file")) for w in wrapper)
        if not from_file and (":::" in wrapper or any(f.name in ("echo", "printf") for f in command.feeders)):
            return ALLOWED  # shell.py filled the input in: the filled-in commands are judged
        for feeder in () if from_file else command.feeders:
            listed = git_args(feeder)
            if listed is not None and listed[0] == "ls-files" and not operands(listed[1]):
                # every tracked file (or with --others every untracked one): the whole project's
                return self._target(".", command_cwd(feeder, context), context, shown, recursive=True)
            if feeder.name == "find":
                narrowed = _find_expression(list(feeder.args))[1]
                for start in _find_starts(feeder) or ["."]:
                    # find lists every file under its start: rm without -r deletes them all, as find -exec rm does
                    verdict = self._target(start, command_cwd(feeder, context), context, shown,
                                           recursive=not narrowed)
                    if verdict.decision != "allow":
                        return verdict
                return ALLOWED
        if recursive:
            return self.verdict(ASK, shown, "deletes whatever its input names",
                                "List the paths first, then delete them by name inside the project")
        return ALLOWED

    # -- find -delete -------------------------------------------------------------------------
    def _find(self, command: Command, context: Context) -> Ruling:
        """``find -delete`` or ``find -exec rm``: without a test narrowing what it matches,
        it deletes everything under its start (``rm -rf``); with one, the files it
        matches under its start (judged as a plain delete there)."""
        deletes, narrowed = _find_expression(list(command.args))
        if not deletes:
            return ALLOWED
        cwd = command_cwd(command, context)
        for start in _find_starts(command) or ["."]:
            verdict = self._target(start, cwd, context, " ".join(command.argv), recursive=not narrowed)
            if verdict.decision != "allow":
                return verdict
        return ALLOWED

    def _fd(self, command: Command, context: Context) -> Ruling:
        """``fd PATTERN PATH -x rm -rf``: fd's ``-x``/``-X`` runs the command on every entry it
        finds; judged as ``find PATH -exec rm``, narrowed unless its pattern matches everything."""
        args = list(command.args)
        run = next((k for k, a in enumerate(args) if a in ("-x", "--exec", "-X", "--exec-batch")), None)
        if run is None or not any(a.rsplit("/", 1)[-1] in _RM_NAMES for a in args[run + 1:run + 3]):
            return ALLOWED
        found = [a for a in args[:run] if not a.startswith("-")]
        pattern, starts = (found[0], found[1:]) if found else ("", [])
        narrowed = pattern not in ("", ".", "^", ".*") or any(a.startswith(("-e", "--extension", "-g", "--glob"))
                                                              for a in args[:run])
        cwd = command_cwd(command, context)
        for start in starts or ["."]:
            verdict = self._target(start, cwd, context, " ".join(command.argv), recursive=not narrowed)
            if verdict.decision != "allow":
                return verdict
        return ALLOWED

    # -- one-liners ---------------------------------------------------------------------------
    def _code(self, interpreter: str, code: str, command: Command, context: Context) -> Ruling:
        cwd = command_cwd(command, context)
        for match in _DELETERS.finditer(code[: 1 << 16]):
            literal = match.group(1)
            shown = f"{interpreter}: {match.group(0)}"
            if literal is None:
                # the argument up to its comma: require('os').homedir(), os.path.expanduser('~'), Path.home()
                start = match.start(2) if match.group(2) is not None else match.end(0)
                expression = re.split(r"[,;\n]", code[start:start + 160], maxsplit=1)[0]
                # ruby's File.expand_path("~/x") is the home's, as python's expanduser is
                if any(k in expression for k in ("home", "expanduser", "HOME", "homedir", "Dir.home")) or \
                        "expand_path" in expression and "~" in expression:
                    shown = f"{interpreter}: {code[match.start():start + len(expression)]}"  # rmtree($ENV{HOME})
                    return self.verdict(DENY, shown, "deletes the home directory",
                                        "Delete only paths inside the project")
                continue
            verdict = self._target(literal or ".", cwd, context, shown, recursive=True)
            if verdict.decision != "allow":
                return verdict
        return ALLOWED


#: what a path may hold that the line cannot know and that may be empty: a variable, a
#: substitution (``$$``, ``$PPID`` and ``$RANDOM`` are numbers: base.resolve reads them)
_MAY_BE_EMPTY = Lazy(r"\$\([^()]*\)|`[^`]*`|\$\{[^{}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$[!#?0-9@*]", needs=("$", "`"))


#: the duplicate finders' options that take a value (the next word is no directory)
_DEDUP_VALUED = {"fdupes": frozenset({"-o", "--order", "-l", "--log", "-x", "--xsize", "-G", "--minsize", "-L",
                                      "--maxsize"}),
                 "jdupes": frozenset({"-o", "--order", "-X", "--ext-filter", "-x", "--xsize", "-y", "--hash-db",
                                      "-P", "--print", "-C", "--chunk-size"})}


def _duplicates_deleted(name: str, args: list[str]) -> list[str]:
    """The directories fdupes or jdupes searches with ``-d``/``--delete`` (``-rdN``), or rdfind
    with ``-deleteduplicates true``, deleting all but one copy of each set; [] otherwise."""
    if name == "rdfind":
        if not any(a == "-deleteduplicates" and args[k + 1:k + 2] == ["true"] for k, a in enumerate(args)):
            return []
        return [a for k, a in enumerate(args) if not a.startswith("-") and not (k and args[k - 1].startswith("-"))]
    valued = _DEDUP_VALUED.get(name)
    if valued is None or not any(a == "--delete" or re.fullmatch(r"-[A-Za-z]*d[A-Za-z]*", a) for a in args):
        return []
    return [a for k, a in enumerate(args) if not a.startswith("-") and not (k and args[k - 1] in valued)]


def _archived_and_removed(name: str, args: list[str]) -> list[str]:
    """The files an archiver deletes once archived: ``tar --remove-files``'s, ``zip -m``'s
    (``--move``), ``7z a -sdel``'s sources; none for any other command."""
    if name in ("tar", "gtar", "bsdtar") and "--remove-files" in args:
        sources, k, directory = [], 0, ""
        while k < len(args):
            word = args[k]
            if word in ("-C", "--directory") and k + 1 < len(args):  # the sources after it are under it
                directory = posixpath.join(directory, args[k + 1])
            if word in ("-C", "--directory", "-T", "--files-from", "-X", "--exclude-from", "-f", "--file") or \
                    word.startswith("-") and not word.startswith("--") and word.endswith("f") or \
                    k == 0 and word.isalpha() and "f" in word:  # -czf ARCHIVE, old style czf ARCHIVE
                k += 2
                continue
            if not word.startswith("-"):
                sources.append(posixpath.join(directory, word) if directory and word[:1] not in "~$" else word)
            k += 1
        return sources
    if name == "zip" and ("--move" in args or any(a.startswith("-") and not a.startswith("--") and "m" in a
                                                    for a in args)):
        return operands(args)[1:]  # the first names the archive
    if name in ("7z", "7za", "7zz") and "-sdel" in args and args[:1] == ["a"]:
        return [a for a in args[1:] if not a.startswith("-")][1:]
    return []


#: rsync's options that delete in the destination what the source lacks
_RSYNC_DELETES = frozenset({"--delete", "--del", "--delete-before", "--delete-during", "--delete-delay",
                            "--delete-after", "--delete-excluded"})
#: a remote side of rsync: [user@]host:path or rsync://
_REMOTE = Lazy(r"^(?:[\w.-]+@)?(?:\[[0-9a-fA-F:]+\]|[\w.-]+):|^rsync://")


def _rsync_deletes(args: tuple[str, ...]) -> bool:
    return any(a in _RSYNC_DELETES for a in args) and "--dry-run" not in args and "n" not in short_flags(args)


def _find_expression(args: list[str]) -> tuple[bool, bool]:
    """Whether a find expression deletes (-delete, -exec rm ...) and whether a test
    narrows what it matches."""
    deletes = narrowed = False
    i = 0
    while i < len(args):
        arg = args[i]
        # find evaluates left to right: a test after the delete narrows nothing it deleted
        if arg in ("-o", "-or", ",") and not deletes:
            narrowed = False  # `-name a -o -delete`: the delete takes what the test did not match
        if arg in _FIND_VALUE:
            narrowed = narrowed or arg in _FIND_FILTERS and not deletes
            i += 2
            continue
        if arg in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(args) and args[j] not in (";", "+"):
                j += 1
            run = [a.rsplit("/", 1)[-1] for a in args[i + 1:j] if not a.startswith("-")]
            deletes = deletes or any(a in _RM_NAMES for a in run[:3]) or _empties(args[i + 1:j])
            i = j + 1
            continue
        deletes = deletes or arg == "-delete"
        narrowed = narrowed or arg == "-empty" and not deletes
        i += 1
    return deletes, narrowed


def _empties(run: list[str]) -> bool:
    """Whether find's ``-exec`` command empties each file it is given: ``truncate -s0 {}``
    (``-s 0``, ``--size=0``, ``-s <0``, or a size that shrinks, ``-s -10K``) cuts away what
    every file found holds, as sure a loss as deleting it."""
    if not run or run[0].rsplit("/", 1)[-1] != "truncate":
        return False
    for k, arg in enumerate(run[1:], 1):
        size = arg[2:] if arg.startswith("-s") and len(arg) > 2 else arg.partition("=")[2] \
            if arg.startswith("--size=") else run[k + 1] if arg in ("-s", "--size") and k + 1 < len(run) else None
        if size is not None:  # 0, 0K, <0 (at most nothing), -10K (shrunk by): content cut away
            bare = size.lstrip("<")
            return bare.startswith("-") or bare != "" and bare.rstrip("KMGTPEZYkiB").strip("0") == ""
    return False


def _find_starts(command: Command) -> list[str]:
    starts = []
    for arg in command.args:
        if arg.startswith("-") or arg in ("(", "!", ")"):
            break
        starts.append(arg)
    return starts
