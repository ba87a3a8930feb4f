"""The shell's grammar, as far as a guard needs it: words, operators, redirections,
heredocs, groups and command substitutions of a POSIX/bash command line. No I/O.

This is the lexer and the first structure; :mod:`shell` sees through wrappers, ``-c``
strings and interpreters on top of it. Everything here is bounded: one pass over the
input per nesting level, a nesting level cap (:data:`MAX_DEPTH`) and a cap on the number
of commands (:data:`MAX_COMMANDS`); nothing raises on any input. Where the text is not
valid shell (an unterminated quote, ``$(`` or heredoc) the construct runs to the end of
the input, as the shell's reader would take it, and :attr:`Script.error` says so.
"""

from __future__ import annotations

import re

from forge_hookd.shell.lazyre import Lazy
from forge_hookd.tuples import NamedTuple

MAX_DEPTH = 16  # nested $(...), `...`, sh -c, eval: deeper is not judged (Script.truncated)
MAX_COMMANDS = 4096  # simple commands in one parse, nested ones included
MAX_CHARS = 1 << 20  # characters read in one parse, nested -c strings and eval included
MAX_FEEDERS = 8  # commands kept upstream of one in a pipeline: `a | b | ... | sh` sees the last ones

# Every line needs these two; the others compile on first need (a name after `$`, a word
# holding `=`, a redirection), so `git add -A && git commit -m "fix" && npm test` compiles
# two patterns, not seven (bench/README.md, "The pack's cold cost, stage by stage").
_PLAIN = re.compile(r"[^\s|&;()<>'\"\\$`]+")
_BLANKS = re.compile(r"(?:[ \t\r]+|\\\n|#[^\n]*)+")
_NAME = Lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_EMPTY_SUB = Lazy(r"\$\(\s*\)")
#: a ``$NAME`` or ``${NAME}`` reference (group 1 the braced name, group 2 the bare one), for those
#: who put known values in: the guards, trust's words, a runner's inputs
VARIABLE = Lazy(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))", needs=("$",))
_ASSIGNMENT = Lazy(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=", needs=("=",))
_OPERATORS = ("&&", "||", ";;&", ";;", ";&", "|&", "|", "&", ";", "(", ")")  # the longest first
_SPECIAL_START = frozenset("\n<>&|;(){0123456789")
_WORD_END = frozenset(" \t\r\n|&;()<>")
_GROUP_GLOBS = "+@!"  # with a glob's own characters, what a `(` may follow in one glob word (extglob's @(a|b))
_REDIRECT_HEAD = Lazy(r"(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})?(<<<|<<-|&>>|<<|<>|<&|>>|>&|>\||&>|<|>)")
_ANSI = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b",
         "E": "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?"}
_CLOSERS = {"(": ")", "{": "}"}


class Word(NamedTuple):
    """One word after quote removal. Expansions are kept as written (``$HOME``,
    ``$(cmd)``): they are the reader's to resolve. ``dynamic``: it holds one;
    ``glob``: an unquoted ``*``, ``?`` or ``[``; ``quoted``: some part was quoted."""

    text: str
    quoted: bool = False
    dynamic: bool = False
    glob: bool = False
    assignment: bool = False  # NAME=value, NAME unquoted (the value may be quoted)


class Sub(NamedTuple):
    """A command substitution or process substitution found in a word: ``kind`` is
    ``$(``, a backtick or ``<(``/``>(``; ``text`` the command inside."""

    kind: str
    text: str


