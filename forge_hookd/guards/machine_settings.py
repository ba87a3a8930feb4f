"""What machine_wide asks about among the machine's services and settings, beyond the ones
it denies (eighth fresh corpus, Atomic Red Team's atomics): a service of the machine stopped or
made to start at every boot by the tools of every init system (systemd's ``systemctl`` and
``systemd-run``, SysV's ``service``, ``update-rc.d``, ``chkconfig``, OpenRC's ``rc-update``,
FreeBSD's ``sysrc``, launchd's ``launchctl enable``/``submit``), the firewall's rules changed
(``iptables -D``, ``ufw deny``, ``ufw logging off``, ``firewall-cmd --add-port``), its network taken
down or its routes changed (``ip link set eth0 down``, ``route del default``), its swap switched
off, its backups (Time Machine) switched off or deleted, its network proxy set, a login hook.
machine.py reads the other init systems' verbs through :func:`as_systemctl`, so its denies
(a firewall, a log, an endpoint sensor stopped) hold for ``service X stop`` too.

Each is a change to the whole machine that outlives the agent's session or reaches every user
of it, so it asks; what only reads (``systemctl status``, ``ufw status``, ``date +%s``,
``tmutil status``, ``networksetup -getwebproxy``) and the user's own services (``systemctl
--user``) pass. Kept apart from machine.py, whose rules deny."""

from __future__ import annotations

from forge_hookd.guards.base import operands
from forge_hookd.shell.lazyre import Lazy

#: (question, how to do it safely), or None
Finding = tuple[str, str] | None

ASK_USER = "Ask the user"

#: systemctl's verbs that stop a running service (``disable``/``mask`` are machine.py's)
_STOPS = frozenset({"stop", "kill"})
#: the services that run the machine's scheduled jobs (its backups, its rotations): stopped,
#: nothing scheduled runs; a web server or a database stopped is a developer's everyday
_SCHEDULERS = frozenset({"cron", "crond", "cronie", "atd", "anacron", "systemd-timesyncd"})
#: the other init systems' verbs, as systemctl's: service(8), Debian's update-rc.d, Red Hat's
#: chkconfig, OpenRC's rc-update (``chkconfig X on`` is ``systemctl enable X``)
_SERVICE_VERBS = {"stop": "stop", "onestop": "stop", "forcestop": "stop", "faststop": "stop", "kill": "kill",
                  "enable": "enable", "disable": "disable", "onedisable": "disable", "delete": "disable"}
_UPDATE_RC_VERBS = {"defaults": "enable", "enable": "enable", "disable": "disable", "remove": "disable",
                    "defaults-disabled": "link"}
_RC_UPDATE_VERBS = {"add": "enable", "del": "disable", "delete": "disable"}
_CHKCONFIG_VERBS = {"on": "enable", "off": "disable", "reset": "disable"}
_INIT_TOOLS = frozenset({"service", "update-rc.d", "rc-update", "chkconfig"})


def as_systemctl(name: str, args: list[str]) -> tuple[str, list[str]]:
    """``service pf stop``, ``update-rc.d X defaults``, ``chkconfig X on``, ``rc-update add X``
    as the systemctl command with the same effect (``systemctl stop pf``, ``systemctl enable
    X``), so that one set of rules judges every init system; other commands unchanged."""
    if name not in _INIT_TOOLS:
        return name, args
    ops = operands(args)
    verb, service = None, None
    if name == "service" and len(ops) >= 2:
        verb, service = _SERVICE_VERBS.get(ops[1]), ops[0]
    elif name == "update-rc.d" and len(ops) >= 2:
        verb, service = _UPDATE_RC_VERBS.get(ops[1]), ops[0]
    elif name == "rc-update" and len(ops) >= 2:
        verb, service = _RC_UPDATE_VERBS.get(ops[0]), ops[1]
    elif name == "chkconfig" and len(ops) >= 2:
        state = next((o for o in ops if o in _CHKCONFIG_VERBS), None)
        verb, service = (_CHKCONFIG_VERBS[state], next(o for o in ops if o != state)) if state else (None, None)
    if verb is None or service is None:
        return name, args
    return "systemctl", [verb, service]


