"""package_policy (ask): adding a dependency, through a package manager or by writing a
manifest (issue 31 item 5: the project is read, not the spelling judged). Installing what
the project already declares (``npm ci``, ``pip install -r requirements.txt``) passes, so
does running a package it already depends on (``npx tsc`` with typescript in its
package.json or node_modules/.bin), a manifest edit that adds no dependency (a script, a
version bump), and a package on the allowlist. Publishing a package (``npm publish``,
``twine upload``) asks too: what leaves for the registry cannot be taken back."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fnmatch import fnmatchcase
from typing import Any

from forge_hookd.shell.commands import PYTHON, Command
from forge_hookd.guards import system_packages
from forge_hookd.guards.base import ALLOW, ALLOWED, ASK, Context, Guard, Option, Ruling, command_cwd, git_args, inside, \
    operands, paths_of, resolve
from forge_hookd.shell.lazyre import Lazy
from forge_hookd.shell.sed import edited, edits_in_place

_PIP = Lazy(r"pip[0-9.]+", needs=("pip",))
# manager -> (subcommands that add packages, options that take a value)
_ADDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "npm": (frozenset({"install", "i", "add", "isntall", "in", "ins", "inst", "insta", "instal"}),
            frozenset({"--registry", "--prefix", "-w", "--workspace", "--tag"})),
    "pnpm": (frozenset({"add", "install", "i"}), frozenset({"--filter", "-F", "-C", "--dir"})),
    "yarn": (frozenset({"add"}), frozenset({"--cwd"})),
    "bun": (frozenset({"add", "install", "i", "a"}), frozenset({"--cwd"})),
    "pip": (frozenset({"install"}), frozenset({"-i", "--index-url", "--extra-index-url", "-c", "--constraint", "-t",
                                               "--target", "--prefix", "-f", "--find-links", "--python-version"})),
    "uv": (frozenset({"add"}), frozenset({"--group", "--optional", "--index", "-p", "--python", "--package"})),
    "poetry": (frozenset({"add"}), frozenset({"-G", "--group", "--source"})),
    "pdm": (frozenset({"add"}), frozenset({"-G", "--group"})),
    "pipenv": (frozenset({"install"}), frozenset({"--python", "-i", "--index"})),  # bare: the Pipfile's own
    "pipx": (frozenset({"install", "inject"}), frozenset({"--python", "--index-url"})),
    "cargo": (frozenset({"add", "install"}), frozenset({"--git", "--path", "--registry", "--features", "-F", "--rev",
                                                         "--branch", "--tag", "--version", "--vers"})),
    "go": (frozenset({"get", "install"}), frozenset()),
    "gem": (frozenset({"install", "i"}), frozenset({"-v", "--version", "-s", "--source"})),
    "bundle": (frozenset({"add"}), frozenset({"--version", "-v", "--group", "-g", "--source"})),
    "composer": (frozenset({"require", "req"}), frozenset()),
    "dotnet": (frozenset({"add"}), frozenset({"-v", "--version", "-s", "--source"})),
    "brew": (frozenset({"install", "reinstall"}), frozenset()),
    "apt": (frozenset({"install"}), frozenset({"-t", "-o"})), "apt-get": (frozenset({"install"}), frozenset({"-t", "-o"})),
    "dnf": (frozenset({"install"}), frozenset()), "yum": (frozenset({"install"}), frozenset()),
    "apk": (frozenset({"add"}), frozenset({"-X", "--repository"})),
    "conda": (frozenset({"install"}), frozenset({"-c", "--channel", "-n", "--name", "-p", "--prefix"})),
    "mamba": (frozenset({"install"}), frozenset({"-c", "--channel", "-n", "--name"})),
    "deno": (frozenset({"add", "install"}), frozenset()),
    "swift": (frozenset(), frozenset()),
    # Windows' package managers (--id, --name: the package itself, not an option's value)
    "winget": (frozenset({"install", "add"}), frozenset({"-s", "--source", "-v", "--version", "--scope", "-l",
                                                         "--location", "--override", "--custom", "-o", "--log",
                                                         "-a", "--architecture", "--locale", "--header"})),
    "choco": (frozenset({"install"}), frozenset({"--version", "-s", "--source", "--params", "--package-parameters",
                                                 "--install-arguments", "--ia", "--cache-location"})),
    "scoop": (frozenset({"install"}), frozenset({"-a", "--arch"})),
    "nuget": (frozenset({"install"}), frozenset({"-Version", "-version", "-OutputDirectory", "-outputdirectory",
                                                 "-o", "-Source", "-source", "-ConfigFile", "-configfile",
                                                 "-Framework", "-framework", "-FallbackSource", "-DependencyVersion",
                                                 "-PackageSaveMode", "-SolutionDirectory", "-Verbosity"})),
}
#: commands that run a package, fetched when it is not there: the node ones are judged
#: against the project (its package.json, its node_modules/.bin), the others by name
_NODE_RUNNERS = frozenset({"npx", "pnpx", "bunx"})
_RUNS_PACKAGE = _NODE_RUNNERS | {"uvx", "pipx"}
#: ``npm exec x``, ``pnpm dlx x``, ``yarn dlx x``, ``bun x x``: npx by another name
_RUN_SUBCOMMANDS = {("npm", "exec"): "npx", ("npm", "x"): "npx", ("pnpm", "dlx"): "pnpx", ("yarn", "dlx"): "pnpx",
                    ("bun", "x"): "bunx"}
_FROM_FILES = ("-r", "--requirement", "-e", "--editable", "--requirements")
#: a file a write may add dependencies to (manifests.kind_of says which kind)
_MANIFEST = Lazy(r"(?:^|/)(?:package\.json|pyproject\.toml|Cargo\.toml|go\.mod|requirements[\w.-]*\.txt)$")
_NPM_TABLES = ("dependencies.", "devDependencies.", "optionalDependencies.", "peerDependencies.")
#: node binaries whose package has another name (``npx tsc`` runs typescript's); any
#: other binary is taken to be its package's name, as npx itself takes it
BINARIES = {"tsc": "typescript", "tsserver": "typescript", "ng": "@angular/cli", "nest": "@nestjs/cli",
            "vue-cli-service": "@vue/cli-service", "biome": "@biomejs/biome", "changeset": "@changesets/cli",
            "commitlint": "@commitlint/cli", "ncu": "npm-check-updates", "firebase": "firebase-tools",
            "netlify": "netlify-cli", "sequelize": "sequelize-cli", "graphql-codegen": "@graphql-codegen/cli",
            "svelte-kit": "@sveltejs/kit", "remix": "@remix-run/dev", "babel": "@babel/cli", "swc": "@swc/cli",
            "sb": "storybook", "webpack": "webpack-cli", "playwright": "@playwright/test"}
_APPROVE = "A person should approve new dependencies; or add them to the guard's allow list"


class PackagePolicy(Guard):
    name = "package_policy"
    summary = "Adding dependencies through a package manager or a manifest edit (asks, with an allowlist)"
    catches = ("npm install left-pad", "pip install requests", "uv add httpx", "cargo add serde", "go get x/y",
               "yarn add react", "python -m pip install x", "gem install rails", "npx some-tool",
               "pipx install x", "cargo install --git URL", "Edit package.json adding a dependency", "npm publish")
    options = (
        Option("allow", "list", [], "Packages (globs, without versions) that need no asking"),
        Option("decision", "decision", ASK, "What adding a package is: ask (default) or deny"),
        Option("run_packages", "bool", True, "Also ask before npx/uvx/bunx run a package the project does not "
               "depend on and the allowlist does not name"),
    )
    tools = frozenset({"bash", "write", "edit"})

    def judge_command(self, command: Command, context: Context) -> Ruling:
        written = self._shell_write(command, context)
        if written.decision != ALLOW:
            return written
        source = _registry_set(command)
        if source is not None:
            return self.verdict(self.opts["decision"], " ".join(command.argv),
                                f"makes {source} where every later install comes from",
                                "Keep the official registry, or ask the user to change it")
        registry = _publishes(command)
        if registry is not None:
            return self.verdict(self.opts["decision"], " ".join(command.argv), f"publishes to {registry}",
                                "A person should publish: a version once published cannot be taken back "
                                "(--dry-run shows what would go)")
        manager, args = _manager(command)
        if manager is None:
            return ALLOWED
        if manager in _RUNS_PACKAGE and (manager != "pipx" or args[:1] == ["run"]):
            if not self.opts["run_packages"]:
                return ALLOWED
            if manager in _NODE_RUNNERS:
                return self._node_run(command, manager, args, context)
            packages = _run_target(args)
            if manager == "uvx" and packages and self._python_declared(_bare(packages[0]), command, context):
                return ALLOWED
        elif "--dry-run" in args or "--dryrun" in args:
            return ALLOWED  # pip install --dry-run flask, npm install --dry-run x: nothing installed or written
        else:
            packages = _added(manager, args)
        new = [p for p in packages if not self._allowed(p)]
        if not new:
            return ALLOWED
        return self.verdict(self.opts["decision"], " ".join(command.argv),
                            f"adds the package{'s' if len(new) > 1 else ''} {', '.join(new[:5])}", _APPROVE)

    def _allowed(self, package: str) -> bool:
        return any(fnmatchcase(_bare(package), a) for a in self.opts["allow"])

    def _node_run(self, command: Command, manager: str, args: list[str], context: Context) -> Ruling:
        """``npx tsc``: passes when the project depends on the package that provides the
        binary (its package.json, or the binary in its node_modules/.bin), asks otherwise."""
        target = _node_target(args, fetches=manager == "pnpx")
        if target is None:
            return ALLOWED
        package, binary, explicit = target
        if self._allowed(package) or self._allowed(binary):
            return ALLOWED
        cwd = command_cwd(command, context)
        from forge_hookd.guards import manifests  # 2.5 ms CPU at load 10: paid only by a command that runs a package

        installed, declared = manifests.node_packages(cwd, context.project_root, binary) if cwd else (False, set())
        shown = " ".join(command.argv)
        if installed or package in declared and (explicit or package == binary):
            return ALLOWED
        if package in declared:
            return self.verdict(self.opts["decision"], shown,
                                f"runs {binary} of {package}, which the project depends on but has not installed "
                                f"(no node_modules/.bin/{binary}), so {command.name} would fetch the package "
                                f"{binary}, not {package}", "Install the project's dependencies first (npm install)")
        return self.verdict(self.opts["decision"], shown,
                            f"runs {binary} of the package {package}, which the project does not depend on (not in "
                            f"its package.json, no node_modules/.bin/{binary}), so it would be fetched from the "
                            "registry", f"A person should approve new dependencies: add {package} to the project "
                            f"(npm install -D {package}), or to the guard's allow list")

    def _python_declared(self, package: str, command: Command, context: Context) -> bool:
        """``uvx ruff``: whether the project's Python manifests declare the package."""
        cwd = command_cwd(command, context)
        if cwd is None or package.startswith((".", "/")) or "://" in package:
            return False
        from forge_hookd.guards import manifests  # see _node_run

        return manifests.python_name(package) in manifests.python_packages(cwd, context.project_root)

    # -- writes of a manifest ----------------------------------------------------------------------
    def judge_file(self, tool: str, tool_args: Mapping[str, Any], context: Context) -> Ruling:
        words = [w for w in paths_of(tool_args) if _MANIFEST.search(w)]
        if not words:
            return ALLOWED
        from forge_hookd.guards import manifests  # see _node_run

        patch = next((s for s in _patches(tool_args)), None)
        for word in words:
            path = resolve(word, context)
            if path is None or not inside(path, context.project_root) or context.project_root == "/":
                continue  # a manifest outside the project is not the project's (docs/guards.md)
            current, why = manifests.read_inside(path, context.project_root)
            if why is not None:
                return self.verdict(ASK, word, f"edits a manifest that cannot be read ({why}), so what it adds "
                                    "cannot be seen", "Ask the user to make the change")
            if patch is not None:
                after = manifests.patched(patch, path, lambda p: resolve(p, context), current)
            else:
                after = manifests.after_write(tool_args, current)
            verdict = self._added_to(word, path, current, after)
            if verdict.decision != ALLOW:
                return verdict
        return ALLOWED

    def _added_to(self, shown: str, path: str, before: str | None, after: str | None) -> Ruling:
        from forge_hookd.guards import manifests  # see _node_run

        kind = manifests.kind_of(path)
        if after is None or kind is None:
            return ALLOWED
        added = sorted(p for p in manifests.declared(kind, after) - manifests.declared(kind, before or "")
                       if not self._allowed(p))
        if not added:
            return ALLOWED
        name = path.rpartition("/")[2]
        return self.verdict(self.opts["decision"], shown, f"adds {', '.join(added[:5])}"
                            f"{f' and {len(added) - 5} more' if len(added) > 5 else ''} to {name}", _APPROVE)

    def _shell_write(self, command: Command, context: Context) -> Ruling:
        """A manifest written by a shell command: judged as an edit when the line shows
        the text (``echo x >> requirements.txt``, ``cat > go.mod <<EOF``), else asks."""
        targets = _shell_targets(command)
        if not targets or not any(_MANIFEST.search(t) for t, _ in targets):
            return ALLOWED
        from forge_hookd.guards import manifests  # see _node_run

        cwd = command_cwd(command, context)
        shown = " ".join([*command.argv, *(f"{r.op} {r.target}" for r in command.redirects
                                          if r.mode in ("write", "append", "readwrite"))])
        for word, mode in targets:
            if not _MANIFEST.search(word):
                continue
            path = resolve(word, context, cwd) if cwd is not None or word.startswith(("/", "~")) else None
            if path is not None and (not inside(path, context.project_root) or context.project_root == "/"):
                continue
            text = _shell_text(command)
            current, why = manifests.read_inside(path, context.project_root) if path else (None, "unknown")
            if path is not None and why is None and _in_place(command, word):
                if current is None:
                    continue  # sed -i of a file that is not there changes nothing
                after = edited(list(command.args), current) if command.name in ("sed", "gsed") else None
                kind = manifests.kind_of(path)
                if after is not None and kind is not None and manifests.declared(kind, current) and \
                        not manifests.declared(kind, after):
                    after = None  # the edit leaves a manifest that no longer parses: what it adds is unseen
                if after is not None:  # a script simple enough to follow: judged as the edit it is
                    verdict = self._added_to(shown, path, current, after)
                    if verdict.decision != ALLOW:
                        return verdict
                    continue
            if path is None or mode not in ("write", "append") or text is None or why is not None:
                return self.verdict(ASK, shown, f"writes the manifest {word}, and what it adds cannot be seen",
                                    "Make the change with the agent's edit tool, where it can be judged, or ask "
                                    "the user")
            after = text if mode == "write" else (current or "") + text
            verdict = self._added_to(shown, path, current, after)
            if verdict.decision != ALLOW:
                return verdict
        return ALLOWED


