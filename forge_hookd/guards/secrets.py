"""secret_files: reading or writing credential files (``.env``, ``~/.ssh``, ``*.pem``,
cloud credentials) by a file tool or a shell command; hardcoded_secrets: a token or
key written into a file.

The token shapes overlap forge_hookd/log/redact.py's (``sk-``, ``ghp_``..., ``AKIA``,
``xox?-``, private key blocks): redact masks them in the log, this refuses them in
content; they are kept apart because redact.py is being made linear with
gitleaks-style rules on another branch, and this list asks for more context (a
secret-named assignment of a literal, a placeholder is not a secret)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from fnmatch import fnmatchcase
from typing import Any

from forge_hookd.shell import commands as shell
from forge_hookd.shell.commands import Command
from forge_hookd.guards.base import ALLOWED, ASK, DENY, WRITE_TOOLS, Context, Guard, Option, Ruling, command_cwd, content_of, \
    PathPatterns, git_args, inner_command, long_flags, operands, paths_of, resolve, short_flags
from forge_hookd.shell.known import code_variable, runs_as_code
from forge_hookd.shell.lazyre import Lazy
from forge_hookd.shell.sed import edits_in_place

# A glob with a slash is matched against the whole path (so "*/.aws/credentials" holds in
# any home directory); one without, against each name in the path.
SECRET_FILES = [".env", ".env.*", "*.env", ".envrc", "*/.ssh", "*/.aws", "*/.gnupg", "*/.config/gcloud", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "id_rsa",
                "id_dsa", "id_ecdsa", "id_ed25519", "*/.ssh/*", "*/.aws/credentials", "*/.aws/config",
                "*/.config/gcloud/*", "*/.azure/*", "*/.kube/config", "*/.docker/config.json", ".netrc", ".npmrc",
                ".pypirc", ".git-credentials", "*/.gnupg/*", "credentials.json", "service-account*.json",
                "service_account*.json", "secrets.json", "secrets.yaml", "secrets.yml", "*.tfvars",
                "*/.config/gh/hosts.yml", ".vault-token", ".htpasswd", ".pgpass", ".my.cnf", "*/.gem/credentials",
                "/proc/*/environ", "*.kubeconfig", "kubeconfig.y*ml", "*/.cargo/credentials*", "*/.terraform.d/credentials.tfrc.json", "*.tfstate", "*.tfstate.backup",
                "*/.config/op/*", "*/.password-store/*", "*/Library/Keychains/*", "*/Library/Keychains",
                "*/.local/share/keyrings/*",
                # the browsers' stores of saved passwords and session cookies (Chrome, Chromium, Edge,
                # Brave: Login Data, Cookies; Firefox: logins.json, key4.db, cookies.sqlite)
                "Login Data", "Login Data For Account", "*/Default/Cookies", "*/Profile */Cookies", "logins.json",
                "key3.db", "key4.db", "cookies.sqlite",
                "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/master.passwd",
                "/etc/shadow~", "/etc/gshadow~", "/etc/spwd.db",  # an editor's backup (vipw), BSD's database
                "/etc/security/opasswd", ".credentials",
                # the coding agents' own logins (Claude Code, Codex, Gemini CLI, Qwen Code, Copilot,
                # OpenCode): a token that acts as the user on their account
                "*/.claude/.credentials.json", "*/.codex/auth.json", "*/.gemini/oauth_creds.json",
                "*/.gemini/mcp-oauth-tokens.json", "*/.qwen/oauth_creds.json", "*/.config/github-copilot/hosts.json",
                "*/.config/github-copilot/apps.json", "*/.local/share/opencode/auth.json",
                # Cloudflare Wrangler's local secrets (its .env)
                ".dev.vars", ".dev.vars.*",
                # credential JSON by its name (Google's OAuth client secret, a key list)
                "creds.json", "keys.json", "api[-_]keys.json", "apikeys.json", "*[-_]credentials.json",
                "client_secret*.json",
                # a cloud service account's key by its usual names (gcp-key.json, sa-key.json,
                # Firebase's project-firebase-adminsdk-x1y2z-0a1b2c.json); keymap.json is no key
                "key.json", "*[-_]key.json", "*adminsdk*.json",
                # a directory of secrets: its data files (docker compose's and Kubernetes' secrets/,
                # a container's /run/secrets); code about secrets (src/secrets/index.ts) is no secret
                "*/secrets/*.json", "*/secrets/*.yaml", "*/secrets/*.yml", "*/secrets/*.txt", "*/secrets/*.toml",
                "*/secrets/*.ini", "*/secrets/*.conf", "*/secrets/*.properties", "*/secrets/*.gpg",
                "*/secrets/*.enc", "*/.secrets/*", "/run/secrets/*", "/var/run/secrets/*",  # /var/run is /run
                # shell and REPL histories: every secret ever typed on a command line
                ".bash_history", ".zsh_history", ".*_history", "*/.local/share/fish/fish_history",
                # the machine's memory: every process's secrets (`strings /dev/mem | grep -i pass`)
                "/dev/mem", "/dev/kmem", "/proc/kcore", "/proc/*/mem"]
NOT_SECRET = [".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults", ".env.schema", "*.pub",
              "example.env", "sample.env", "template.env", "*.example.env",
              "*/.ssh/known_hosts", "*/.ssh/config", "*.example.*", "*.example", "*.sample", "*.template", "*.dist"]
_SECRET_WORDS = "SECRET|PASSWORD|PASSWD|TOKEN|API_KEY|PRIVATE_KEY|ACCESS_KEY|CREDENTIAL"  # in a variable's name
# `${KEY:+set}` and `${KEY+set}` expand to the word, never the value: no secret printed; PowerShell
# names the same variable `$env:KEY`
_SECRET_VAR = Lazy(rf"\$(?:env:)?\{{?([A-Za-z0-9_]*(?:{_SECRET_WORDS})[A-Za-z0-9_]*)(?![A-Za-z0-9_])(?!:?\+)", re.I)
_SECRET_NAME = Lazy(_SECRET_WORDS, re.I)
#: PowerShell's echo (its alias) by its own names
_POWERSHELL_PRINTERS = frozenset({"write-output", "write-host", "write"})
#: the secret files of every machine and home, against which a glob of a path is matched
_MACHINE_SAMPLES = ("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/master.passwd", "/etc/spwd.db",
                    "/etc/security/opasswd", "~/.ssh/id_rsa", "~/.ssh/id_ed25519", "~/.ssh/id_ecdsa", "~/.aws/credentials",
                    "~/.netrc", "~/.git-credentials", "~/.bash_history", "~/.zsh_history", "~/.docker/config.json",
                    "~/.kube/config", "~/.config/gh/hosts.yml", "~/.pgpass")
_SAMPLES = (".env", ".env.local", ".env.production", "id_rsa", "id_ed25519", "server.pem", "private.key",
            "credentials.json", "secrets.yaml", ".npmrc", ".netrc", ".bash_history", ".zsh_history")
_LITERAL = Lazy(r"""["']([^"'\s]{2,200})["']""")
# git subcommands that name a file without printing or committing its content.
_GIT_NAMES = frozenset({"check-ignore", "check-attr", "ls-files", "status", "mv"})
# Commands that name a file without reading its content.
_METADATA = frozenset({"ls", "stat", "test", "[", "[[", "file", "touch", "chmod", "chown", "realpath", "basename",
                       "dirname", "echo", "printf", "mkdir", "which", "type",
                       # a variable set to a path names the file (`export KUBECONFIG=./dev.kubeconfig`);
                       # what a substitution in it runs is judged as its own command
                       "export", "declare", "typeset", "readonly", "local",
                       "wc"})  # wc prints counts, never a line: `wc -l .env` shows no value
#: openssl's certificate commands: what they print of a ``.pem`` is a certificate, a
#: request or a list, all public; given a private key they fail rather than show it
_CERTIFICATE_READERS = frozenset({"x509", "req", "crl", "verify"})


#: commands that print secret material that is no file: command -> argument prefixes
_PRINTERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("gh", ("auth", "token"), "prints the GitHub token"),
    ("gh", ("auth", "status", "--show-token"), "prints the GitHub token"),
    ("gh", ("auth", "status", "-t"), "prints the GitHub token"),
    ("glab", ("auth", "status", "--show-token"), "prints the GitLab token"),
    ("kubectl", ("config", "view", "--raw"), "prints the cluster credentials"),
    ("aws", ("configure", "get"), "prints an AWS credential"),
    ("aws", ("configure", "export-credentials"), "prints the AWS credentials"),
    ("aws", ("sts", "get-session-token"), "prints AWS session credentials"),
    ("aws", ("ecr", "get-login-password"), "prints a registry password"),
    ("gcloud", ("auth", "print-access-token"), "prints a Google Cloud token"),
    ("gcloud", ("auth", "print-identity-token"), "prints a Google Cloud token"),
    ("az", ("account", "get-access-token"), "prints an Azure token"),
    ("heroku", ("auth:token",), "prints the Heroku token"),
    ("heroku", ("config",), "prints the app's config vars, its secrets with them"),  # config:get NAME is one
    ("security", ("find-generic-password",), "reads the keychain"),
    ("security", ("find-internet-password",), "reads the keychain"),
    ("security", ("dump-keychain",), "dumps the keychain"),
    ("security", ("delete-generic-password",), "deletes a keychain item"),
    ("security", ("delete-internet-password",), "deletes a keychain item"),
    ("security", ("add-generic-password",), "writes a password into the keychain"),
    ("security", ("add-internet-password",), "writes a password into the keychain"),
    ("secret-tool", ("lookup",), "reads the keyring"),
    ("pass", ("show",), "reads the password store"),
    ("op", ("read",), "reads 1Password"),
    ("op", ("item", "get"), "reads 1Password"),
    ("vault", ("kv", "get"), "reads a Vault secret"),
    ("vault", ("read",), "reads a Vault secret"),
    ("terraform", ("output", "-raw"), "prints a Terraform output"),
    ("terraform", ("show", "-json"), "prints the Terraform state, secrets included"),
    ("terraform", ("state", "pull"), "prints the Terraform state, secrets included"),
    ("git", ("credential", "fill"), "prints a git credential"),
    ("docker", ("secret", "inspect"), "reads a Docker secret"),
    ("aws", ("secretsmanager", "get-secret-value"), "prints an AWS secret"),
    ("aws", ("ssm", "get-parameter", "--with-decryption"), "prints a decrypted AWS parameter"),
    ("aws", ("ssm", "get-parameters", "--with-decryption"), "prints decrypted AWS parameters"),
    ("aws", ("ssm", "get-parameters-by-path", "--with-decryption"), "prints decrypted AWS parameters"),
    ("gcloud", ("secrets", "versions", "access"), "prints a Google Cloud secret"),
    ("az", ("keyvault", "secret", "show"), "prints an Azure Key Vault secret"),
    ("doppler", ("secrets", "download"), "prints every Doppler secret"),
    ("doppler", ("secrets", "get"), "prints a Doppler secret"),
    ("infisical", ("secrets", "get"), "prints an Infisical secret"),
    ("infisical", ("export",), "prints every Infisical secret"),
    ("rails", ("credentials:show",), "prints the decrypted Rails credentials"),
    ("bin/rails", ("credentials:show",), "prints the decrypted Rails credentials"),
    ("sops", ("-d",), "prints decrypted secrets"),
    ("sops", ("--decrypt",), "prints decrypted secrets"),
    ("sops", ("decrypt",), "prints decrypted secrets"),
    ("ansible-vault", ("view",), "prints a decrypted Ansible vault"),
    ("ansible-vault", ("decrypt",), "decrypts an Ansible vault"),
    # the clouds' other secret printers (HackTricks Cloud's post-exploitation pages): many secrets at
    # once, an identity's temporary credentials, data a key decrypts, a service's keys and connection strings
    ("aws", ("secretsmanager", "batch-get-secret-value"), "prints AWS secrets"),
    ("aws", ("cognito-identity", "get-credentials-for-identity"), "prints AWS credentials"),
    ("aws", ("sso", "get-role-credentials"), "prints AWS credentials"),
    ("aws", ("kms", "decrypt"), "prints data decrypted with an AWS key"),
    ("gcloud", ("kms", "decrypt"), "decrypts data with a Google Cloud key"),
    ("gcloud", ("kms", "asymmetric-decrypt"), "decrypts data with a Google Cloud key"),
    ("az", ("keyvault", "secret", "download"), "saves an Azure Key Vault secret"),
    ("az", ("containerapp", "secret", "--show-values"), "prints a container app's secrets"),
    ("az", ("containerapp", "secret", "show"), "prints a container app's secret"),
    ("az", ("config", "connection-string", "list"), "prints an app's connection strings"),
    ("az", ("config", "appsettings", "list"), "prints an app's settings, its secrets with them"),
    ("az", ("staticwebapp", "secrets", "list"), "prints a static web app's deployment token"),
    ("az", ("apim", "nv", "show-secret"), "prints an API Management secret"),
    ("az", ("--populate-secrets",), "prints the connections' secrets"),
    ("az", ("online-endpoint", "get-credentials"), "prints an endpoint's keys"),
    ("az", ("keys", "list"), "prints an Azure service's access keys"),  # storage account, cosmosdb, servicebus
    ("az", ("storage", "account", "show-connection-string"), "prints a storage account's key"),
    ("az", ("acr", "credential", "show"), "prints a registry's passwords"),
    ("kubectl", ("create", "token"), "mints and prints a service account's token"),
)
#: what a cloud CLI's ``--query`` may select without printing the secret (``az account
#: get-access-token --query expiresOn``, ``aws secretsmanager get-secret-value --query Name``)
_NO_SECRET_FIELDS = frozenset({"expiresOn", "expires_on", "expiration", "Expiration", "subscription", "tenant",
                               "tokenType", "Name", "ARN", "VersionId", "VersionStages", "CreatedDate"})
_PRINTER_NAMES = frozenset(name for name, _, _ in _PRINTERS)
_DOTENV = Lazy(r"load_dotenv|dotenv_values|require\(\s*['\"]dotenv['\"]\s*\)|dotenv/config|Dotenv\.load|"
               r"require\s+['\"]dotenv")
_ENV_DUMP = Lazy(r"print\(\s*(?:dict\()?os\.environ\s*\)?\s*\)|console\.(?:log|dir)\(\s*process\.env\s*\)|"
                 r"JSON\.stringify\(\s*process\.env|\bp\s+ENV\b|puts\s+ENV\.(?:to_h|inspect)|print\s+%ENV|"
                 r"Deno\.env\.toObject\(\)|getenv\(\s*\)|json\.dumps\(\s*(?:dict\()?os\.environ|"
                 # every value walked: perl's keys %ENV, python's os.environ.items(), node's Object.entries
                 r"(?:keys|each|values)\s*%ENV|\\%ENV|os\.environ\.(?:items|values)\(|"
                 r"Object\.(?:entries|values)\(\s*process\.env|\bENV\.(?:each|to_a|map|values)\b")


# pass(1) subcommands that neither show nor copy a password; any other first word is a
# name that `pass NAME` (and `pass -c NAME`, to the clipboard) shows.
_PASS_QUIET = frozenset({"ls", "list", "find", "search", "init", "insert", "add", "generate", "edit", "rm", "remove",
                         "delete", "mv", "rename", "cp", "copy", "git", "help", "version", "--help", "--version"})


def _prints_kube_secret(args: list[str]) -> bool:
    """``kubectl get secret X -o yaml`` (json, jsonpath, go-template ...): the data, in
    base64, which is no protection; ``kubectl get secret X`` lists names only."""
    ops = operands([a for k, a in enumerate(args) if not (k and args[k - 1] in ("-n", "--namespace", "-o",
                                                                                 "--output", "-l", "--selector"))])
    if ops[:1] != ["get"] or not ops[1:2] or not ops[1].split("/")[0].split(",")[0] in ("secret", "secrets"):
        return False
    return any(o and not o.startswith(("name", "wide")) and not _metadata_only(o)
               for o in shell.option_values(args, "-o", "--output"))


def _metadata_only(output: str) -> bool:
    """``-o jsonpath='{.metadata.name}'``, ``custom-columns=NAME:.metadata.name``: a
    template that names only the secret's metadata or type, never ``.data``."""
    kind, _, template = output.partition("=")
    if kind not in ("jsonpath", "custom-columns", "go-template") or not template:
        return False
    template = re.sub(r"\brange\s+\.items\[[^\]]*\]", "", template)  # {range .items[*]}: the loop, not a value
    paths = re.findall(r"\.[A-Za-z_][\w.\[\]'\"*-]*", template)
    return bool(paths) and all(re.sub(r"^\.items\[[^\]]*\]", "", p).startswith(_SECRET_METADATA) for p in paths)