#: launchctl's verbs that make a job start at every login or keep one running (load and
#: bootstrap are machine.py's)
_LAUNCHCTL = frozenset({"enable", "submit"})
#: systemd-run's options that make a timer: the command runs later, unwatched, like at
_TIMER_OPTIONS = ("--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive",
                  "--on-calendar", "--on-clock-change", "--on-timezone-change")


def service_change(name: str, args: list[str]) -> Finding:
    """The machine's scheduler stopped (a firewall, remote access, a protection or a log are
    machine.py's denies; a web server or a database stopped passes), FreeBSD's boot configuration written, a launchd job enabled or
    submitted, a systemd-run timer or system service."""
    ops = operands(args)
    if name == "systemctl" and ops[:1] and ops[0] in _STOPS and "--user" not in args and \
            any(o.removesuffix(".service") in _SCHEDULERS for o in ops[1:]):
        return f"stops the machine's scheduled jobs (systemctl {' '.join(ops)})", ASK_USER
    if name == "sysrc" and any("=" in o for o in ops):
        return f"writes the machine's boot configuration, /etc/rc.conf (sysrc {' '.join(ops)})", ASK_USER
    if name == "launchctl" and ops[:1] and ops[0] in _LAUNCHCTL:
        return f"makes launchd start or keep a job running ({name} {' '.join(ops)})", ASK_USER
    if name == "systemd-run":
        return _systemd_run(args)
    return None


def _systemd_run(args: list[str]) -> Finding:
    """``systemd-run --on-calendar X CMD`` queues a job as crontab does; without ``--user``
    or ``--scope`` the command runs as a service of the system manager, outside the agent's
    session (as root where polkit lets it); ``systemd-run --user --scope -p MemoryMax=2G
    npm test`` runs the agent's own command with a limit and passes."""
    timer = next((a for a in args if a.startswith(_TIMER_OPTIONS)), None)
    if timer is not None:
        return f"queues a job to run later, unwatched ({timer.partition('=')[0]}), as a crontab entry would", \
            "Run it now, or ask the user to schedule it"
    if "--user" not in args and "--scope" not in args:
        return "runs a command as a service of the whole machine, outside this session (systemd-run)", \
            "Run the command itself, or use systemd-run --user"
    return None


#: what changes the firewall's rules (flushes and an open policy are machine.py's denies)
_IPTABLES = frozenset({"iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft"})
_IPTABLES_CHANGES = frozenset({"-A", "--append", "-I", "--insert", "-D", "--delete", "-R", "--replace", "-N",
                               "--new-chain", "-E", "--rename-chain", "-Z", "--zero", "-P", "--policy"})
_UFW_CHANGES = frozenset({"allow", "deny", "reject", "limit", "delete", "insert", "prepend", "route", "default",
                          "logging", "enable"})
_NFT_CHANGES = frozenset({"add", "insert", "replace", "create", "destroy", "rename", "reset"})
#: firewalld's options that change a zone, a service or the policy (``--list-*``, ``--get-*``,
#: ``--query-*``, ``--state`` only read)
_FIREWALLD_CHANGES = ("--add-", "--remove-", "--set-", "--change-", "--new-", "--delete-", "--panic-on",
                      "--runtime-to-permanent", "--direct")


def firewall_change(name: str, args: list[str]) -> Finding:
    """A rule of the machine's firewall added, deleted or replaced, or its log switched off:
    ``iptables -L``, ``iptables -S``, ``ufw status``, ``nft list ruleset``, ``pfctl -s rules``
    only read."""
    ops = operands(args)
    changed = None
    if name in _IPTABLES and any(a in _IPTABLES_CHANGES for a in args):
        changed = next(a for a in args if a in _IPTABLES_CHANGES)
    elif name == "ufw" and ops[:1] and ops[0] in _UFW_CHANGES:
        changed = " ".join(ops[:2])
    elif name == "nft" and ops[:1] and ops[0] in _NFT_CHANGES or name == "nft" and any(a in ("-f", "--file")
                                                                                       for a in args):
        changed = " ".join(ops[:1]) or "-f"
    elif name == "pfctl" and any(a in ("-f", "-e") or a.startswith("-f") for a in args):
        changed = next(a for a in args if a.startswith(("-f", "-e")))
    elif name == "firewall-cmd" and any(a.startswith(_FIREWALLD_CHANGES) for a in args):
        changed = next(a for a in args if a.startswith(_FIREWALLD_CHANGES))
    if changed is None:
        return None
    return f"changes the machine's firewall ({name} {changed})", ASK_USER


