"""machine_wide: acting on the whole machine rather than the project (issue 31, item 3):
fork bombs, killing every process (``kill -9 -1``), shutting it down, emptying the crontab,
disabling or masking services, preloading a library into every program
(``LD_PRELOAD``), granting password-less sudo, containers that own the host
(``--privileged``, the Docker socket, ``-v /:/host``, ``mount --bind`` + ``chroot``),
loading a kernel module, queueing an ``at`` job, and switching off the operating
system's own protections (SIP, Gatekeeper, quarantine, SELinux, AppArmor)."""

from __future__ import annotations

import re

from forge_hookd.guards.base import ALLOWED, ASK, DENY, Context, Guard, Ruling, operands
from forge_hookd.guards.paths import written_paths
from forge_hookd.shell.commands import Command, Parsed, option_values
from forge_hookd.shell.lazyre import Lazy

_FORK_BOMB = Lazy(r"([A-Za-z_:][\w:]*)\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&")
#: a one-liner's own kill of every process: the pid -1 first (python's os.kill(-1, 9), node's
#: process.kill(-1)) or after the signal (perl's kill 9, -1; ruby's Process.kill("KILL", -1)), or its
#: process group 0 (os.killpg(0, ...))
_CODE_KILLS_ALL = Lazy(r"\bkill\s*\(?\s*(?:[^,()\s]{1,24}\s*,\s*)?-1\b|\bkillpg\s*\(\s*0\b", needs=("kill",))
#: a one-liner that forks for ever: python's while True: os.fork() or [os.fork() for _ in iter(int, 1)],
#: perl's fork while 1 (or fork while fork), ruby's loop { fork }, C-like for(;;) fork()
_CODE_FORKS_FOREVER = Lazy(r"while\s*\(?\s*(?:True|true|1)\s*\)?\s*[:{]?\s*(?:os\.)?fork|fork\s*\(\s*\)\s+for\s+\w+"
                           r"\s+in\s+iter\b|\bfork\s+while\b|\bloop\s*(?:\{|do)\s*(?:Process\.)?fork|"
                           r"for\s*\(\s*;\s*;\s*\)\s*\{?\s*(?:\w+\.)?fork", needs=("fork",))
_SHUTDOWN = frozenset({"shutdown", "reboot", "halt", "poweroff"})
_CONTAINERS = frozenset({"docker", "podman", "nerdctl", "ctr"})  # ctr: containerd's own client
#: the host's own directories (and the whole of a user's home: ~, $HOME, /home/NAME) given to a container
_HOST_MOUNT = Lazy(r"^(?:/|/etc|/root|/home|/var|/usr|/boot|/proc|/sys|/dev|/run|/var/run/docker\.sock|"
                   r"~|\$HOME|\$\{HOME\}|\"?\$HOME\"?|/home/[^/:]+|/Users/[^/:]+|"
                   r"/run/docker\.sock|/run/containerd/containerd\.sock)/?(?::|$)")
_HOST_FLAGS = Lazy(r"^--(?:privileged|pid=host|ipc=host|userns=host|uts=host|cap-add=(?:ALL|SYS_ADMIN|SYS_PTRACE|"
                   r"SYS_MODULE))$|^--security-opt=(?:apparmor|seccomp)[=:]unconfined$")
_SUDOERS = Lazy(r"NOPASSWD|!authenticate")


class MachineWide(Guard):
    name = "machine_wide"
    summary = "Acting on the whole machine: fork bombs, kill -1, shutdown, crontab -r, services, LD_PRELOAD, " \
              "sudoers, the firewall, containers that own the host, kernel modules, at jobs, SIP/Gatekeeper/SELinux off"
    catches = (":(){ :|:& };:", "kill -9 -1", "killall -9 node", "shutdown -h now", "crontab -r",
               "systemctl disable sshd", "systemctl enable x", "LD_PRELOAD=./x.so ls", "export LD_PRELOAD=/tmp/x.so", "echo 'me ALL=(ALL) NOPASSWD: ALL' >> /etc/sudoers",
               "docker run --privileged x", "docker run -v /:/host x", "mount --bind / /mnt/x", "insmod ./x.ko",
               "at now + 1 minute -f job.sh", "csrutil disable", "setenforce 0")
    heads = ("kill", "systemctl")

    def judge_shell(self, parsed: Parsed, context: Context) -> Ruling:
        bomb = _FORK_BOMB.search(parsed.text[: 1 << 16]) if "()" in parsed.text else None
        if bomb is not None:
            return self.verdict(DENY, bomb.group(0), "is a fork bomb: it fills the machine with processes",
                                "Do not run it")
        users = _killed_by_user(parsed) if "kill" in parsed.text and "-u" in parsed.text else None
        if users is not None:
            return self.verdict(ASK, users, "kills every process of a user (the pids it lists), whatever they are: "
                                "the agent's own and the user's other work among them", "Kill the one process by its pid")
        ranking = _killed_by_rank(parsed) if "kill" in parsed.text else None
        if ranking is not None:
            return self.verdict(ASK, ranking, "kills the processes a ranking by CPU or memory puts first, whatever "
                                "they are: a service of the machine or the agent's own among them",
                                "List them (ps aux --sort=-%cpu | head) and kill the one the user chooses by its pid")
        text = parsed.text
        picked = _killed_by_name(parsed) if "kill" in text or "rocess" in text or "spps" in text else None
        if picked is not None:
            return self.verdict(ASK, picked, "kills every process of a runtime, shell or agent the line picks by its "
                                "bare name, the agent's own CLI among them",
                                "Kill the one process by its pid (lsof -ti :PORT), or stop it the way it was started")
        return super().judge_shell(parsed, context)

    def judge_command(self, command: Command, context: Context) -> Ruling:
        why = _machine(command) or _code_on_machine(command)
        if why is None:
            return ALLOWED
        decision, reason, safely = why
        return self.verdict(decision, " ".join(command.argv) or " ".join(command.assignments), reason, safely)