def _shell_targets(command: Command) -> list[tuple[str, str]]:
    """The files a command writes, each with how: write, append, or unknown."""
    targets = [(r.target, "append" if r.mode == "append" else "write" if r.mode == "write" else "unknown")
               for r in command.redirects if r.mode in ("write", "append", "readwrite")]
    name, args = command.name, command.args
    if name == "tee":
        mode = "append" if "-a" in args or "--append" in args else "write"
        targets += [(op, mode) for op in operands(args)]
    elif edits_in_place(name, args):
        targets += [(op, "unknown") for op in operands(args)[0 if name == "perl" else 1:]]
    elif name in ("cp", "mv", "install", "ln", "rsync") and len(operands(args)) >= 2:
        targets.append((operands(args)[-1], "unknown"))
    elif name == "dd":
        targets += [(a[3:], "unknown") for a in args if a.startswith("of=")]
    return targets


def _in_place(command: Command, word: str) -> bool:
    """Whether ``word`` is a file ``sed -i``/``perl -i`` edits in place (not a redirection)."""
    return edits_in_place(command.name, command.args) and word in operands(command.args) and \
        word not in (r.target for r in command.redirects)


def _shell_text(command: Command) -> str | None:
    """What a command writes to its output, when the line shows it: ``echo``'s words,
    the here-document of ``cat`` or ``tee``."""
    if command.name == "echo" and not any(a.startswith("-") for a in command.args):
        return " ".join(command.args) + "\n"
    if command.name in ("cat", "tee") and command.stdin is not None and (command.name == "tee" or not command.args):
        return command.stdin + "\n"
    return None