#: Time Machine's verbs that switch the backups off or delete them
_TMUTIL_LOSSES = frozenset({"disable", "delete", "deletelocalsnapshots", "thinlocalsnapshots", "disablelocal",
                            "removedestination", "addexclusion"})
#: loginwindow's keys whose value is a script run at every login or logout, as root
_LOGIN_HOOKS = frozenset({"LoginHook", "LogoutHook"})


def machine_setting(name: str, args: list[str]) -> Finding:
    """The machine's swap switched off, its backups switched off or deleted, its proxy set
    for every application, a login hook installed."""
    ops = operands(args)
    if name == "swapoff" and not any(a in ("-h", "--help", "-V", "--version") for a in args):
        return "switches off the machine's swap: every program on it may run out of memory", ASK_USER
    if name == "hostnamectl" and ops[:1] in (["set-hostname"], ["hostname"]) and len(ops) > 1 or \
            name == "scutil" and "--set" in args:
        return f"renames the machine ({name} {' '.join(ops) or ' '.join(args)})", ASK_USER
    if name == "tmutil" and ops[:1] and ops[0] in _TMUTIL_LOSSES:
        return f"switches off or deletes the machine's backups (tmutil {ops[0]})", ASK_USER
    if name == "networksetup" and any(a.startswith(("-set", "-remove", "-delete", "-create", "-add", "-switch"))
                                      for a in args):
        return "changes the network settings of every application on the machine (networksetup " + \
            next(a for a in args if a.startswith("-")) + ")", ASK_USER
    if name == "defaults" and ops[:1] == ["write"] and len(ops) >= 3 and \
            ops[1].rpartition("/")[2] == "com.apple.loginwindow" and ops[2] in _LOGIN_HOOKS:
        return f"installs a script run as root at every {ops[2][:-4].lower()} (defaults write " \
               f"com.apple.loginwindow {ops[2]})", ASK_USER
    return None


#: ip's objects and the verbs that take a link down or change the routes or addresses
_IP_CHANGES = {"link": frozenset({"del", "delete"}), "route": frozenset({"add", "del", "delete", "change", "replace",
                                                                          "flush", "append"}),
               "address": frozenset({"del", "delete", "flush"})}
#: ip takes any prefix of an object's name (``ip r``, ``ip a``, ``ip li``)
_IP_OBJECTS = {p: obj for obj in ("link", "route", "address") for p in (obj[:n] for n in range(1, len(obj) + 1))}
#: ifconfig's words that set an interface (an address given also sets it; up, as ip's, passes)
_IFCONFIG_CHANGES = frozenset({"down", "netmask", "mtu", "alias", "delete", "add", "broadcast", "hw", "ether",
                               "lladdr", "promisc", "arp", "destroy", "create"})
_NMCLI_CHANGES = {"networking": frozenset({"off"}), "radio": frozenset({"off"}),
                  "connection": frozenset({"down", "delete", "modify"}), "device": frozenset({"disconnect", "down",
                                                                                            "delete", "set"})}
_NMCLI_OBJECTS = {"n": "networking", "net": "networking", "r": "radio", "c": "connection", "con": "connection",
                  "conn": "connection", "d": "device", "dev": "device"}


def network_change(name: str, args: list[str]) -> Finding:
    """The machine's network taken down or its routes or addresses changed (``ip link set
    eth0 down``, ``ifconfig eth0 down``, ``ifdown``, ``route del default``, ``nmcli
    networking off``): every connection of the machine, the agent's own, is cut or
    redirected. ``ip addr``, ``ip route``, ``ifconfig``, ``route -n``, ``nmcli device
    status`` only read."""
    ops = operands(args)
    changed = None
    if name == "ip" and len(ops) >= 2:
        obj = _IP_OBJECTS.get(ops[0])
        if obj and ops[1] in _IP_CHANGES[obj] or obj == "link" and ops[1] == "set" and "down" in ops[2:]:
            changed = " ".join(ops[:2])
    elif name == "ifconfig" and any(o in _IFCONFIG_CHANGES or o[:1].isdigit() for o in ops[1:]):
        changed = " ".join(ops[:2])  # ifconfig DEV down, ifconfig DEV ADDRESS; ifconfig DEV [inet]: read
    elif name == "ifdown" and ops:
        changed = ops[0]
    elif name == "route" and ops[:1] and ops[0] in ("add", "del", "delete", "change", "flush"):
        changed = " ".join(ops[:2])
    elif name == "nmcli" and len(ops) >= 2:
        obj = _NMCLI_OBJECTS.get(ops[0], ops[0])
        if any(o in _NMCLI_CHANGES.get(obj, ()) for o in ops[1:3]):
            changed = " ".join(ops[:3])
    if changed is None:
        return None
    return f"takes the machine's network down or changes its routes ({name} {changed}): every connection of the " \
        "machine, the agent's own among them, is cut or redirected", ASK_USER