#: the commands guards/machine_settings.py reads (its _HEADS), and the other init systems' tools
#: it reads as systemctl (its _INIT_TOOLS): a test holds them equal; it loads only for one of them,
#: not for the git and npm of every day
SETTINGS_HEADS = frozenset({"systemctl", "sysrc", "launchctl", "systemd-run", "ufw", "nft", "pfctl", "swapoff",
                            "tmutil", "networksetup", "defaults", "iptables", "firewall-cmd", "ip", "ifconfig",
                            "ifdown", "route", "nmcli", "hostnamectl", "scutil", "systemsetup", "socketfilterfw",
                            "kickstart", "csrutil", "profiles", "sfltool", "diskutil",
                            "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft"})
INIT_TOOLS = frozenset({"service", "update-rc.d", "rc-update", "chkconfig"})


def _as_systemctl(name: str, args: list[str]) -> tuple[str, list[str]]:
    if name not in INIT_TOOLS:
        return name, args
    from forge_hookd.guards.machine_settings import as_systemctl

    return as_systemctl(name, args)


def _machine_change(name: str, args: list[str]) -> tuple[str, str] | None:
    if name not in SETTINGS_HEADS:
        return None
    from forge_hookd.guards.machine_settings import machine_change

    return machine_change(name, args)


def _code_on_machine(command: Command) -> tuple[str, str, str] | None:
    """What a one-liner does to the whole machine in its own language: kills every process
    (``python3 -c "import os; os.kill(-1, 9)"``) or forks for ever."""
    code = command.inline_code
    if code is None:
        return None
    text = code[1][: 1 << 16]
    if _CODE_KILLS_ALL.search(text):
        return DENY, f"kills every process the user can reach (-1) or its own process group (0), in {code[0]} " \
            "code", "Kill the one process by its pid"
    if _CODE_FORKS_FOREVER.search(text):
        return DENY, f"is a fork bomb in {code[0]} code: it fills the machine with processes", "Do not run it"
    return None