class RawRedirect:
    """``op`` as written (``>``, ``>>``, ``<``, ``<<``, ``<<<``, ``&>``, ``>&`` ...),
    ``target`` after quote removal (a heredoc's delimiter), ``fd`` when one was
    written; a heredoc's or here-string's text is in ``body`` (filled in when the line
    ends, hence mutable). Plain classes here, not dataclasses: they cost ~7x less to
    create at import (bench/README.md, "Record types on the event path")."""

    __slots__ = ("op", "target", "fd", "body")

    def __init__(self, op: str, target: Word, fd: str | None = None) -> None:
        self.op = op
        self.target = target
        self.fd = fd
        self.body: str | None = None

    @property
    def mode(self) -> str:
        """``write``, ``append``, ``read``, ``readwrite``, ``dup`` (``2>&1``) or ``stdin``
        (a heredoc or here-string: text, not a file)."""
        op = self.op
        if op in ("<<", "<<-", "<<<"):
            return "stdin"
        if op in (">&", "<&") and (self.target.text.isdigit() or self.target.text == "-"):
            return "dup"
        if op in (">>", "&>>"):
            return "append"
        if op == "<>":
            return "readwrite"
        return "read" if op in ("<", "<&") else "write"


class RawCommand:
    """A simple command as written: assignments, words, redirections; ``feeders`` are
    the commands earlier in its pipeline (``curl x | sh``: curl feeds sh)."""

    __slots__ = ("words", "assignments", "redirects", "subs", "feeders")

    def __init__(self) -> None:
        self.words: list[Word] = []
        self.assignments: list[Word] = []
        self.redirects: list[RawRedirect] = []
        self.subs: list[Sub] = []
        self.feeders: tuple[RawCommand, ...] = ()


class Script:
    """The simple commands of a command line, in the order the shell meets them;
    ``error``: why the text is not valid shell (what was read is still here);
    ``truncated``: a bound was reached, not everything was seen. ``loops``: each
    ``for NAME in WORDS`` (and ``select``), the name and its words, so that a reader can
    say ``"$f"`` as what it iterates over (``scripts/*.sh``)."""

    __slots__ = ("commands", "error", "truncated", "loops")

    def __init__(self) -> None:
        self.commands: list[RawCommand] = []
        self.error: str | None = None
        self.truncated = False
        self.loops: list[tuple[str, tuple[Word, ...]]] = []


class _Budget:
    """The bounds shared by one parse and all the parses nested in it."""

    def __init__(self) -> None:
        self.commands = 0
        self.chars = 0
        self.truncated = False

    def take(self, text: str) -> str:
        """``text``, cut to what is left of :data:`MAX_CHARS` (truncated when cut)."""
        left = MAX_CHARS - self.chars
        if len(text) > left:
            self.truncated = True
            text = text[:max(left, 0)]
        self.chars += len(text)
        return text


# -- skipping a balanced construct, iteratively (no recursion: 10,000 nested $( is fine)
def skip_balanced(s: str, i: int, closer: str) -> int:
    """The index of the ``closer`` (``)``, ``}``, a backtick or ``"``) that ends the
    construct whose body starts at ``i``, respecting quotes and nesting; -1 when the
    text ends first."""
    stack = [closer]
    n = len(s)
    while i < n:
        top, c = stack[-1], s[i]
        if c == "\\":
            i += 2
            continue
        if top in ('"', "`"):
            if c == top:
                stack.pop()
            elif c == "$" and i + 1 < n and s[i + 1] in "({":
                stack.append(_CLOSERS[s[i + 1]])
                i += 1
            elif c == "`" and top == '"':
                stack.append("`")
        elif c == "'":
            j = s.find("'", i + 1)
            if j < 0:
                return -1
            i = j
        elif c == '"' or c == "`":
            stack.append(c)
        elif c == "$" and i + 1 < n and s[i + 1] in "({":
            stack.append(_CLOSERS[s[i + 1]])
            i += 1
        elif c == "(" and top == ")":
            stack.append(")")
        elif c == top:
            stack.pop()
        elif c == "#" and top == ")" and (i == 0 or s[i - 1] in " \t\n;|&("):
            j = s.find("\n", i)
            i = n if j < 0 else j
            continue
        if not stack:
            return i
        i += 1
    return -1


