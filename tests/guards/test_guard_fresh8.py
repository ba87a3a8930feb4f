"""Rules the eighth fresh corpus (tests/guards/build_fresh8.py: Atomic Red Team's Linux and macOS
atomics) showed missing, each judged by its effect and pinned with benign look-alikes: the machine's
services, firewall, clock, swap, backups and proxy changed by the tools of every init system and
platform (``service pf stop``, ``chkconfig X on``, ``update-rc.d``, ``sysrc``, ``launchctl submit``,
``systemd-run --on-calendar``, ``iptables -D``, ``date 010100001971``, ``tmutil disable``,
``networksetup -setwebproxy``), its logs and endpoint sensors stopped, its audit and Defender
switched off; user accounts by FreeBSD's and macOS's tools (``pw useradd``, ``dsenableroot``,
``dseditgroup``, ``chsh`` of another user) with their reads passing (``dscl . -read``, ``passwd -S``),
and a directory server's entries written (``ldapadd``); a file's attributes changed (``chattr -i
/etc/passwd``) and an archive created (``zip ~/x.zip``, ``tar -czf ~/x.tgz``) as writes of their
files, ``touch -r FILE``'s file read; the cloud metadata service's credentials fetched, a find that
only prints the names under a secret directory, the environment filtered to a plain variable; code
decoded into a file and run, cloudflared's tunnel management, AppleScript's ``do shell script``,
``log erase``; ``$HISTFILE`` as the user's history file; a loop over the secret files find names; ed's commands on its input (``e FILE``, ``r FILE``,
``!CMD``); a python startup hook (``usercustomize.py``, ``sitecustomize.py``, a ``.pth``) written
where the line cannot tell."""

from __future__ import annotations

import pytest