def _machine(command: Command) -> tuple[str, str, str] | None:
    name, args = _as_systemctl(command.name, list(command.args))  # `service pf stop` as `systemctl stop pf`
    preload = next((a for a in _settings(command) if a.startswith(("LD_PRELOAD=", "DYLD_INSERT_LIBRARIES="))), None)
    if preload is not None and preload.partition("=")[2]:
        return DENY, f"preloads a library into every program it starts ({preload})", "Link the library normally"
    libpath = next((a for a in _settings(command) if a.startswith(("LD_LIBRARY_PATH=", "DYLD_LIBRARY_PATH="))), None)
    if libpath is not None and any(d.startswith(("/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/")) or
                                   d in ("/tmp", "/var/tmp", "/dev/shm") for d in libpath.partition("=")[2].split(":")):
        return DENY, f"loads libraries from a world-writable directory ({libpath})", "Link the library normally"
    provider = _provider_from_scratch(name, args)
    if provider is not None:
        return ASK, f"loads a library from a world-writable directory into {name} ({provider}): its code runs", \
            "Use the system's own provider, or ask the user"
    if name.lower() == "set-executionpolicy" and any(a.lower() in ("unrestricted", "bypass") for a in args) and \
            not any(a.lower() == "process" for a in args):  # -Scope Process: this shell alone, gone with it
        return ASK, "lets every PowerShell script run unsigned, for good (Set-ExecutionPolicy " + \
            " ".join(args) + ")", "Use -Scope Process for this session, or ask the user"
    protection = _protection_off(name, args)
    if protection is not None:
        return DENY, f"switches off a protection of the operating system ({protection}): whatever runs next " \
            "runs unchecked", "Leave it on; ask the user to change it if it truly must"
    if name in _MODULE_LOADERS and _loads_module(name, args):
        return ASK, f"loads a kernel module ({name} {' '.join(operands(args))}): code that runs inside the kernel, " \
            "with every privilege on the machine", "Ask the user to load it"
    if name in ("at", "batch") and _schedules(name, args):
        return ASK, f"schedules a job to run later ({name}), after this session and unwatched, as a new crontab " \
            "entry would", "Run it now, or ask the user to schedule it"
    if name == "launchctl" and operands(args)[:1] in (["load"], ["bootstrap"]):
        return ASK, f"installs a service that starts at every login ({name} {operands(args)[0]})", "Ask the user"
    if name in ("kill", "pkill", "killall") and _kills_everything(name, args):
        return DENY, "kills every process the user can reach (-1) or its own process group (0)", \
            "Kill the one process by its pid"
    broad = _broad_name(name, args) if name in ("pkill", "killall") else _broad_image(name, args)
    if broad is not None and _is_daemon(broad) and _signal_of(args) in _KEEPS_RUNNING:
        broad = None  # `killall -HUP nginx`: the service reloads its configuration, it does not stop
    if broad is not None and _is_daemon(broad):
        return ASK, f"kills every process matching {broad}: a service of the machine, stopped for every user and " \
            "program", "Stop the service through its manager (systemctl stop, brew services stop), or ask the user"
    if broad is not None:
        return ASK, f"kills every process matching {broad}: the agent's own and the user's other work may be among them", \
            "Kill the one process by its pid, or by a pattern that names its script (pkill -f 'node server.js')"
    if name == "killall5" or name in _SHUTDOWN or name == "init" and operands(args)[:1] in (["0"], ["6"]):
        return DENY, "shuts the machine down or kills everything", "Ask the user"
    if name == "systemctl" and operands(args)[:1] in (["poweroff"], ["reboot"], ["halt"], ["kexec"]):
        return DENY, "shuts the machine down", "Ask the user"
    if name == "systemctl" and operands(args)[:1] in (["enable"], ["reenable"], ["link"]):
        return ASK, f"installs a service that starts at every boot or login (systemctl {operands(args)[0]})", \
            "Start it for this session only (systemctl start), or ask the user"
    if name in ("systemctl", "launchctl") and operands(args)[:1] in (["disable"], ["mask"], ["unload"], ["bootout"]):
        return ASK, f"switches a service off for good ({name} {operands(args)[0]})", "Ask the user"
    if name == "systemctl" and operands(args)[:1] in (["stop"], ["kill"]) and "--user" not in args:
        services = [o.removesuffix(".service") for o in operands(args)[1:]]
        if any(s in _FIREWALLS for s in services):
            return DENY, f"drops the machine's firewall (systemctl {operands(args)[0]} {' '.join(services)})", \
                "Ask the user"
        if any(s in _REMOTE_ACCESS for s in services):
            return ASK, f"cuts remote access to the machine (systemctl {operands(args)[0]} {' '.join(services)})", \
                "Ask the user"
    if name == "systemctl" and operands(args)[:1] == ["isolate"]:
        return ASK, "switches the whole machine to another target (systemctl isolate)", "Ask the user"
    if name in ("mount", "umount") and _system_mount(name, args):
        return DENY, f"unmounts or remounts a file system the machine runs on ({name} {' '.join(args)})", \
            "Ask the user"
    kernel = _kernel_interface(name, args)
    if kernel is not None:
        return ASK, kernel, "Ask the user"
    if name == "sysctl" and _sets_kernel(args):
        return ASK, "changes a kernel setting for the whole machine (sysctl)", "Ask the user"
    if name in _CLOCK_SETTERS and _sets_clock(name, args):
        return ASK, f"sets the machine's clock ({name} {' '.join(args)}): every program's time, certificates' " \
            "validity and build timestamps change", "Print the time (date -u), or ask the user"
    firewall = _drops_firewall(name, args)
    if firewall is not None:
        return DENY, f"drops the machine's firewall ({firewall})", "Ask the user"
    if name == "crontab" and any(re.fullmatch(r"-[a-z]*r[a-z]*", a) for a in args):
        return DENY, "removes the user's crontab", "Edit one entry with crontab -e, or ask the user"
    if name == "crontab" and ("-" in args or [a for k, a in enumerate(args) if not a.startswith("-") and
                                              not (k and args[k - 1] == "-u")] or
                              (command.feeders or command.stdin is not None or
                               any(r.mode == "read" and r.fd in (None, "0") for r in command.redirects)) and
                              not {"-l", "-e", "-r", "-i"} & set(args)):  # no file: it reads its input
        return DENY, "replaces every entry of the user's crontab", "Edit one entry with crontab -e, or ask the user"
    if any(a.startswith("/etc/sudoers") for a in _written(command)) and (
            command.stdin is not None and _SUDOERS.search(command.stdin) or
            any(_SUDOERS.search(a) for f in command.feeders for a in f.args) or any(_SUDOERS.search(a) for a in args)):
        return DENY, "grants password-less sudo", "Ask the user"
    if name in _CONTAINERS:
        args = _without_global_options(args)  # docker -H unix:///var/run/docker.sock run ...: run is the verb
    if name in _CONTAINERS and operands(args)[:1] in (["run"], ["create"], ["exec"]) or \
            name in _CONTAINERS and operands(args)[:2] in (["container", "run"], ["container", "create"]):
        why = _owns_host(args)
        if why is not None:
            return DENY, f"starts a container that owns the host or the user's home ({why})", \
                "Mount only the project: -v \"$PWD\":/app"
    if name in ("kubectl", "oc") and operands(args)[:1] == ["run"]:
        why = _pod_owns_host(args)
        if why is not None:
            return DENY, f"starts a pod that owns the node ({why})", "Run the pod without privileges or host namespaces"
    if name in _SYSTEM_CONTAINERS:
        why = _system_container_owns_host(args)
        if why is not None:
            return DENY, f"gives a container the host ({why})", "Ask the user"
    if name == "mount" and any(a in ("--bind", "--rbind", "-B", "--make-rshared") or a.startswith("-o") and "bind" in a
                               for a in args) or name == "mount" and any("bind" in v.split(",")
                                                                        for v in option_values(args, "-o", "--options")):
        return DENY, "bind-mounts part of the host", "Ask the user"
    if name == "nsenter":
        target = next((v for v in option_values(args, "-t", "--target") if v), None)
        if target == "1":
            return DENY, "enters the namespaces of pid 1, the host's", "Ask the user"
        if target is None and not any("=" in a or a[:2] in _NS_FILES and len(a) > 2 for a in args if a.startswith("-")):
            return None  # no process and no namespace file named: it runs the command where it is
        return ASK, "enters another process's namespaces (nsenter)", "Ask the user"
    if name == "chroot" or "chroot" in command.wrapper_names:
        return ASK, "changes the root directory (chroot)", "Ask the user"
    change = _machine_change(name, args)
    if change is not None:
        return ASK, *change
    return None


#: nsenter's namespace options, which take a namespace file when one is attached (-n/run/netns/x)
_NS_FILES = frozenset({"-m", "-u", "-i", "-n", "-p", "-C", "-U", "-T"})


#: the shell builtins that set a variable (``export``, ``declare -x``): ``export
#: LD_PRELOAD=x`` preloads into every later program as ``LD_PRELOAD=x cmd`` does into one
_DECLARERS = frozenset({"export", "declare", "typeset", "local", "readonly"})