# What a secret's template may name without its data: annotations are left out, since
# kubectl's last-applied-configuration annotation holds the whole secret.
_SECRET_METADATA = (".metadata.name", ".metadata.namespace", ".metadata.labels", ".metadata.creationTimestamp",
                    ".metadata.uid", ".metadata.resourceVersion", ".type", ".kind", ".apiVersion", ".immutable")


#: the cloud metadata services' paths that hand out the machine's credentials: AWS's instance
#: role (and ECS's task role), Azure's managed identity token, GCP's service account token
_METADATA_CREDENTIALS = Lazy(r"(?:169\.254\.169\.254|\[fd00:ec2::254\]|metadata\.google\.internal|169\.254\.170\.2)"
                             r"[^\s]*/(?:iam/security-credentials/[^/\s?#]|identity/oauth2/token|service-accounts/[^/\s]*/token|"
                             r"v2/credentials)", needs=("169.254.", "metadata.google", "fd00:ec2"))
_FETCHERS = frozenset({"curl", "wget", "http", "https", "xh", "xhs", "Invoke-WebRequest", "Invoke-RestMethod", "iwr",
                       "irm"})


def _selects_no_secret(args: tuple[str, ...]) -> bool:
    """A ``--query`` (JMESPath) that names only fields which are no secret: the token's expiry,
    the secret's name, ARN or version."""
    queries = [q for q in shell.option_values(args, "--query", "--query") if q]
    fields = {f for q in queries for f in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", q)}
    return bool(fields) and fields <= _NO_SECRET_FIELDS


#: a Kubernetes API server's URL for Secrets (``/api/v1/namespaces/NS/secrets/``, ``/api/v1/secrets``)
_KUBE_API_SECRETS = Lazy(r"/api/v1/(?:namespaces/[^/\s]+/)?secrets\b", needs=("/secrets",))


def _prints_secret(command: Command) -> str | None:
    """Secret material printed by a command that has it (``gh auth token``), or loaded
    or dumped by a one-liner (``load_dotenv()``, ``print(os.environ)``)."""
    head = command.name
    if head == "kubectl" and _prints_kube_secret(list(command.args)):
        return "prints a Kubernetes secret's data"
    if head == "pass" and command.args and command.args[0] not in _PASS_QUIET and \
            any(not a.startswith("-") or a in ("-c", "--clip") for a in command.args):
        return "reads the password store"
    if head == "heroku" and command.args[:1] == ("config:get",) and any(
            _SECRET_NAME.search(a) or a.upper().endswith(("_URL", "_URI", "_DSN")) for a in command.args[1:]):
        return "prints a secret config var"  # DATABASE_URL holds the password; NODE_ENV is no secret
    if head in _FETCHERS and any(_METADATA_CREDENTIALS.search(a) for a in command.args):
        return "fetches the machine's cloud credentials from the metadata service"
    if head in _FETCHERS and any(_KUBE_API_SECRETS.search(a) for a in command.args):
        return "reads the cluster's Secrets through its API"
    if head in ("docker", "podman") and command.args[:1] == ("inspect",) and \
            any(".Config.Env" in a for a in command.args):
        return "prints a container's environment, secrets with it"
    if head.startswith("git") and _asks_credential_helper(command):
        return "asks a git credential helper for a stored password"
    if head in _PRINTER_NAMES:
        args = command.args
        for name, prefix, why in _PRINTERS:
            if head == name and all(p in args for p in prefix) and (
                    name != "security" or {"w", "g"} & short_flags(args) or not prefix[0].startswith("find-")) and \
                    not (name in ("aws", "az") and _selects_no_secret(args)):
                return why
    code = command.inline_code
    if code is not None:
        text = code[1][: 1 << 16]
        if _DOTENV.search(text):
            return "loads .env through a dotenv loader"
        if _ENV_DUMP.search(text):
            return "prints every environment variable, secrets with them"
    return None


def _asks_credential_helper(command: Command) -> bool:
    """``git credential-store get``, ``git-credential-osxkeychain get``: a helper asked for the
    password it stores, printed (as ``git credential fill`` prints it); ``store`` and ``erase`` print none."""
    if command.name.startswith("git-credential-"):
        args = list(command.args)
    else:
        sub = git_args(command)
        if sub is None or not sub[0].startswith("credential-"):
            return False
        args = sub[1]
    return "get" in operands(args)


# Commands whose first operand is a pattern or a script, unless an option gives it (-e, -f).
_PATTERN_FIRST = {"grep": ("-e", "-f", "--regexp", "--file"), "egrep": ("-e", "-f", "--regexp", "--file"),
                  "fgrep": ("-e", "-f", "--regexp", "--file"), "rg": ("-e", "-f", "--regexp", "--file"),
                  "ag": ("-f",), "ack": ("--match",), "sed": ("-e", "-f", "--expression", "--file"),
                  "awk": ("-f", "--file"), "gawk": ("-f", "--file")}


def _pattern_operand(name: str, args: list[str]) -> str | None:
    """The pattern of ``grep PATTERN FILE...`` (or sed's script, awk's program), when no
    option gives it: it names no file."""
    given = _PATTERN_FIRST.get(name)
    if given is None or any(a in given or a.startswith(tuple(g + "=" for g in given if g.startswith("--"))) or
                            re.fullmatch(r"-[A-Za-z]*[ef][A-Za-z]*", a) and name != "awk" and name != "gawk"
                            or name in ("awk", "gawk") and a.startswith("-f")
                            for a in args if a != "--"):
        return None
    first = operands(args)[:1]
    return first[0] if first else None


#: ssh and its kin: a key given with -i (or IdentityFile) authenticates, it is never printed
_SSH_CLIENTS = frozenset({"ssh", "scp", "sftp", "ssh-copy-id", "autossh", "mosh", "sshfs"})


def _settings_and_keys(command: Command) -> list[str]:
    """Words of ``command`` that name a key it uses or a setting it takes, not a file it
    shows: ``ssh -i ~/.ssh/deploy_key host``, ``ssh-add KEY``, ``ssh-keygen -y -f KEY``
    (the public half, or -l its fingerprint), git's ``-c KEY=VALUE`` and rsync's ``-e
    'ssh -i KEY'`` (the shell text they run is judged as its own command)."""
    name, args = command.name, list(command.args)
    if name == "ssh-add":
        return operands(args)
    if name == "ssh-keygen":  # -y, -l, -e show the public half or a fingerprint; not -p: it rewrites the key
        shows = bool(short_flags(args) & {"y", "l", "e"})
        return [args[k + 1] for k, a in enumerate(args[:-1]) if shows and re.fullmatch(r"-[a-zA-Z]*f", a)]
    valued = {"git": ("-c",), "rsync": ("-e", "--rsh")}.get(name, ("-i",) if name in _SSH_CLIENTS else ())
    used = [args[k + 1] for k, a in enumerate(args[:-1]) if a in valued]
    if name in _SSH_CLIENTS:
        used += [a for a in args if a.startswith("-i") and len(a) > 2]
        used += [a for k, a in enumerate(args) if k and args[k - 1] == "-o" and a.lower().startswith("identityfile")]
    if name == "rsync":
        used += [a for a in args if a.startswith("--rsh=")]
    git = git_args(command)
    if git is not None and git[0] == "config":  # git config core.sshCommand 'ssh -i KEY': code, judged as run
        values = [a for a in git[1] if not a.startswith("-")]
        used += values[1:2] if len(values) >= 2 and runs_as_code(values[0]) else []
    if name in ("export", "declare", "typeset"):  # export GIT_SSH_COMMAND='ssh -i KEY': code, judged as run
        used += [a for a in args if code_variable(a.partition("=")[0])]
    if name == "openssl" and operands(args)[:1] in (["s_server"], ["s_client"], ["s_time"]):
        used += [args[k + 1] for k, a in enumerate(args[:-1]) if a in _TLS_KEYS]  # the key serves TLS, unshown
    if name == "find" and not _FIND_RUNS & set(args):  # find / -name id_rsa: a name looked for, never read
        used += [args[k + 1] for k, a in enumerate(args[:-1]) if a in _FIND_PATTERNS]
    # kubectl's, helm's, k9s' ... --kubeconfig FILE: the cluster's credentials used, not shown
    used += [args[k + 1] for k, a in enumerate(args[:-1]) if a == "--kubeconfig"]
    used += [w for a in args if a.startswith("--kubeconfig=") for w in (a, a.partition("=")[2])]
    # docker's, compose's, node's, deno's, uv's --env-file .env: the variables set for what runs, not
    # printed (what runs is judged: `docker run --env-file .env alpine env` prints them, and denies)
    used += [args[k + 1] for k, a in enumerate(args[:-1]) if a == "--env-file"]
    used += [w for a in args if a.startswith("--env-file=") for w in (a, a.partition("=")[2])]
    return used


def _find_names(command: Command) -> list[str]:
    """The names ``find`` looks for (``-name id_rsa``): what it prints, and what a reader
    it feeds (``| xargs cat``) opens."""
    args = list(command.args)
    return [args[k + 1] for k, a in enumerate(args[:-1]) if a in _FIND_PATTERNS]


#: ed's commands on its input that read a file into the buffer: `e FILE`, `E FILE`, `r FILE`
_ED_READS = Lazy(r"^\s*(?:[0-9$.,]*r|[eE])\s+([^\s!][^\n]*?)\s*$", re.M)
#: a name find looks for inside a loop's list (`for f in $(find / -name .netrc)`)
_FIND_NAME = Lazy(r"""-i?(?:name|path)\s+["']?([^"'\s)]+)""", needs=("name", "path"))
#: how a command inside a substitution is reached: its output becomes words another command
#: reads (`cat $(find ~/.ssh -type f)`)
_SUBSTITUTIONS = frozenset({"$(", "`", "<(", ">("})


#: a glob of a path of the machine or the home in a loop's list, bare or given to ls
_LOOPED_GLOB = Lazy(r"""(?:^|(?<=[\s`(]))([~/][^\s`'")]*[*?\[][^\s`'")]*)""", needs=("*", "?", "["))


def _one_of(glob: str, context: Context) -> str:
    """One path a glob names, spelt out (``/proc/*/environ`` is ``/proc/1/environ``), the home put in."""
    path = re.sub(r"\[([^\]])[^\]]*\]", r"\1", glob).replace("*", "1").replace("?", "x")
    return context.home + path[1:] if path.startswith("~/") else path


def _without_starts(find: Command) -> Command:
    """``find`` without the directories it starts from (its words before the first test or
    action: ``find //.aws ~/.config -name x``), for a find that only prints names."""
    count = 0
    for arg in find.args:
        if arg.startswith(("-", "(", "!", ")")):
            break
        count += 1
    return find._replace(argv=find.argv[:1] + find.argv[1 + count:], words=find.words[:1] + find.words[1 + count:])


_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack"})


def _searched_everywhere(command: Command, context: Context) -> str | None:
    """``grep -rni PASSWORD /``, ``rg -i api_key ~``: a recursive search for a secret's word
    over the whole machine or home prints the line of every file that has one (``.env``,
    keys, cloud credentials among them); the project's own tree is the agent's to search."""
    if command.name not in _SEARCHERS:
        return None
    args = list(command.args)
    if command.name in ("grep", "egrep", "fgrep") and not (short_flags(args) & {"r", "R"} or
                                                          {"recursive", "dereference-recursive"} & long_flags(args)):
        return None
    given = [args[k + 1] for k, a in enumerate(args[:-1]) if a in ("-e", "--regexp") or re.fullmatch(r"-[a-zA-Z]*e", a)]
    given += [a.partition("=")[2] for a in args if a.startswith("--regexp=")]
    roots = operands(args) if given else operands(args)[1:]
    pattern = " ".join(given) if given else " ".join(operands(args)[:1])
    if not _SECRET_NAME.search(pattern):
        return None
    home = context.home.rstrip("/") if context.home else None
    return next((r for r in roots if r in ("/", "~", "~/") or home and r.rstrip("/") == home), None)


#: openssl s_server's and s_client's options that name the key and certificates a TLS
#: connection authenticates with
_TLS_KEYS = frozenset({"-key", "-cert", "-dkey", "-dcert", "-CAfile", "-chainCAfile", "-cert_chain", "-pass"})
#: find's tests whose value is a pattern of names, not a file
_FIND_PATTERNS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex",
                            "-iregex", "-lname", "-ilname"})
