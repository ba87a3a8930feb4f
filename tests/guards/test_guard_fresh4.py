"""Rules the fourth fresh corpus (tests/guards/build_fresh4.py) showed missing, each
judged by its effect and pinned with benign look-alikes: a kernel module loaded, a job
queued with at or batch, the operating system's own protections switched off, an archive
unpacked or a download saved outside the project, a ``secrets/`` directory and credential
JSON read, Windows' package managers, and ``go install`` of the project's own packages."""

from __future__ import annotations

import pytest

from forge_hookd.guards import GUARDS, Context, make, worst

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

CTX = Context.from_env("/home/user/project", {"HOME": "/home/user"})


def decide(guard: str, command: str, context: Context = CTX) -> str:
    return make(guard).judge("bash", {"command": command}, context).decision


def pack(command: str, context: Context = CTX) -> str:
    return worst(make(name).judge("bash", {"command": command}, context) for name in GUARDS).decision


@pytest.mark.parametrize(("command", "decision"), [
    ("insmod ./x.ko", "ask"),
    ("insmod rootkit.ko", "ask"),
    ("modprobe vboxdrv", "ask"),
    ("sudo modprobe -v nf_conntrack", "ask"),
    ("kldload pf", "ask"),
    ("modprobe -r vboxdrv", "allow"),            # unloads
    ("modprobe -n -v vboxdrv", "allow"),         # a dry run
    ("modprobe -c", "allow"),                    # shows the configuration
    ("lsmod", "allow"),
    ("modinfo vboxdrv", "allow"),
])
def test_a_kernel_module_loaded_asks(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision, command


@pytest.mark.parametrize(("command", "decision"), [
    ("at now + 1 minute -f job.sh", "ask"),
    ("at midnight -f malicious.sh", "ask"),
    ("batch < job.sh", "ask"),
    ("echo 'make build' | at midnight", "ask"),
    ("atq", "allow"),
    ("atrm 3", "allow"),
    ("at -l", "allow"),                          # atq by another name
    ("at -r 3", "allow"),
    ("at -c 3", "allow"),                        # prints the job
])
def test_a_job_queued_for_later_asks_as_a_new_crontab_does(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision, command


@pytest.mark.parametrize(("command", "decision"), [
    ("csrutil disable", "deny"),
    ("csrutil authenticated-root disable", "deny"),
    ("spctl --master-disable", "deny"),
    ("sudo spctl --global-disable", "deny"),
    ("defaults write /Library/Preferences/com.apple.security GKAutoRearm -bool NO", "deny"),
    ("defaults write com.apple.LaunchServices LSQuarantine -bool NO", "deny"),
    ("defaults write com.apple.LaunchServices LSQuarantine false", "deny"),
    ("setenforce 0", "deny"),
    ("sudo setenforce Permissive", "deny"),
    ("systemctl stop apparmor", "deny"),
    ("systemctl disable apparmor.service", "deny"),
    ("aa-teardown", "deny"),
    ("csrutil status", "allow"),
    ("spctl --status", "allow"),
    ("spctl --assess -v MyApp.app", "allow"),
    ("getenforce", "allow"),
    ("setenforce 1", "allow"),                   # switches it back on
    ("defaults write com.apple.LaunchServices LSQuarantine -bool YES", "allow"),
    ("defaults write com.apple.dock autohide -bool true", "allow"),
    ("defaults read com.apple.LaunchServices LSQuarantine", "allow"),
    ("systemctl status apparmor", "allow"),
])
def test_the_operating_systems_own_protections_switched_off_deny(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision, command


def test_a_protection_switched_off_says_which_and_how_to_do_it_safely() -> None:
    reason = make("machine_wide").judge("bash", {"command": "spctl --master-disable"}, CTX).reason
    assert "spctl --master-disable" in reason and "Gatekeeper" in reason and "ask the user" in reason, reason