def _patches(tool_args: Mapping[str, Any]) -> list[str]:
    return [v for k in ("command", "input", "patch") if isinstance(v := tool_args.get(k), str)
            and "*** Begin Patch" in v]


#: (command, its subcommand words) -> the registry they publish to; the package leaves
#: the machine for everyone, and its version cannot be reused (npm, PyPI, crates.io)
_PUBLISH = {("npm", "publish"): "the npm registry", ("pnpm", "publish"): "the npm registry", ("bun", "publish"): "the npm registry",
            ("yarn", "publish"): "the npm registry", ("yarn", "npm publish"): "the npm registry",
            ("cargo", "publish"): "crates.io", ("twine", "upload"): "PyPI", ("poetry", "publish"): "PyPI",
            ("uv", "publish"): "PyPI", ("flit", "publish"): "PyPI", ("hatch", "publish"): "PyPI",
            ("pdm", "publish"): "PyPI", ("gem", "push"): "RubyGems", ("dotnet", "nuget push"): "NuGet",
            ("nuget", "push"): "NuGet", ("vsce", "publish"): "the VS Code Marketplace",
            ("ovsx", "publish"): "Open VSX", ("deno", "publish"): "JSR", ("jsr", "publish"): "JSR"}


def _publishes(command: Command) -> str | None:
    """The registry ``command`` publishes a package to (``npm publish``, ``twine upload
    dist/*``, ``npx jsr publish``), None for none or a dry run."""
    name, args = command.name, list(command.args)
    if name in _NODE_RUNNERS and args[:1] == ["jsr"]:
        name, args = "jsr", args[1:]
    ops = operands(args)
    registry = _PUBLISH.get((name, " ".join(ops[:2]))) or _PUBLISH.get((name, " ".join(ops[:1]))) or \
        _build_publishes(name, ops)
    if registry is None or "--dry-run" in args or name == "cargo" and "-n" in args:
        return None
    return registry