#: find's actions that hand each file found to a command (``-exec cat {} \;``): then the
#: names it looks for are the files read
_FIND_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


#: AppleScript's and JXA's dialog that hides what the user types: what asks for a password
_PASSWORD_DIALOG = Lazy(r"(?is)display\s*dialog.{0,2000}?(?:with\s+hidden\s+answer|hiddenAnswer\s*:\s*true)",
                        needs=("hidden", "Hidden"))


def _reads_certificates(command: Command) -> bool:
    """``openssl x509 -in cert.pem -text``: a certificate command (:data:`_CERTIFICATE_READERS`)."""
    ops = operands(list(command.args))
    if command.name == "security":  # security verify-cert -c cert.pem: a certificate checked, as openssl verify
        return ops[:1] in (["verify-cert"], ["find-certificate"])
    if command.name != "openssl":
        return False
    return bool(ops) and ops[0] in _CERTIFICATE_READERS


def _dumps_environment(command: Command) -> bool:
    """``env``, ``printenv``, ``export``/``set``/``declare`` alone, ``export -p``: every variable;
    ``ps eww``, ``ps auxe`` (BSD's ``e``, not ``-e``): every process's variables."""
    return (not command.argv and command.wrapper_names[-1:] == ("env",)
            or command.name in ("env", "printenv", "export", "set", "declare") and not command.args
            or command.name in ("export", "declare", "typeset") and command.args in (("-p",), ("-x",))
            or command.name == "ps" and command.args[:1] != () and command.args[0].isalpha() and "e" in command.args[0])


