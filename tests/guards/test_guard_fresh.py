"""What the fresh corpus (tests/guards/corpus/fresh.jsonl, issue 31 item 11) showed the pack
missing, each fixed as a rule and pinned here by commands other than the corpus's own:
device nodes and discards, the system's password files and the password store, user
accounts, the firewall, and killall of every process."""

from __future__ import annotations

import pytest

from forge_hookd.guards import Context, make

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

CTX = Context.from_env("/home/user/project", {"HOME": "/home/user"})


def decide(guard: str, command: str) -> str:
    return make(guard).judge("bash", {"command": command}, CTX).decision


@pytest.mark.parametrize(("command", "decision"), [
    ("rm -f /dev/zero", "deny"),            # a device node is no clean-up, though /dev/null is allowed as a target
    ("unlink /dev/random", "deny"),
    ("echo x > /dev/null && rm -rf ./build", "allow"),
    ("blkdiscard -f /dev/sdb", "deny"),     # discards every block of the device
    ("sgdisk --zap-all /dev/sdc", "deny"),
    ("sgdisk -p /dev/sdc", "allow"),        # prints the table
])
def test_devices_are_no_clean_up(command: str, decision: str) -> None:
    assert decide("destructive_rm", command) == decision


@pytest.mark.parametrize(("command", "decision"), [
    ("head -3 /etc/gshadow", "deny"),
    ("grep root /etc/shadow-", "deny"),
    ("cat /etc/passwd", "allow"),           # world-readable, no hashes
    ("pass work/aws", "deny"),              # pass NAME shows it
    ("pass -c personal/mail", "deny"),      # to the clipboard: the agent can paste it
    ("pass ls", "allow"),
    ("pass generate -n site/x 24", "allow"),
    ("pass git log", "allow"),
])
def test_system_password_files_and_the_password_store(command: str, decision: str) -> None:
    assert decide("secret_files", command) == decision


@pytest.mark.parametrize(("command", "decision"), [
    ("adduser --disabled-password svc", "deny"),
    ("usermod -aG docker me", "deny"),
    ("userdel -r olduser", "deny"),
    ("chpasswd < users.txt", "deny"),
    ("id -u", "allow"),
    ("getent passwd me", "allow"),
])
def test_user_accounts_are_privilege(command: str, decision: str) -> None:
    assert decide("privilege_escalation", command) == decision


@pytest.mark.parametrize(("command", "decision"), [
    ("iptables --flush", "deny"),
    ("ip6tables -F INPUT", "deny"),
    ("iptables -P INPUT ACCEPT", "deny"),
    ("nft flush ruleset", "deny"),
    ("ufw disable", "deny"),
    ("iptables -L -n", "allow"),
    ("ufw status", "allow"),
    ("killall -KILL -1", "deny"),
    ("killall -1 nginx", "allow"),          # SIGHUP to nginx: a reload
    ("killall node", "allow"),
])
def test_the_firewall_and_killing_everything(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision
