"""shell.py: what a command line runs, seen the way the shell will run it."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forge_hookd.shell import commands as shell
from forge_hookd.shell import scripts
from forge_hookd.shell import words as shellwords
from forge_hookd.shell.commands import parse
from forge_hookd.shell.scripts import trust_words
from helpers import loaded_after_judging

# Starts no forge-hook-run: the warm pass (--warm) leaves it out (conftest.py).
pytestmark = pytest.mark.inprocess


def effective(command: str) -> list[tuple[str, ...]]:
    return [c.argv for c in parse(command).commands]


def ran(command: str) -> list[tuple[str, ...]]:
    """The commands below the top (reached through something), as argv."""
    return [c.argv for c in parse(command).commands if c.via]


# -- words and quoting -----------------------------------------------------------------------
@pytest.mark.parametrize(("command", "argv"), [
    ("rm -rf /", ("rm", "-rf", "/")),
    ("r\\m -rf '/'", ("rm", "-rf", "/")),
    ('"rm" -r"f" /', ("rm", "-rf", "/")),
    ("rm -rf $'\\x2f'", ("rm", "-rf", "/")),
    ("rm -rf $'\\057'", ("rm", "-rf", "/")),
    ("echo 'a b' \"c $HOME\"", ("echo", "a b", "c $HOME")),
    ("echo a\\\nb", ("echo", "ab")),
    ("FOO=1 BAR='x y' make", ("make",)),
])
def test_words_after_quote_removal(command: str, argv: tuple[str, ...]) -> None:
    assert effective(command) == [argv]


def test_assignments_are_apart() -> None:
    [cmd] = parse("A=1 B='2 3' make all").commands
    assert cmd.assignments == ("A=1", "B=2 3") and cmd.argv == ("make", "all")


def test_flags_of_words() -> None:
    [cmd] = parse("ls $HOME *.py 'a*' ~/x").commands
    assert [(w.dynamic, w.glob, w.quoted) for w in cmd.words[1:]] == [
        (True, False, False), (False, True, False), (False, False, True), (False, False, False)]


def test_a_quoted_command_is_an_argument_not_a_command() -> None:
    assert effective('echo "rm -rf /"') == [("echo", "rm -rf /")]
    assert effective('git commit -m "drop the --force flag"') == [("git", "commit", "-m", "drop the --force flag")]


# -- lists, pipelines, groups -------------------------------------------------------------------
def test_every_command_of_a_list() -> None:
    assert effective("a && b; c | d || (e) && { f; } & g\nh") == [
        ("a",), ("b",), ("c",), ("d",), ("e",), ("f",), ("g",), ("h",)]


def test_feeders_of_a_pipeline() -> None:
    commands = parse("curl -s x | sudo bash; ls | wc -l").commands
    assert [[f.argv for f in c.feeders] for c in commands] == [[], [("curl", "-s", "x")], [], [("ls",)]]
    assert commands[1].wrappers == (("sudo",),)


def test_a_group_feeds_the_pipe_it_is_in() -> None:
    sh = parse("{ curl a; curl b; } | sh").commands[-1]
    assert [f.argv for f in sh.feeders] == [("curl", "a"), ("curl", "b")]


def test_control_structures() -> None:
    assert effective("if test -f x; then rm x; else touch x; fi") == [("test", "-f", "x"), ("rm", "x"),
                                                                     ("touch", "x")]
    assert effective("for f in *.o; do rm \"$f\"; done") == [("rm", "$f")]
    assert effective("while true; do sleep 1; done") == [("true",), ("sleep", "1")]
    assert effective("case $x in a|b) rm -rf /;; (c) ls;; esac; echo x") == [("rm", "-rf", "/"), ("ls",),
                                                                            ("echo", "x")]
    assert effective("f() { rm -rf /; }; f") == [("rm", "-rf", "/"), ("f",)]
    assert effective("function g { ls; }") == [("ls",)]
    assert effective("! grep x y") == [("grep", "x", "y")]


def test_a_loop_list_substitution_runs() -> None:
    assert ran("for f in $(find . -delete); do :; done") == [("find", ".", "-delete")]


# -- redirections and heredocs --------------------------------------------------------------------
def test_redirections_with_their_mode() -> None:
    [cmd] = parse("cmd <in >out 2>>err 2>&1 &>all >|clobber <>rw 3<&0").commands
    assert [(r.target, r.mode) for r in cmd.redirects] == [
        ("in", "read"), ("out", "write"), ("err", "append"), ("1", "dup"), ("all", "write"), ("clobber", "write"),
        ("rw", "readwrite"), ("0", "dup")]
    assert [r.fd for r in cmd.redirects][:4] == [None, None, "2", "2"]


def test_a_heredoc_fed_to_a_shell_is_parsed() -> None:
    commands = parse("bash <<EOF\nrm -rf /\nEOF\necho after").commands
    assert [(c.argv, c.via) for c in commands] == [(("bash",), ""), (("rm", "-rf", "/"), "heredoc"),
                                                     (("echo", "after"), "")]
    assert [(c.argv, c.wrappers) for c in parse("sh <<-'X'\n\tsudo ls\n\tX").commands if c.via] == [
        (("ls",), (("sudo",),))]
    assert ran("bash -s <<< 'rm -rf ~'") == [("rm", "-rf", "~")]  # -s: commands from stdin
    assert ran("bash <<< 'rm -rf ~'") == [("rm", "-rf", "~")]


def test_a_heredoc_to_cat_is_text() -> None:
    assert effective("cat <<EOF > notes.md\nrm -rf /\nEOF") == [("cat",)]


# -- substitutions ----------------------------------------------------------------------------
@pytest.mark.parametrize(("command", "inner"), [
    ("echo $(rm -rf /)", [("rm", "-rf", "/")]),
    ("echo `sudo id`", [("id",)]),
    ('x="$(./scripts/guard.sh)"', [("./scripts/guard.sh",)]),
    ('echo "a $(echo "b $(id)") c"', [("id",), ("echo", "b $(id)")]),
    ("diff <(ls a) >(tee b)", [("ls", "a"), ("tee", "b")]),
    ("echo ${x:-$(whoami)}", [("whoami",)]),
])
def test_substitutions_are_parsed(command: str, inner: list[tuple[str, ...]]) -> None:
    assert ran(command) == inner


# -- wrappers and shells ------------------------------------------------------------------------
@pytest.mark.parametrize(("command", "argv", "wrappers"), [
    ("env FOO=1 nice -n 5 timeout -s KILL 10 nohup rm -rf /", ("rm", "-rf", "/"), ("env", "nice", "timeout", "nohup")),
    ("sudo -u root -- rm x", ("rm", "x"), ("sudo",)),
    ("/usr/bin/sudo -E doas -u x rm y", ("rm", "y"), ("sudo", "doas")),
    ("find . | xargs -0 -n1 rm -rf", ("rm", "-rf"), ("xargs",)),
    ("xargs -I{} rm {}", ("rm", "{}"), ("xargs",)),
    ("stdbuf -oL time -p command rm x", ("rm", "x"), ("stdbuf", "time", "command")),
    ("env -S 'rm -rf /'", ("rm", "-rf", "/"), ("env",)),
    ("ionice -c3 chroot /srv rm -rf /", ("rm", "-rf", "/"), ("ionice", "chroot")),
])
def test_wrappers_are_seen_through_and_kept(command: str, argv: tuple[str, ...], wrappers: tuple[str, ...]) -> None:
    cmd = parse(command).commands[-1]
    assert cmd.argv == argv and cmd.wrapper_names == wrappers


def test_a_wrapper_that_runs_nothing_is_the_command() -> None:
    assert effective("command -v rm") == [("command", "-v", "rm")]
    assert effective("sudo -l") == [("sudo", "-l")]
    assert effective("sudo -i") == [("sudo", "-i")]


@pytest.mark.parametrize(("command", "inner", "via"), [
    ("sh -c 'rm -rf /'", ("rm", "-rf", "/"), "sh -c"),
    ('bash -lc "cd /tmp && rm -rf x"', ("rm", "-rf", "x"), "sh -c"),
    ("bash -o pipefail -ec 'sudo ls'", ("ls",), "sh -c"),
    ("zsh -c 'git push -f'", ("git", "push", "-f"), "sh -c"),
    ("eval 'rm -rf /'", ("rm", "-rf", "/"), "eval"),
    ("eval rm -rf /", ("rm", "-rf", "/"), "eval"),
    ("su -c 'rm -rf /' root", ("rm", "-rf", "/"), "su -c"),
    ("find . -name '*.o' -exec rm -f {} \\;", ("rm", "-f", "{}"), "find -exec"),
    ("watch -n 1 rm -rf /tmp/x", ("rm", "-rf", "/tmp/x"), "sh -c"),
    ("timeout 5 bash -c \"bash -c 'rm -rf ~'\"", ("rm", "-rf", "~"), "sh -c"),
    ("python3 -c 'import os; os.system(\"rm -rf /\")'", ("rm", "-rf", "/"), "system()"),
    ("perl -e 'system(\"sudo id\")'", ("id",), "system()"),
    ("ruby -e '`rm -rf /`'", ("rm", "-rf", "/"), "system()"),
    ("node -e 'require(\"child_process\").execSync(\"rm -rf /\")'", ("rm", "-rf", "/"), "system()"),
])
def test_strings_a_shell_runs_are_parsed(command: str, inner: tuple[str, ...], via: str) -> None:
    found = [(c.argv, c.via) for c in parse(command).commands]
    assert (inner, via) in found


def test_nesting_records_depth() -> None:
    deepest = parse("sh -c \"bash -c 'eval rm -rf /'\"").commands[-1]
    assert deepest.argv == ("rm", "-rf", "/") and deepest.depth == 3


# -- interpreters -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("command", "code"), [
    ("python -c 'import shutil; shutil.rmtree(\"/\")'", ("python", 'import shutil; shutil.rmtree("/")')),
    ("python3.12 -Ic 'print(1)'", ("python3.12", "print(1)")),
    ("node -e 'x()'", ("node", "x()")),
    ("node --eval='x()'", ("node", "x()")),
    ("nodejs -p '1+1'", ("nodejs", "1+1")),
    ("perl -ne 'print if /x/' f", ("perl", "print if /x/")),
    ("ruby -e 'puts 1'", ("ruby", "puts 1")),
    ("php -r 'echo 1;'", ("php", "echo 1;")),
    ("deno eval 'Deno.exit()'", ("deno", "Deno.exit()")),
    ("awk 'BEGIN { system(\"id\") }'", ("awk", 'BEGIN { system("id") }')),
    ("python3 - <<EOF\nimport os\nEOF", ("python3", "import os")),
])
def test_interpreter_one_liners(command: str, code: tuple[str, str]) -> None:
    assert parse(command).commands[0].inline_code == code


def test_a_script_is_not_a_one_liner() -> None:
    assert parse("python script.py -c x").commands[0].inline_code is None
    assert parse("node app.js").commands[0].inline_code is None


# -- cd ------------------------------------------------------------------------------------------
def test_cd_moves_the_commands_after_it() -> None:
    commands = parse("cd /tmp && rm -rf build; cd sub; ls; cd \"$X\"; pwd").commands
    assert [(c.argv[0], c.cwd, c.cwd_unknown) for c in commands] == [
        ("cd", None, False), ("rm", "/tmp", False), ("cd", "/tmp", False), ("ls", "/tmp/sub", False),
        ("cd", "/tmp/sub", False), ("pwd", None, True)]


# -- trust ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", [
    'out="$(./scripts/guard.sh)"', "echo `./scripts/guard.sh`", 'sh -c "./scripts/guard.sh && x"',
    "bash -c './scripts/guard.sh'", "cd scripts && ./guard.sh", "cd scripts; bash guard.sh",
    "python3 -c 'import os; os.system(\"./scripts/guard.sh\")'", "timeout 5 ./scripts/guard.sh",
    "./scripts/guard.sh < input.txt", "x=1 ./scripts/guard.sh", "sudo -u bob ./scripts/guard.sh",
])
def test_trust_sees_a_script_wherever_the_shell_runs_it(command: str) -> None:
    words = trust_words(command)
    assert {"./scripts/guard.sh", "scripts/guard.sh"} & set(words.paths), words
    assert words.unresolved == ()


def test_trust_substitutes_known_variables() -> None:
    words = trust_words('"$CLAUDE_PROJECT_DIR"/.claude/hooks/v.sh && ${FORGE_PROJECT_DIR}/x.py',
                        variables={"CLAUDE_PROJECT_DIR": "/p", "FORGE_PROJECT_DIR": "/p"})
    assert "/p/.claude/hooks/v.sh" in words.paths and "/p/x.py" in words.paths and words.unresolved == ()


def test_trust_names_what_it_cannot_resolve() -> None:
    words = trust_words("python -m pkg.tool && cat $UNKNOWN/x.sh lib/*.sh && $(./gen.sh) && echo $FORGE_EVENT")
    assert words.unresolved == ("python -m pkg.tool", "$UNKNOWN/x.sh", "lib/*.sh", "$(./gen.sh)")
    assert "./gen.sh" in words.paths


def test_trust_takes_the_value_of_an_option() -> None:
    assert "ci/x.json" in trust_words("lint --config=ci/x.json").paths


def test_trust_after_a_cd_it_cannot_resolve() -> None:
    words = trust_words('cd "$DIR" && ./x.sh')
    assert "./x.sh" in words.paths and words.unresolved == ("cd to a directory that cannot be resolved",)


@pytest.mark.parametrize(("command", "paths"), [
    ("make guard", {"GNUmakefile", "makefile", "Makefile"}),
    ("make -C ci guard", {"ci/GNUmakefile", "ci/makefile", "ci/Makefile"}),
    ("cd tools && gmake --directory=ci -f build.mk", {"tools/ci/build.mk"}),
    ("make -Cci -fbuild.mk check", {"ci/build.mk"}),
    ("env -C scripts sh guard.sh", {"scripts/guard.sh"}),
    ("env --chdir scripts ./guard.sh > out.log", {"scripts/guard.sh", "out.log"}),
    ('for f in a.sh "b c.sh"; do sh "$f"; done', {"a.sh", "b c.sh"}),
])
def test_trust_names_a_runners_input(command: str, paths: set[str]) -> None:
    """Issue 31, item 8: what make reads, where env -C moves, what a loop runs over."""
    words = trust_words(command)
    assert paths <= set(words.paths) and words.unresolved == (), words


@pytest.mark.parametrize(("command", "scripts"), [
    ("npm run guard", (("", "guard"),)), ("npm --silent run-script guard -- --fix", (("", "guard"),)),
    ("npm test", (("", "test"),)), ("npm --prefix web t", (("web", "test"),)),
    ("cd web && pnpm lint", (("web", "lint"),)), ("pnpm -C web run lint", (("web", "lint"),)),
    ("yarn --cwd web guard", (("web", "guard"),)), ("yarn run guard", (("", "guard"),)),
    ("bun run guard", (("", "guard"),)), ("env -C web npm run guard", (("web", "guard"),)),
    ("npm install", ()), ("yarn add x", ()), ("pnpm install", ()), ("bun run ./x.ts", ()), ("bun test", ()),
])
def test_trust_names_the_package_script_a_runner_runs(command: str, scripts: tuple[tuple[str, str], ...]) -> None:
    assert trust_words(command).scripts == scripts


@pytest.mark.parametrize(("command", "said"), [
    ('make -C "$BUILD" guard', "make -C $BUILD"),
    ('make -f "$MK"', "make -f $MK"),
    ('npm run "$TASK"', "npm run $TASK (a script whose name cannot be resolved)"),
    ("npm -w api run guard", "npm -w api run guard (a workspace's script: trust does not follow it)"),
    ("pnpm --filter api lint", "pnpm --filter api lint (a workspace's script: trust does not follow it)"),
    ('env -C "$D" sh guard.sh', "env -C $D: a directory that cannot be resolved"),
    ('for f in scripts/*.sh; do sh "$f"; done', "scripts/*.sh"),
    ('for d in hooks/*; do "$d/run"; done', "hooks/*/run"),
    ('for f in $FILES; do sh "$f"; done', "$FILES"),
])
def test_trust_says_a_runners_input_it_cannot_know(command: str, said: str) -> None:
    words = trust_words(command)
    assert said in words.unresolved and "$f" not in words.unresolved, words


# -- faults and bounds --------------------------------------------------------------------------
@pytest.mark.parametrize(("command", "error"), [
    ("echo 'unbalanced", "unterminated single quote"),
    ('echo "x', "unterminated double quote"),
    ("echo $(ls", "unterminated $("),
    ("echo `ls", "unterminated backquote"),
    ("cat <<EOF\nx", "here-document delimited by end of input (wanted 'EOF')"),
    ("ls >", "a redirection > without a target"),
])
def test_invalid_shell_is_said_and_what_was_read_is_kept(command: str, error: str) -> None:
    parsed = parse(command)
    assert parsed.error == error and parsed.commands and not parsed.truncated


def test_commands_before_an_unbalanced_quote_are_listed() -> None:
    assert ("rm", "-rf", "/") in effective("rm -rf /\necho 'x")


def test_nesting_past_the_bound_is_truncated_not_a_crash() -> None:
    parsed = parse("$(" * 10_000 + "rm -rf /" + ")" * 10_000)
    assert parsed.truncated and len(parsed.commands) <= shellwords.MAX_DEPTH + 2
    assert parse("$(" * 10_000).truncated
    assert parse("sh -c " * 100 + "x").commands


def test_wrappers_past_the_bound_are_truncated_not_an_unread_command() -> None:
    """``nice nice ... rm -rf ~`` with more wrappers than are read: what the last one runs was
    once left unjudged (an allow); now the line says it was not read whole, and guards refuse it."""
    assert not parse("nice " * (shell.MAX_WRAPPERS - 1) + "rm -rf ~").truncated
    for wrapper in ("nice ", "uv run ", "sudo "):
        assert parse(wrapper * (shell.MAX_WRAPPERS + 8) + "rm -rf ~").truncated, wrapper
    assert parse("nice " * 1000 + "ls").truncated


def test_a_thousand_times_larger_command_is_bounded() -> None:
    one = "ls -la && echo ok; "
    parsed = parse(one * 200_000)  # 3.8 MB
    assert parsed.truncated and len(parsed.commands) == shellwords.MAX_COMMANDS
    eval_chain = parse("eval " * 500_000)  # each level would re-read 2.5 MB
    assert eval_chain.truncated


def test_a_long_pipeline_keeps_its_last_feeders() -> None:
    last = parse("a|" * 3000 + "sh").commands[-1]
    assert last.argv == ("sh",) and len(last.feeders) == shellwords.MAX_FEEDERS


SHELLISH = st.lists(st.sampled_from(list("ab -$(){}[]<>|&;'\"\\`\n\t#=*~/.c") + [
    "sh -c ", "eval ", "<<E\n", "$(", "${", "$'", "E\n", "sudo ", "xargs ", "python -c ", "find -exec "]),
    max_size=200).map("".join)


@settings(max_examples=400, deadline=None)
@given(SHELLISH)
def test_any_shellish_text_parses_without_raising(text: str) -> None:
    parsed = parse(text)
    assert isinstance(parsed.commands, tuple)
    assert len(parsed.commands) <= shellwords.MAX_COMMANDS
    trust_words(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=2000))
def test_any_text_parses_without_raising(text: str) -> None:
    for cmd in parse(text).commands:
        assert cmd.depth <= shellwords.MAX_DEPTH + 1
        _ = cmd.inline_code, cmd.name
    trust_words(text, variables={"X": "/p"})
    scripts.script_words(text, variables={"X": "/p"})


def test_the_public_names() -> None:
    assert set(shell.__all__) == {"Command", "Parsed", "Redirect", "Word", "parse"}
    assert set(scripts.__all__) == {"Scripts", "TrustWords", "script_words", "trust_words"}


def test_the_guards_load_no_trust_words() -> None:
    """What trust and the missing-script check read (shell/scripts.py, shell/runners.py)
    is no guard's: a guarded event's run does not load it (the count before is checked)."""
    probe = ("import sys\n"
             "import forge_hookd.guards, forge_hookd.run.guardhook\n"
             "print(sorted(m for m in sys.modules if m in ('forge_hookd.shell.scripts', 'forge_hookd.shell.runners',"
             " 'forge_hookd.shell.commands')))\n")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert loaded.stdout.strip() == "['forge_hookd.shell.commands']", loaded.stdout + loaded.stderr


# -- what the line sets for itself, and what the parser cannot see (issue 31) ----------------------
@pytest.mark.parametrize(("command", "argv"), [
    ("f=trust; forge-hook $f", ("forge-hook", "trust")),
    ("FH=forge-hook; $FH trust", ("forge-hook", "trust")),
    ("export FH=forge-hook && $FH trust", ("forge-hook", "trust")),
    ("$(command -v forge-hook) trust", ("/usr/bin/forge-hook", "trust")),  # where PATH finds it; named forge-hook
    ("`which forge-hook` trust", ("/usr/bin/forge-hook", "trust")),
    ("set -- forge-hook trust; \"$@\"", ("forge-hook", "trust")),
    ("C='rm -rf /'; $C", ("rm", "-rf", "/")),
    ("rm -rf {/,x}", ("rm", "-rf", "/", "x")),
    ("d=$(mktemp -d); rm -rf \"$d\"", ("rm", "-rf", "$(mktemp -d)")),
    ("git -c alias.p='push --force' p origin", ("git", "-c", "alias.p=push --force", "push", "--force", "origin")),
    ("git config alias.p 'push --force' && git p", ("git", "push", "--force")),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0='push -f' git p", ("git", "push", "-f")),
    ("GIT_CONFIG_PARAMETERS=\"'alias.p=push --force'\" git p", ("git", "push", "--force")),
])
def test_what_the_line_itself_sets_is_put_in(command: str, argv: tuple[str, ...]) -> None:
    assert effective(command)[-1] == argv


@pytest.mark.parametrize(("command", "inner", "via"), [
    ("printf 'rm -rf /' | sh", ("rm", "-rf", "/"), "pipe"),
    ("printf '%s\\n' 'forge-hook trust' | bash", ("forge-hook", "trust"), "pipe"),
    ("echo -e 'ls\\nrm -rf ~' | bash", ("rm", "-rf", "~"), "pipe"),
    ("echo 'import os; os.system(\"rm -rf /\")' | python3", ("rm", "-rf", "/"), "system()"),
    ("git -c alias.x='!rm -rf /' x", ("rm", "-rf", "/"), "git alias"),
    ("script -qc 'rm -rf /' /dev/null", ("rm", "-rf", "/"), "script -c"),
    ("python -c \"import subprocess; subprocess.run(['rm', '-rf', '/'])\"", ("rm", "-rf", "/"), "system()"),
    ("echo 'rm -rf /' | xargs -0 bash -c", ("rm", "-rf", "/"), "xargs bash -c"),
    ("echo 'rm -rf /' | eval", ("rm", "-rf", "/"), "eval"),
    ("ssh -p 2222 -i ~/.ssh/k user@server 'rm -rf /'", ("rm", "-rf", "/"), "ssh"),
    ("$SHELL -c 'rm -rf /'", ("rm", "-rf", "/"), "$SHELL -c"),
    ("echo 'rm -rf ~' | at midnight", ("rm", "-rf", "~"), "at"),
    ("rm *(e:rm -rf /:)", ("rm", "-rf", "/"), "zsh (e:...:)"),
])
def test_code_written_in_the_line_is_read_however_it_is_fed(command: str, inner: tuple[str, ...], via: str) -> None:
    assert any(c.argv == inner and c.via == via for c in parse(command).commands), effective(command)
    assert not any(c.unseen for c in parse(command).commands)


@pytest.mark.parametrize(("command", "unseen"), [
    ("cat x.sh | sh", "code piped into sh"),
    ("cat x.py | python3", "code piped into python3"),
    ("eval \"$CMD\"", "code from $CMD run by eval"),
    ("bash <<< \"$CMD\"", "the command is $CMD"),
    ("$CMD", "the command is $CMD"),
    ("source <(./gen.sh)", "code from <(./gen.sh) run by source"),
    ("python -c \"import os; os.system(c)\"", "a command built at run time in a python one-liner"),
    ("node -e \"require('child_process').execSync(process.argv[1])\"", "a command built at run time in a node"),
    ("cat cmds | xargs -I{} sh -c '{}'", "commands read from the input of xargs"),
    ("cat cmds | xargs bash -c", "commands read from the input of xargs"),
    ("cat x.sh | eval", "code piped into eval"),
    ("printf '\\162\\155\\040' | sh", "code written in escapes piped into sh"),
    ("echo -e '\\x6c\\x73' | bash", "code written in escapes piped into bash"),
    ("echo -e '\\u006c\\u0073' | bash", "code written in escapes piped into bash"),
    ("GIT_CONFIG_PARAMETERS=\"$X\" git p", "a git alias from the command line's config"),
])
def test_what_the_parser_cannot_see_is_said(command: str, unseen: str) -> None:
    said = [c.unseen for c in parse(command).commands if c.unseen]
    assert said and said[0].startswith(unseen), said


@pytest.mark.parametrize("command", [
    "kill $(pgrep node)", "docker rm $(docker ps -aq)", "$PYTHON -m pytest", "eval \"$(ssh-agent -s)\"",
    "source <(kubectl completion bash)", "source ./venv/bin/activate", "cat data.json | python3 -m json.tool",
    "echo '{}' | python3 -c 'import json,sys; json.load(sys.stdin)'", "git -c alias.x='!ls' x",
    "git st", "eval \"$(pyenv init -)\"", "find . -name '*.py' | xargs wc -l",
])
def test_everyday_substitutions_are_seen(command: str) -> None:
    assert not [c.unseen for c in parse(command).commands if c.unseen]


@pytest.mark.parametrize(("command", "argv"), [
    ("SuDo Rm -Rf /", ("rm", "-Rf", "/")),          # macOS's file system finds sudo and rm
    ("RM -rf build", ("rm", "-rf", "build")),
    ("Rscript -e 'x'", ("Rscript", "-e", "x")),      # a program of its own name stays
    ("GET https://x.example", ("GET", "https://x.example")),
    ("Stop-Process -Name node", ("Stop-Process", "-Name", "node")),
])
def test_a_command_name_in_another_case_is_the_command_a_case_insensitive_system_runs(
        command: str, argv: tuple[str, ...]) -> None:
    assert parse(command).commands[0].argv == argv


@pytest.mark.parametrize(("command", "words"), [
    ("rm -f *.log(.)", ("rm", "-f", "*.log(.)")),   # zsh's qualifier: one glob word, not a subshell
    ("ls @(a|b)", ("ls", "@(a|b)")),                  # bash's extglob
    ("ls *(e'[[ -x $REPLY ]]')", ("ls", "*(e'[[ -x $REPLY ]]')")),
])
def test_a_glob_group_is_one_word(command: str, words: tuple[str, ...]) -> None:
    assert parse(command).commands[0].argv == words


def test_ssh_without_a_command_runs_nothing_here() -> None:
    assert [c.argv for c in parse("ssh -L 5432:localhost:5432 -i ~/.ssh/k db").commands] == \
        [("ssh", "-L", "5432:localhost:5432", "-i", "~/.ssh/k", "db")]


def test_the_parser_hands_optioncode_every_program_it_reads_and_loads_it_only_then() -> None:
    from forge_hookd.shell import optioncode

    assert shell.OPTION_CODE_HEADS == set(optioncode.OPTION_CODE)
    lines = ['git add -A && git commit -m "fix: parse" && npm test', "tar -cf x.tar --checkpoint-action=exec=ls ."]
    assert loaded_after_judging("forge_hookd.shell.optioncode", lines) == [False, True]