def _settings(command: Command) -> tuple[str, ...]:
    """The ``NAME=value`` a command sets: its own prefix, the line's earlier ones, ``env
    NAME=value`` in front of it, and the operands of ``export``/``declare``/``typeset``."""
    found = (*command.assignments, *command.env, *(a for w in command.wrappers if w[0].rpartition("/")[2] == "env"
                                                  for a in w[1:] if "=" in a and not a.startswith("-")))
    return (*found, *command.args) if command.name in _DECLARERS else found


#: programs whose every process is not one task: runtimes, shells, editors, browsers, the
#: agents themselves (`killall node` stops the agent's own CLI, `pkill -f python` every tool)
_BROAD = frozenset({"node", "nodejs", "python", "python2", "python3", "ruby", "perl", "php", "java", "deno", "bun",
                    "npm", "npx", "yarn", "pnpm", "go", "dotnet", "bash", "sh", "zsh", "fish", "dash", "ksh", "tmux",
                    "screen", "ssh", "sshd", "code", "electron", "chrome", "chromium", "firefox", "safari", "docker",
                    "dockerd", "containerd", "claude", "codex", "gemini", "cursor", "copilot", "aider", "git",
                    "vim", "nvim", "emacs", "login", "systemd", "launchd", "Xorg", "gnome-shell"})
#: the same programs by their macOS application names, compared in lower case (``killall
#: 'Google Chrome'`` closes every window of the user's browser)
_BROAD_APPS = frozenset({"google chrome", "google chrome helper", "chromium", "firefox", "safari", "microsoft edge",
                         "brave browser", "arc", "visual studio code", "code helper", "cursor", "terminal", "iterm2",
                         "docker desktop"})
#: macOS's Dock, Finder and menu bar are not among them: launchd starts each again at once, and
#: `killall Dock` is how a `defaults write com.apple.dock` takes effect
#: the options of pkill and of killall that take a value (the next word is no name)
_KILL_VALUED = {"pkill": frozenset({"-g", "-G", "-P", "-s", "-t", "-u", "-U", "-F", "--signal", "--euid", "--uid",
                                    "--group", "--pgroup", "--parent", "--session", "--terminal", "--pidfile", "--ns",
                                    "--nslist"}),
                "killall": frozenset({"-s", "-u", "-o", "-y", "-n", "-Z", "--signal", "--user", "--older-than",
                                      "--younger-than", "--ns", "--context"})}
_VERSIONED = Lazy(r"[\d.]+$")


#: the machine's own services: every process of one killed by its name stops it for every user
#: and program (remote access, the network, the session bus, a database, the display manager)
_DAEMONS = frozenset({"postgres", "postgresql", "postmaster", "mysqld", "mariadbd", "mongod", "redis-server",
                      "memcached", "nginx", "apache2", "httpd", "NetworkManager", "wpa_supplicant", "dhclient",
                      "dbus-daemon", "dbus-broker", "polkitd", "sssd", "lightdm", "gdm", "gdm3", "sddm", "cron", "crond",
                      "rsyslogd", "syslogd", "ntpd", "chronyd", "cupsd", "avahi-daemon", "firewalld", "kubelet", "snapd",
                      "auditd", "udevd", "mDNSResponder", "WindowServer", "loginwindow"})


#: signals a service handles and keeps running: reload (HUP), reopen logs or dump state (USR1,
#: USR2), a window resized (WINCH), 0 (whether it runs at all)
_KEEPS_RUNNING = frozenset({"1", "HUP", "10", "USR1", "12", "USR2", "28", "WINCH", "0"})
_SIGNAL = Lazy(r"(?:SIG)?[A-Z]{2,}[0-9]*|\d+")


def _signal_of(args: list[str]) -> str | None:
    """The signal pkill or killall sends, without its SIG prefix (``-HUP``, ``-1``, ``-s HUP``,
    ``--signal=SIGHUP``); None for the default (TERM)."""
    for k, arg in enumerate(args):
        value = args[k + 1] if arg in ("-s", "--signal") and k + 1 < len(args) else \
            arg.partition("=")[2] if arg.startswith("--signal=") else \
            arg[1:] if arg.startswith("-") and _SIGNAL.fullmatch(arg[1:]) else None
        if value:
            return value.upper().removeprefix("SIG")
    return None


def _is_daemon(pattern: str) -> bool:
    """Whether the name a kill matched (``^sshd$``, ``/usr/sbin/nginx``) is a service of the machine."""
    bare = pattern.strip("^$").rpartition("/")[2]
    return bare in _DAEMONS or bare in _PROTECTION_SERVICES or bare.startswith("systemd-")


def _is_broad(name: str) -> bool:
    """A program every process of which is not one task (:data:`_BROAD`), a version suffix
    aside (``python3.12``), or a service of the machine (:data:`_DAEMONS`, ``systemd-*``)."""
    return name in _BROAD or _VERSIONED.sub("", name) in _BROAD or _is_daemon(name)


def _broad_name(name: str, args: list[str]) -> str | None:
    """The runtime, shell or agent ``pkill``/``killall`` match by a bare name (``pkill -9
    node``, ``pkill -f python``, ``killall -r '^node$'``), or None: a pattern that names a
    script (``pkill -f 'node server.js'``) or another program is one task."""
    for arg in _kill_patterns(name, args):
        # each alternative of a pattern matches on its own: `pkill -f "syslog|auditd|osqueryd"`
        for alternative in arg.split("|") if "|" in arg else (arg,):
            bare = alternative.strip("^$()")
            bare = bare.rpartition("/")[2] if bare.startswith("/") and " " not in bare else bare
            if _is_broad(bare) or bare.lower() in _BROAD_APPS:
                return alternative.strip("^$()") if alternative != arg else arg
    return None