def _dumps_container_environment(command: Command) -> bool:
    """``docker exec app env``, ``kubectl exec pod -- printenv``: every variable of a
    container (its database password, its API keys) printed."""
    if command.name not in ("docker", "podman", "nerdctl", "docker-compose", "podman-compose", "kubectl", "oc"):
        return False
    inner = inner_command(command.name, list(command.args))
    return inner is not None and (inner[0] in ("env", "printenv") and not inner[1] or
                                  inner[0] in ("export", "declare") and inner[1] in ([], ["-p"]))


_COUNTERS = frozenset({"grep", "egrep", "fgrep", "rg"})
_COUNTING = frozenset({"--count", "--quiet", "--silent", "--files-with-matches", "--files-without-match"})


def _lists_contents(command: Command) -> bool:
    """``file -f LIST``, ``file -m MAGIC``: file reads the lines of LIST as names (and prints
    each with its error) or MAGIC as its rules (and prints each line it cannot parse); and
    ``xargs -a FILE echo``: the lines of FILE become the words echo prints."""
    if any(posixpath.basename(w[0]) == "xargs" and any(a.startswith(("-a", "--arg-file")) for a in w[1:])
           for w in command.wrappers):
        return True
    return command.name == "file" and any(a in ("-f", "-m", "--files-from", "--magic-file") or
                                          a.startswith(("--files-from=", "--magic-file=")) for a in command.args)


