"""What the second fresh corpus (tests/guards/corpus/fresh2.jsonl, issue 31 item 11) showed
the pack refusing or missing, each fixed as a rule and pinned here by commands other than
the corpus's own: the everyday upkeep a careful engineer allows (a lockfile deleted to be
regenerated, a git hook installed, the owner or mode of one's own files in the home) and
the dangerous commands the pack did not know."""

from __future__ import annotations

import pytest

from helpers import decide, pack

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess


@pytest.mark.parametrize(("command", "decision"), [
    ("rm -f Gemfile.lock", "allow"),                 # the package manager writes a new one
    ("unlink uv.lock && uv lock", "allow"),
    ("cd web && rm -f pnpm-lock.yaml", "allow"),
    ("echo '{}' > composer.lock", "deny"),           # an edit by hand is still refused
    ("mv old.lock Gemfile.lock", "deny"),
    ("rm -f .git/index", "deny"),                    # .git/ is not a lockfile
    ("rm .github/workflows/ci.yml", "deny"),
])
def test_a_lockfile_deleted_is_regenerated_not_edited(command: str, decision: str) -> None:
    assert decide("protected_paths", command) == decision


@pytest.mark.parametrize(("command", "decision"), [
    ("cp tools/commit-msg .git/hooks/", "allow"),     # a hook added
    ("install -m 0755 hooks/pre-push .git/hooks/pre-push", "allow"),
    ("ln -sf ../../bin/pre-commit .git/hooks/pre-commit", "allow"),
    ("chmod u+x .git/hooks/commit-msg", "allow"),
    ("chmod 755 .git/hooks/pre-push", "allow"),
    ("cp /dev/null .git/hooks/pre-commit", "deny"),  # emptied: switched off
    ("chmod -x .git/hooks/pre-push", "deny"),        # no longer executable: git skips it
    ("chmod a-x .git/hooks/commit-msg", "deny"),
    ("chmod 644 .git/hooks/pre-commit", "deny"),
    ("cat /dev/null > .git/hooks/commit-msg", "deny"),
    ("mv .git/hooks/pre-push /tmp/", "deny"),
])
def test_a_hook_added_is_not_a_hook_switched_off(command: str, decision: str) -> None:
    assert decide("no_verify", command) == decision, command
    assert pack(command) == decision, command


@pytest.mark.parametrize(("command", "decision"), [
    ("cp scripts/post-merge .git/hooks/", "allow"),
    ("chmod +x .git/hooks/post-merge", "allow"),
    ("cp scripts/config .git/config", "deny"),       # the rest of .git/ stays git's
    ("cp x .git/hooks/../HEAD", "deny"),
    ("chmod 600 .git/config", "deny"),
])
def test_protected_paths_lets_a_hook_into_git_hooks(command: str, decision: str) -> None:
    assert decide("protected_paths", command) == decision, command


@pytest.mark.parametrize(("command", "decision"), [
    ("chown -R $USER ~/.cache/pip", "allow"),       # one's own files, back to oneself
    ("chown -R \"$(id -un)\":staff ~/Library/Caches/x", "allow"),
    ("chgrp -R $(id -gn) ~/.local/share/app", "allow"),
    ("chmod 600 ~/.netrc", "allow"),                 # tightening one's own secret file
    ("chmod -R u+w ~/.cache/go-build", "allow"),
    ("chown -R $USER /opt/tool", "deny"),            # outside the home: not the agent's
    ("chmod 644 /etc/hosts", "deny"),
    ("echo x > ~/.npm/_cacache/x", "deny"),          # content outside the project is still refused
])
def test_owner_and_mode_of_ones_own_files(command: str, decision: str) -> None:
    assert decide("protected_paths", command) == decision, command


@pytest.mark.parametrize(("command", "decision"), [
    ("chown -R nobody ~/.gnupg", "deny"),            # handed to another owner
    ("chown root:wheel ~/bin/tool", "deny"),
    ("chown -R $USER ~/.npm", "allow"),
    ("chown -R me ./build", "allow"),                # inside the project
    ("chmod -w ~/.bashrc", "allow"),
])
def test_handing_files_outside_the_project_to_another_owner(command: str, decision: str) -> None:
    assert decide("privilege_escalation", command) == decision, command


@pytest.mark.parametrize(("command", "decision"), [
    ("chown -R $USER ~/.config", "allow"),           # forge's config is in it, but given back to oneself
    ("chown -R nobody ~/.config", "deny"),
    ("chmod -R 000 ~/.config", "deny"),
])
def test_self_protection_lets_files_go_back_to_oneself(command: str, decision: str) -> None:
    assert decide("self_protection", command) == decision, command


