"""Rules the fifth fresh corpus (tests/guards/build_fresh5.py, GTFOBins' command lines)
showed missing, each judged by its effect and pinned with benign look-alikes: programs that
run their arguments as a command (wrappers)."""

from __future__ import annotations

import pytest

from helpers import Project, decide, pack, run_installed

# Starts no forge-hook-run (forge-hook only): the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess


@pytest.mark.parametrize(("command", "decision"), [
    ("unshare rm -rf ~", "deny"),
    ("unshare -r rm -rf /", "deny"),
    ("valgrind rm -rf ~", "deny"),
    ("valgrind --leak-check=full rm -rf ~", "deny"),
    ("multitime -n 3 rm -rf ~", "deny"),
    ("ltrace -b -L rm -rf ~", "deny"),            # -L is a flag: rm is the command
    ("start-stop-daemon -S -x /bin/rm -- -rf /home/user", "deny"),
    ("start-stop-daemon --start --exec /bin/rm -- -rf /", "deny"),
    ("screen -dm rm -rf ~", "deny"),
    ("screen -L -Logfile x.log rm -rf ~", "deny"),
    ("cpulimit -l 100 -f -- rm -rf ~", "deny"),
    ("setarch -3 rm -rf ~", "deny"),              # util-linux 2.33+: no architecture named
    ("setarch x86_64 -R rm -rf ~", "deny"),
    ("linux32 rm -rf /", "deny"),
    ("rlwrap rm -rf ~", "deny"),
    ("rlwrap -a -H hist.txt rm -rf ~", "deny"),
    ("faketime '2020-01-01 00:00:00' rm -rf ~", "deny"),
    ("unshare -r id", "allow"),
    ("unshare -rn ./test_offline.sh", "allow"),
    ("valgrind --leak-check=full ./build/test", "allow"),
    ("ltrace -c ./app", "allow"),
    ("start-stop-daemon --start --background --make-pidfile --pidfile /tmp/app.pid --exec ./bin/app", "allow"),
    ("start-stop-daemon --stop --pidfile /tmp/app.pid", "allow"),
    ("screen -S work", "allow"),
    ("screen -r work", "allow"),
    ("screen -L -Logfile build.log make", "allow"),
    ("cpulimit -p 1234 -l 50", "allow"),           # limits a running process: no command
    ("setarch x86_64 -R ./app", "allow"),
    ("rlwrap -a -H hist.txt sqlite3 app.db", "allow"),
    ("faketime '2020-01-01' pytest tests/test_dates.py", "allow"),
])
def test_a_program_that_runs_its_arguments_is_read_as_a_wrapper(command: str, decision: str) -> None:
    assert decide("destructive_rm", command) == decision, command


def test_a_wrapper_around_a_secret_read_is_seen_through_as_well() -> None:
    assert pack("unshare cat ~/.ssh/id_rsa") == "deny"
    assert pack("rlwrap -l session.log cat README.md") == "allow"


def test_a_wrapper_is_seen_through_by_the_installed_forge_hook(project: Project) -> None:
    """Through the installed executable: guard test exits 1 on a deny, 0 on an allow."""
    denied = run_installed(["guard", "test", "destructive_rm", "--", "setarch -3 rm -rf ~"], cwd=project.root,
                           prog="forge-hook")
    assert denied.exit_status == 1, denied
    assert "rm" in denied.stdout and "deny" in denied.stdout, denied.stdout
    passed = run_installed(["guard", "test", "destructive_rm", "--", "valgrind ./build/test"], cwd=project.root,
                           prog="forge-hook")
    assert passed.exit_status == 0, passed