def _kill_patterns(name: str, args: list[str]) -> list[str]:
    """The names or patterns pkill or killall match, the values of their options left out
    (``pkill -u alice``: no pattern, alice is a user)."""
    valued, skip, found = _KILL_VALUED[name], False, []
    for arg in args:
        if skip:
            skip = False
        elif arg in valued:
            skip = True
        elif not arg.startswith("-") or arg == "-":
            found.append(arg)
    return found


#: Windows' killers by image name (Git Bash doubles the slash: ``taskkill //F //IM node.exe``)
#: and the option that names the image: anthropics/claude-code #9970, #10174, #13941
_IMAGE_KILLERS = {"taskkill": ("/im", "//im", "-im"), "taskkill.exe": ("/im", "//im", "-im"),
                  "Stop-Process": ("-name", "-processname"), "spps": ("-name", "-processname")}
#: Windows' own shells and the processes its session runs on, by image name in lower case (Windows
#: matches images regardless of case): `taskkill /IM cmd.exe` ends every cmd window, the agent's among them
_WINDOWS_BROAD = frozenset({"cmd", "powershell", "pwsh", "conhost", "windowsterminal", "explorer", "svchost", "csrss",
                            "lsass", "winlogon", "wininit", "services", "dwm"})


def _broad_image(name: str, args: list[str]) -> str | None:
    """The runtime or agent ``taskkill /IM node.exe`` or ``Stop-Process -Name node``
    ends by its image name, or None (a pid, another program)."""
    options = _IMAGE_KILLERS.get(name)
    if options is None:
        return None
    for k, arg in enumerate(args[:-1]):
        if arg.lower() in options:
            image = args[k + 1].strip("\"'")
            if _broad_image_name(image):
                return image
    return None


def _broad_image_name(image: str) -> bool:
    """Whether a Windows image name (``node.exe``, ``PowerShell``) is a runtime's, an agent's or
    one of the system's own processes."""
    bare = image[:-4] if image.lower().endswith(".exe") else image
    return _is_broad(bare) or bare.lower() in _WINDOWS_BROAD


def _kills_everything(name: str, args: list[str]) -> bool:
    if name == "kill":
        kept = operands([a for a in args if not re.fullmatch(r"-(?:\d+|[A-Z]+|SIG[A-Z]+|s|n)", a)])
        signal = [a for k, a in enumerate(args[1:]) if args[k] in ("-s", "-n")][:1]  # `kill -n 1 PID`: a signal
        pids = list(kept)
        if signal and signal[0] in pids:
            pids.remove(signal[0])
        return "-1" in kept or "1" in pids or "0" in pids or \
            any(a == "--" for a in args) and "-1" in args[args.index("--") + 1:] or \
            args[-1:] == ["-1"] and len(args) > 1
    if name == "pkill":  # `pkill -u alice`, `pkill .`: every process of the user, or every process
        patterns = _kill_patterns(name, args)
        return all(p in (".", ".*", "^") for p in patterns) and (bool(patterns) or any(
            a in ("-u", "-U", "--uid", "--euid") or a.startswith(("--uid=", "--euid=")) for a in args))
    if name == "killall" and not operands(args) and "-1" in args[1:] and args[0].startswith("-"):
        return True  # `killall -9 -1`: a signal, then -1, and no name: every process
    return name == "killall" and any(a in ("-u",) for a in args) and len(operands(args)) <= 1


#: what loads a module into the running kernel (Linux's, FreeBSD's, macOS's)
_MODULE_LOADERS = frozenset({"insmod", "modprobe", "kldload", "kextload", "kmutil"})
#: modprobe's options that unload, list or only show (``modprobe -r x``, ``modprobe -n -v x``)
_MODPROBE_QUIET = frozenset({"-r", "--remove", "-R", "--resolve-alias", "-n", "--dry-run", "--show", "-c",
                             "--showconfig", "--show-config", "-D", "--show-depends", "--show-modversions",
                             "--dump-modversions", "--show-exports", "-V", "--version", "-h", "--help"})


def _killed_by_user(parsed: Parsed) -> str | None:
    """The lister whose pids of a whole user the line kills (``kill -9 $(lsof -t -u daniel)``,
    ``pgrep -u bob | xargs kill``), or None: ``kill $(lsof -t -i:3000)`` is one server, ``pgrep -u
    bob node`` a program matched by name."""
    if not any(c.name == "kill" and ("xargs" in c.wrapper_names or any("$" in a or "`" in a for a in c.args))
               for c in parsed.commands):
        return None
    for c in parsed.commands:
        users = any(a in ("-u", "-U") or a.startswith("-u") and len(a) > 2 for a in c.args)
        if c.name == "lsof" and users or c.name == "pgrep" and users and not _kill_patterns("pkill", list(c.args)):
            return " ".join(c.argv)
    return None


#: PowerShell's cmdlets (and aliases) that list processes by name and that stop what they are given
_PS_LISTERS = frozenset({"get-process", "gps"})
_PS_STOPPERS = frozenset({"stop-process", "spps"})