#: variables a filter of the environment may name without reaching a secret's line: the
#: shell's own and the toolchains' places and versions (`env | grep PATH`, `printenv | grep -i java`)
_PLAIN_VARIABLES = frozenset({"PATH", "HOME", "SHELL", "LANG", "TERM", "USER", "PWD", "EDITOR", "VISUAL", "DISPLAY",
                              "JAVA", "JAVA_HOME", "PYTHON", "PYTHONPATH", "CONDA", "VIRTUAL_ENV", "NVM", "GOROOT",
                              "GOPATH", "NODE_ENV", "NODE_OPTIONS", "RUSTUP_HOME", "CARGO_HOME", "TZ", "HOSTNAME",
                              "LOGNAME", "TMPDIR", "DEBUG", "PORT", "CI", "LD_LIBRARY_PATH", "MANPATH", "PS1", "SHLVL",
                              "LANGUAGE", "LC_ALL", "CONDA_PREFIX"})
_PLAIN_PREFIXES = ("LC_", "XDG_", "CONDA_", "JAVA_", "PYENV", "NVM_", "HOMEBREW_")


def _keeps_plain(command: Command) -> bool:
    """``grep PATH``, ``grep -i ^java``: a filter that keeps only lines naming a plain
    variable (no context lines around them, not inverted)."""
    if command.name not in _COUNTERS:
        return False
    args = list(command.args)
    if short_flags(args) & {"v", "A", "B", "C", "e", "f"} or \
            long_flags(args) & {"invert-match", "after-context", "before-context", "context", "regexp", "file"}:
        return False
    pattern = _pattern_operand(command.name, args)
    literal = (pattern or "").lstrip("^").rstrip("=").upper()
    return literal.replace("_", "").isalnum() and not _SECRET_NAME.search(literal) and \
        (literal in _PLAIN_VARIABLES or literal.startswith(_PLAIN_PREFIXES))


def _only_counts(command: Command) -> bool:
    """Whether ``command`` prints no line it reads: ``wc``, ``grep -c`` / ``-q`` / ``-l``."""
    if command.name == "wc":
        return True
    args = list(command.args)
    return command.name in _COUNTERS and bool(short_flags(args) & {"c", "q", "l", "L"} or long_flags(args) & _COUNTING)



# what the line cannot know in a path: a substitution `$(pgrep x)`, a variable `$DIR`, `${DIR}`
_UNKNOWN_PART = Lazy(r"\$\([^()]*\)|\$\{[^{}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$[$!#?0-9]", needs=("$",))


def _with_unknown_parts(word: str, context: Context, cwd: str) -> str | None:
    """``word`` with what the line cannot know put as one plain name (``/proc/$(pgrep x)/environ``
    -> ``/proc/_/environ``): the rest of the path still says what it names, so a secret file
    whatever the unknown part is (another process's environment, ``$DIR/.env``) is judged as one."""
    known = _UNKNOWN_PART.sub("_", word)
    return None if "$" in known or "`" in known else resolve(known, context, cwd)


#: clients that take their own commands on their input (or in -e/-c), and those of their commands
#: that open a local file: ftp's put, sqlite3's .import, psql's \\i, mysql's source
_SCRIPT_READS = {**dict.fromkeys(("ftp", "sftp", "lftp", "tftp", "ncftp", "smbclient"),
                                 frozenset({"put", "mput", "append", "send", "reput"})),
                 "sqlite3": frozenset({".import", ".read"}), "psql": frozenset({"\\i", "\\ir", "\\include"}),
                 **dict.fromkeys(("mysql", "mariadb"), frozenset({"source", "\\."}))}


def _read_by_script(command: Command) -> list[str]:
    """The local files a client's own commands open (``put .env x``, ``mput *.key``,
    ``.import .env t``)."""
    args = list(command.args)
    script = "\n".join([command.stdin or "", *shell.option_values(args, "-e", "--execute"),
                         *shell.option_values(args, "-c", "--command"), *(a for a in args if a.startswith("."))])
    verbs, read = _SCRIPT_READS[command.name], []
    for line in script.replace(";", "\n").splitlines()[:1024]:
        words = line.split()
        if len(words) > 1 and words[0].lower() in verbs:
            read += words[1:] if words[0].lower() == "mput" else words[1:2]
    return read


def _names_found_for(command: Command) -> list[str]:
    """The names the ``find`` feeding ``command`` looks for (``find ~ -name .env | xargs cat``)."""
    return [n for f in command.feeders if f.name == "find" for n in _find_names(f)]


def _opens_names_on_stdin(command: Command) -> bool:
    """``cpio -o``/``-p``, ``zip -@``, ``tar -T -``, ``rsync --files-from=-``: each line of the
    input names a file the program opens and copies."""
    name, args = command.name, command.args
    if name == "cpio":
        return any(a in ("--create", "--pass-through") or a[:1] == "-" and a[1:2] != "-" and ("o" in a or "p" in a)
                   for a in args)
    if name == "zip":
        return "-@" in args or "--names-stdin" in args
    if name in ("tar", "gtar", "bsdtar", "rsync"):
        return any(a in ("--files-from=-", "-T-") or a in ("-T", "--files-from") and args[k + 1:k + 2] == ("-",)
                   for k, a in enumerate(args))
    return False


def _logs_in_from_stdin(command: Command) -> bool:
    """``docker login --password-stdin`` (podman, helm registry, oras, skopeo ...),
    ``gh auth login --with-token``: reads a credential on its input and prints none."""
    args = command.args
    return "--password-stdin" in args or command.name == "gh" and "--with-token" in args and "login" in args


