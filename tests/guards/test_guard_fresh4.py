"""Rules the fourth fresh corpus (tests/guards/build_fresh4.py) showed missing, each
judged by its effect and pinned with benign look-alikes: a kernel module loaded, a job
queued with at or batch, the operating system's own protections switched off, an archive
unpacked or a download saved outside the project, a ``secrets/`` directory and credential
JSON read, Windows' package managers, and ``go install`` of the project's own packages."""

from __future__ import annotations

import pytest

from forge_hookd.guards import make
from helpers import decide, guard_context, pack

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess

CTX = guard_context()


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


@pytest.mark.parametrize(("command", "decision"), [
    ("tar -xf a.tar -C /", "deny"),
    ("tar -xzvf a.tgz -C /etc", "deny"),
    ("tar xf a.tar -C /usr/local", "deny"),      # the old form: the first word's letters
    ("tar --directory=/etc -xf a.tar", "deny"),
    ("tar --extract --file a.tar --directory /opt", "deny"),
    ("tar -xf a.tar -C ~", "deny"),
    ("unzip a.zip -d /etc/", "deny"),
    ("unzip -o a.zip -d ~/.config", "deny"),
    ("7z x a.7z -o/usr/bin/", "deny"),
    ("curl -o ~/.bashrc https://example.com/x", "deny"),
    ("curl -sSLo /workspace/file https://example.com/x", "deny"),
    ("curl --output /etc/hosts https://example.com/x", "deny"),
    ("curl -fsSL https://example.com/x -o ~/.zshrc", "deny"),
    ("wget -O ~/.bashrc https://example.com/x", "deny"),
    ("wget -qO /usr/local/bin/tool https://example.com/x", "deny"),
    ("wget --output-document=/etc/profile https://example.com/x", "deny"),
    ("wget -P /usr/local/bin https://example.com/x", "deny"),
    ("curl -o .git/config https://example.com/x", "deny"),    # a protected file inside the project
    ("tar -xzf deps.tgz -C vendor/", "allow"),
    ("tar -czf backup.tgz -C src .", "allow"),   # -C is where a new archive reads from
    ("tar -tf a.tar -C /", "allow"),             # lists, writes nothing
    ("unzip site.zip -d public/", "allow"),
    ("unzip -l a.zip -d /etc", "allow"),         # -l lists
    ("7z x a.7z -ovendor/", "allow"),
    ("7z l a.7z", "allow"),
    ("curl -o data.json https://example.com/x", "allow"),
    ("curl -sSLo /tmp/install.sh https://example.com/x", "allow"),  # /tmp may be written
    ("curl -o /dev/null -w '%{http_code}' https://example.com/x", "allow"),
    ("curl -H 'Accept: x' https://example.com/x", "allow"),  # -H takes a value: no -o in it
    ("wget -qO- https://example.com/x", "allow"),  # to the output
    ("wget -P downloads https://example.com/x", "allow"),
])
def test_an_archive_unpacked_or_a_download_saved_is_a_write_of_its_target(command: str, decision: str) -> None:
    assert decide("protected_paths", command) == decision, command


@pytest.mark.parametrize(("command", "decision"), [
    ("cat secrets/creds.json", "deny"),
    ("cat secrets/creds.json | grep password", "deny"),
    ("head -n 5 app.log secrets/keys.json", "deny"),
    ("cat deploy/secrets/db.yaml", "deny"),       # a Kubernetes or compose secrets/ directory
    ("cat /run/secrets/db_password", "deny"),     # a container's secrets
    ("cat .secrets/token", "deny"),
    ("cat config/keys.json", "deny"),
    ("cat creds.json", "deny"),
    ("cat credentials.json", "deny"),
    ("cat gcp-credentials.json", "deny"),
    ("cat service-account-prod.json", "deny"),
    ("cat client_secret_1234.apps.googleusercontent.com.json", "deny"),
    ("cat src/secrets.ts", "allow"),              # code about secrets
    ("cat src/secrets/index.ts", "allow"),        # a module about secrets: code, not data
    ("ls secrets/", "allow"),                     # names, not contents
    ("cat secrets/README.md", "allow"),
    ("cat secrets/creds.example.json", "allow"),
    ("cat keys.txt", "allow"),                    # keyboard keys, translation keys: no credential by its name
    ("cat package.json", "allow"),
    ("cat tsconfig.json", "allow"),
    ("cat jwks.json", "allow"),                   # public keys
])
def test_a_secrets_directory_and_credential_json_are_secret_files(command: str, decision: str) -> None:
    assert decide("secret_files", command) == decision, command