class _Lexer:
    """Words and operators of one command line (one nesting level)."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.error: str | None = None
        self.subs: list[Sub] = []
        self.pending: list[tuple[RawRedirect, bool]] = []  # heredocs whose body follows the line

    def fail(self, message: str) -> None:
        if self.error is None:
            self.error = message

    # -- tokens ------------------------------------------------------------------------
    def next_token(self) -> tuple[str, object] | None:
        """("op", str) | ("word", Word) | ("redirect", (fd, op)) | ("newline", None); None at the end."""
        s, n = self.s, len(self.s)
        blanks = _BLANKS.match(s, self.i)
        if blanks is not None:
            self.i = blanks.end()
        if self.i >= n:
            return None
        c = s[self.i]
        if c not in _SPECIAL_START:  # most tokens: a word that is no redirection's fd
            return ("word", self.word())
        if c == "\n":
            self.i += 1
            self._read_heredocs()
            return ("newline", None)
        if c in "<>" and s.startswith("(", self.i + 1):
            return ("word", self.word())
        if s.startswith("((", self.i):  # an arithmetic command: one word, never a subshell
            end = skip_balanced(s, self.i + 2, ")")
            start, self.i = self.i, len(s) if end < 0 else min(end + 2, len(s))
            return ("word", Word(s[start:self.i], dynamic=True))
        head = _REDIRECT_HEAD.match(s, self.i) if c in "<>{" or c.isdigit() or s.startswith("&>", self.i) else None
        if head is not None and (head.group(1) is None or c.isdigit() or c == "{"):
            self.i = head.end()
            return ("redirect", (head.group(1), head.group(2)))
        op = next((o for o in _OPERATORS if s.startswith(o, self.i)), None)
        if op is not None:
            self.i += len(op)
            return ("op", op)
        return ("word", self.word())

    def _read_heredocs(self) -> None:
        s = self.s
        for redirect, strip in self.pending:
            lines: list[str] = []
            delimiter = redirect.target.text
            while self.i < len(s):
                j = s.find("\n", self.i)
                line = s[self.i:] if j < 0 else s[self.i:j]
                self.i = len(s) if j < 0 else j + 1
                if (line.lstrip("\t") if strip else line) == delimiter:
                    break
                lines.append(line.lstrip("\t") if strip else line)
            else:
                self.fail(f"here-document delimited by end of input (wanted '{delimiter}')")
            redirect.body = "\n".join(lines)
        self.pending.clear()

    # -- words -------------------------------------------------------------------------
    def word(self) -> Word:
        s, n = self.s, len(self.s)
        parts: list[str] = []
        quoted = dynamic = glob = False
        head = _PLAIN.match(s, self.i)
        if head is not None and head.group().endswith("=") and s.startswith("(", head.end()) and \
                _ASSIGNMENT.fullmatch(head.group()) is not None:
            return self._array(head.end())
        if head is not None and (head.end() == n or s[head.end()] in _WORD_END) and \
                not (s.startswith("(", head.end()) and _glob_group(head.group())):  # a plain word, the most common
            self.i = head.end()
            text = head.group()
            return Word(text, glob=_has_glob(text), assignment=_ASSIGNMENT.match(text) is not None)
        assignment = head is not None and _ASSIGNMENT.match(head.group()) is not None
        windows = _WINDOWS_PATH.match(s, self.i) if s.startswith((":\\", "\\"), self.i + 1) else None
        if windows is not None:  # C:\Users\me, .\i.ps1: Windows' backslash separates, it escapes nothing
            self.i = windows.end()
            return Word(windows.group(), glob=_has_glob(windows.group()))
        while self.i < n:
            c = s[self.i]
            plain = _PLAIN.match(s, self.i)
            if plain is not None:
                text = plain.group()
                glob = glob or _has_glob(text)
                parts.append(text)
                self.i = plain.end()
            elif c == "(" and parts and _glob_group(parts[-1]) and (glob or parts[-1][-1] in "+@!"):
                # `*(e:CODE:)`, `*.log(.)`, `?(a|b)`: zsh's glob qualifiers and bash's extglob, one word
                start, end = self.i, skip_balanced(s, self.i + 1, ")")
                self.i = n if end < 0 else end + 1
                parts.append(s[start:self.i])
                glob = True
            elif c in " \t\r\n|&;()" or (c in "<>" and not s.startswith("(", self.i + 1)):
                break
            elif c in "<>":  # <(...) >(...) process substitution
                dynamic = True
                parts.append(self._substitution(c + "(", self.i + 2, ")"))
            elif c == "\\":
                if s.startswith("\n", self.i + 1):
                    self.i += 2
                    continue
                parts.append(s[self.i + 1:self.i + 2])
                quoted = True
                self.i += 2
            elif c == "'":
                j = s.find("'", self.i + 1)
                if j < 0:
                    self.fail("unterminated single quote")
                    j = n
                parts.append(s[self.i + 1:j])
                quoted = True
                self.i = j + 1
            elif c == '"':
                self.i += 1
                dynamic = self._double_quoted(parts) or dynamic
                quoted = True
            elif c == "`":
                text = self._backtick()
                dynamic = dynamic or text != ""
                parts.append(text)
            else:  # "$"
                kind = self._dollar(parts)
                quoted = quoted or kind == "quoted"
                dynamic = dynamic or kind == "dynamic"
        return Word("".join(parts), quoted, dynamic, glob, assignment)

    def _array(self, opening: int) -> Word:
        """``NAME=(a b c)``: an array assigned, one word up to its closing parenthesis (not
        ``NAME=`` and a subshell); what it holds is :class:`Known`'s to read."""
        start, end = self.i, skip_balanced(self.s, opening + 1, ")")
        if end < 0:
            self.fail("unterminated array (")
            end = len(self.s) - 1
        self.i = end + 1
        inner = self.s[opening + 1:end]
        self._nested_subs(inner)
        return Word(self.s[start:self.i], dynamic="$" in inner or "`" in inner, assignment=True)

    def _double_quoted(self, parts: list[str]) -> bool:
        s, n = self.s, len(self.s)
        dynamic = False
        while True:
            j = self.i
            while j < n and s[j] not in '"\\$`':
                j += 1
            parts.append(s[self.i:j])
            self.i = j
            if j >= n:
                self.fail("unterminated double quote")
                return dynamic
            c = s[j]
            if c == '"':
                self.i += 1
                return dynamic
            if c == "\\" and s.startswith('"', j + 1) and _windows_path_end(s, j):
                parts.append("\\")  # "C:\": a Windows path's last backslash, and the quote closes
                self.i += 1
            elif c == "\\":
                nxt = s[j + 1:j + 2]
                parts.append(nxt if nxt in '$`"\\' else ("" if nxt == "\n" else "\\" + nxt))
                self.i += 2
            elif c == "`":
                text = self._backtick()
                dynamic = dynamic or text != ""
                parts.append(text)
            else:
                dynamic = self._dollar(parts, in_quotes=True) == "dynamic" or dynamic

    def _backtick(self) -> str:
        start = self.i + 1
        end = skip_balanced(self.s, start, "`")
        if end < 0:
            self.fail("unterminated backquote")
            end = len(self.s)
        self.i = end + 1
        inner = re.sub(r"\\([`$\\])", r"\1", self.s[start:end])
        if not inner.strip():
            return ""  # an empty substitution (wh``oami) adds nothing: the word is what is left
        self.subs.append(Sub("`", inner))
        return "`" + inner + "`"

    def _substitution(self, kind: str, start: int, closer: str) -> str:
        end = skip_balanced(self.s, start, closer)
        if end < 0:
            self.fail(f"unterminated {kind}")
            end = len(self.s)
        self.i = end + 1
        inner = self.s[start:end]
        self.subs.append(Sub(kind, inner))
        return kind + inner + closer

    def _dollar(self, parts: list[str], *, in_quotes: bool = False) -> str:
        """One ``$`` construct; "dynamic", "quoted" or "plain" (a lone dollar sign)."""
        s, i = self.s, self.i
        nxt = s[i + 1:i + 2]
        if s.startswith("$((", i):
            end = skip_balanced(s, i + 2, ")")
            self.i = len(s) if end < 0 else end + 1
            parts.append(s[i:self.i])
            self._nested_subs(s[i + 3:max(end - 1, i + 3)])
            return "dynamic"
        if nxt == "(":
            if (empty := _EMPTY_SUB.match(s, i)) is not None:  # who$()ami: an empty substitution adds nothing
                self.i = empty.end()
                return "plain"
            parts.append(self._substitution("$(", i + 2, ")"))
            return "dynamic"
        if nxt == "{":
            end = skip_balanced(s, i + 2, "}")
            self.i = len(s) if end < 0 else end + 1
            if end < 0:
                self.fail("unterminated ${")
            parts.append(s[i:self.i])
            self._nested_subs(s[i + 2:max(end, i + 2)])
            return "dynamic"
        if nxt == "'" and not in_quotes:
            self.i = i + 2
            parts.append(self._ansi_c())
            return "quoted"
        if nxt == '"' and not in_quotes:
            self.i = i + 1
            return "quoted"  # $"..." is a double-quoted string; the next loop reads it
        name = _NAME.match(s, i + 1)
        if name is not None:
            self.i = name.end()
        elif nxt and (nxt.isdigit() or nxt in "@*#?$!-"):
            self.i = i + 2
        else:
            self.i = i + 1
            parts.append("$")
            return "plain"
        parts.append(s[i:self.i])
        return "dynamic"

    def _nested_subs(self, text: str) -> None:
        """Command substitutions inside ``${...}`` or ``$((...))``."""
        if "$(" in text or "`" in text:
            inner = _Lexer(text)
            inner.word()
            while inner.i < len(text):
                inner.i += 1
                inner.word()
            self.subs.extend(inner.subs)

    def _ansi_c(self) -> str:
        s, n = self.s, len(self.s)
        out: list[str] = []
        while self.i < n and s[self.i] != "'":
            c = s[self.i]
            if c == "\\" and self.i + 1 < n:
                self.i += 1
                out.append(self._ansi_escape())
            else:
                out.append(c)
                self.i += 1
        if self.i >= n:
            self.fail("unterminated $'")
        self.i += 1
        return "".join(out)

    def _ansi_escape(self) -> str:
        s, c = self.s, self.s[self.i]
        self.i += 1
        if c in _ANSI:
            return _ANSI[c]
        digits, base, width = (("01234567", 8, 2) if c in "01234567" else ("0123456789abcdefABCDEF", 16,
                               {"x": 2, "u": 4, "U": 8}.get(c, 0)))
        if width == 0:
            return "\\" + c
        start = self.i - 1 if base == 8 else self.i
        end = start
        while end < len(s) and end - start < width + (1 if base == 8 else 0) and s[end] in digits:
            end += 1
        self.i = end
        try:
            return chr(int(s[start:end], base)) if end > start else "\\" + c
        except (ValueError, OverflowError):
            return ""


