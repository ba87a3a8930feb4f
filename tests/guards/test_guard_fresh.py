"""What the fresh corpus (tests/guards/corpus/fresh.jsonl, issue 31 item 11) showed the pack
missing, each fixed as a rule and pinned here by commands other than the corpus's own:
device nodes and discards, the system's password files and the password store, user
accounts, the firewall, and killall of every process."""

from __future__ import annotations

import pytest

from helpers import decide

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess


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
    ("killall node", "ask"),                 # every node process, the agent's own CLI among them
    ("pkill -f 'node server.js'", "allow"),   # one's own server, named by its script
])
def test_the_firewall_and_killing_everything(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision


# Found by the held-out part's one measurement (so no longer unseen for these two rules).
@pytest.mark.parametrize(("command", "decision"), [
    ("git push -n origin master", "allow"),            # a dry run pushes nothing
    ("git push --dry-run --force origin main", "allow"),
    ("git push --dry origin release/2.0", "allow"),    # a prefix git takes
    ("git push origin master", "ask"),
    ("git push --force origin feature/x", "deny"),
])
def test_a_dry_run_pushes_nothing(command: str, decision: str) -> None:
    assert decide("force_push", command) == decision


@pytest.mark.parametrize(("command", "decision"), [
    ("nsenter -t 1 -m -u -n -i sh", "deny"),           # pid 1's namespaces are the host's
    ("nsenter --target=1 --all", "deny"),
    ("nsenter -t 4242 -n ip addr", "ask"),              # another process's: a person should decide
])
def test_entering_the_hosts_namespaces(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision


# Found by probing variants of the corpus's shapes, not by any corpus case.
@pytest.mark.parametrize(("guard", "command", "decision"), [
    ("secret_files", "printenv STRIPE_SECRET_KEY", "deny"),   # prints one secret, as echo "$X" does
    ("secret_files", "printenv HOME PATH", "allow"),
    ("destructive_rm", "diskutil eraseDisk APFS Blank disk3", "deny"),
    ("destructive_rm", "diskutil zeroDisk disk4", "deny"),
    ("destructive_rm", "diskutil list", "allow"),
    ("machine_wide", "printf '0 3 * * * ./backup.sh\\n' | crontab -", "deny"),  # replaces every entry
    ("machine_wide", "crontab my-crontab.txt", "deny"),
    ("machine_wide", "crontab -l > crontab.bak", "allow"),
    ("machine_wide", "kill -KILL 1", "deny"),                 # init
    ("machine_wide", "kill -9 %1", "allow"),                  # a job of this shell
    ("machine_wide", "kill 4242", "allow"),
    ("machine_wide", "kill -n 1 4242", "allow"),              # -n 1 is SIGHUP, not pid 1
])
def test_variants_of_the_corpus_shapes(guard: str, command: str, decision: str) -> None:
    assert decide(guard, command) == decision


@pytest.mark.parametrize(("guard", "command", "decision"), [
    ("secret_files", "rg -n 'import.meta.env' src/", "allow"),      # a pattern, not a file
    ("secret_files", "grep -rl config.env lib/", "allow"),
    ("secret_files", "sed -n '/id_rsa/p' docs/setup.md", "allow"),
    ("secret_files", "grep -f .env app.log", "deny"),                # -f reads patterns from .env
    ("secret_files", "grep -e KEY .env", "deny"),
    ("secret_files", "grep -r TOKEN .env.local", "deny"),
    ("package_policy", "python3 -m pip install --upgrade pip setuptools wheel", "allow"),  # the installer itself
    ("package_policy", "pip install -U pip requests", "ask"),
])
def test_a_search_pattern_is_no_file_and_pip_may_upgrade_itself(guard: str, command: str, decision: str) -> None:
    assert decide(guard, command) == decision


@pytest.mark.parametrize(("command", "decision"), [
    ("git grep -n 'dotenv.env' -- src", "allow"),            # git grep's pattern is no file either
    ("git grep TOKEN -- .env", "deny"),
    ("cp config/.env.staging.example config/.env.dev.sample", "allow"),   # templates, by their last suffix
    ("cat deploy/server.pem.template", "allow"),
    ("cat deploy/server.pem", "deny"),
    ("kubectl get secret api-keys -o json", "deny"),         # the secret's data, base64 is no protection
    ("kubectl get secrets -n prod -o jsonpath='{.items[*].data}'", "deny"),
    ("kubectl get secret api-keys", "allow"),                # names and ages only
    ("kubectl get pods -o yaml", "allow"),
])
def test_git_grep_templates_and_kubernetes_secrets(command: str, decision: str) -> None:
    assert decide("secret_files", command) == decision


@pytest.mark.parametrize(("command", "decision"), [
    ("terraform plan -destroy -out=teardown.plan", "allow"),   # a plan changes nothing
    ("tofu plan -destroy", "allow"),
    ("terraform apply -destroy", "ask"),
    ("terraform apply teardown.plan", "allow"),                # what the plan holds, the guard cannot see
    ("docker system prune -f --volumes", "ask"),               # the volumes are the data
    ("podman system prune --volumes", "ask"),
    ("docker system prune -f", "allow"),
])
def test_a_destroy_plan_and_a_prune_of_volumes(command: str, decision: str) -> None:
    assert decide("infra_destructive", command) == decision


@pytest.mark.parametrize(("command", "decision"), [
    ("env | grep -c PATH", "allow"),        # a count: no value reaches the output
    ("printenv | wc -l", "allow"),
    ("env | grep -q '^CI='", "allow"),
    ("env | rg --count NODE", "allow"),
    ("env | grep TOKEN", "deny"),           # the matching lines, values and all
    ("env | grep PATH", "allow"),           # the lines of a plain variable only
    ("env | grep -v PATH", "deny"),
    ("env | sort | wc -l", "deny"),         # judged at env's own consumer, which prints
    ("env | tee env.txt | wc -l", "deny"),
    ("env | grep -c PATH; env", "deny"),    # the second dump is printed
    ("cat .env | wc -l", "deny"),           # reading the file is the refusal, counted or not
])
def test_an_environment_dump_that_is_only_counted_prints_no_secret(command: str, decision: str) -> None:
    assert decide("secret_files", command) == decision