#: the JVM build tools, by their own name or their project wrapper (./mvnw, ./gradlew)
_MAVENS = frozenset({"mvn", "mvnw", "mvnd"})
_GRADLES = frozenset({"gradle", "gradlew"})
#: maven's phases and goals that upload the build: deploy (every phase before it runs too)
_MAVEN_DEPLOY = frozenset({"deploy", "deploy:deploy", "deploy:deploy-file", "release:perform"})


def _build_publishes(name: str, ops: list[str]) -> str | None:
    """The repository a JVM build's phases or tasks upload to, anywhere on its line (``mvn
    clean deploy``, ``./gradlew :lib:publish``, ``sbt publishSigned``); None for a build, and for
    a publication to the machine's own repository (``publishToMavenLocal``, sbt's
    ``publishLocal``/``publishM2``, ``mvn install``)."""
    tool = name.rpartition("/")[2]
    if tool in _MAVENS and any(op in _MAVEN_DEPLOY for op in ops):
        return "a Maven repository (mvn deploy)"
    tasks = [op.rpartition(":")[2].lstrip("+") for op in ops]  # sbt's +publish: for every Scala version
    if tool == "lein" and ops[:1] == ["deploy"]:
        return "a Maven repository or Clojars (lein deploy)"
    if tool in _GRADLES and any(t.startswith("publish") and "MavenLocal" not in t for t in tasks):
        return "a Maven repository or the Gradle Plugin Portal (gradle publish)"
    if tool == "sbt" and any(t.startswith("publish") and t not in ("publishLocal", "publishM2") for t in tasks):
        return "a Maven or Ivy repository (sbt publish)"
    return None


