"""Rules the ninth fresh corpus (tests/guards/build_fresh9.py: destructive_command_guard's pack tests
and patterns, RedCode-Exec's snippets) showed missing, each judged by its effect and pinned with benign
look-alikes: a platform CLI's teardown verb behind a global option or in a verb of its own (``aws
--region X secretsmanager delete-secret``, ``ecr batch-delete-image``, ``vault secrets disable``,
1Password's ``op item delete``, ``gh -R owner/repo repo delete``), ``mysqladmin drop``, what redis-cli
tells the server (``SHUTDOWN``, ``DEBUG SEGFAULT``, ``CONFIG SET dir``), ``docker rm -fv``, a node's pods
evicted (``kubectl taint ...:NoExecute``), the JVM builds' publishing, a service of the machine killed by
its name, the shell's numbers in a path (``/tmp/build-$$``), a partition tool on an image file, and a
copy between two remotes (no upload)."""

from __future__ import annotations

import pytest

from helpers import Project, decide, guard_test, pack


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    # a global option before the service: the verb is still the service's
    ("aws --region us-east-1 secretsmanager delete-secret --secret-id my/secret", "ask"),
    ("aws --profile prod --region eu-west-1 ec2 terminate-instances --instance-ids i-1", "ask"),
    ("aws --region us-east-1 secretsmanager describe-secret --secret-id my/secret", "allow"),
    ("aws --profile prod s3 ls", "allow"),
    # batch deletes and purges are deletes
    ("aws ecr batch-delete-image --repository-name app --image-ids imageTag=latest", "ask"),
    ("aws dynamodb batch-delete-item --request-items file://items.json", "ask"),  # hypothetical verb spelt as aws does
    ("aws sqs purge-queue --queue-url https://sqs.us-east-1.amazonaws.com/1/jobs", "ask"),
    ("aws ecr batch-get-image --repository-name app --image-ids imageTag=latest", "allow"),
    ("aws dynamodb batch-write-item --request-items file://items.json", "allow"),
    ("aws sqs receive-message --queue-url https://sqs.us-east-1.amazonaws.com/1/jobs", "allow"),
    # Vault: a secrets engine or an auth method disabled deletes what is stored under it
    ("vault secrets disable secret/", "ask"),
    ("vault auth disable github", "ask"),
    ("vault --namespace admin secrets disable kv/", "ask"),
    ("vault secrets enable -path=kv kv-v2", "allow"),
    ("vault token revoke abc123", "allow"),       # a credential revoked: a new one is issued
    ("vault secrets list", "allow"),
    # 1Password's CLI: a delete is a teardown; --archive keeps it restorable
    ("op item delete \"Database Password\"", "ask"),
    ("op vault delete Engineering", "ask"),
    ("op user delete user@example.com", "ask"),
    ("op document delete \"Prod Cert\"", "ask"),
    ("op item delete --archive \"Legacy Token\"", "allow"),
    ("op item list", "allow"),
    ("op vault list", "allow"),
    ("op whoami", "allow"),
    # gh's -R before the subcommand
    ("gh -R owner/repo repo delete", "ask"),
    ("gh --repo owner/repo release delete v1.0", "ask"),
    ("gh -R owner/repo repo view", "allow"),
    ("gh -R owner/repo pr list", "allow"),
])
def test_teardown_verbs_behind_options_or_of_their_own_ask(command: str, decision: str) -> None:
    assert decide("infra_destructive", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    ("mysqladmin drop mydb", "ask"),
    ("mysqladmin -u root drop testdb", "ask"),
    ("mysqladmin --force drop mydb", "ask"),
    ("mariadb-admin -u root drop app", "ask"),
    ("mysqladmin -u root status", "allow"),
    ("mysqladmin create app_test", "allow"),
    ("mysqladmin -u root processlist", "allow"),
    # what redis-cli sends, past its own options
    ("redis-cli FLUSHALL", "ask"),
    ("redis-cli -h cache.internal -p 6380 -n 2 flushdb", "ask"),
    ("redis-cli SHUTDOWN", "ask"),
    ("redis-cli -a secret shutdown nosave", "ask"),
    ("redis-cli DEBUG SEGFAULT", "ask"),
    ("redis-cli CONFIG SET dir /var/spool/cron", "ask"),
    ("redis-cli config set dbfilename authorized_keys", "ask"),
    ("redis-cli CONFIG SET maxmemory 256mb", "allow"),
    ("redis-cli CONFIG GET dir", "allow"),
    ("redis-cli GET shutdown", "allow"),          # a key named like a command
    ("redis-cli -n 2 GET session:42", "allow"),
    ("redis-cli --scan --pattern 'user:*'", "allow"),
    ("redis-cli DEL cache:homepage", "allow"),
    ("redis-cli DEBUG SLEEP 0", "allow"),
    ("redis-cli ping", "allow"),
    # the commands redis-cli reads on its input, one a line
    ("printf 'SELECT 2\\nFLUSHDB\\n' | redis-cli", "ask"),
    ("echo SHUTDOWN | redis-cli -h cache.internal", "ask"),
    ("printf 'GET a\\nGET b\\n' | redis-cli", "allow"),
])
def test_database_servers_dropped_or_stopped_ask(command: str, decision: str) -> None:
    assert decide("infra_destructive", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    # docker rm's -v, alone or bundled: the container's anonymous volumes go with it
    ("docker rm -vf container", "ask"),
    ("docker rm -fv container", "ask"),
    ("docker rm -v db", "ask"),
    ("docker container rm --volumes db", "ask"),
    ("podman rm -fv db", "ask"),
    ("docker compose rm -fsv", "ask"),
    ("docker-compose down --remove-orphans -v", "ask"),
    ("docker rm -f container", "allow"),        # the container only: rebuilt from its image
    ("docker rm $(docker ps -aq -f status=exited)", "allow"),
    ("docker compose rm -f worker", "allow"),
    ("docker compose down --rmi local", "allow"),
    ("docker run -v $(pwd):/app node:20 npm test", "allow"),
    # kubectl: a node's pods evicted by a NoExecute taint, resources deleted and recreated by apply --force
    ("kubectl taint nodes node-1 key=value:NoExecute", "ask"),
    ("kubectl taint node node-1 dedicated=db:NoExecute --overwrite", "ask"),
    ("kubectl apply --force -f deploy.yaml", "ask"),
    ("kubectl taint nodes node-1 key=value:NoSchedule", "allow"),   # new pods kept off; running ones stay
    ("kubectl taint nodes node-1 key=value:NoExecute-", "allow"),   # the taint removed
    ("kubectl apply -f deploy.yaml", "allow"),
    ("kubectl apply --force -f deploy.yaml --dry-run=server", "allow"),
])
def test_volumes_and_pods_that_go_with_a_container_or_node_ask(command: str, decision: str) -> None:
    assert decide("infra_destructive", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    # the JVM builds' publishing, wherever on the line the phase or task is
    ("mvn deploy", "ask"),
    ("mvn -B clean deploy -DskipTests", "ask"),
    ("./mvnw release:perform", "ask"),
    ("mvn deploy:deploy-file -Dfile=app.jar -Durl=https://repo.example.com", "ask"),
    ("gradle publish", "ask"),
    ("./gradlew publish", "ask"),
    ("./gradlew :lib:publishToSonatype closeAndReleaseSonatypeStagingRepository", "ask"),
    ("./gradlew publishPlugins", "ask"),
    ("sbt publishSigned", "ask"),
    ("sbt +publish", "ask"),                      # for every Scala version the build crosses
    ("lein deploy clojars", "ask"),
    ("lein test", "allow"),
    ("sbt +test", "allow"),
    ("mvn -q package", "allow"),
    ("mvn clean install", "allow"),               # into the machine's own ~/.m2
    ("./mvnw verify", "allow"),
    ("./gradlew build", "allow"),
    ("./gradlew publishToMavenLocal", "allow"),
    ("gradle :lib:publishToMavenLocal", "allow"),
    ("sbt publishLocal", "allow"),
    ("sbt test", "allow"),
])
def test_jvm_builds_that_publish_ask(command: str, decision: str) -> None:
    assert decide("package_policy", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    # a service of the machine killed by its bare name: stopped for every user and program
    ("pkill -f postgres", "ask"),
    ("pkill postgres", "ask"),
    ("killall -9 mysqld", "ask"),
    ("killall nginx", "ask"),
    ("pkill -x NetworkManager", "ask"),
    ("killall -r '^dbus-daemon$'", "ask"),
    ("pkill systemd-resolved", "ask"),
    ("pkill -f /usr/sbin/cron", "ask"),
    ("taskkill /F /IM httpd.exe", "ask"),
    # one process of the project's, by its command line or pid
    ("pkill -f 'postgres -D /tmp/pgtest'", "allow"),
    ("pkill -f 'nginx -c /home/user/project/nginx.conf'", "allow"),
    ("kill $(cat tmp/pids/server.pid)", "allow"),
    ("pgrep -a postgres", "allow"),
    ("pkill -f 'python manage.py runserver'", "allow"),
    ("killall my-dev-server", "allow"),
    # a signal the service handles and keeps running: a reload, logs reopened
    ("killall -HUP nginx", "allow"),
    ("pkill -1 nginx", "allow"),
    ("pkill -s HUP rsyslogd", "allow"),
    ("killall --signal=SIGUSR1 nginx", "allow"),
    ("pkill -USR2 postgres", "allow"),
    ("killall -KILL nginx", "ask"),
    ("pkill -9 postgres", "ask"),
    ("pkill -s TERM mysqld", "ask"),
])
def test_a_service_of_the_machine_killed_by_name_asks(command: str, decision: str) -> None:
    assert decide("machine_wide", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    # the shell's numbers ($$, $RANDOM, $UID ...) in a path: one entry, where the rest of the path says
    ("rm -rf /tmp/build-$$", "allow"),
    ("rm -rf /tmp/test.$RANDOM", "allow"),
    ("rm -rf \"${TMPDIR:-/tmp}/run-${$}\"", "allow"),
    ("rm -rf /var/tmp/job-$PPID-$BASHPID", "allow"),
    ("rm -rf build-$$", "allow"),
    ("rm -rf ~/$$", "deny"),                     # still the home's
    ("rm -rf /$$", "deny"),                      # still a directory of /
    ("rm -rf /tmp/../etc/$UID", "deny"),
    ("rm -rf /tmp/$UIDX", "ask"),                # another variable, not the user's id
    ("rm -rf $!", "ask"),                        # empty before a background job: not a number always
])
def test_the_shells_numbers_in_a_path_keep_it_where_it_is(command: str, decision: str) -> None:
    assert decide("destructive_rm", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    # a partition tool on an image file of the project, or writing nothing: no disk
    ("wipefs --no-act somefile.img", "allow"),
    ("wipefs -n /dev/sda", "allow"),
    ("wipefs --all build/disk.img", "allow"),
    ("parted build/os.img mklabel gpt", "allow"),
    ("fdisk /tmp/test.img", "allow"),
    ("wipefs -a /dev/sda", "deny"),
    ("wipefs -o 0x1fe /dev/sda", "deny"),        # an option's value is no image file
    ("parted /dev/nvme0n1 mklabel gpt", "deny"),
    ("cd /dev && wipefs -a sda", "deny"),
    ("wipefs -a ~/disk.img", "deny"),             # outside the project: not the agent's to erase
    ("wipefs -a $DISK", "deny"),                  # cannot be resolved: a disk, for all the line says
    ("blkdiscard build/disk.img", "deny"),
])
def test_partition_tools_on_an_image_file_pass(command: str, decision: str) -> None:
    assert decide("destructive_rm", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize(("command", "decision"), [
    # a copy between two remotes or buckets sends no file of this machine
    ("rclone copy src: dest:", "allow"),
    ("rclone sync gdrive:photos b2:backup/photos", "allow"),
    ("gsutil cp gs://a/x gs://b/x", "allow"),
    ("aws s3 cp s3://src/key s3://dest/key", "allow"),
    ("rclone copy ./dist remote:site", "deny"),
    ("rclone copy C:\\\\data remote:backup", "deny"),   # a Windows drive is local
    ("aws s3 sync . s3://bucket", "deny"),
])
def test_a_copy_between_remotes_is_no_upload(command: str, decision: str) -> None:
    assert decide("remote_code", command) == decision, command


@pytest.mark.inprocess
@pytest.mark.parametrize("command", [
    "aws --region us-east-1 sts get-caller-identity", "vault status", "gh -R owner/repo issue list",
    "op item list --vault Engineering", "mysqladmin ping", "redis-cli INFO memory", "redis-cli CONFIG GET maxmemory",
])
def test_the_look_alikes_pass_the_whole_pack(command: str) -> None:
    assert pack(command) == "allow", command


@pytest.mark.parametrize(("guard", "command", "first", "status"), [
    ("infra_destructive", "vault secrets disable secret/", "infra_destructive: ask", 4),
    ("infra_destructive", "redis-cli CONFIG GET dir", "infra_destructive: allow", 0),
    ("machine_wide", "pkill -f postgres", "machine_wide: ask", 4),
    ("machine_wide", "killall -HUP nginx", "machine_wide: allow", 0),
    ("package_policy", "./gradlew publish", "package_policy: ask", 4),
    ("package_policy", "./gradlew publishToMavenLocal", "package_policy: allow", 0),
    ("destructive_rm", "rm -rf /tmp/build-$$", "destructive_rm: allow", 0),
    ("destructive_rm", "wipefs -a /dev/sda", "destructive_rm: deny", 1),
])
def test_the_installed_executable_judges_the_same(project: Project, guard: str, command: str, first: str,
                                                   status: int) -> None:
    """Through ``forge-hook guard test``, as a user checks a rule (nothing is run)."""
    run = guard_test(project, guard, command)
    assert run.stdout.splitlines()[0] == first, run.stdout
    assert run.exit_status == status