class SecretFiles(Guard):
    name = "secret_files"
    summary = "Reading or writing credential files (.env, ~/.ssh, *.pem, cloud credentials)"
    catches = ("Read .env", "cat .env", "grep -r KEY .env*", "cat ~/.ssh/id_rsa", "cp ~/.aws/credentials x",
               "Write server.pem", "source .env.production", "base64 ~/.kube/config")
    options = (
        Option("patterns", "list", SECRET_FILES, "Globs of secret files (a glob with a slash is a path)"),
        Option("allow", "list", NOT_SECRET, "Globs that are not secret though they match (.env.example, *.pub)"),
    )
    tools = frozenset({"bash", "read", "write", "edit", "glob", "grep"})

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self._patterns = PathPatterns(self.opts["patterns"])
        self._allowed = PathPatterns(self.opts["allow"])

    def judge_file(self, tool: str, tool_args: Mapping[str, Any], context: Context) -> Ruling:
        verb = "writes" if tool in WRITE_TOOLS else "reads"
        for word in paths_of(tool_args):
            path = resolve(word, context)
            if path is not None and self._secret(path, context):
                return self.verdict(DENY, word, f"{verb} a secret file",
                                    "Ask the user for the one value you need, or use the .env.example file")
        pattern = tool_args.get("pattern") if tool == "glob" else tool_args.get("glob") if tool == "grep" else None
        if isinstance(pattern, str) and self._glob_reaches(pattern, context):
            return self.verdict(DENY, pattern, "searches secret files", "Leave secret files out of the pattern")
        return ALLOWED

    def _glob_reaches(self, pattern: str, context: Context) -> bool:
        """Whether a glob (``.env*``, ``**/*.pem``) can name a secret file; a glob of a path of the
        machine or the home (``/etc/sha*``, ``/etc/shado[w]``, ``~/.ss?/id_*``) is matched against
        the secret files every machine has."""
        name = pattern.rsplit("/", 1)[-1]
        if pattern.startswith(("/", "~/")) and re.sub(r"[*?\[\].]", "", name):  # `~/*`: every file, as below
            parts = (context.home + pattern[1:] if pattern.startswith("~/") else pattern).split("/")
            if any(len(path.split("/")) == len(parts) and self._secret(path, context) and
                   all(fnmatchcase(p, q) for p, q in zip(path.split("/"), parts))  # a * stays in its directory
                   for path in (s.replace("~", context.home, 1) for s in _MACHINE_SAMPLES)):
                return True
        if re.sub(r"[*?\[\].]", "", name) == "" and not name.startswith("."):
            return False  # `*`, `*.*`: every file; a guard on that would refuse every glob (`.*` is the hidden ones)
        return any(fnmatchcase(sample, name) and self._secret(f"{context.project_root}/{sample}", context)
                   for sample in _SAMPLES)

    def judge_shell(self, parsed: shell.Parsed, context: Context) -> Ruling:
        # `env | grep -c PATH`, `printenv | wc -l`: a dump whose next command only counts
        # or tests its lines prints no value, and `env | grep PATH` only the lines of plain
        # variables; every other consumer (grep KEY, sort, tee) passes values on, and the
        # dump is judged as it is.
        counted = {id(c.feeders[-1]) for c in parsed.commands if c.feeders and (_only_counts(c) or _keeps_plain(c))}
        # `aws ecr get-login-password | docker login --password-stdin`: a credential printed
        # straight into the one command that logs in with it never reaches the transcript.
        logged_in = {id(c.feeders[-1]) for c in parsed.commands if c.feeders and _logs_in_from_stdin(c)}
        looped = self._reads_looped_names(parsed, context)
        if looped is not None:
            return looped
        # `find ~/.aws -name credentials`: the names under a directory printed, none read (find
        # -exec cat, or a find whose names a reader takes through a pipe, still reads them)
        feeding = {id(f) for c in parsed.commands for f in c.feeders}
        names_only = {id(c) for c in parsed.commands if c.name == "find" and id(c) not in feeding and
                      c.via not in _SUBSTITUTIONS and not _FIND_RUNS.intersection(c.args) and
                      not any(r.mode in ("write", "append") and r.fd in (None, "1") and r.target != "/dev/null"
                              for r in c.redirects)}  # a list saved to a file a later command may read
        if names_only:
            parsed = parsed._replace(commands=tuple(_without_starts(c) if id(c) in names_only else c
                                                    for c in parsed.commands))
        if counted or logged_in:
            parsed = parsed._replace(commands=tuple(
                c for c in parsed.commands
                if not (id(c) in counted and (_dumps_environment(c) or _dumps_container_environment(c))) and
                not (id(c) in logged_in and c.inline_code is None and _prints_secret(c) is not None)))
        return super().judge_shell(parsed, context)

    def _reads_looped_names(self, parsed: shell.Parsed, context: Context) -> Ruling | None:
        """``for f in $(find /home -name .netrc); do cat $f; done``: the loop's variable holds the
        files find names, so a reader given the variable reads each (a secret's name, judged as
        that name under the home); ``ls $f`` and ``wc -l $f`` print none of it."""
        for variable, words in parsed.loops:
            names = [m.group(1) for w in words if "find" in w.text for m in _FIND_NAME.finditer(w.text)]
            secret = next((n for n in names if "*" not in n and self._secret(context.home + "/" + n, context)), None) or \
                next((g for w in words for g in (m.group(1) for m in _LOOPED_GLOB.finditer(w.text))
                      if self._secret(_one_of(g, context), context)),
                     None)  # for f in /proc/*/environ, for e in `ls /proc/*/environ`: each file the glob names
            if secret is None:
                continue
            use = Lazy(rf"^\$\{{?{re.escape(variable)}\}}?$")
            for command in parsed.commands:
                fed = any(w[0].rpartition("/")[2] == "xargs" and any(use.search(a) for a in w[1:])
                          for w in command.wrappers)  # xargs -0 -a $e: the file's entries, printed
                if fed or command.name not in _METADATA and not _only_counts(command) and \
                        command.name not in ("echo", "printf") and any(use.search(w.text) for w in command.words[1:]):
                    return self.verdict(DENY, " ".join(command.argv), f"reads each file named {secret} that the loop's "
                                        "list hands it (a find's names, a glob's files)", "Ask the user for the one value you need")
        return None

    def judge_command(self, command: Command, context: Context) -> Ruling:
        shown = " ".join(command.argv)
        if _dumps_environment(command):
            bare = " ".join(w for wrapper in command.wrappers for w in wrapper)  # `env` alone is a wrapper of nothing
            return self.verdict(DENY, shown or bare, "prints every environment variable, secrets with them",
                                "Print the one variable you need by name (echo \"$NODE_ENV\")")
        if _dumps_container_environment(command):
            return self.verdict(DENY, shown, "prints every environment variable of the container, secrets with them",
                                "Print the one variable you need by name (docker exec app printenv NODE_ENV)")
        if command.name == "printenv" and any(_SECRET_NAME.search(a) for a in operands(list(command.args))):
            return self.verdict(DENY, shown, "prints a secret variable by name",
                                "Check that it is set without printing it: test -n \"$VAR\"")
        if command.name in ("echo", "printf") or command.name.lower() in _POWERSHELL_PRINTERS:
            secret = next((m.group(1) for w in command.words[1:] for m in _SECRET_VAR.finditer(w.text)
                           if w.dynamic), None)
            if secret is not None:
                return self.verdict(DENY, shown, f"prints the secret variable {secret}",
                                    "Check that it is set without printing it: test -n \"$VAR\"")
        printed = _prints_secret(command)
        if printed is not None:
            return self.verdict(DENY, shown, printed, "Let the tool use the credential itself; never print it")
        # a grep that only counts or tests (`grep -q KEY .env`, `grep -c = .env`, `-l`) prints no
        # line of the file, as `wc -l .env` prints none: the check whether a key is set
        if (command.name in _METADATA and not _lists_contents(command) or _only_counts(command)) and \
                not any(r.mode in ("write", "append") for r in command.redirects) or \
                not command.argv and not command.redirects or _reads_certificates(command):
            return ALLOWED
        if command.name == "ssh-keygen" and _makes_a_key(command):
            return ALLOWED  # ssh-keygen -t ed25519 -f ~/.ssh/id_work: a new key, written, never shown
        if command.name == "openssl" and _openssl_makes_a_key(list(command.args)):
            return ALLOWED  # openssl genrsa -out rootCA.key 4096: a new key, written, never shown
        if command.name == "osascript" and any(_PASSWORD_DIALOG.search(a) for a in command.args):
            return self.verdict(ASK, shown, "shows a dialog of its own that asks for a hidden answer: a password "
                                "prompt the user cannot tell from the system's", "Let the program that needs the "
                                "password ask for it itself")
        dumper = next((w for w in command.argv[:2] if _DUMPERS.search(w.lower())), None)
        if dumper is not None:
            return self.verdict(DENY, shown, f"runs a credential dumper ({posixpath.basename(dumper)}): it reads "
                                "every saved password it finds", "Ask the user for the one credential needed")
        git = git_args(command)
        if git is not None and (git[0] in _GIT_NAMES or git[0] == "rm" and "--cached" in git[1]):
            return ALLOWED  # git check-ignore .env, git rm --cached .env: the name, never the content
        cwd = command_cwd(command, context)
        if cwd is None:
            return ALLOWED
        words = [w.text for w in command.words[1:]] + [r.target for r in command.redirects if r.mode != "dup" and
                                                      r.mode != "stdin"]
        if command.name in ("ed", "red", "ex") and command.stdin is not None:  # `echo 'e /etc/shadow' | ed`
            words += [m.group(1) for m in _ED_READS.finditer(command.stdin[: 1 << 16])]
        pattern = _pattern_operand("grep", git[1]) if git is not None and git[0] == "grep" else \
            _pattern_operand(command.name, list(command.args))
        if pattern is not None and pattern in words:
            words.remove(pattern)  # `grep -rn process.env src/`: a pattern, not the file process.env
        for used in _settings_and_keys(command):  # what authenticates or configures is not read out
            if used in words:
                words.remove(used)  # the first only: `ssh -i K host cat K` still shows K
        if "xargs" in command.wrapper_names:
            if command.name not in _METADATA:  # find | xargs cat: the names find looks for are opened
                words += _names_found_for(command)
            for wrapper in command.wrappers:  # xargs -a FILE: its lines become the arguments, printed by echo
                if posixpath.basename(wrapper[0]) == "xargs":
                    words += [v for v in shell.option_values(list(wrapper[1:]), "-a", "--arg-file") if v]
        if _opens_names_on_stdin(command):  # echo .env | cpio -o: the names it is fed are opened
            words += (command.stdin or "").split()[:256] + _names_found_for(command)
        if command.name in _SCRIPT_READS:  # printf 'put .env\n' | ftp host: the files its own commands open
            words += _read_by_script(command)
        searched = _searched_everywhere(command, context)
        if searched is not None:
            return self.verdict(DENY, shown, f"searches every file under {searched} for secrets and prints each "
                                "line found", "Search the project's own code, or ask the user for the value")
        words += [w.partition("=")[2] for w in words if "=" in w]
        words += [w.lstrip("@") for w in words if w.startswith("@")]
        code = command.inline_code
        if code is not None:
            words += [m.group(1) for m in _LITERAL.finditer(code[1][: 1 << 16])]
        scripts = shell.scripts_of(command)  # `bash -c 'cat .env'`: judged as `cat .env`, its own command
        created = self._created_from_template(command, context, cwd)
        if created is not None and created in words:
            keeps = "n" in short_flags(command.args) or "--no-clobber" in long_flags(command.args) or \
                any(a.startswith("--update=none") for a in command.args)
            if not keeps and posixpath.lexists(resolve(created, context, cwd) or "/"):
                return self.verdict(DENY, shown, f"overwrites the secret file {created}",
                                    "Copy the template with cp -n (it never overwrites), or ask the user")
            words.remove(created)
        for word in words:
            if not word or word.startswith("-") and "=" not in word or word in scripts or _remote_url(word):
                continue
            if any(c in word for c in "*?[") and self._glob_reaches(word, context):
                return self.verdict(DENY, shown or word, f"reaches secret files through the glob {word}",
                                    "Leave secret files out of the pattern")
            path = resolve(word, context, cwd)
            if path is None and "$" in word:
                path = _with_unknown_parts(word, context, cwd)
            if path is not None and self._secret(path, context):
                return self.verdict(DENY, " ".join(command.argv) or word, f"reaches the secret file {word}",
                                    "Ask the user for the one value you need, or read the .env.example file")
        return ALLOWED

    def _created_from_template(self, command: Command, context: Context, cwd: str) -> str | None:
        """The secret file ``cp .env.example .env`` makes from a file that is not one (the
        setup step of every project with a dotenv): no secret is read, and none is lost
        where the file does not exist yet (the caller looks) or ``cp -n`` keeps it."""
        if command.name != "cp" or any(a in ("-t", "--target-directory") or a.startswith("--target-directory=")
                                       for a in command.args):
            return None
        files = operands(list(command.args))
        if len(files) != 2:
            return None
        source, target = (resolve(f, context, cwd) for f in files)
        if source is None or target is None or self._secret(source, context) or not self._secret(target, context):
            return None
        return files[1]

    def _secret(self, path: str, context: Context) -> bool:
        if not path:
            return False
        return self._patterns.match(path, context) and not self._allowed.match(path, context)