#: the settings that say where a package manager installs from, by manager
_SOURCES = {"npm": ("registry",), "pnpm": ("registry",), "yarn": ("registry", "npmRegistryServer"),
            "pip": ("global.index-url", "global.extra-index-url", "install.index-url", "install.extra-index-url",
                    "index-url", "extra-index-url"), "pip3": ("global.index-url", "global.extra-index-url")}
#: the registries that are the default anyway
_OFFICIAL = ("https://registry.npmjs.org", "https://registry.yarnpkg.com", "https://pypi.org/simple",
             "https://pypi.python.org/simple")


#: git's url.<base>.insteadOf: every later fetch of a URL starting with the value goes to <base>
_INSTEAD_OF = Lazy(r"url\.(.+)\.(?:push)?insteadof", re.I, needs=("nsteadOf", "nsteadof"))
_HOST = Lazy(r"^(?:[a-z+]+://)?(?:[^@/]+@)?([^/:]+)")


def _fetches_redirected(command: Command) -> str | None:
    """``git config --global url.https://evil.example/.insteadOf https://github.com/``: every
    dependency git fetches from the original now comes from another host; to the same host
    by another protocol (``url.git@github.com:.insteadOf https://github.com/``) it passes."""
    git = git_args(command)
    if git is None or git[0] != "config":
        return None
    ops = operands(git[1])
    match = _INSTEAD_OF.fullmatch(ops[0]) if len(ops) >= 2 else None
    if match is None:
        return None
    new, old = (_HOST.match(v) for v in (match.group(1), ops[1]))
    if new is not None and old is not None and new.group(1).lower() == old.group(1).lower():
        return None
    return f"{match.group(1)} (git's url.insteadOf for {ops[1]})"