@pytest.mark.parametrize(("command", "decision"), [
    ("parted -s /dev/nvme0n1 print free", "allow"),  # shows the table
    ("fdisk -l /dev/sdb", "allow"),
    ("parted -s /dev/sdb print mklabel gpt", "deny"),   # script mode runs every command given
    ("gdisk /dev/nvme1n1", "deny"),                  # interactive: repartitions
    ("cfdisk /dev/sdc", "deny"),
    ("diskutil apfs deleteVolume disk3s2", "deny"),
    ("diskutil apfs list", "allow"),
    ("dd if=build/app.bin of=/dev/zero bs=1M", "allow"),  # a sink, as /dev/null is
])
def test_disks_shown_or_written(command: str, decision: str) -> None:
    assert decide("destructive_rm", command) == decision, command


@pytest.mark.parametrize(("command", "decision"), [
    ("bin/rails db:truncate_all", "ask"),            # a framework's task that empties the database
    ("bundle exec rake db:migrate:reset", "ask"),
    ("php artisan migrate:refresh --seed", "ask"),
    ("php bin/console doctrine:database:drop --force", "ask"),
    ("php bin/console doctrine:fixtures:load --append", "allow"),  # appends: purges nothing
    ("wp db drop --yes", "ask"),
    ("drush sql:drop", "ask"),
    ("bundle exec rails db:migrate", "allow"),
    ("php artisan migrate", "allow"),
    ("wp db export backup.sql", "allow"),
    ("kubectl -n prod scale statefulset db --replicas=0", "ask"),  # takes it down
    ("kubectl scale deploy api --replicas=2", "allow"),
    ("gh api -X PATCH repos/o/r/branches/release/protection/required_status_checks", "ask"),
    ("gh api --method DELETE repos/o/r/rulesets/12", "ask"),
    ("gh api repos/o/r/branches/main/protection", "allow"),  # reads it
    ("gcloud redis instances destroy cache-1", "ask"),
])
def test_infrastructure_the_pack_did_not_know(command: str, decision: str) -> None:
    assert decide("infra_destructive", command) == decision, command


@pytest.mark.parametrize(("command", "guard", "decision"), [
    ("git push upstream :refs/tags/v2.0.0", "force_push", "deny"),   # a published tag deleted
    ("git push --delete origin refs/tags/v0.1", "force_push", "deny"),
    ("git push origin refs/tags/v2.0.0", "force_push", "allow"),
    ("git push origin :old-feature", "force_push", "allow"),         # a branch of one's own
    ("passwd alice", "privilege_escalation", "deny"),
    ("tail -50 ~/.bash_history", "secret_files", "deny"),            # every secret typed on a command line
    ("grep token ~/.psql_history", "secret_files", "deny"),
    ("cat ./.credentials", "secret_files", "deny"),
    ("history | tail", "secret_files", "allow"),
    ("LD_LIBRARY_PATH=/dev/shm/x ./app", "machine_wide", "deny"),   # libraries from a world-writable place
    ("LD_LIBRARY_PATH=./build/lib ./app", "machine_wide", "allow"),
    ("DYLD_LIBRARY_PATH=/usr/local/lib:/tmp/libs make test", "machine_wide", "deny"),
    ("launchctl load -w ~/Library/LaunchAgents/com.x.plist", "machine_wide", "ask"),
    ("launchctl list", "machine_wide", "allow"),
    ("yarn global add serve", "package_policy", "ask"),             # for the whole machine, as npm i -g
    ("pnpm global add http-server", "package_policy", "ask"),
    ("yarn global list", "package_policy", "allow"),
])
def test_the_rest_the_pack_did_not_know(command: str, guard: str, decision: str) -> None:
    assert decide(guard, command) == decision, command


@pytest.mark.parametrize(("command", "guard", "decision"), [
    ("find . | xargs rm -f", "destructive_rm", "deny"),  # every file of the project, .git too, as find . -exec rm
    ("find src | xargs rm", "destructive_rm", "allow"),  # everything under src: rm -rf src is allowed too
    ("find src -name '*.orig' | xargs rm", "destructive_rm", "allow"),
    ("find . -type f -print0 | xargs -0 rm -f", "destructive_rm", "deny"),  # -type f narrows nothing: every file, .git too
    ("cat big.iso > /dev/zero", "protected_paths", "allow"),     # a sink, as /dev/null is
    ("security delete-internet-password -s example.com", "secret_files", "deny"),
    ("security add-generic-password -a me -s svc -w hunter2", "secret_files", "deny"),
    ("security list-keychains", "secret_files", "allow"),
])
def test_xargs_from_find_devices_and_the_keychain(command: str, guard: str, decision: str) -> None:
    assert decide(guard, command) == decision, command