def _killed_by_name(parsed: Parsed) -> str | None:
    """The lister that picks a runtime's every process by its bare name for PowerShell's stop of the
    same line: ``Get-Process node | Stop-Process`` (as ``Stop-Process -Name node``): QwenLM/qwen-code
    #4854, #6544, anomalyco/opencode #25762. ``kill $(pgrep node)`` passes: issue 31 names it an
    everyday substitution that must (a person reads the pids of the one program it asks for)."""
    commands = parsed.commands
    if not any(c.name.lower() in _PS_STOPPERS for c in commands):
        return None
    for c in commands:
        if c.name.lower() in _PS_LISTERS:
            names = [*operands(c.args), *option_values(c.args, "-Name", "-Name"),
                     *option_values(c.args, "-ProcessName", "-ProcessName")]
            if any(_broad_image_name(n) for n in names):
                return " ".join(c.argv)
    return None


def _killed_by_rank(parsed: Parsed) -> str | None:
    """The ranking whose first pids the line kills (``kill -9 $(ps aux --sort=-%cpu | awk
    'NR<=6 {print $2}')``, ``ps -eo pid --sort=-pcpu | head | xargs kill``, ``top -b -o %MEM``,
    ``ps aux | sort -nrk 3``), or None: a pid named, or a program matched by name, is chosen."""
    commands = parsed.commands
    if not any(c.name == "kill" and ("xargs" in c.wrapper_names or any("$" in a or "`" in a for a in c.args))
               for c in commands):
        return None  # no kill, or one of pids the line names: chosen, not ranked
    lister = any(c.name == "ps" for c in commands)
    for c in commands:
        if c.name == "ps" and any(a.startswith("--sort") or a in ("-O", "O") or re.fullmatch(r"k[-+][%\w]+", a)
                                  for a in c.args) or \
                c.name == "top" and any(a == "-o" or a.startswith("-o") for a in c.args) or \
                c.name == "sort" and lister and any(a.startswith("-") and "n" in a for a in c.args):
            return " ".join(c.argv)
    return None


#: what sets the system clock: date's -s/--set or a time operand, timedatectl's set-time, hwclock's writes
_CLOCK_SETTERS = frozenset({"date", "timedatectl", "hwclock"})


def _sets_clock(name: str, args: list[str]) -> bool:
    """``date -s X``, ``date --set=X``, ``date 010100002030`` (MMDDhhmm: a time to set),
    ``timedatectl set-time X``, ``hwclock --set``/``--systohc``/``--hctosys``; ``date +%F``,
    ``date -d '2 days ago'``, ``timedatectl status`` and ``hwclock --show`` only read."""
    if name == "timedatectl":  # the time, the zone, or whether it follows the network's
        return operands(args)[:1] in (["set-time"], ["set-timezone"], ["set-ntp"], ["set-local-rtc"])
    if name == "hwclock":
        return any(a in ("--set", "--systohc", "-w", "--hctosys", "-s", "--adjust", "-a") for a in args)
    valued = ("-d", "--date", "-f", "--file", "-r", "--reference")
    kept = [a for k, a in enumerate(args) if not (k and args[k - 1] in valued)]
    return any(a == "--set" or a.startswith("--set=") or a.startswith("-s") and not a.startswith("--") for a in kept) or \
        any(re.fullmatch(r"\d{8}(?:\d{2}|\d{4})?(?:\.\d{2})?", a) for a in operands(kept))


def _loads_module(name: str, args: list[str]) -> bool:
    """``insmod ./x.ko``, ``modprobe NAME``, ``kldload x``, ``kmutil load -p x.kext``: a
    module loaded; ``modprobe -r`` unloads, ``-n``/``-c``/``-D`` only show (``lsmod`` and
    ``modinfo`` are other programs)."""
    ops = operands(args)
    if name == "kmutil":
        return ops[:1] == ["load"]
    if name == "modprobe" and any(a in _MODPROBE_QUIET or a.startswith("-") and not a.startswith("--") and
                                  ("r" in a or "n" in a or "c" in a or "D" in a) for a in args):
        return False
    return bool(ops)


#: at's options that list, show or remove jobs (``at -l`` is atq, ``at -r N`` atrm)
_AT_QUIET = frozenset({"-l", "-d", "-r", "-c", "-V", "-h", "--help", "--version"})


def _schedules(name: str, args: list[str]) -> bool:
    """``at now + 1 minute -f job.sh``, ``echo CMD | at midnight``, ``batch < job.sh``:
    a job queued to run later; ``atq``, ``atrm`` and ``at -l`` only list or remove."""
    if any(a in _AT_QUIET for a in args):
        return False
    return name == "batch" or bool(operands(args))


#: the operating system's own protections, what switches each off: macOS's System
#: Integrity Protection and Gatekeeper, SELinux, AppArmor
_GATEKEEPER_OFF = frozenset({"--master-disable", "--global-disable"})
_DEFAULTS_OFF = {("com.apple.security", "GKAutoRearm"), ("com.apple.LaunchServices", "LSQuarantine")}
_FALSE = frozenset({"no", "false", "0"})
#: the services that watch the machine: its mandatory access control, its audit and its logs,
#: and the endpoint sensors security teams install (stopping one blinds them: ATT&CK T1562)
_PROTECTION_SERVICES = frozenset({"apparmor", "selinux", "auditd", "rsyslog", "syslog", "syslog-ng", "syslogd",
                                  "systemd-journald", "journald", "falcon-sensor", "falcond", "cbdaemon", "cbagentd",
                                  "osqueryd", "wazuh-agent", "ossec", "mdatp", "clamav-daemon", "clamd", "auditbeat",
                                  "elastic-agent", "sysmon", "sentinelone", "velociraptor", "taniumclient"})
#: Microsoft Defender's switches that turn its scanning off (Set-MpPreference -X $true)
_DEFENDER_OFF = frozenset({"-disablerealtimemonitoring", "-disablebehaviormonitoring", "-disableioavprotection",
                           "-disablescriptscanning", "-disableblockatfirstseen", "-disableintrusionpreventionsystem"})