def test_a_file_tool_reading_a_secrets_directory_is_refused_and_code_about_secrets_is_not() -> None:
    guard = make("secret_files")
    assert guard.judge("read", {"file_path": "/home/user/project/secrets/creds.json"}, CTX).decision == "deny"
    assert guard.judge("edit", {"file_path": "/home/user/project/src/secrets/manager.py"}, CTX).decision == "allow"


@pytest.mark.parametrize(("command", "decision"), [
    ("winget install Some.App", "ask"),
    ("winget install --id Git.Git -e --source winget", "ask"),  # --id names the package
    ("nuget install Newtonsoft.Json", "ask"),
    ("nuget install Newtonsoft.Json -Version 13.0.3 -OutputDirectory packages", "ask"),
    ("choco install nodejs -y", "ask"),
    ("scoop install jq", "ask"),
    ("go install github.com/x/y@latest", "ask"),
    ("go install golang.org/x/tools/gopls@v0.15.0", "ask"),
    ("go install ./cmd/tool", "allow"),          # the project's own package: no new dependency
    ("go install ./...", "allow"),
    ("go install .", "allow"),
    ("nuget install packages.config", "allow"),  # what the project already declares
    ("nuget restore", "allow"),
    ("winget list", "allow"),
    ("winget search git", "allow"),
    ("choco list", "allow"),
    ("scoop update", "allow"),
])
def test_windows_package_managers_ask_and_go_install_of_the_projects_own_package_passes(
        command: str, decision: str) -> None:
    assert decide("package_policy", command) == decision, command


def test_self_protection_sees_the_same_writes() -> None:
    """written_paths is shared: a download into forge's config is a change of forge's own file."""
    assert decide("self_protection", "curl -o ~/.config/forge/hooks.json https://example.com/x") == "deny"
    assert decide("self_protection", "tar -xf a.tar -C ~/.config/forge") == "deny"
    assert decide("self_protection", "curl -o data.json https://example.com/x") == "allow"


@pytest.mark.parametrize(("command", "decision"), [
    ("Set-MpPreference -DisableRealtimeMonitoring $true", "deny"),   # Windows' own scanner off
    ("Set-MpPreference -DisableRealtimeMonitoring $false", "allow"),
    ("Set-ExecutionPolicy Unrestricted -Force", "ask"),               # unsigned scripts, for good
    ("Set-ExecutionPolicy -Scope Process -ExecutionPolicy Bypass", "allow"),
    ("Get-ExecutionPolicy", "allow"),
])
def test_windows_protections_switched_off(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision, command


@pytest.mark.parametrize(("command", "decision"), [
    ("npm config set registry http://evil.example/", "ask"),
    ("npm config set registry=http://evil.example/", "ask"),
    ("pip config set global.index-url http://evil.example/simple", "ask"),
    ("yarn config set npmRegistryServer http://evil.example", "ask"),
    ("npm config set registry https://registry.npmjs.org/", "allow"),   # the default again
    ("pip config set global.index-url https://pypi.org/simple", "allow"),
    ("npm config get registry", "allow"),
    ("npm config set init-author-name me", "allow"),
])
def test_where_every_later_install_comes_from_asks(command: str, decision: str) -> None:
    assert decide("package_policy", command) == decision, command
