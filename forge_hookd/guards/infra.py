"""infra_destructive (ask): tearing down infrastructure or data: ``terraform destroy``,
``kubectl delete``, cloud deletes, ``docker system prune``, an apply nobody reviews
(``terraform apply -auto-approve``), and SQL that drops or empties tables, wherever the
SQL is (``psql -c``, ``mysql -e``, a heredoc, a file)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from forge_hookd.shell.commands import Command
from forge_hookd.guards.base import ALLOWED, ASK, AWS_VALUED, CLOUD_CLIS, KUBE_VALUED, Context, Guard, Option, Ruling, \
    inner_command, operands, remote_hosts, request_method, without_values
from forge_hookd.shell.lazyre import Lazy

_SQL = Lazy(r"(?is)\b(?:drop\s+(?:table|database|schema|index|view|user|role|keyspace|tablespace)|truncate\s+(?:table\s+)?\w+|"
                  r"delete\s+from\s+[\w.\"`]+\s*(?:;|$)|alter\s+table\s+\S+\s+drop\s|"
                  # every row rewritten: an UPDATE with no WHERE
                  r"update\s+[\w.\"`]+\s+set\s(?:(?!\bwhere\b)[^;])*(?:;|$))")
_SQL_CLIENTS = frozenset({"psql", "mysql", "mariadb", "sqlite3", "sqlcmd", "clickhouse-client", "cockroach", "duckdb",
                          "snowsql", "bq", "cqlsh", "mongosh", "mongo", "redis-cli", "sqlplus"})
_MONGO = Lazy(r"dropDatabase\(|drop_database\(|drop_collection\(|\.drop\(\)|"
              r"(?:deleteMany|delete_many|remove)\(\s*\{\s*\}\s*\)")


#: CLIs whose subcommands act on remote resources the user rents or hosts (clouds,
#: hosting platforms, managed databases, object stores, secret and key-value stores):
#: among their first three subcommand words, a teardown verb (:data:`_TEARDOWN`) asks,
#: whatever the resource (``doctl databases destroy``, ``hcloud server delete``,
#: ``heroku apps:destroy``, ``rclone purge remote:``). The effect is the CLI's verb, not a
#: list of its commands.
_PLATFORMS = frozenset({
    "fly", "flyctl", "heroku", "supabase", "vercel", "netlify", "railway", "firebase", "neonctl", "planetscale",
    "pscale", "doctl", "render", "wrangler", "turso", "hcloud", "linode-cli", "vultr-cli", "scw", "oci", "ibmcloud",
    "civo", "exo", "upctl", "aliyun", "yc", "openstack", "nomad", "consul", "vault", "rclone", "mc", "s3cmd",
    "serverless", "sls", "sam", "copilot", "eb", "kamal", "dokku", "okteto", "atlas", "mongocli", "upstash",
    "xata", "convex", "appwrite", "koyeb", "northflank", "porter", "qovery", "zeabur", "deta", "doppler", "infisical",
    "op", "etcdctl"})  # op: 1Password's CLI (op item delete, op vault delete); etcd: a cluster's own state
_TEARDOWN = frozenset({"destroy", "delete", "purge", "terminate", "teardown", "nuke", "wipe", "drop", "reset", "rm",
                       "remove", "rb", "down", "killall", "deletecontainer", "unpublish"})
_SUBCOMMAND = Lazy(r"[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)*$")


#: a CLI's own teardown verbs besides :data:`_TEARDOWN`: a Vault secrets engine or auth method
#: disabled deletes every secret or role stored under it (``vault secrets disable kv/``); etcd's
#: ``del`` removes keys a cluster runs on (``etcdctl del --prefix ""``: all of them)
_TEARDOWN_OF = {"vault": frozenset({"disable"}), "etcdctl": frozenset({"del"})}
#: where a delete is undone from: 1Password's ``op item delete --archive`` moves the item to the archive
_RESTORABLE = {"op": "--archive"}


def _tears_down(name: str, args: list[str], ops: list[str]) -> str | None:
    """A platform CLI's teardown verb among its leading subcommand words (``apps:destroy``
    read as ``apps destroy``); None when there is none."""
    if name not in _PLATFORMS or name in _RESTORABLE and _RESTORABLE[name] in args:  # (an argument may be "")
        return None
    verbs = _TEARDOWN | _TEARDOWN_OF.get(name, frozenset())
    for k, op in enumerate(ops[:3]):
        if not _SUBCOMMAND.match(op):
            return None  # past the subcommands: a name, a path, an id
        if any(word in verbs for word in op.split(":")):  # lower case: _SUBCOMMAND matched
            return " ".join(ops[:k + 1])
    return None


def _cloud(name: str, args: list[str]) -> str | None:
    ops = operands(args)
    if name in ("terraform", "tofu", "terragrunt") and ops[:1] != ["plan"] and (  # a plan changes nothing
            ops[:1] == ["destroy"] or "-destroy" in args or ops[:2] == ["state", "rm"]):
        return "destroys infrastructure"
    if name in ("terraform", "tofu") and ops[:2] == ["workspace", "delete"] or \
            name == "pulumi" and ops[:2] in (["stack", "rm"], ["stack", "remove"]):
        return "deletes a stack or workspace and its state (the record of what it runs)"
    if name == "eksctl" and ops[:1] == ["delete"]:
        return "deletes a cluster or its nodes"
    if name in ("terraform", "tofu", "terragrunt") and ops[:1] == ["apply"] and \
            any(a.startswith(("-replace=", "--replace=")) or a in ("-replace", "--replace") for a in args):
        return "destroys and recreates a resource (apply -replace): its data goes with it"
    if name in ("terraform", "tofu") and ops[:1] == ["taint"]:
        return "marks a resource to be destroyed and recreated at the next apply (taint)"
    if name == "pulumi" and ops[:1] == ["destroy"] or name == "cdk" and ops[:1] == ["destroy"]:
        return "destroys infrastructure"
    # An apply nobody reviews: whatever the plan replaces or destroys happens (a plain
    # `terraform apply` waits for a typed "yes" the agent's shell cannot give).
    if name in ("terraform", "tofu", "terragrunt") and ops[:1] == ["apply"] and \
            any(a.lstrip("-").partition("=")[0] == "auto-approve" for a in args) or \
            name == "pulumi" and ops[:1] == ["up"] and ("--yes" in args or "-y" in args):
        return "applies an infrastructure change nobody reviewed (it may replace or destroy resources)"
    if name in ("kubectl", "oc", "helm") and _dry_run(args):
        return None  # --dry-run=client|server (helm --dry-run): shows what would go, changes nothing
    if name in ("kubectl", "oc") and ops[:1] in (["delete"], ["drain"], ["replace"]) and \
            (ops[:1] != ["replace"] or "--force" in args):
        return f"{ops[0]}s Kubernetes resources"
    if name in ("kubectl", "oc") and ops[:1] == ["taint"] and any(a.endswith(":NoExecute") for a in ops[2:]):
        return "evicts every pod of the node that does not tolerate the taint (NoExecute)"  # `...:NoExecute-` removes it
    if name in ("kubectl", "oc") and ops[:1] == ["apply"] and "--force" in args:
        return "deletes and recreates the resources it cannot patch (apply --force)"
    if name in ("kubectl", "oc") and ops[:1] == ["scale"] and (
            "--replicas=0" in args or any(a == "--replicas" and args[k + 1:k + 2] == ["0"] for k, a in enumerate(args))):
        return "scales Kubernetes workloads to zero (takes them down)"
    if name == "helm" and ops[:1] in (["uninstall"], ["delete"], ["del"]):
        return "uninstalls a Helm release"
    if name in CLOUD_CLIS and name not in ("kubectl", "oc"):
        from forge_hookd.guards import clouds  # loaded for the cloud CLIs only

        off = clouds.switches_off(name, args)
        if off is not None:
            return off
    if name == "aws":
        ops = operands(without_values(args, AWS_VALUED))  # `aws --region X secretsmanager delete-secret`
        if ops[:2] in (["s3", "rm"], ["s3", "rb"]) or ops[:1] == ["s3"] and "--delete" in args:
            return "deletes S3 data"
        if len(ops) > 1 and _AWS_TEARDOWN.match(ops[1]):
            return f"runs aws {ops[0]} {ops[1]}"
    if name == "gcloud" and ("delete" in ops or "destroy" in ops) or name == "gsutil" and ops[:1] in (["rm"], ["rb"]):
        return "deletes cloud resources"
    if name == "az" and any(op == "delete" or op.startswith("delete-") for op in ops):  # delete-batch too
        return "deletes cloud resources"
    if name == "mongorestore" and "--drop" in args:
        return "drops each collection before restoring it (mongorestore --drop)"
    if name in ("docker", "podman"):
        if ops[:2] == ["system", "reset"]:  # podman's: every container, image, volume and setting
            return "deletes every container, image and volume (system reset)"
        if ops[:2] in (["system", "prune"], ["volume", "prune"], ["volume", "rm"], ["image", "prune"]) and \
                ("-a" in args or "--all" in args or "--volumes" in args or
                 ops[:2] in (["volume", "prune"], ["volume", "rm"])):
            return "deletes containers' data"
        if (ops[:1] == ["rm"] or ops[:2] == ["container", "rm"]) and _has_flag(args, "v", "--volumes"):
            return "deletes the container with its anonymous volumes (rm -v)"  # -vf, -fv: one bundle
    if name in ("docker-compose",) or name == "docker" and ops[:1] == ["compose"]:
        if ("down" in ops or "rm" in ops) and _has_flag(args, "v", "--volumes"):
            return "deletes the compose volumes"  # down -v, and rm -v: the containers' anonymous volumes
    if name in ("npm", "pnpm", "yarn") and ops[:1] == ["unpublish"]:
        return "removes a published package from the registry (npm unpublish)"
    torn = _tears_down(name, args, ops)
    if torn is not None:
        return f"tears down a {name} resource ({name} {torn})"
    if name in ("dropdb", "dropuser") or name in ("mysqladmin", "mariadb-admin") and "drop" in ops:
        return "drops a database"
    if name == "supabase" and ops[:1] == ["stop"] and "--no-backup" in args:
        return "stops the local Supabase and deletes its data (--no-backup)"
    if name == "gh":
        ops = operands(without_values(args, _GH_VALUED))  # `gh -R owner/repo repo delete`
    if name == "gh" and ops[:2] in (["repo", "delete"], ["repo", "archive"], ["release", "delete"], ["secret", "delete"],
                                    ["variable", "delete"]):
        return f"deletes a GitHub {ops[0]}"
    if name == "gh" and ops[:1] == ["api"]:
        method = request_method("gh", args)
        if method in ("DELETE", "PUT", "PATCH") and any(re.search(r"/branches/[^/]+/protection|/rulesets(?:/|$)", o)
                                                         for o in ops[1:]):
            return "changes a branch's protection or a ruleset (what guards the protected branches)"
        if method == "DELETE":  # gh repo delete by its endpoint (repos/OWNER/REPO), a release, a secret...
            return "deletes a GitHub resource through the API"
    if name in _HTTP_CLIENTS and request_method(name, args) == "DELETE":
        if any(_KUBE_API.search(a) for a in operands(args)):  # HackTricks' Kubernetes enumeration page
            return "deletes Kubernetes resources through the cluster's API (as kubectl delete)"
        hosts = remote_hosts(args)  # to this machine (localhost), the app under development: passes
        if hosts:
            return f"sends a DELETE request to {hosts[0]}: what it deletes there is beyond undo from here"
    return None


#: the HTTP clients whose requests name their method (curl -X, wget --method, HTTPie's and xh's word)
_HTTP_CLIENTS = frozenset({"curl", "wget", "http", "https", "xh", "xhs"})
#: a Kubernetes API server's resource path (``curl -X DELETE https://10.0.0.1:6443/api/v1/namespaces/prod``,
#: on localhost too): the core group's namespaces, nodes and volumes
#: (/api/v1/namespaces/...), or a named group (/apis/apps/v1/..., /apis/rbac.authorization.k8s.io/v1/...);
#: a web app's own /api/v1/users/5 is none
_KUBE_API = Lazy(r"/api/v1/(?:namespaces|nodes|persistentvolumes)\b|"
                 r"/apis/(?:apps|batch|autoscaling|policy|[a-z0-9-]+(?:\.[a-z0-9-]+)+)/v[0-9][a-z0-9]*/",
                 needs=("/api",))


def _has_flag(args: list[str], short: str, long: str) -> bool:
    """Whether ``args`` hold the short option ``-short``, alone or in a bundle (``-vf``), or ``long``."""
    return long in args or any(a.startswith("-") and not a.startswith("--") and short in a[1:] for a in args)


def _dry_run(args: list[str]) -> bool:
    """kubectl's ``--dry-run``/``--dry-run=client``/``=server`` (``=none`` runs for real), helm's ``--dry-run``."""
    return any(a == "--dry-run" or a.startswith("--dry-run=") and a != "--dry-run=none" for a in args)


#: framework tasks that drop or empty the database: command -> its tasks
_DB_TASKS = {
    "rails": ("db:drop", "db:reset", "db:schema:load", "db:purge", "db:seed:replant", "db:truncate_all",
              "db:migrate:reset", "db:wipe"),
    "artisan": ("migrate:fresh", "migrate:reset", "migrate:refresh", "db:wipe"),
    "console": ("doctrine:schema:drop", "doctrine:database:drop", "doctrine:fixtures:load"),
    "wp": ("db reset", "db clean", "db drop"),
    "drush": ("sql-drop", "sql:drop"),
    "mix": ("ecto.drop", "ecto.reset"),  # Elixir's Ecto: the repository dropped (reset: and made again)
    # every migration undone: the tables they made go with them
    "alembic": ("downgrade base",),
    "flask": ("db downgrade base",),
    # the migration tools' own "drop everything in the schema"
    "flyway": ("clean",),
    "liquibase": ("dropAll", "drop-all"),
    "dbmate": ("drop",),
    "migrate": ("drop",),  # golang-migrate
}
_DB_TASKS["rake"] = _DB_TASKS["bin/rails"] = _DB_TASKS["rails"]
_DB_TASKS["bin/console"] = _DB_TASKS["console"]


#: ORM tools whose schema push or task drops data: tool -> (words that must all be there)
_ORM = {
    "drizzle-kit": (("push", "--force"),),  # --force: "auto-approve all data loss statements"
    "prisma": (("db", "push", "--force-reset"), ("db", "push", "--accept-data-loss"), ("migrate", "reset")),
    "typeorm": (("schema:drop",),),
    "sequelize": (("db:drop",), ("db:migrate:undo:all",)),
    "sequelize-cli": (("db:drop",), ("db:migrate:undo:all",)),
    "knex": (("migrate:rollback", "--all"),),  # every migration undone: every table they made dropped
}
#: package runners that run a package's binary: npx X, pnpm dlx X, yarn X, bunx X
_PACKAGE_RUN = frozenset({"npx", "pnpx", "bunx", "pnpm", "yarn", "bun"})
def _app(name: str, args: list[str]) -> str | None:
    ops = operands(args)
    if name == "bundle" and ops[:1] == ["exec"] and len(ops) > 1:  # bundle exec rails db:drop
        return _app(ops[1], args[args.index(ops[1]) + 1:])
    if name in _PACKAGE_RUN and ops and (name in ("npx", "pnpx", "bunx") or ops[0] in ("dlx", "exec", "x")
                                         or ops[0] in _ORM):
        rest = ops[1:] if ops[0] in ("dlx", "exec", "x") and name not in ("npx", "pnpx", "bunx") else ops
        if rest and rest[0].split("@")[0] in _ORM and rest[0] != name:
            return _app(rest[0].split("@")[0], args[args.index(rest[0]) + 1:])
    orm = _ORM.get(name, ())
    if any(all(w in args for w in words) for words in orm):
        return "drops data or the schema (an ORM push or task that accepts data loss)"
    if name in ("php", "symfony") and ops[:1] and ops[0].rsplit("/", 1)[-1] in ("artisan", "console"):
        return _app(ops[0].rsplit("/", 1)[-1], args[args.index(ops[0]) + 1:])
    tasks = _DB_TASKS.get(name, ())
    task = next((t for t in tasks if " ".join(ops[:len(t.split())]) == t or t in ops), None)
    if task is not None and not (task == "doctrine:fixtures:load" and "--append" in args):
        return f"drops or empties the database ({task})"
    if name in ("prisma", "npx", "pnpm", "yarn", "bunx") and "migrate" in ops and "reset" in ops:
        return "resets the database"
    if name.startswith("python") and "manage.py" in args and ("flush" in ops or "reset_db" in ops):
        return "empties the database"
    return None


#: gh's option that names the repository (``gh -R owner/repo repo delete``)
_GH_VALUED = frozenset({"-R", "--repo"})
#: aws verbs that delete: delete-*, batch-delete-* (``ecr batch-delete-image``), terminate-*,
#: purge-* (``sqs purge-queue``: every message), remove-*, deregister-*
_AWS_TEARDOWN = Lazy(r"(?:batch-)?(?:delete|terminate|remove|deregister|purge)-")


class InfraDestructive(Guard):
    heads = ("terraform", "kubectl")
    name = "infra_destructive"
    summary = "Destroying infrastructure or dropping data (asks)"
    catches = ("terraform destroy", "kubectl delete ns prod", "aws s3 rm s3://b --recursive", "helm uninstall x",
               "docker system prune -a", "psql -c 'DROP TABLE users'", "mysql -e 'TRUNCATE orders'",
               "redis-cli FLUSHALL", "rails db:drop", "terraform apply -auto-approve")
    options = (Option("decision", "decision", ASK, "What these commands are: ask (default) or deny"),)

    def judge_command(self, command: Command, context: Context) -> Ruling:
        name, args = command.name, list(command.args)
        if "--help" in args:  # `dropdb --help`, `terraform destroy --help`: the usage shown, nothing run
            return ALLOWED
        if name in ("kubectl", "oc"):
            args = without_values(args, KUBE_VALUED)
        why = _cloud(name, args) or _app(name, args) or self._sql(command) or _fed_flush(command)
        inner = inner_command(name, list(command.args)) if why is None else None
        if inner is not None:
            why = _cloud(*inner) or _app(*inner) or _sql_of(inner[0], inner[1], None)
        if why is None:
            return ALLOWED
        return self.verdict(self.opts["decision"], " ".join(command.argv), why,
                            "A person should confirm this; prefer a plan or dry run first")

    def judge_unmapped(self, tool: str, tool_args: Mapping[str, Any], context: Context) -> Ruling:
        """An MCP tool (or one forge does not map): its command as shell, a destructive
        verb in its name (``mcp__github__delete_repository``), and the SQL of its
        arguments (``mcp__db__query`` with ``DROP TABLE``), read as ``psql -c`` is."""
        from forge_hookd.guards import shape

        shell_verdict = super().judge_unmapped(tool, tool_args, context)
        if shell_verdict.decision != "allow":
            return shell_verdict
        safely = "A person should confirm this; prefer a plan or dry run first"
        verb = shape.destructive_verb(tool)
        if verb is not None:
            return self.verdict(self.opts["decision"], tool, f"is an MCP tool whose name says it will {verb}", safely)
        for text in shape.sql_texts(tool_args):
            why = _sql_effect(text)
            if why is not None:
                return self.verdict(self.opts["decision"], f"{tool} {' '.join(text.split())}", why, safely)
        return ALLOWED

    def _sql(self, command: Command) -> str | None:
        code = command.inline_code
        if code is not None and command.name not in _SQL_CLIENTS:  # a one-liner that drops (a driver's call)
            why = _sql_effect(code[1][: 1 << 16])
            return f"{why} (a {code[0]} one-liner)" if why is not None else None
        return _sql_of(command.name, list(command.args), command.stdin)


def _sql_of(name: str, args: list[str], stdin: str | None) -> str | None:
    """What a database client's SQL (in its arguments or its input) does, or None."""
    if name not in _SQL_CLIENTS:
        return None
    if name == "redis-cli":  # its arguments, or the commands it reads, one a line (printf 'FLUSHALL\n' | redis-cli)
        return _redis_effect(args) or next((why for line in (stdin or "").splitlines()[:1000]
                                            if (why := _redis_effect(line.split())) is not None), None)
    return next((why for text in [*args, stdin or ""] if (why := _sql_effect(text)) is not None), None)


