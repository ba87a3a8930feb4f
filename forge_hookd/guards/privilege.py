"""privilege_escalation (the ``block_sudo`` template's guard): ``sudo``, ``doas``,
``pkexec``, ``su``, ``run0``, ``sudoedit`` wherever a command runs (also as a wrapper or
inside ``sh -c``), world-writable or setuid permissions, and handing the system to
another owner (``chown -R x /``), the machine's user accounts changed (``useradd``, FreeBSD's
``pw``, macOS's ``dscl``; their reads pass: ``dscl . -read``, ``passwd -S``), and a directory
server's entries written (``ldapadd``: asks), and a cloud identity's permissions or credentials
written (``aws iam attach-user-policy``, ``gcloud ... add-iam-policy-binding``, ``az role assignment
create``, ``kubectl create clusterrolebinding``, ``kubectl --as``: asks, read by guards/clouds.py)."""

from __future__ import annotations

import re

from forge_hookd.shell.commands import PRIVILEGE, Command, option_values
from forge_hookd.guards.base import ALLOWED, ASK, CLOUD_CLIS, DENY, Context, Guard, Option, Ruling, command_cwd, gives_to_oneself, inside, \
    operands, resolve
from forge_hookd.shell.lazyre import Lazy

_WORLD_WRITABLE = Lazy(r"^[0-7]?[0-7][0-7][2367]$|(?:^|,)[ug]*[oa][ugoa]*[+=][rwxXst]*w")
_SETUID = Lazy(r"^[2-7][0-7]{3}$|(?:^|,)[ugoa]*[+=][rwxXt]*s")


#: a one-liner that makes its process root: os.setuid(0), POSIX::setuid(0), Process::Sys.setuid(0),
#: process.setuid(0), setreuid(0, 0), and the group calls; AppleScript's `do shell script "..." with
#: administrator privileges`, which runs the command as root
_BECOMES_ROOT = Lazy(r"\bset(?:e|re|res)?[ug]id\(\s*0\s*[,)]|\$[<>]\s*=\s*0\b|with\s+administrator\s+privileges",
                     needs=("id(", "$<", "$>", "administrator"))


# Commands that create, change or remove users, groups and their passwords (FreeBSD's pw,
# macOS's dscl, sysadminctl, dseditgroup and dsenableroot among them), a login shell too.
_ACCOUNTS = frozenset({"useradd", "adduser", "usermod", "userdel", "deluser", "groupadd", "addgroup", "groupmod",
                       "groupdel", "delgroup", "gpasswd", "chpasswd", "chage", "newusers", "vipw", "vigr", "visudo",
                       "dscl", "sysadminctl", "passwd", "pw", "dseditgroup", "dsenableroot", "chsh", "chfn"})
#: what only reads among those tools' subcommands and options: ``dscl . -read``, ``passwd -S``,
#: ``pw usershow``, ``dseditgroup -o checkmember``, ``sysadminctl -secureTokenStatus``, ``chsh -l``
_DSCL_WRITES = frozenset({"-create", "create", "-append", "append", "-merge", "merge", "-delete", "delete",
                          "-change", "change", "-changei", "changei", "-passwd", "passwd", "-createpl", "createpl",
                          "-deletepl", "deletepl", "-mcxset", "mcxset", "-mcxdelete", "mcxdelete", "-mcximport",
                          "mcximport", "-authonly", "authonly"})
_DSCL_READS = frozenset({"-read", "read", "-readall", "readall", "-readpl", "readpl", "-readpli", "readpli", "-list",
                         "list", "-search", "search", "-diff", "diff", "-mcxread", "mcxread"})
_PW_READS = frozenset({"usershow", "groupshow", "showuser", "showgroup", "usernext", "groupnext"})
_PASSWD_READS = frozenset({"-S", "--status", "-a", "--all"})
_CHSH_READS = frozenset({"-l", "--list-shells", "-h", "--help", "-v", "--version", "-V"})
#: the LDAP clients that write a directory server's entries: its users, groups and passwords
_DIRECTORY_WRITERS = frozenset({"ldapadd", "ldapmodify", "ldapdelete", "ldappasswd", "ldapmodrdn"})


def _reads_accounts(name: str, args: list[str]) -> bool:
    """The account tools' reads, which change nothing (see :data:`_DSCL_READS` and its like)."""
    ops = operands(args)
    if name == "dscl":
        return any(a in _DSCL_READS for a in args) and not any(a in _DSCL_WRITES for a in args)
    if name == "pw":
        return bool(ops) and (ops[0] in _PW_READS or ops[0] in ("user", "group") and ops[1:2] == ["show"])
    if name == "passwd":
        return any(a in ("-S", "--status") for a in args) and all(a in _PASSWD_READS for a in args if a.startswith("-"))
    if name == "dseditgroup":
        return any(args[k:k + 2] in (["-o", "read"], ["-o", "checkmember"]) for k in range(len(args)))
    if name == "sysadminctl":
        return "-secureTokenStatus" in args or "status" in ops
    if name in ("chsh", "chfn"):
        return bool(args) and all(a in _CHSH_READS for a in args)
    return False


#: what sudo, doas or run0 say of themselves, or the cached login they forget: nothing runs raised
#: (``sudo -V``, ``sudo -k``); ``sudo -l`` lists what one may raise, and ``-v`` caches the password for what follows
_ABOUT_ITSELF = frozenset({"-V", "--version", "-h", "--help", "-k", "-K", "--reset-timestamp", "--remove-timestamp"})