def _registry_set(command: Command) -> str | None:
    """The source a ``config set`` puts in front of every later install (``npm config set
    registry http://x``, ``pip config set global.index-url URL``, a scope's ``@org:registry``),
    or None: the official registry again, or any other setting."""
    redirected = _fetches_redirected(command)
    if redirected is not None:
        return redirected
    name, ops = command.name, operands(command.args)
    keys = _SOURCES.get(name)
    if keys is None or ops[:2] != ["config", "set"] or len(ops) < 3:
        return None
    key, _, value = ops[2].partition("=")
    value = value or (ops[3] if len(ops) > 3 else "")
    if key.lstrip("-") not in keys and not key.endswith(":registry"):
        return None
    return None if value.rstrip("/").startswith(_OFFICIAL) else f"{value or 'another registry'} ({key})"


def _manager(command: Command) -> tuple[str | None, list[str]]:
    name, args = command.name, list(command.args)
    if PYTHON.match(name) and args[:2] == ["-m", "pip"]:
        return "pip", args[2:]
    if name in ("pip3", "pip2") or _PIP.fullmatch(name):
        return "pip", args
    if name == "uv" and args[:1] == ["pip"]:
        return "pip", args[1:]
    if args and (name, args[0]) in _RUN_SUBCOMMANDS:
        return _RUN_SUBCOMMANDS[name, args[0]], args[1:]
    if name in ("sudo",):
        return None, []
    if name in _ADDS or name in _RUNS_PACKAGE or name in system_packages.NAMES:
        return name, args
    return None, []