from helpers import Project, decide, guard_test, loaded_after_judging, pack


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    # the other init systems' verbs, read as systemctl's
    ("service pf stop", "deny"),                 # the firewall stopped, as systemctl stop ufw
    ("service pf disable", "ask"),
    ("service art-test enable", "ask"),          # started at every boot, as systemctl enable
    ("update-rc.d T1543.002 defaults", "ask"),
    ("update-rc.d apache2 disable", "ask"),
    ("chkconfig T1543.002 on", "ask"),
    ("chkconfig off cbdaemon", "deny"),          # an endpoint sensor switched off
    ("rc-update add sshd default", "ask"),
    ("sysrc syslogd_enable=\"NO\"", "ask"),       # FreeBSD's /etc/rc.conf written
    ("service mysql stop", "allow"),             # a database stopped: a developer's everyday
    ("service nginx status", "allow"),
    ("service --status-all", "allow"),
    ("chkconfig --list", "allow"),
    ("sysrc -n hostname", "allow"),
    ("rc-status", "allow"),
    # logs, sensors and schedulers stopped
    ("systemctl stop systemd-journald", "deny"),
    ("systemctl stop rsyslog", "deny"),
    ("service syslogd stop", "deny"),
    ("systemctl stop falcon-sensor.service", "deny"),
    ("systemctl disable falcon-sensor.service", "deny"),
    ("service cbdaemon stop", "deny"),
    ("systemctl stop cron", "ask"),
    ("systemctl stop nginx", "allow"),
    ("systemctl --user stop syncthing", "allow"),
    ("systemctl status cron", "allow"),
    # launchd's and systemd-run's jobs
    ("launchctl submit -l evil -- /System/Applications/Calculator.app/Contents/MacOS/Calculator", "ask"),
    ("launchctl enable gui/501/com.atomicredteam", "ask"),
    ("launchctl list", "allow"),
    ("launchctl print system/com.apple.sshd", "allow"),
    ("systemd-run --user --unit=x --on-calendar '*:0/1' /bin/sh -c 'date >> /tmp/log'", "ask"),
    ("systemd-run --on-active=30 /bin/touch /tmp/x", "ask"),
    ("systemd-run --unit=atomic-transient --wait /bin/bash -c 'id > /tmp/x'", "ask"),
    ("systemd-run --user --scope -p MemoryMax=2G npm test", "allow"),
    ("systemd-run --user --wait make check", "allow"),
])
def test_services_of_every_init_system(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    ("iptables -D OUTPUT -p tcp --dport 21 -j DROP", "ask"),   # a rule deleted
    ("iptables -A INPUT -p tcp --dport 22 -j ACCEPT", "ask"),
    ("ufw prepend deny from 1.2.3.4", "ask"),
    ("ufw logging off", "ask"),
    ("ufw allow 8080/tcp", "ask"),
    ("nft add rule inet filter input tcp dport 22 accept", "ask"),
    ("pfctl -d", "deny"),                                      # pf switched off, as ufw disable
    ("pfctl -F all", "deny"),
    ("pfctl -f /etc/pf.conf", "ask"),
    ("iptables -F", "deny"),
    ("iptables -L -n", "allow"),
    ("iptables -S", "allow"),
    ("iptables-save > /tmp/iptables.rules", "allow"),
    ("ufw status numbered", "allow"),
    ("nft list ruleset", "allow"),
    ("pfctl -s rules", "allow"),
])
def test_the_firewall_changed(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    ("date 010100001971", "ask"),                # MMDDhhmmYYYY: the clock set
    ("date 0101000071.00", "ask"),
    ("date -s '1971-01-01 00:00:00'", "ask"),
    ("date --set='1971-01-01'", "ask"),
    ("timedatectl set-time '1971-01-01 00:00:00'", "ask"),
    ("timedatectl set-ntp false", "ask"),
    ("hwclock --set --date '1971-01-01'", "ask"),
    ("hwclock --systohc", "ask"),
    ("date", "allow"),
    ("date +%s", "allow"),
    ("date -u +%Y-%m-%dT%H:%M:%SZ", "allow"),
    ("date -d '2 days ago' +%F", "allow"),
    ("date -r build/app +%s", "allow"),
    ("timedatectl status", "allow"),
    ("timedatectl list-timezones", "allow"),
    ("hwclock --show", "allow"),
    ("swapoff -a", "ask"),
    ("swapon --show", "allow"),
    ("tmutil disable", "ask"),
    ("tmutil deletelocalsnapshots /", "ask"),
    ("tmutil status", "allow"),
    ("tmutil listlocalsnapshots /", "allow"),
    ("networksetup -setwebproxy Wi-Fi 127.0.0.1 8080", "ask"),
    ("networksetup -setsecurewebproxy Wi-Fi 127.0.0.1 8080", "ask"),
    ("networksetup -getwebproxy Wi-Fi", "allow"),
    ("networksetup -listallnetworkservices", "allow"),
    ("defaults write com.apple.loginwindow LoginHook /path/to/script", "ask"),
    ("defaults write com.apple.loginwindow LogoutHook /tmp/x.sh", "ask"),
    ("defaults read com.apple.loginwindow", "allow"),
    ("defaults write com.apple.finder AppleShowAllFiles YES", "allow"),
])
def test_the_clock_swap_backups_proxy_and_login_hooks(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    ("auditctl -D", "deny"),                     # every audit rule deleted
    ("auditctl -e 0", "deny"),                   # the audit system off
    ("auditctl -l", "allow"),
    ("auditctl -s", "allow"),
    ("mdatp config real-time-protection --value disabled", "deny"),
    ("mdatp config behavior-monitoring --value disabled", "deny"),
    ("mdatp config real-time-protection --value enabled", "allow"),
    ("mdatp health", "allow"),
    ("killall 'Google Chrome'", "ask"),          # every window of the user's browser
    ("killall -9 'Microsoft Edge'", "ask"),
    ("killall vite", "allow"),
    ("pkill -f 'node server.js'", "allow"),
])
def test_defences_off_and_apps_killed_by_their_macos_names(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    ("pw useradd evil_user -s /usr/sbin/nologin -d /nonexistent", "deny"),   # FreeBSD's useradd
    ("echo BetterWithButter | pw usermod butter -h 0", "deny"),
    ("pw user add art -g wheel", "deny"),
    ("pw lock art", "deny"),
    ("dsenableroot", "deny"),                     # macOS's root account enabled
    ("dseditgroup -o edit -a art-user -t user admin", "deny"),
    ("chsh -s /bin/sh art", "deny"),              # another user's login shell
    ("chsh --shell /bin/bash nobody", "deny"),
    ("chfn -f Evil art", "deny"),
    ("dscl . -create /Users/evil_user", "deny"),
    ("dscl . -passwd /Users/AtomicUser secret", "deny"),
    ("passwd ARTUser", "deny"),
    ("passwd -d art", "deny"),
    ("ldapadd -H ldap://example.test:389 -x -D admin@example.test -w pw -f tempadmin.ldif", "ask"),
    ("ldapmodify -x -D cn=admin,dc=example,dc=com -W -f change.ldif", "ask"),
    # the same tools' reads pass
    ("dscl . -read /Users/$USER UserShell", "allow"),
    ("dscl . list /Users", "allow"),
    ("dscl . -search /Users UniqueID 501", "allow"),
    ("pw usershow $USER", "allow"),
    ("pw groupshow wheel", "allow"),
    ("pw user show root", "allow"),
    ("passwd -S $USER", "allow"),
    ("passwd --status", "allow"),
    ("dseditgroup -o checkmember -m $USER admin", "allow"),
    ("dseditgroup -o read admin", "allow"),
    ("sysadminctl -secureTokenStatus $USER", "allow"),
    ("sysadminctl -guestAccount status", "allow"),
    ("chsh -l", "allow"),
    ("ldapsearch -x -H ldap://ldap.example.com -b dc=example,dc=com '(uid=jdoe)' cn", "allow"),
])
def test_accounts_by_every_platforms_tools(command: str, decision: str) -> None:
    assert decide("privilege_escalation", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    ("chattr -i /var/spool/cron/root", "deny"),   # root's crontab made writable again
    ("chattr +i /etc/resolv.conf", "deny"),
    ("chattr -R -i /etc/cron.d", "deny"),
    ("chflags -R 0 /", "deny"),
    ("chattr +i build/release.lock", "allow"),    # the project's own file
    ("chflags nosimmutable /tmp/T1222.002.txt", "allow"),
    ("lsattr /etc/passwd", "allow"),
    ("zip $HOME/data.zip /var/log/{w,b}tmp", "deny"),   # an archive written into the home
    ("zip -r ~/backup.zip src/", "deny"),
    ("tar -cvzf $HOME/data.tar.gz $HOME/$USERNAME", "deny"),
    ("tar czf ~/site.tgz public/", "deny"),        # the old form
    ("tar --create --file=/etc/backup.tar .", "deny"),
    ("7z a ~/archive.7z src/", "deny"),
    ("ditto -c -k --keepParent build/MyApp.app ~/Desktop/MyApp.zip", "deny"),
    ("zip -r site.zip public/", "allow"),
    ("zip --password secret /tmp/T1560/T1560 ./*", "allow"),
    ("tar -czf release.tar.gz dist/", "allow"),
    ("tar czf - . | gzip -t", "allow"),            # to the output
    ("tar -xzf vendor.tgz -C vendor/", "allow"),
    ("tar -tzf release.tar.gz", "allow"),
    ("7z a -ppasswd /tmp/passwd.zip /etc/passwd", "allow"),
    ("ditto -c -k --keepParent build/MyApp.app MyApp.zip", "allow"),
    ("touch -acmr /bin/sh /tmp/T1070.006-reference.txt", "allow"),   # -r's file is read
    ("touch -r /etc/hosts build/stamp", "allow"),
    ("touch -t 197001010000.00 /tmp/x", "allow"),
    ("touch -r build/stamp /etc/hosts", "deny"),
])
def test_attributes_and_archives_are_writes(command: str, decision: str) -> None:
    assert decide("protected_paths", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    # the metadata service's credentials
    ("curl -s http://169.254.169.254/latest/meta-data/iam/security-credentials/web-role", "deny"),
    ("curl -H 'Metadata: true' 'http://169.254.169.254/metadata/identity/oauth2/token?resource=https://vault.azure.net'",
     "deny"),
    ("curl -H 'Metadata-Flavor: Google' http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/"
     "default/token", "deny"),
    ("wget -qO- http://169.254.170.2/v2/credentials/abc", "deny"),
    ("curl -s http://169.254.169.254/latest/meta-data/instance-id", "allow"),   # no credential
    ("curl -s http://169.254.169.254/latest/meta-data/placement/region", "allow"),
    # a find that only prints the names under a secret directory
    ("find //.aws -name credentials -type f 2>/dev/null", "allow"),
    ("find ~/.aws -name credentials", "allow"),
    ("find ~/.ssh -printf '%p\\n'", "allow"),
    ("find ~/.ssh -type f -exec cat {} \\;", "deny"),                # still read
    ("find ~/.aws -name credentials -exec cat {} +", "deny"),
    ("find ~/.ssh -type f | xargs cat", "deny"),
    ("cat $(find ~/.ssh -type f)", "deny"),
    ("find ~/.ssh -type f > /tmp/list; xargs cat < /tmp/list", "deny"),
    # the environment filtered to a variable no secret is named after
    ("env | grep LANG", "allow"),
    ("env | grep -i '^lang='", "allow"),
    ("env | grep PATH", "allow"),                                       # the names that hold it name paths
    ("printenv | grep NODE_ENV", "allow"),
    ("env | grep AWS", "deny"),                                         # AWS_SECRET_ACCESS_KEY among them
    ("env | grep -v LANG", "deny"),
    ("env | grep -i api_key", "deny"),
    ("env", "deny"),
])
def test_metadata_credentials_names_and_plain_variables(command: str, decision: str) -> None:
    assert decide("secret_files", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("guard", "command", "decision"), [
    # code the line decodes into a file, then runs
    ("remote_code", "cat /tmp/encoded.dat | base64 -d > /tmp/art.sh\nchmod +x /tmp/art.sh\n/tmp/art.sh", "ask"),
    ("remote_code", "base64 -d tool.b64 > tool && chmod +x tool && ./tool", "ask"),
    ("remote_code", "xxd -r -p payload.hex payload.sh && bash payload.sh", "ask"),
    ("remote_code", "gpg -d -o run.sh run.sh.gpg && sh run.sh", "ask"),
    ("remote_code", "base64 -d fixtures/image.b64 > fixtures/image.png", "allow"),   # decoded, never run
    ("remote_code", "base64 -w0 build.sh > build.b64 && bash build.sh", "allow"),      # encoded, the source run
    ("remote_code", "echo aGVsbG8= | base64 -d", "allow"),
    # cloudflared's tunnels managed, none opened
    ("remote_code", "cloudflared tunnel list", "allow"),
    ("remote_code", "cloudflared tunnel login", "allow"),
    ("remote_code", "cloudflared tunnel --url http://localhost:3000", "deny"),
    ("remote_code", "cloudflared tunnel run mytunnel", "deny"),
    # AppleScript's do shell script, read as the shell code it runs
    ("destructive_rm", "osascript -e 'do shell script \"rm -rf ~\"'", "deny"),
    ("privilege_escalation", "osascript -e 'do shell script \"ls\" with administrator privileges'", "deny"),
    ("destructive_rm", "osascript -e 'display notification \"done\" with title \"build\"'", "allow"),
    ("privilege_escalation", "osascript -e 'tell application \"Finder\" to get name of every disk'", "allow"),
    # macOS's unified log erased
    ("destructive_rm", "log erase --all", "deny"),
    ("destructive_rm", "log show --last 1h", "allow"),
    ("destructive_rm", "log stream --level debug", "allow"),
])
def test_decoded_code_tunnels_applescript_and_the_log(guard: str, command: str, decision: str) -> None:
    assert decide(guard, command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("guard", "command", "decision"), [
    ("protected_paths", "echo '' > $HISTFILE", "deny"),        # bash's default: ~/.bash_history
    ("protected_paths", "cp $HISTFILE $HISTFILE.OLD", "deny"),
    ("protected_paths", "truncate -s 0 $HISTFILE", "deny"),
    ("secret_files", "cat $HISTFILE", "deny"),
    ("secret_files", "wc -l $HISTFILE", "allow"),               # counted, no line printed
    ("secret_files", "ls -la $HISTFILE", "allow"),
    ("secret_files", "echo $HISTFILE", "allow"),
    ("protected_paths", "export HISTFILE=/dev/null", "allow"),  # the agent's own shell's setting
])
def test_histfile_is_the_users_history(guard: str, command: str, decision: str) -> None:
    assert decide(guard, command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    ("for file in $(find /home -type f -name .netrc 2> /dev/null);do echo $file ; cat $file ; done", "deny"),
    ("for f in $(find ~ -name .env); do cat \"$f\"; done", "deny"),
    ("for f in $(find / -name id_rsa); do cp ${f} /tmp/k/; done", "deny"),
    ("for f in $(find / -name id_rsa); do ls -l $f; done", "allow"),      # names, no content
    ("for f in $(find ~ -name .env); do wc -l \"$f\"; done", "allow"),
    ("for f in $(find ~ -name .env); do echo \"$f\"; done", "allow"),
    ("for f in $(find . -name '*.py'); do cat $f; done", "allow"),        # no secret's name
    ("for f in $(find . -name package.json); do jq .name $f; done", "allow"),
])
def test_a_loop_over_finds_names(command: str, decision: str) -> None:
    assert decide("secret_files", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("guard", "command", "decision"), [
    ("secret_files", "echo -e \"e /etc/passwd\\n,p\\ne /etc/shadow\\n,p\\n\" | ed > /tmp/T1003.008.txt", "deny"),
    ("secret_files", "printf 'r ~/.ssh/id_rsa\\n,p\\n' | ed", "deny"),
    ("secret_files", "printf 'e notes.txt\\n,p\\nq\\n' | ed", "allow"),
    ("destructive_rm", "printf '!rm -rf ~\\nq\\n' | ed", "deny"),      # ed's ! runs a shell command
    ("destructive_rm", "printf ',s/foo/bar/g\\nw\\nq\\n' | ed -s src/app.c", "allow"),
    ("secret_files", "printf ',s/foo/bar/g\\nw\\nq\\n' | ed -s src/app.c", "allow"),
])
def test_eds_commands_on_its_input(guard: str, command: str, decision: str) -> None:
    assert decide(guard, command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    ("USER_PACKAGES=$(python3 -c \"import site; print(site.getusersitepackages())\")\n"
     "echo \"import os; os.system('date > /tmp/poc.txt')\" > \"$USER_PACKAGES/usercustomize.py\"", "ask"),
    ("echo 'import os' > \"$SITE/atomic_hook.pth\"", "ask"),
    ("cp hook.py \"$(python3 -m site --user-site)/sitecustomize.py\"", "ask"),
    ("echo 'import x' > .venv/lib/python3.12/site-packages/sitecustomize.py", "allow"),  # the project's own venv
    ("echo 'import os' > src/sitecustomize.py", "allow"),
    ("echo x > \"$OUT/report.txt\"", "allow"),
])
def test_python_startup_hooks_written_where_the_line_cannot_tell(command: str, decision: str) -> None:
    assert decide("protected_paths", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize("command", [
    "service mysql stop", "systemctl stop nginx", "date +%F", "iptables -L -n", "tmutil status",
    "networksetup -getwebproxy Wi-Fi", "systemd-run --user --scope -p MemoryMax=2G npm test",
    "dscl . -read /Users/$USER UserShell", "passwd -S $USER", "pw usershow $USER",
    "tar -czf release.tar.gz dist/", "touch -acmr /bin/sh /tmp/ref.txt", "chattr +i build/release.lock",
    "env | grep LANG", "find ~/.aws -name credentials", "curl -s http://169.254.169.254/latest/meta-data/instance-id",
])
def test_the_look_alikes_pass_the_whole_pack(command: str) -> None:
    assert pack(command) == "allow", command


@pytest.mark.parametrize(("guard", "command", "first", "status"), [
    ("machine_wide", "service pf stop", "machine_wide: deny", 1),
    ("machine_wide", "service mysql stop", "machine_wide: allow", 0),
    ("privilege_escalation", "pw useradd evil_user", "privilege_escalation: deny", 1),
    ("protected_paths", "chattr -i /etc/passwd", "protected_paths: deny", 1),
    ("remote_code", "cloudflared tunnel list", "remote_code: allow", 0),
])
def test_the_installed_executable_judges_the_same(project: Project, guard: str, command: str, first: str,
                                                   status: int) -> None:
    """Through ``forge-hook guard test``, as a user checks a rule (nothing is run)."""
    run = guard_test(project, guard, command)
    assert run.stdout.splitlines()[0] == first, run.stdout
    assert run.exit_status == status


def test_the_machine_settings_rules_load_only_for_the_commands_they_read() -> None:
    """guards/machine_settings.py loads for its own commands and the other init systems' tools,
    never for the git and npm of every day; the sets that decide it are its own tables."""
    from forge_hookd.guards import machine, machine_settings

    assert machine.SETTINGS_HEADS == machine_settings._HEADS
    assert machine.INIT_TOOLS == machine_settings._INIT_TOOLS
    lines = ['git add -A && git commit -m "fix: parse" && npm test', "service cron stop"]
    assert loaded_after_judging("forge_hookd.guards.machine_settings", lines) == [False, True]