#: kickstart's options that switch Apple Remote Desktop on, grant it or change it (``-help`` reads)
_KICKSTART_CHANGES = frozenset({"-activate", "-configure", "-restart", "-deactivate", "-uninstall", "-stop",
                                "-agent", "-access", "-privs"})
#: csrutil's verbs that only read (``disable`` is machine.py's deny)
_CSRUTIL_READS = (["status"], ["netboot", "list"], ["authenticated-root", "status"])


def macos_setting(name: str, args: list[str]) -> Finding:
    """macOS's settings of the whole machine changed through its own tools (LOOBins): a setting by
    ``systemsetup -set*`` (remote login, remote Apple events), the application firewall's by
    ``socketfilterfw``, remote management by ARD's ``kickstart``, System Integrity Protection's
    netboot or root settings by ``csrutil``, a management profile removed or installed, every
    app's login items reset by ``sfltool reset*``, a volume mounted with options that ignore its
    owners. ``systemsetup -get*``, ``socketfilterfw --get*``, ``csrutil status``, ``profiles
    list`` and ``sfltool dumpbtm`` only read."""
    ops = operands(args)
    setting = next((a for a in args if a.lower().startswith("-set")), None)
    if name == "systemsetup" and setting is not None:
        return f"changes a setting of the whole machine (systemsetup {setting})", ASK_USER
    changed = next((a for a in args if a.startswith(("--set", "--add", "--remove", "--unblock", "--block"))), None)
    if name == "socketfilterfw" and changed is not None:
        return f"changes the machine's application firewall (socketfilterfw {changed})", ASK_USER
    if name == "kickstart" and any(a in _KICKSTART_CHANGES for a in args):
        return "opens or changes remote management of the machine (Apple Remote Desktop's kickstart " + \
            next(a for a in args if a in _KICKSTART_CHANGES) + ")", ASK_USER
    if name == "csrutil" and ops and not any(ops[:len(r)] == r for r in _CSRUTIL_READS) and ops[0] not in (
            "help", "disable"):
        return f"changes System Integrity Protection's settings (csrutil {' '.join(ops[:2])})", ASK_USER
    if name == "profiles" and (ops[:1] in (["remove"], ["install"], ["renew"]) or
                               any(a in ("-R", "-I", "-D", "-r", "-i") for a in args)):
        return "installs or removes a management profile of the machine (its policies with it)", ASK_USER
    if name == "sfltool" and ops[:1] and ops[0].startswith("reset"):
        return f"resets every app's login and background items (sfltool {ops[0]})", ASK_USER
    if name == "diskutil" and "-mountOptions" in args:
        return "mounts a volume with options of its own choosing (noowners makes root's files writable: " \
               "CVE-2023-42931)", ASK_USER
    return None


#: the commands the rules above judge: every other command is passed by one lookup (the rules
#: run for every command of every agent)
_HEADS = frozenset({"systemctl", "sysrc", "launchctl", "systemd-run", "ufw", "nft", "pfctl", "swapoff", "tmutil",
                    "networksetup", "defaults", "firewall-cmd", "ip", "ifconfig", "ifdown", "route",
                    "nmcli", "hostnamectl", "scutil", "systemsetup", "socketfilterfw", "kickstart", "csrutil",
                    "profiles", "sfltool", "diskutil"}) | _IPTABLES


def machine_change(name: str, args: list[str]) -> Finding:
    """The first of the changes above ``name args`` makes, or None."""
    if name not in _HEADS:
        return None
    for rule in (service_change, firewall_change, machine_setting, network_change, macos_setting):
        found = rule(name, args)
        if found is not None:
            return found
    return None