# -- from tokens to commands ------------------------------------------------------------
_SKIP_WORDS = frozenset({"!", "then", "else", "elif", "do", "if", "while", "until", "fi", "done", "coproc"})


class _Chain:
    """Where a group (a subshell, ``{ }``) is in its pipeline: the commands upstream of
    its current element, and the commands of that element so far."""

    def __init__(self, upstream: tuple[RawCommand, ...] = ()) -> None:
        self.base = upstream  # what feeds the group as a whole
        self.upstream = upstream
        self.element: list[RawCommand] = []
        self.members: list[RawCommand] = []  # every command of the group: all of them feed a pipe


class _Builder:
    def __init__(self, lexer: _Lexer, budget: _Budget) -> None:
        self.lexer = lexer
        self.budget = budget
        self.script = Script()
        self.chains = [_Chain()]
        self.cmd = RawCommand()
        self.pushed: tuple[str, object] | None = None
        self.skip_until: str | None = None  # "do" after `for x in`, "in" after `case x`, "name"
        self.case_depth = 0
        self.in_pattern = False  # reading a case pattern, up to its ")"
        self.loop: list[Word] | None = None  # the words of `for NAME in ...` up to its "do"

    def next_token(self) -> tuple[str, object] | None:
        token, self.pushed = self.pushed, None
        return token if token is not None else self.lexer.next_token()

    def run(self) -> Script:
        while True:
            token = self.next_token()
            if token is None:
                break
            if self.budget.commands >= MAX_COMMANDS:
                self.budget.truncated = True
                break
            kind, value = token
            if kind == "word":
                assert isinstance(value, Word)
                self.on_word(value)
            elif kind == "redirect":
                assert isinstance(value, tuple)
                self.on_redirect(value[0], value[1])
            elif kind == "newline":
                self.on_op("\n")
            else:
                assert isinstance(value, str)
                self.on_op(value)
        self.end_pipeline()
        if self.lexer.pending:  # a heredoc on the last line, with no newline after it
            self.lexer.fail("here-document delimited by end of input")
        self.script.error = self.lexer.error
        return self.script

    def on_word(self, word: Word) -> None:
        cmd, text = self.cmd, word.text
        if self.skip_until is not None or self.in_pattern:
            self._take_subs()  # `for f in $(find ...)`: the substitution runs
            if self.loop is not None:
                self._loop_word(word)
            if self.skip_until == "name" or (text == self.skip_until and not word.quoted):
                self.skip_until = None
                self.in_pattern = self.in_pattern or text == "in"
            elif text == "esac" and not word.quoted:
                self._end_case()
            return
        if not cmd.words and (not word.quoted or word.assignment) and not self._keyword(word, text):
            return
        cmd.words.append(word)
        self._take_subs()

    def _keyword(self, word: Word, text: str) -> bool:
        """Whether a word at command position is a command word (False: taken here)."""
        cmd = self.cmd
        if word.assignment:
            cmd.assignments.append(word)
            self._take_subs()
            return False
        if cmd.assignments:
            return True
        if text in _SKIP_WORDS:
            self.end_command()
        elif text in ("for", "select", "case", "function"):
            self.skip_until = {"for": "do", "select": "do", "case": "in", "function": "name"}[text]
            self.loop = [] if self.skip_until == "do" else None
            self.case_depth += text == "case"
        elif text == "esac":
            self._end_case()
        elif text == "{":
            self.end_command()
            self.chains.append(_Chain(self.chains[-1].upstream))
        elif text == "}":
            self._close_group()
        else:
            return True
        return False

    def _loop_word(self, word: Word) -> None:
        """One word of a ``for`` head; at its ``do``, the loop is recorded."""
        assert self.loop is not None
        if word.text != "do" or word.quoted:
            self.loop.append(word)
            return
        head, self.loop = self.loop, None
        if len(head) >= 2 and head[1].text == "in" and _NAME.fullmatch(head[0].text):
            self.script.loops.append((head[0].text, tuple(head[2:])))

    def _end_case(self) -> None:
        self.end_pipeline()
        self.case_depth = max(0, self.case_depth - 1)
        self.in_pattern = False

    def on_redirect(self, fd: str | None, op: str) -> None:
        token = self.next_token()
        if token is None or token[0] != "word":
            self.lexer.fail(f"a redirection {op} without a target")
            self.pushed = token
            target = Word("")
        else:
            assert isinstance(token[1], Word)
            target = token[1]
        redirect = RawRedirect(op, target, fd)
        if op in ("<<", "<<-"):
            self.lexer.pending.append((redirect, op == "<<-"))
        elif op == "<<<":
            redirect.body = target.text
        self.cmd.redirects.append(redirect)
        self._take_subs()

    def on_op(self, op: str) -> None:
        chain = self.chains[-1]
        if self.in_pattern:
            self.in_pattern = op != ")"
        elif op in ("|", "|&"):
            self.end_command()
            chain.upstream = (chain.upstream + tuple(chain.element))[-MAX_FEEDERS:]
            chain.element = []
        elif op == "(":
            if self.cmd.words:  # f() { ...; }: a function's name, not a command
                self.cmd = RawCommand()
                return
            self.end_command()
            self.chains.append(_Chain(chain.upstream))
        elif op == ")":
            self._close_group()
        else:  # && || ; & ;; newline
            self.end_pipeline()
            if self.skip_until == "do" or self.skip_until == "in":
                return
            self.skip_until = None
            self.in_pattern = self.case_depth > 0 and op in (";;", ";&", ";;&")

    def _close_group(self) -> None:
        self.end_command()
        if len(self.chains) > 1:
            inner = self.chains.pop()
            self.chains[-1].element.extend(inner.members[-MAX_FEEDERS:])
            self.chains[-1].members.extend(inner.members[-MAX_FEEDERS:])

    def end_command(self) -> None:
        cmd = self.cmd
        if cmd.words or cmd.assignments or cmd.redirects or cmd.subs:
            cmd.feeders = self.chains[-1].upstream
            self.script.commands.append(cmd)
            self.chains[-1].element.append(cmd)
            self.chains[-1].members.append(cmd)
            self.budget.commands += 1
        self.cmd = RawCommand()

    def end_pipeline(self) -> None:
        self.end_command()
        chain = self.chains[-1]
        chain.upstream = chain.base
        chain.element = []

    def _take_subs(self) -> None:
        if self.lexer.subs:
            self.cmd.subs.extend(self.lexer.subs)
            self.lexer.subs.clear()