def _protection_off(name: str, args: list[str]) -> str | None:
    """The protection ``command`` switches off (``csrutil disable``, ``spctl
    --master-disable``, ``setenforce 0``, ``systemctl stop apparmor``, ``aa-teardown``,
    quarantine or Gatekeeper's re-arming written off with ``defaults write``), or None:
    ``csrutil status``, ``spctl --status`` and ``getenforce`` only look."""
    if name == "csrutil" and "disable" in operands(args):
        return "System Integrity Protection: csrutil disable"
    if name == "spctl" and any(a in _GATEKEEPER_OFF for a in args):
        return "Gatekeeper: spctl " + next(a for a in args if a in _GATEKEEPER_OFF)
    if name == "setenforce" and operands(args)[:1] and operands(args)[0].lower() in ("0", "permissive"):
        return "SELinux: setenforce " + operands(args)[0]
    if name == "aa-teardown":
        return "AppArmor: aa-teardown unloads every profile"
    if name == "systemctl" and operands(args)[:1] in (["stop"], ["disable"], ["mask"], ["kill"]):
        service = next((o for o in operands(args)[1:] if o.removesuffix(".service") in _PROTECTION_SERVICES), None)
        if service is not None:
            return f"systemctl {operands(args)[0]} {service}"
    if name == "auditctl" and ("-D" in args or any(args[k:k + 2] == ["-e", "0"] for k in range(len(args)))):
        return "the audit system: auditctl " + ("-D deletes every rule" if "-D" in args else "-e 0 switches it off")
    if name == "mdatp" and operands(args)[:1] == ["config"] and "disabled" in args:
        return "Microsoft Defender for Endpoint: mdatp " + " ".join(args)
    lowered = name.lower()  # PowerShell's names are case-blind
    if lowered == "set-mppreference" and any(a.lower() in _DEFENDER_OFF for a in args) and \
            not any(a.lower() == "$false" for a in args):
        return "Microsoft Defender: Set-MpPreference " + next(a for a in args if a.lower() in _DEFENDER_OFF)
    if name == "defaults" and operands(args)[:1] == ["write"]:
        ops = operands(args)
        domain, key = (ops[1].rpartition("/")[2], ops[2]) if len(ops) >= 3 else ("", "")
        value = ops[-1].lower() if len(ops) >= 4 else ""
        if (domain, key) in _DEFAULTS_OFF and value in _FALSE:
            return f"macOS's {'quarantine of downloads' if key == 'LSQuarantine' else 'Gatekeeper'}: " \
                   f"defaults write {ops[1]} {key} {ops[-1]}"
    return None


_FIREWALLS = frozenset({"firewalld", "ufw", "nftables", "iptables", "ip6tables", "netfilter-persistent", "pf"})
#: the mounts the machine itself runs on
_SYSTEM_MOUNTS = frozenset({"/", "/usr", "/boot", "/home", "/var", "/etc", "/proc", "/sys", "/dev", "/run", "/tmp"})


#: the kernel's own file systems: mounted, they hand out its controls (a cgroup's release_agent
#: runs a program as root on the host, binfmt_misc an interpreter for every binary)
_KERNEL_FILESYSTEMS = frozenset({"cgroup", "cgroup2", "binfmt_misc", "debugfs", "securityfs", "configfs", "bpf",
                                 "tracefs"})


#: OpenSSH's options that load a PKCS#11 or FIDO provider, a shared library whose code runs in the tool
_PROVIDER_OPTIONS = {"ssh-keygen": ("-D", "-w"), "ssh": ("-I",), "ssh-add": ("-s", "-e", "-S"), "ssh-agent": ("-P",)}
_SCRATCH = ("/tmp/", "/var/tmp/", "/private/tmp/", "/dev/shm/")


def _provider_from_scratch(name: str, args: list[str]) -> str | None:
    """``ssh-keygen -D /tmp/evil.dylib``, ``ssh -I /tmp/x.so``: a provider library from a directory anyone
    may write (as LD_LIBRARY_PATH into /tmp); the system's own (``/usr/lib/ssh-keychain.dylib``) passes."""
    options = _PROVIDER_OPTIONS.get(name)
    if options is None:
        return None
    for k, arg in enumerate(args):
        value = args[k + 1] if arg in options and k + 1 < len(args) else \
            arg[2:] if arg[:2] in options and len(arg) > 2 else None
        if value is not None and value.startswith(_SCRATCH):
            return value
    return None


def _kernel_interface(name: str, args: list[str]) -> str | None:
    """A kernel file system mounted (``mount -t cgroup -o rdma cgroup /tmp/cgrp``, the first step of
    a container's release_agent escape), or a block device's node made (``mknod sda b 8 0``: the
    host's disk, reachable around the container's device rules); ``mount -t tmpfs``, ``mknod
    fifo p`` pass."""
    if name == "mount":
        types = [args[k + 1] for k, a in enumerate(args[:-1]) if a in ("-t", "--types")] + \
            [a.partition("=")[2] for a in args if a.startswith("--types=")] + [a[2:] for a in args if a.startswith("-t")
                                                                             and len(a) > 2 and a != "-t"]
        kinds = {k for t in types for k in t.split(",")} & _KERNEL_FILESYSTEMS
        return f"mounts the kernel's {sorted(kinds)[0]} file system: its controls reach the whole machine" if kinds \
            else None
    if name == "mknod" and any(a in ("b", "c") for a in operands(args)[1:2]):
        return "makes a device node: the device it names (a disk) is read and written around its permissions"
    return None