#: redis-cli's options that take a value (the next word is no command)
_REDIS_VALUED = frozenset({"-h", "-p", "-s", "-a", "-u", "-n", "-r", "-i", "-d", "--user", "--pass", "--sni", "--cacert",
                           "--cacertdir", "--cert", "--key", "--tls-ciphers", "--pattern", "--count", "--quoted-pattern"})


def _redis_effect(args: list[str]) -> str | None:
    """What the command redis-cli sends does to the server's data: every key deleted (FLUSHALL),
    the server stopped or crashed (SHUTDOWN, DEBUG SEGFAULT), or its dump file moved where the
    next save writes over another file (CONFIG SET dir|dbfilename: the known way to write a
    crontab or authorized_keys through Redis); None for reads and single keys."""
    words = [w.upper() for w in operands(without_values(args, _REDIS_VALUED))]
    if words[:1] in (["FLUSHALL"], ["FLUSHDB"]):
        return "empties Redis"
    if words[:1] == ["SHUTDOWN"] or words[:2] in (["DEBUG", "SEGFAULT"], ["DEBUG", "CRASH-AND-RECOVER"]):
        return "stops the Redis server (what it did not save is lost)"
    if words[:2] == ["CONFIG", "SET"] and words[2:3] in (["DIR"], ["DBFILENAME"]):
        return "moves where Redis writes its dump file (a file outside its data directory overwritten)"
    return None


def _fed_flush(command: Command) -> str | None:
    """``python manage.py sqlflush | python manage.py dbshell``: the SQL that empties every
    table, written by one command and run by the database shell it is piped into."""
    shell = command.name in _SQL_CLIENTS or "dbshell" in command.args or "dbconsole" in command.args
    if shell and any("sqlflush" in f.args for f in command.feeders):
        return "empties the database (manage.py sqlflush piped into its shell)"
    return None


def _sql_effect(text: str) -> str | None:
    """What SQL (or a MongoDB script) that drops or empties data does, or None."""
    if _MONGO.search(text):
        return "drops MongoDB data"
    match = _SQL.search(text)
    if match is not None:
        return f"runs {' '.join(match.group(0).split()[:2]).upper()}"
    return None