def parse_raw(text: str, budget: _Budget | None = None) -> Script:
    """The simple commands of ``text`` at one nesting level (substitutions are left
    in :attr:`RawCommand.subs` for the caller to parse, depth-bounded)."""
    budget = budget or _Budget()
    script = _Builder(_Lexer(budget.take(text)), budget).run()
    script.truncated = budget.truncated
    return script


#: a word that is a Windows path: a drive (`C:\`), `.\x`, `..\x`; read to its end, backslashes kept
_WINDOWS_PATH = Lazy(r"(?:[A-Za-z]:|\.\.?)\\[^\s|&;()<>'\"$`]*")


def _windows_path_end(s: str, j: int) -> bool:
    """Whether the backslash at ``j`` ends a Windows path in double quotes (``"C:\\"``,
    ``"C:\\Temp\\"``): there it separates, and the quote after it closes."""
    start = max(s.rfind('"', 0, j), s.rfind(" ", 0, j), s.rfind("\t", 0, j)) + 1
    return bool(_WINDOWS_PATH.fullmatch(s[start:j + 1]))


def _glob_group(text: str) -> bool:
    """Whether a ``(`` right after ``text`` opens a group of the same glob word: zsh's
    qualifiers after a glob (``*(e:CODE:)``, ``*.log(.)``) or bash's extglob (``?(a|b)``,
    ``@(x|y)``); elsewhere a ``(`` is the shell's."""
    return bool(text) and (_has_glob(text) or text[-1] in _GROUP_GLOBS)


def _has_glob(text: str) -> bool:
    """An unquoted ``*``, ``?`` or ``[`` in a plain run of a word."""
    return "*" in text or "?" in text or "[" in text


def new_budget() -> _Budget:
    return _Budget()


def quote(text: str) -> str:
    """``text`` as one shell word that reads back as ``text`` (single quotes where it needs any)."""
    return text if _PLAIN_WORD.fullmatch(text) else "'" + text.replace("'", "'\\''") + "'"


_PLAIN_WORD = Lazy(r"[A-Za-z0-9_./=:,@%+{}-]+")


def is_assignment(word: str) -> bool:
    return _ASSIGNMENT.match(word) is not None


__all__ = ["MAX_COMMANDS", "MAX_DEPTH", "RawCommand", "RawRedirect", "Script", "Sub", "Word", "is_assignment", "quote",
           "new_budget", "parse_raw", "skip_balanced"]