def _system_mount(name: str, args: list[str]) -> bool:
    """``umount /``, ``umount -l /home``, ``umount -a``, ``mount -o remount,ro /``: a file system the
    machine runs on taken away or made read-only (``mount /dev/sdb1 /mnt`` and ``umount /mnt`` pass)."""
    targets = {o.rstrip("/") or "/" for o in operands(args)} & _SYSTEM_MOUNTS
    if name == "umount":
        return bool(targets) or "-a" in args or "--all" in args
    remount = any("remount" in v for v in [*(args[k + 1] for k, a in enumerate(args[:-1]) if a in ("-o", "--options")),
                                           *(a[2:] for a in args if a.startswith("-o") and len(a) > 2)])
    return remount and bool(targets)
_REMOTE_ACCESS = frozenset({"sshd", "ssh", "openssh-server", "tailscaled", "wg-quick@wg0"})


def _sets_kernel(args: list[str]) -> bool:
    """``sysctl -w k=v``, ``sysctl k=v``, ``sysctl -p [FILE]``, ``--system``: a write;
    ``sysctl -a``, ``sysctl k``, ``sysctl -n k`` only read."""
    if any(a in ("-w", "--write", "-p", "--load", "--system") or a.startswith(("--load=", "-p")) for a in args):
        return True
    return any("=" in a for a in operands(args))


def _drops_firewall(name: str, args: list[str]) -> str | None:
    """Flushing the rules or opening the default policy of iptables, nft or ufw."""
    if name in ("iptables", "ip6tables", "iptables-legacy", "iptables-nft"):
        if any(a in ("-F", "--flush", "-X", "--delete-chain") for a in args):
            return f"{name} flush"
        if any(a in ("-P", "--policy") for a in args) and "ACCEPT" in args:
            return f"{name} policy ACCEPT"
    if name == "nft" and operands(args)[:1] in (["flush"], ["delete"]):
        return "nft " + operands(args)[0]
    if name == "ufw" and operands(args)[:1] in (["disable"], ["reset"]):
        return "ufw " + operands(args)[0]
    if name == "pfctl" and any(a == "-d" or a.startswith("-F") for a in args):  # pf disabled, or its rules flushed
        return "pfctl " + next(a for a in args if a == "-d" or a.startswith("-F"))
    return None


#: LXD's and Incus's clients: system containers whose configuration can hand them the host
_SYSTEM_CONTAINERS = frozenset({"lxc", "incus"})


def _system_container_owns_host(args: list[str]) -> str | None:
    """``lxc init img c -c security.privileged=true``, ``lxc config set c security.privileged
    true``, ``lxc config device add c d disk source=/ path=/mnt/root``: a container as root of
    the host, or the host's root file system in it (GTFOBins' lxd)."""
    words = [a.replace("=", " ", 1).split() for a in args]
    flat = [part for w in words for part in w]
    for k, part in enumerate(flat[:-1]):
        if part in ("security.privileged", "security.nesting") and flat[k + 1].lower() in ("true", "1", "yes"):
            return f"{part}=true"
        if part == "raw.lxc":
            return "raw.lxc"
    if "disk" in args and any(_HOST_MOUNT.search(a.partition("=")[2]) for a in args if a.startswith("source=")):
        return next(a for a in args if a.startswith("source="))
    return None


#: the options docker, podman and nerdctl take before their subcommand, with a value: which daemon,
#: context or configuration (HackTricks: a socket found in another place is named with -H)
_GLOBAL_VALUED = frozenset({"-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert",
                            "--tlscert", "--tlskey", "--url", "--connection", "--namespace", "-n", "--address", "-a"})


def _without_global_options(args: list[str]) -> list[str]:
    """A container tool's words from its subcommand on: the global options before it, and their
    values, left out."""
    k = 0
    while k < len(args) and args[k].startswith("-"):
        k += 2 if args[k] in _GLOBAL_VALUED else 1
    return args[k:]


#: what makes a pod the node's root: privileged, the node's pid or ipc namespace, the node's / mounted
_POD_HOST = Lazy(r'"(?:privileged|hostPID|hostIPC)"\s*:\s*true|"hostPath"\s*:\s*\{\s*"path"\s*:\s*"/"',
                 needs=("privileged", "hostP", "hostI"))


def _pod_owns_host(args: list[str]) -> str | None:
    """``kubectl run x --overrides '{"spec":{"hostPID":true,...,"privileged":true}}'`` (HackTricks'
    pod escape, as ``docker run --privileged --pid=host``), or ``--privileged``."""
    if "--privileged" in args or "--privileged=true" in args:
        return "--privileged"
    for spec in option_values(args, "--overrides", "--overrides"):
        found = _POD_HOST.search(spec)
        if found is not None:
            return found.group(0)
    return None


def _owns_host(args: list[str]) -> str | None:
    for k, arg in enumerate(args):
        if _HOST_FLAGS.search(arg) or arg == "--privileged":
            return arg
        value = None
        if arg in ("-v", "--volume", "--mount") and k + 1 < len(args):
            value = args[k + 1]
        elif arg.startswith(("--volume=", "--mount=")):
            value = arg.partition("=")[2]
        elif arg.startswith("-v") and len(arg) > 2:
            value = arg[2:]
        if arg in ("--pid", "--ipc", "--userns", "--net", "--network") and k + 1 < len(args) and args[k + 1] == "host" \
                and arg in ("--pid", "--ipc", "--userns"):
            return f"{arg} host"
        if value is None:
            continue
        source = value.split(",source=")[-1].split("src=")[-1] if "source=" in value or "src=" in value else value
        source = source.split(",")[0]  # --mount type=bind,src=/,dst=/host: the source ends at its comma
        if _HOST_MOUNT.search(source) or "docker.sock" in source:
            return f"{arg} {value}"
    return None


def _written(command: Command) -> list[str]:
    return list(written_paths(command))