#: ssh-keygen's options that read a key it is given (a passphrase changed, the public half
#: printed, an export, an import, a comment changed): the rest make a new key or read no secret
_KEYGEN_READS = Lazy(r"^-[A-Za-z]*[pyeicB]")


#: programs whose whole purpose is to read every saved credential on a machine
_DUMPERS = Lazy(r"(?:^|/)(?:lazagne|mimipenguin|mimikatz|pypykatz|secretsdump|lsassy|firefox_decrypt|hack-browser-data|"
                r"chrome_?decrypt|dumpcreds|linpeas_creds)[\w.-]*$",
                needs=("lazagne", "mimi", "pypykatz", "secretsdump", "lsassy", "decrypt", "hack-browser", "dumpcreds",
                       "linpeas"))


def _openssl_makes_a_key(args: list[str]) -> bool:
    """``openssl genrsa -out K``, ``genpkey``, ``ecparam -genkey``, ``req -newkey ... -keyout K``:
    a new private key written to a file (``openssl rsa -in K`` reads one; ``genrsa`` with no
    ``-out`` prints it)."""
    ops = operands(args)
    if not ops or "-out" not in args and "-keyout" not in args:
        return False
    return ops[0] in ("genrsa", "genpkey", "gendsa") or ops[0] == "ecparam" and "-genkey" in args or \
        ops[0] == "req" and ("-newkey" in args or "-new" in args and "-key" not in args)


def _makes_a_key(command: Command) -> bool:
    """``ssh-keygen [-t T] [-b N] [-C c] [-N pass] -f PATH``: a key made at PATH, not one
    read; fed nothing (``yes | ssh-keygen -f key`` answers its question to overwrite one)."""
    return not command.feeders and command.stdin is None and \
        not any(_KEYGEN_READS.match(a) for a in command.args if a.startswith("-") and not a.startswith("--"))