class PrivilegeEscalation(Guard):
    name = "privilege_escalation"
    summary = "Raising privileges (sudo, doas, pkexec, su), world-writable or setuid files, chown of the system, " \
              "user accounts"
    catches = ("sudo ls", "make && doas make install", "FOO=1 /usr/bin/sudo -i", "echo $(pkexec id)",
               "sh -c 'sudo ls'", "su -", "chmod -R 777 .", "chmod u+s x", "chown -R me /")
    options = (
        Option("allow", "list", [], "Commands that may run with sudo, as their first words ('apt-get update')"),
        Option("permissions", "bool", True, "Also catch chmod 777/o+w/setuid and chown of system paths"),
    )

    def judge_command(self, command: Command, context: Context) -> Ruling:
        for k, wrapper in enumerate(command.wrappers):
            name = wrapper[0].rsplit("/", 1)[-1]
            if name in PRIVILEGE and not self._allowed(command.argv):
                return self._raise(name, " ".join(w for ws in command.wrappers[k:] for w in ws) + " " +
                                   " ".join(command.argv))
        if command.name in PRIVILEGE and not (command.args and all(a in _ABOUT_ITSELF for a in command.args)):
            return self._raise(command.name, " ".join(command.argv))
        if command.name == "machinectl" and operands(list(command.args))[:1] in (["shell"], ["login"]):
            return self._raise(command.name, " ".join(command.argv))  # a shell as root (or NAME@) through polkit
        code = command.inline_code
        if code is not None and _BECOMES_ROOT.search(code[1][: 1 << 16]):
            how = "with administrator privileges" if "administrator" in code[1] else "setuid(0)"
            return self.verdict(DENY, " ".join(command.argv), f"makes itself root ({how} in a {code[0]} one-liner)",
                                "Run it without privileges, or ask the user")
        if command.name in _ACCOUNTS and not _reads_accounts(command.name, list(command.args)):
            return self.verdict(DENY, " ".join(command.argv), "changes the machine's user accounts or passwords",
                                "Ask the user to manage accounts")
        if command.name in _DIRECTORY_WRITERS:
            return self.verdict(ASK, " ".join(command.argv), "changes entries of a directory server (its users, "
                                "groups and passwords)", "Ask the user to manage the directory")
        if command.name in CLOUD_CLIS:
            from forge_hookd.guards import clouds  # loaded for the cloud CLIs only

            grant = clouds.grants_access(command.name, list(command.args))
            if grant is not None:
                return self.verdict(ASK, " ".join(command.argv), grant,
                                    "Ask the user to grant access; read it with the CLI's get or list commands")
        if self.opts["permissions"]:
            return self._permissions(command, context)
        return ALLOWED

    def _allowed(self, argv: tuple[str, ...]) -> bool:
        return any(tuple(a.split()) == argv[: len(a.split())] for a in self.opts["allow"])

    def _raise(self, word: str, shown: str) -> Ruling:
        # block_sudo's reason began "Blocked: WORD not allowed": kept, so that its users' matching still holds.
        return Ruling(DENY, f"Blocked: {word} not allowed. {self.name}: `{shown.strip()[:120]}` raises privileges. "
                             "Run it without privileges, or ask the user to run it", shown.strip())

    def _permissions(self, command: Command, context: Context) -> Ruling:
        name, args = command.name, list(command.args)
        ops = operands(args, mode_first=name == "chmod")
        shown = " ".join(command.argv)
        modes = [ops[0]] if name == "chmod" and ops else \
            [v for v in option_values(args, "-m", "--mode") if v] if name in ("install", "mkdir", "mkfifo") else []
        for mode in modes:  # chmod MODE, install -m MODE (install -m 6777 /bin/sh bin/: a setuid shell)
            if _WORLD_WRITABLE.search(mode):
                return self.verdict(DENY, shown, "makes files writable by everyone",
                                    "Use 755 for directories and 644 for files, or u+w")
            if _SETUID.search(mode):
                return self.verdict(DENY, shown, "sets the setuid/setgid bit", "Leave setuid to the system")
        if name in ("chown", "chgrp") and len(ops) > 1:
            cwd = command_cwd(command, context)
            for target in ops[1:]:
                path = resolve(target, context, cwd)
                if path is not None and (path == "/" or path.count("/") == 1 and path != context.project_root):
                    return self.verdict(DENY, shown, f"changes the owner of {path}",
                                        "Change owners only inside the project")
                if name == "chown" and path is not None and not inside(path, context.project_root) and \
                        not gives_to_oneself(ops[0], context):
                    return self.verdict(DENY, shown, f"hands {path}, outside the project, to another owner ({ops[0]})",
                                        "Give files outside the project back to yourself ($USER) only, or ask the user")
        if name == "setfacl" and any(a in ("-m", "-M", "--modify", "--set") or a.startswith(("-m", "--modify=", "--set="))
                                     for a in args):
            cwd = command_cwd(command, context)  # setfacl -m u:kali:rw /etc/sudoers: chown's effect, one entry at a time
            entries = [v for v in option_values(args, "-m", "--modify") if v] +                 [args[k + 1] for k, a in enumerate(args[:-1]) if a == "--set"] + [a[6:] for a in args if a.startswith("--set=")]
            for target in (o for o in ops if o not in entries):
                path = resolve(target, context, cwd)
                if path is not None and not inside(path, context.project_root):
                    return self.verdict(ASK, shown, f"grants another user access to {path}, outside the project, by an "
                                        "ACL", "Change access only inside the project, or ask the user")
        if name == "setcap":
            return self.verdict(DENY, shown, "grants a program capabilities", "Ask the user to do this")
        return ALLOWED