def _added(manager: str, args: list[str]) -> list[str]:
    if manager == "npm" and args[:2] == ["pkg", "set"]:  # npm pkg set dependencies.left-pad=^1
        return [a.partition("=")[0].partition(".")[2] for a in args[2:] if a.startswith(_NPM_TABLES)]
    if manager in system_packages.NAMES:
        return system_packages.installed(manager, args)
    subcommands, with_value = _ADDS[manager]
    args = _from_verb(manager, args, with_value)
    if manager in ("yarn", "pnpm") and args[:2] in (["global", "add"], ["global", "install"]):
        args = args[1:]  # yarn global add x: installed for the whole machine, as npm i -g is
    if not args or args[0] not in subcommands:
        return []
    packages, skip, git = [], False, None
    for k, arg in enumerate(args[1:], start=1):
        if skip:
            skip = False
            continue
        if arg in _FROM_FILES:
            skip = True
            continue
        if arg.startswith("-"):
            skip = arg in with_value
            if manager == "cargo" and (arg == "--git" or arg.startswith("--git=")):
                git = arg.partition("=")[2] or (args[k + 1] if k + 1 < len(args) else "?")
            continue
        if arg in (".", "..", "./...") or arg.startswith(("./", "../", "/", "file:")) or \
                manager in ("pip", "pipx") and arg.endswith(".whl"):
            continue  # a directory or file of this machine (go install ./cmd/tool, npm install ./packages/shared,
            # pip install -e .): the project's own code, no package from a registry
        if manager == "nuget" and arg.rpartition("/")[2].lower() == "packages.config":
            continue  # nuget install packages.config: what the project already declares
        if manager == "pip" and _bare(arg).lower() in ("pip", "setuptools", "wheel"):
            continue  # `pip install -U pip`: the installer's own tools, no dependency of the project
        packages.append(arg)
    if git is not None:  # cargo install --git URL [crate]: code from a repository, not the registry
        return [f"{p} (from {git})" for p in packages] or [git]
    return packages


#: options a manager takes before its verb that consume the next word (``pip --proxy URL install x``)
_GLOBAL_WITH_VALUE = {"pip": frozenset({"--proxy", "--cache-dir", "--log", "--log-file", "--timeout", "--retries",
                                        "--python", "--exists-action", "--trusted-host", "--cert", "--client-cert",
                                        "--use-feature", "--use-deprecated"})}


def _from_verb(manager: str, args: list[str], with_value: frozenset[str]) -> list[str]:
    """The words from the manager's verb on: the global options before it skipped
    (``pip --quiet install x``, ``npm --prefix web i x``, ``zypper -n install x`` install x)."""
    skip = False
    for k, arg in enumerate(args):
        if skip:
            skip = False
        elif not arg.startswith("-"):
            return args[k:]
        else:
            skip = "=" not in arg and (arg in with_value or arg in _GLOBAL_WITH_VALUE.get(manager, ()))
    return []


def _node_target(args: list[str], *, fetches: bool) -> tuple[str, str, bool] | None:
    """``(package, binary, named)`` of ``npx [-p PKG] BIN``: the package that provides
    the binary (``tsc`` -> typescript), and whether the line names the package itself
    (``-p``, ``pnpm dlx PKG``: always the package) rather than a binary."""
    package: str | None = None
    words = iter(args)
    for arg in words:
        if arg in ("-p", "--package"):
            package = _bare(next(words, ""))
        elif arg.startswith("--package="):
            package = _bare(arg.partition("=")[2])
        elif arg == "--" or arg in ("-c", "--call") or not arg.startswith("-"):
            # npx -c 'tsc --noEmit': a command line in the package's environment; its first word runs
            arg = next(words, "") if arg == "--" else next(words, "").partition(" ")[0] if arg[0] == "-" else arg
            if not arg or arg.startswith((".", "/")):
                return None  # nothing to run, or a directory of the project's own
            if package:
                return package, arg, True
            bare = _bare(arg)
            binary = bare.rpartition("/")[2]
            named = fetches or bare != arg or "/" in bare
            return (bare if named else BINARIES.get(binary, binary)), binary, named
    return (package, package.rpartition("/")[2], True) if package else None


def _run_target(args: list[str]) -> list[str]:
    for k, arg in enumerate(args):
        if arg in ("-p", "--package", "--from"):
            return [args[k + 1]] if k + 1 < len(args) else []
        if arg == "run":
            continue
        if not arg.startswith("-"):
            return [arg]
    return []


def _bare(package: str) -> str:
    """``requests==2.0`` -> ``requests``; ``@scope/pkg@1`` -> ``@scope/pkg``; ``x/y@v1`` -> ``x/y``."""
    name = re.split(r"[=<>!~\[;]", package, maxsplit=1)[0]
    at = name.rfind("@")
    return name[:at] if at > 0 else name