# -- hard-coded secrets ------------------------------------------------------------------------------
_SHAPES: tuple[tuple[str, Lazy], ...] = tuple((name, Lazy(pattern)) for name, pattern in (
    ("an AWS access key", r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    ("a GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})"),
    ("a GitLab token", r"\bglpat-[A-Za-z0-9_-]{20,}"),
    ("an Anthropic key", r"\bsk-ant-[A-Za-z0-9_-]{32,}"),
    ("an OpenAI key", r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}"),
    ("a Slack token", r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    ("a Stripe key", r"\b(?:sk|rk)_live_[A-Za-z0-9]{20,}"),
    ("a Google API key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
    ("an npm token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("a PyPI token", r"\bpypi-AgE[A-Za-z0-9_-]{50,}"),
    ("a SendGrid key", r"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b"),
    ("a Twilio key", r"\bSK[0-9a-f]{32}\b"),
    ("a Hugging Face token", r"\bhf_[A-Za-z0-9]{34,}\b"),
    ("a private key", r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----"),
    ("an Azure storage key", r"AccountKey=[A-Za-z0-9+/]{80,}={0,2}"),
    ("a Slack webhook", r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_]{20,}"),
))
#: more services' tokens by their own prefixes (gitleaks' rules), tried only where one of
#: :data:`_MORE_PREFIXES` is
_MORE_SHAPES: tuple[tuple[str, Lazy], ...] = tuple((name, Lazy(pattern)) for name, pattern in (
    ("a Shopify token", r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b"),
    ("a DigitalOcean token", r"\bdo[por]_v1_[a-f0-9]{64}\b"),
    ("a Linear key", r"\blin_api_[A-Za-z0-9]{40}\b"),
    ("a Doppler token", r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b"),
    ("a Square token", r"\bsq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}\b"),
    ("a Databricks token", r"\bdapi[a-f0-9]{32}(?:-\d)?\b"),
    ("a Pulumi token", r"\bpul-[a-f0-9]{40}\b"),
    ("a Vault token", r"\bhv[sb]\.[A-Za-z0-9_-]{24,}"),
    ("a Grafana token", r"\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b|\bglc_[A-Za-z0-9+/]{32,}={0,2}"),
    ("an age key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    ("a Mailgun key", r"\bkey-[0-9a-f]{32}\b"),
))
#: a password in a database's or broker's URL (``postgres://app:S3cr3t@db.example.com``); one for a
#: local server (``postgres://postgres:postgres@localhost``) is a development default, no secret
_CREDENTIAL_URL = Lazy(r"\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver)://"
                       r"[^:/\s@'\"]+:([^@\s/'\"]{8,})@([^/:\s'\"?]+)", needs=("://",))
_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "::1", "db", "postgres", "mysql", "redis", "mongo",
                          "mongodb", "rabbitmq", "database", "host.docker.internal"})
# api_key = "literal", "password": "literal", SECRET_TOKEN=literal
_ASSIGNED = Lazy(r"""(?i)\b([a-z0-9_.-]*(?:secret|password|passwd|api[_-]?key|access[_-]?key|auth[_-]?token|
                           private[_-]?key|client[_-]?secret|token)[a-z0-9_]*)["']?\s*[:=]\s*["']([^"'\s]{12,})["']""",
                       re.VERBOSE)
_PLACEHOLDER = Lazy(r"(?i)x{4,}|\*{3,}|your|example|changeme|placeholder|dummy|sample|test|fake|redacted|"
                          r"<[^>]*>|\$\{|\{\{|process\.env|os\.environ|getenv|env\(|secrets\.|\.\.\.|0{8,}|1234")
# A token's own shape is specific: only an obvious stand-in makes it not a secret.
_STAND_IN = Lazy(r"(?i)x{6,}|\*{3,}|your|example|placeholder|dummy|redacted|<[^>]*>|\.\.\.")


# Each shape starts with a literal: one pass looks for the literals, and only where one
# is found are the shapes tried (15 searches over a 2 KB file cost ~15x one; bench/guard_judge.py).
_PREFIXES = Lazy(r"AKIA|ASIA|ABIA|ACCA|gh[pousr]_|github_pat_|glpat-|sk-|xox[abprs]-|[sr]k_live_|AIza|npm_|"
                       r"pypi-|SG\.|SK[0-9a-f]|hf_|-----BEGIN|AccountKey=|hooks\.slack\.com")
#: the rarer services' prefixes, looked for in a pass of their own only where one of theirs is
#: in the text: in the pass above, the "SK" of any DISK or ASK in code ran them all (2 KB of python,
#: timeit of find_secret: 150 -> 280 us so, back to 110-140 apart; their substring tests cost 2 KB of
#: prose some 15 us)
_MORE_PREFIXES = Lazy(r"shp(?:at|ss|ca|pa)_|do[por]_v1_|lin_api_|dp\.|sq0|dapi|pul-|hv[sb]\.|gl(?:sa|c)_|"
                      r"AGE-SECRET-KEY-|key-")
_NAMES = ("secret", "password", "passwd", "key", "token")
# Substring tests are ~4x cheaper than the regular expression over text that holds none.
_TRIGGERS = ("AKIA", "ASIA", "ABIA", "ACCA", "gh", "github_pat_", "glpat-", "sk-", "xox", "k_live_", "AIza", "npm_",
             "pypi-", "SG.", "SK", "hf_", "-----BEGIN", "AccountKey=", "hooks.slack.com")
_MORE_TRIGGERS = ("shp", "_v1_", "lin_api_", "dp.", "sq0", "dapi", "pul-", "hvs.", "hvb.", "glsa_", "glc_",
                  "AGE-SECRET-KEY-", "key-")
# A Discord bot token starts with M, N or O, letters every text holds: as one of the prefixes
# above it made the pass run on nearly every text (37 -> 157 us a 2 KB of prose). It is
# found by its middle instead, a dot, six characters and a dot, which the search skips to.
_DISCORD_MIDDLE = Lazy(r"\.[A-Za-z0-9_-]{6}\.", needs=(".",))
_DISCORD = Lazy(r"[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])")
#: a Telegram bot's token (also after /bot in its API's URL): digits first, so found by its ":AA"
_TELEGRAM = Lazy(r"(?<![0-9])[0-9]{8,10}:AA[0-9A-Za-z_-]{33}(?![0-9A-Za-z_-])")
_TOKEN_CHAR = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


#: a test's own file: its fixtures are credentials by name only (``token = "eyJ..."``)
_TEST_FILE = Lazy(r"(?:^|/)(?:tests?|__tests__|spec|specs|fixtures?|testdata|__mocks__)/|(?:^|/)test_[^/]*$|"
                  r"[._-](?:test|spec)\.[^/.]+$")


def _shaped(text: str, prefixes: Lazy, shapes: tuple[tuple[str, Lazy], ...]) -> tuple[str, str] | None:
    """The first token of one of ``shapes`` that starts where one of ``prefixes`` is."""
    for hit in prefixes.finditer(text):
        start = max(hit.start() - 1, 0)
        for what, pattern in shapes:
            match = pattern.search(text, start, hit.start() + 200)
            if match is not None and match.start() == hit.start() and not _STAND_IN.search(match.group(0)):
                return what, match.group(0)
    return None


def find_secret(text: str, *, by_shape_only: bool = False) -> tuple[str, str] | None:
    """``(what, the match)`` for the first secret in ``text``, or None. ``by_shape_only``:
    only a token of a known shape (``AKIA...``, ``ghp_...``), not a literal assigned to a
    secret's name (what a test's fixture is)."""
    text = text[: 1 << 20]
    for prefixes, triggers, shapes in ((_PREFIXES, _TRIGGERS, _SHAPES), (_MORE_PREFIXES, _MORE_TRIGGERS, _MORE_SHAPES)):
        found = _shaped(text, prefixes, shapes) if any(t in text for t in triggers) else None
        if found is not None:
            return found
    telegram = _TELEGRAM.search(text) if ":AA" in text else None
    if telegram is not None:
        return "a Telegram bot token", telegram.group(0)
    discord = _discord_token(text)
    if discord is not None:
        return "a Discord bot token", discord
    for match in _CREDENTIAL_URL.finditer(text):
        password, host = match.group(1), match.group(2).lower()
        if host not in _LOCAL_HOSTS and not host.endswith(".local") and not _PLACEHOLDER.search(password) and \
                _looks_random(password):
            return "a password in a connection URL", match.group(0)
    lowered = text.lower()
    if by_shape_only or not any(name in lowered for name in _NAMES):
        return None
    for match in _ASSIGNED.finditer(text):
        value = match.group(2)
        if not _PLACEHOLDER.search(value) and _looks_random(value):
            return f"a literal {match.group(1)}", match.group(0)
    return None


def _discord_token(text: str) -> str | None:
    for middle in _DISCORD_MIDDLE.finditer(text):
        start = max(middle.start() - 28, 0)
        for begin in range(start, middle.start() - 23):  # where its first part may start
            if text[begin] in "MNO" and (begin == 0 or text[begin - 1] not in _TOKEN_CHAR):
                match = _DISCORD.match(text, begin, middle.end() + 41)
                if match is not None and match.end() > middle.end() and not _STAND_IN.search(match.group(0)):
                    return match.group(0)
    return None


def _looks_random(value: str) -> bool:
    kinds = sum(any(f(c) for c in value) for f in (str.islower, str.isupper, str.isdigit))
    return kinds >= 2 and len(set(value)) >= 8


def _remote_url(word: str) -> bool:
    """Whether ``word`` names a file on another host (``https://deb.nodesource.com/gpgkey/
    nodesource-repo.gpg.key``): fetching it reads none of this machine's files. A ``file:``
    URL is a local path, and judged as one."""
    scheme, found, _ = word.partition("://")
    return bool(found) and scheme.isalnum() and scheme.lower() != "file"


class HardcodedSecrets(Guard):
    name = "hardcoded_secrets"
    summary = "Tokens, keys and passwords written into files"
    catches = ("Write config.py with AKIA...", 'Edit: api_key = "sk-..."', "cat > .env.local <<EOF ghp_... EOF",
               "echo 'xoxb-...' >> settings.ini")
    options = (Option("allow", "list", [], "Literal values that are known not to be secret (test fixtures)"),)
    tools = frozenset({"bash", "write", "edit"})

    def judge_file(self, tool: str, tool_args: Mapping[str, Any], context: Context) -> Ruling:
        paths = paths_of(tool_args)
        tests = bool(paths) and all(_TEST_FILE.search(p) for p in paths)
        for text in content_of(tool_args):
            verdict = self._judge_text(text, ", ".join(paths) or tool, by_shape_only=tests)
            if verdict.decision != "allow":
                return verdict
        return ALLOWED

    def judge_command(self, command: Command, context: Context) -> Ruling:
        writes = [r for r in command.redirects if r.mode in ("write", "append")]
        if not writes and command.name not in ("tee",) and not edits_in_place(command.name, command.args):
            return ALLOWED
        texts = [command.stdin or ""] + [w.text for w in command.words[1:]]
        for text in texts:
            verdict = self._judge_text(text, writes[0].target if writes else " ".join(command.argv))
            if verdict.decision != "allow":
                return verdict
        return ALLOWED

    def _judge_text(self, text: str, where: str, *, by_shape_only: bool = False) -> Ruling:
        found = find_secret(text, by_shape_only=by_shape_only)
        if found is None or any(a in found[1] for a in self.opts["allow"]):
            return ALLOWED
        what, match = found
        shown = match[:4] + "..."  # never the secret itself: the reason reaches the log
        return Ruling(DENY, f"{self.name}: {what} ({shown}) written into {where}. Read it from an environment "
                             "variable or a secret store instead of writing it into the file", shown)
