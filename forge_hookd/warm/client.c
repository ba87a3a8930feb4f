/*
 * forge-hook-run's native warm client: the Python client (forge_hookd/warm/client.py)
 * without an interpreter to start. That module owns the protocol, forge-warm/2, and
 * says it whole; this file speaks the client's side of it. Python's own start costs
 * 0.85 x lefthook's whole one-hook run before a line of ours runs (bench/README.md,
 * "warm.py"); this client starts in well under a millisecond.
 *
 * It decides one thing: whether the resident runner serves this run. Every other path
 * is the Python launcher's, which it execs with the reason in the environment:
 *   _FORGE_WARM_COLD=WHY    the run is cold (no runner, a stale or refusing one, one that
 *                           went away before it took stdin): the launcher says WHY under
 *                           --trace, starts the runner when `forge-hook warm on` is in
 *                           force, fails under FORGE_WARM_REQUIRED=1, and runs cold;
 *   _FORGE_WARM_BROKEN=WHY  the runner took the run (and stdin) and did not finish it:
 *                           the launcher answers the failure in the command's own codec.
 * So the cold run, its answers and its notes are the Python client's, word for word.
 *
 * Built by forge_hookd/warm/build.py (install.sh calls it), which defines:
 *   FORGE_COLD       the Python launcher to exec
 *   FORGE_KEY_DIR    the package directory, as the Python client names it
 *   FORGE_HEXVERSION that interpreter's sys.hexversion
 *   FORGE_DENIALS    the answer of each dialect's writer to a launcher that cannot start
 *                    (build.denials): the one failure this client answers itself
 *   FORGE_ALIVE_WAIT_MS how long a sign of life may take (warm.client.ALIVE_WAIT_MS)
 *   FORGE_BUSY_ROUNDS   how many such waits a runnable runner gets (warm.client.BUSY_ROUNDS)
 *   FORGE_INSTALL_TAG this install's name among the user's (warm.client.install_tag)
 * Built from these, the request's key is the Python client's (warmclient.code_key).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stddef.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#if !defined(FORGE_COLD) || !defined(FORGE_KEY_DIR) || !defined(FORGE_HEXVERSION) || !defined(FORGE_DENIALS) || \
    !defined(FORGE_ALIVE_WAIT_MS) || !defined(FORGE_BUSY_ROUNDS) || !defined(FORGE_INSTALL_TAG)
#error "build with forge_hookd/warm/build.py, which defines FORGE_COLD, FORGE_KEY_DIR, FORGE_HEXVERSION, FORGE_DENIALS, FORGE_ALIVE_WAIT_MS, FORGE_BUSY_ROUNDS and FORGE_INSTALL_TAG"
#endif

extern char **environ;

#define PROTOCOL "forge-warm/2"
#define HELLO "H " PROTOCOL
#define INTERNAL_ERROR 3 /* forge_hookd.errors.ExitStatus.INTERNAL_ERROR */
#define MAX_LINE 4096

/* -- the runner's signals (forge_hookd/signalnames.py) ------------------------------ */
static const struct { int num; const char *name; } ENDING[] = {
    {SIGINT, "SIGINT"}, {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"}, {SIGQUIT, "SIGQUIT"},
    {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}, {SIGALRM, "SIGALRM"},
    {SIGVTALRM, "SIGVTALRM"}, {SIGPROF, "SIGPROF"}, {SIGIO, "SIGIO"}, {SIGPWR, "SIGPWR"},
#ifdef SIGSTKFLT
    {SIGSTKFLT, "SIGSTKFLT"},
#endif
    {SIGXCPU, "SIGXCPU"},
};
#define N_ENDING (sizeof ENDING / sizeof ENDING[0])

static sigset_t runner_signals;
static sigset_t given_mask; /* the signal mask we were started with */
/* The runner's signals the caller did not block: a blocked one stays pending for whoever
 * unblocks it, as with a Python client. */
static sigset_t takeable;
static struct sigaction given_actions[NSIG]; /* an inherited SIG_IGN (nohup) is kept */

static int is_runner_signal(int signum) {
    return sigismember(&runner_signals, signum) == 1;
}

/* The other signals' names, for a worker killed by one (SIGABRT, not SIGIOT: the first
 * name of a number, as signalnames.name_of gives it). */
static const struct { int num; const char *name; } OTHERS[] = {
    {SIGILL, "SIGILL"}, {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},
    {SIGFPE, "SIGFPE"}, {SIGKILL, "SIGKILL"}, {SIGSEGV, "SIGSEGV"}, {SIGPIPE, "SIGPIPE"},
    {SIGCHLD, "SIGCHLD"}, {SIGCONT, "SIGCONT"}, {SIGSTOP, "SIGSTOP"}, {SIGTSTP, "SIGTSTP"},
    {SIGTTIN, "SIGTTIN"}, {SIGTTOU, "SIGTTOU"}, {SIGURG, "SIGURG"}, {SIGXFSZ, "SIGXFSZ"},
    {SIGWINCH, "SIGWINCH"}, {SIGSYS, "SIGSYS"},
};

/* Text built by hand, not by snprintf: the start-up answer is written from a signal
 * handler, where only async-signal-safe calls belong. */
struct text { char data[256]; size_t len; };

static void add(struct text *t, const char *s) {
    while (*s != '\0' && t->len + 1 < sizeof t->data)
        t->data[t->len++] = *s++;
    t->data[t->len] = '\0';
}

static void add_number(struct text *t, int n) {
    char digits[16];
    int i = (int)sizeof digits - 1;
    digits[i] = '\0';
    unsigned v = n < 0 ? 0u - (unsigned)n : (unsigned)n;
    do
        digits[--i] = (char)('0' + v % 10);
    while ((v /= 10) != 0 && i > 1);
    if (n < 0)
        digits[--i] = '-';
    add(t, digits + i);
}

/* As signalnames.name_of names it: "SIGTERM", "SIGRTMIN+3". */
static void add_signal_name(struct text *t, int signum) {
    for (size_t i = 0; i < N_ENDING; i++)
        if (ENDING[i].num == signum) {
            add(t, ENDING[i].name);
            return;
        }
    for (size_t i = 0; i < sizeof OTHERS / sizeof OTHERS[0]; i++)
        if (OTHERS[i].num == signum) {
            add(t, OTHERS[i].name);
            return;
        }
    if (signum == SIGRTMIN) {
        add(t, "SIGRTMIN");
    } else if (signum == SIGRTMAX) {
        add(t, "SIGRTMAX");
    } else if (signum > SIGRTMIN && signum < SIGRTMAX) {
        add(t, "SIGRTMIN+");
        add_number(t, signum - SIGRTMIN);
    } else {
        add(t, "SIG");
        add_number(t, signum);
    }
}

/* -- signals: answered as at a cold start, held, then relayed ------------------------ */
/* Before the request, a signal is answered as __main__._exit_during_startup answers it
 * (nothing has started). From the request on they are blocked but inside ppoll, so the
 * handler only queues them: held until the worker says it took the run, then relayed. */
static volatile sig_atomic_t requested;
static volatile sig_atomic_t queue[64];
static volatile sig_atomic_t queued;
static volatile sig_atomic_t last_signal;

static void write_bytes(int fd, const char *text, size_t left) {
    while (left > 0) {
        ssize_t n = write(fd, text, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        text += n;
        left -= (size_t)n;
    }
}

static void write_all(int fd, const char *text) {
    write_bytes(fd, text, strlen(text));
}

static const char *dialect_option(void);

static void answer_startup_signal(int signum) {
    struct text line = {.len = 0};
    if (dialect_option() != NULL) { /* the agent's deny, as __main__._exit_during_startup */
        add(&line, "forge-hook-run could not check this call: interrupted by ");
        add_signal_name(&line, signum);
        add(&line, "\n");
        write_all(2, line.data);
        _exit(2);
    }
    add(&line, "forge-hook-run: error: interrupted by ");
    add_signal_name(&line, signum);
    add(&line, "\n");
    write_all(2, line.data);
    line.len = 0;
    add(&line, "{\"version\":1,\"error\":{\"kind\":\"interrupted\",\"message\":\"interrupted by ");
    add_signal_name(&line, signum);
    add(&line, "\"}}\n");
    write_all(1, line.data);
    _exit(128 + signum);
}

static void remember(int signum) {
    last_signal = signum;
    for (int i = 0; i < queued; i++)
        if (queue[i] == signum)
            return;
    if (queued < (int)(sizeof queue / sizeof queue[0]))
        queue[queued++] = signum;
}

static void on_signal(int signum) {
    if (!requested)
        answer_startup_signal(signum); /* write and _exit */
    remember(signum);
}

/* Signals that came while they were blocked outside ppoll: queued as if handled. */
static void take_pending(void) {
    struct timespec now = {0, 0};
    int signum;
    while ((signum = sigtimedwait(&takeable, NULL, &now)) > 0)
        remember(signum);
}

static void install_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigfillset(&action.sa_mask); /* one handler at a time: the queue has one writer */
    sigemptyset(&runner_signals);
    for (size_t i = 0; i < N_ENDING; i++)
        sigaddset(&runner_signals, ENDING[i].num);
    for (int signum = SIGRTMIN; signum <= SIGRTMAX; signum++)
        sigaddset(&runner_signals, signum);
    takeable = runner_signals;
    for (int signum = 1; signum < NSIG; signum++) {
        if (!is_runner_signal(signum))
            continue;
        if (sigismember(&given_mask, signum) == 1)
            sigdelset(&takeable, signum);
        sigaction(signum, &action, &given_actions[signum]);
    }
}

/* -- leaving for the Python launcher ------------------------------------------------- */
static char **saved_argv;

/* The note for the launcher, bounded: the environment shares ARG_MAX with argv, and a
 * runner's refusal may be long. */
#define MAX_NOTE 256

/* The value of --dialect on the command line (NAME or NAME:EVENT), NULL without one. */
static const char *dialect_option(void) {
    if (saved_argv == NULL)
        return NULL;
    for (char **arg = saved_argv + 1; *arg != NULL; arg++) {
        if (strcmp(*arg, "--") == 0)
            return NULL;
        if (strcmp(*arg, "--dialect") == 0)
            return arg[1];
        if (strncmp(*arg, "--dialect=", 10) == 0)
            return *arg + 10;
    }
    return NULL;
}

/* The failure in the agent's own form (issue 30, item 4): an exit status it does not
 * read as a deny (forge's 3) would let the tool run. The record FORGE_DENIALS holds for
 * NAME or NAME:EVENT (an event that can block: the dialect writer's deny); an event of a
 * known agent that cannot block proceeds with a word on stderr; any other value denies
 * the way every agent reads (exit 2, the reason on stderr). */
static void answer_in_dialect(const char *value) {
    static const char table[] = FORGE_DENIALS;
    size_t length = strlen(value);
    for (const char *record = table; *record != '\0';) {
        const char *end = strchr(record, '\x1e');
        const char *status = strchr(record, '\x1f');
        if (end == NULL || status == NULL || status > end)
            break;
        if ((size_t)(status - record) == length && strncmp(record, value, length) == 0) {
            const char *out = strchr(status + 1, '\x1f') + 1, *err = strchr(out, '\x1f') + 1;
            if (err - 1 > out)
                write_bytes(1, out, (size_t)(err - 1 - out));
            if (end > err) {
                write_bytes(2, err, (size_t)(end - err));
                write_all(2, "\n");
            }
            _exit(atoi(status + 1));
        }
        record = end + 1;
    }
    const char *event = strchr(value, ':');
    size_t name_length = event != NULL ? (size_t)(event - value) : length;
    for (const char *record = table; event != NULL && *record != '\0'; record = strchr(record, '\x1e') + 1)
        if (strncmp(record, value, name_length) == 0 && record[name_length] == '\x1f') {
            write_all(2, "forge-hook-run: error: forge-hook-run's Python launcher cannot start: reinstall "
                         "forge-hook-run (the agent proceeds: ");
            write_all(2, event + 1);
            write_all(2, " cannot be blocked)\n");
            _exit(0);
        }
    write_all(2, "forge-hook-run could not check this call: forge-hook-run's Python launcher cannot start: "
                 "reinstall forge-hook-run\n");
    _exit(2);
}

/* The event the payload on stdin names itself ("hook_event_name"; VS Code's
 * "hookEventName"; Copilot's "hookName"), copied to `event`; 0 when none is found in its
 * first MiB (read while it comes, a second at most per read: stdin is not ours to wait
 * on for ever). Without it, a failure must deny (the event might be one that can block);
 * with it, a stop or a notification proceeds, as on the cold path. */
static int payload_event(char *event, size_t size) {
    static char payload[1 << 20];
    size_t got = 0;
    struct pollfd in = {.fd = 0, .events = POLLIN};
    while (got < sizeof payload - 1 && !isatty(0) && poll(&in, 1, 1000) > 0) {
        ssize_t n = read(0, payload + got, sizeof payload - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    payload[got] = '\0';
    static const char *const keys[] = {"\"hook_event_name\"", "\"hookEventName\"", "\"hookName\""};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *at = strstr(payload, keys[k]);
        if (at == NULL)
            continue;
        at += strlen(keys[k]);
        at += strspn(at, " \t\r\n");
        if (*at++ != ':')
            continue;
        at += strspn(at, " \t\r\n");
        if (*at++ != '"')
            continue;
        size_t length = strspn(at, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        if (length == 0 || length >= size || at[length] != '"')
            continue;
        memcpy(event, at, length);
        event[length] = '\0';
        return 1;
    }
    return 0;
}

static void fail_to_start(int error) {
    char line[700];
    snprintf(line, sizeof line, "forge-hook-run: error: cannot start %s (%s)%s\n", FORGE_COLD, strerror(error),
             error == E2BIG ? "" : ": reinstall forge-hook-run");
    write_all(2, line);
    const char *dialect = dialect_option();
    char event[128], named[256];
    if (dialect != NULL && strchr(dialect, ':') == NULL && strlen(dialect) < 64 && payload_event(event, sizeof event)) {
        snprintf(named, sizeof named, "%s:%s", dialect, event);
        dialect = named;
    }
    if (dialect != NULL)
        answer_in_dialect(dialect); /* write and _exit */
    write_all(1, "{\"version\":1,\"error\":{\"kind\":\"internal\",\"message\":\"cannot start forge-hook-run's "
                 "Python launcher\"}}\n");
    _exit(INTERNAL_ERROR);
}

static void go_python(const char *variable, const char *why, const char *short_why, int answer_held) {
    /* The caller's dispositions back (an ignored SIGHUP under nohup stays ignored through
     * the interpreter's start) while the signals are blocked; then whatever came. */
    sigprocmask(SIG_BLOCK, &runner_signals, NULL);
    for (int signum = 1; signum < NSIG; signum++)
        if (is_runner_signal(signum))
            sigaction(signum, &given_actions[signum], NULL);
    take_pending();
    /* A signal held while the runner still had the choice is answered as before the
     * request, the lowest first, as the interpreter runs the Python client's re-raised
     * ones. */
    if (answer_held && queued > 0) {
        int first = queue[0];
        for (int i = 1; i < queued; i++)
            if (queue[i] < first)
                first = queue[i];
        answer_startup_signal(first);
    }
    char note[MAX_NOTE + 1];
    snprintf(note, sizeof note, "%s", why);
    if (setenv(variable, note, 1) != 0)
        fail_to_start(errno);
    sigprocmask(SIG_SETMASK, &given_mask, NULL);
    saved_argv[0] = (char *)FORGE_COLD;
    execv(FORGE_COLD, saved_argv);
    if (errno == E2BIG && setenv(variable, short_why, 1) == 0) /* a few bytes fewer may do */
        execv(FORGE_COLD, saved_argv);
    fail_to_start(errno);
}

static void cold(const char *why) {
    go_python("_FORGE_WARM_COLD", why, "no room for the reason in the environment", 1);
}

/* The run was the worker's: a signal still held is not the start-up's to answer. */
static void broken(const char *why) {
    go_python("_FORGE_WARM_BROKEN", why, "the resident runner broke in the middle of the run", 0);
}

/* -- where (warmclient.runtime_dir, private_dir_problem) ----------------------------- */
static int absolute(const char *path) {
    return path != NULL && path[0] == '/';
}

static char *runtime_dir(void) {
    static char buf[4096];
    const char *named = getenv("FORGE_WARM_DIR");
    const char *run = getenv("XDG_RUNTIME_DIR");
    const char *tmp = getenv("TMPDIR");
    if (absolute(named))
        snprintf(buf, sizeof buf, "%s", named);
    else if (absolute(run))
        snprintf(buf, sizeof buf, "%s/forge-%s", run, FORGE_INSTALL_TAG);
    else
        snprintf(buf, sizeof buf, "%s/forge-%u-%s", absolute(tmp) ? tmp : "/tmp", (unsigned)getuid(),
                 FORGE_INSTALL_TAG);
    return buf;
}

static void check_private(const char *path) {
    struct stat st;
    char why[4300];
    if (lstat(path, &st) != 0)
        snprintf(why, sizeof why, "no resident runner (%s: %s)", path, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        snprintf(why, sizeof why, "no resident runner (%s is not a directory)", path);
    else if (st.st_uid != getuid())
        snprintf(why, sizeof why, "no resident runner (%s belongs to uid %u, not to us (%u))", path,
                 (unsigned)st.st_uid, (unsigned)getuid());
    else if (st.st_mode & 077)
        snprintf(why, sizeof why, "no resident runner (%s is open to others (mode %o, not 700))", path,
                 (unsigned)(st.st_mode & 0777));
    else
        return;
    cold(why);
}

/* -- the request (warmclient.encode_request) ----------------------------------------- */
struct buffer { char *data; size_t len, cap; };

static void append(struct buffer *b, const char *text, size_t len) {
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (b->len + len + 1 > cap)
            cap *= 2;
        char *data = realloc(b->data, cap);
        if (data == NULL)
            cold("out of memory for the request");
        b->data = data;
        b->cap = cap;
    }
    memcpy(b->data + b->len, text, len);
    b->len += len;
}

static void field(struct buffer *b, const char *text) {
    if (b->len > 4)
        append(b, "", 1); /* the NUL between fields */
    append(b, text, strlen(text));
}

static struct buffer encode_request(int argc, char **argv) {
    struct buffer b = {0};
    char number[64];
    append(&b, "\0\0\0\0", 4); /* the length, set below */
    field(&b, PROTOCOL);

    struct stat st;
    if (stat(FORGE_KEY_DIR, &st) != 0)
        cold("forge's package directory is gone (reinstalled?)");
    char key[4400];
    snprintf(key, sizeof key, "%s:%llu:%lld:%d", FORGE_KEY_DIR, (unsigned long long)st.st_ino,
             (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec, FORGE_HEXVERSION);
    field(&b, key);
    field(&b, "run");
    mode_t mask = umask(022);
    umask(mask);
    snprintf(number, sizeof number, "%d", (int)mask);
    field(&b, number);
    snprintf(number, sizeof number, "%d", argc);
    field(&b, number);
    for (int i = 0; i < argc; i++)
        field(&b, argv[i]);
    /* As the interpreter builds os.environ: entries with a name and "=", the first of
     * a name kept (the runner keeps the first too). */
    for (char **entry = environ; *entry != NULL; entry++) {
        const char *eq = strchr(*entry, '=');
        if (eq != NULL && eq != *entry)
            field(&b, *entry);
    }
    size_t size = b.len - 4;
    b.data[0] = (char)(size >> 24);
    b.data[1] = (char)(size >> 16);
    b.data[2] = (char)(size >> 8);
    b.data[3] = (char)size;
    return b;
}

/* -- the connection ------------------------------------------------------------------ */
static int sock = -1;
static pid_t runner_pid; /* who listens on the socket (SO_PEERCRED) */
static char inbox[MAX_LINE];
static size_t inbox_len;

static void tell(const char *line) {
    size_t left = strlen(line);
    while (left > 0) {
        ssize_t n = send(sock, line, left, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; /* gone: its end of file tells us */
        line += n;
        left -= (size_t)n;
    }
}

static void relay_queued(void) {
    char line[32];
    for (int i = 0; i < queued; i++) {
        snprintf(line, sizeof line, "K %d\n", (int)queue[i]);
        tell(line);
    }
    queued = 0;
}

/* The runner's next line into line (without its newline); 0 at end of file. Signals are
 * taken only here, in ppoll; once the run is taken they are relayed as they come. */
static int next_line(char *line, int accepted, const sigset_t *open_mask) {
    for (;;) {
        char *newline = memchr(inbox, '\n', inbox_len);
        if (newline != NULL) {
            size_t len = (size_t)(newline - inbox);
            memcpy(line, inbox, len);
            line[len] = '\0';
            inbox_len -= len + 1;
            memmove(inbox, newline + 1, inbox_len);
            return 1;
        }
        if (inbox_len == sizeof inbox)
            return 0; /* no line is this long: not a runner */
        struct pollfd pfd = {sock, POLLIN, 0};
        int ready = ppoll(&pfd, 1, NULL, open_mask);
        if (accepted)
            relay_queued();
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        ssize_t n = recv(sock, inbox + inbox_len, sizeof inbox - inbox_len, MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return 0;
        inbox_len += (size_t)n;
    }
}

/* A status or signal number: digits only, else -1. */
static int parse_number(const char *digits) {
    char *end;
    errno = 0;
    long value = strtol(digits, &end, 10);
    if (end == digits || *end != '\0' || errno != 0 || value < 0 || value > 255)
        return -1;
    return (int)value;
}

/* A Unix stream socket connected to directory/name without waiting on a full backlog;
 * -1 with errno set when it cannot be. */
static int connect_to(const char *directory, const char *name) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    char path[4200];
    /* As Python's socket module: a path may fill sun_path whole, without a NUL. */
    size_t len = (size_t)snprintf(path, sizeof path, "%s/%s", directory, name);
    if (len > sizeof address.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(address.sun_path, path, len);
    socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&address, size) != 0) {
        int error = errno;
        close(fd);
        errno = error;
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

static void connect_runner(const char *directory) {
    char why[4400];
    sock = connect_to(directory, "runner.sock");
    if (sock < 0 && errno == EAGAIN)
        cold("the resident runner's queue is full");
    if (sock < 0 && errno == ENAMETOOLONG)
        cold("no resident runner (AF_UNIX path too long)");
    if (sock < 0) {
        snprintf(why, sizeof why, "no resident runner (%s)", strerror(errno));
        cold(why);
    }
    struct ucred peer;
    socklen_t peer_size = sizeof peer;
    if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &peer, &peer_size) != 0 || peer.uid != getuid()) {
        snprintf(why, sizeof why, "the resident runner's socket is another user's (uid %d), not ours (%u)",
                 peer_size == sizeof peer ? (int)peer.uid : -1, (unsigned)getuid());
        cold(why);
    }
    runner_pid = peer.pid;
}

/* The kernel's one-letter state of pid (client._state); '\0' when gone or unreadable. */
static char state_of(pid_t pid) {
    char path[64], text[4096];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return '\0';
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return '\0';
    text[n] = '\0';
    char *end = strrchr(text, ')');
    return end != NULL && end[1] == ' ' ? end[2] : '\0';
}

/* Whether the runner's own loop answers "ping" on its control socket in time (client._pong). */
static int pong(const char *directory) {
    int fd = connect_to(directory, "control.sock");
    if (fd < 0)
        return 0;
    char answer[16];
    struct pollfd pfd = {fd, POLLIN, 0};
    ssize_t n = -1;
    if (send(fd, "ping\n", 5, MSG_NOSIGNAL) == 5 && poll(&pfd, 1, FORGE_ALIVE_WAIT_MS) == 1)
        n = recv(fd, answer, sizeof answer, MSG_DONTWAIT);
    close(fd);
    return n == 5 && memcmp(answer, "pong\n", 5) == 0;
}

/* Until a worker says hello (client._Client._await_hello): no descriptor is passed
 * before, and each wait for a sign of life is bounded. Signals are still the start-up's
 * to answer here: none is held. */
static void await_hello(const char *directory) {
    char why[MAX_LINE + 64];
    int busy = 0;
    for (;;) {
        char *newline = memchr(inbox, '\n', inbox_len);
        if (newline != NULL) {
            *newline = '\0';
            size_t len = (size_t)(newline - inbox) + 1;
            if (strcmp(inbox, HELLO) != 0) {
                if (strncmp(inbox, "R ", 2) == 0) {
                    snprintf(why, sizeof why, "the resident runner refused: %s", inbox + 2);
                    cold(why);
                }
                cold("the resident runner closed the connection before it said hello");
            }
            inbox_len -= len;
            memmove(inbox, inbox + len, inbox_len);
            return;
        }
        if (inbox_len == sizeof inbox)
            cold("the resident runner closed the connection before it said hello");
        struct pollfd pfd = {sock, POLLIN, 0};
        int ready = poll(&pfd, 1, FORGE_ALIVE_WAIT_MS);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            if (pong(directory))
                continue; /* alive: the run is queued behind others */
            char state = state_of(runner_pid);
            if (++busy <= FORGE_BUSY_ROUNDS && (state == 'R' || state == 'D'))
                continue; /* busy on a loaded machine, not dead */
            snprintf(why, sizeof why, "the resident runner did not answer within %d ms", FORGE_ALIVE_WAIT_MS);
            cold(why);
        }
        ssize_t n = ready < 0 ? -1 : recv(sock, inbox + inbox_len, sizeof inbox - inbox_len, MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            cold("the resident runner closed the connection before it said hello");
        inbox_len += (size_t)n;
    }
}

/* Returns once the request is sent, or when the worker took the run all the same (its
 * "A" put back to be read); else the run is cold. */
static void send_request(struct buffer *request, const sigset_t *open_mask) {
    int cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    char why[MAX_LINE + 64], line[MAX_LINE];
    if (cwd < 0) {
        snprintf(why, sizeof why, "cannot open the working directory (%s)", strerror(errno));
        cold(why);
    }
    int fds[4] = {0, 1, 2, cwd};
    char control[CMSG_SPACE(sizeof fds)];
    memset(control, 0, sizeof control);
    struct iovec iov = {request->data, request->len};
    struct msghdr message = {0};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&message);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof fds);
    memcpy(CMSG_DATA(cmsg), fds, sizeof fds);

    ssize_t sent;
    do
        sent = sendmsg(sock, &message, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    size_t done = sent > 0 ? (size_t)sent : 0;
    int error = sent < 0 ? errno : 0;
    /* Only what is left, as in the Python client: a worker may take a small request, run
     * it and close before we get here, and that run must not be run again cold. */
    while (error == 0 && done < request->len) {
        ssize_t n = send(sock, request->data + done, request->len - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            error = errno;
        else
            done += (size_t)n;
    }
    close(cwd);
    if (error == 0)
        return;
    /* It may have said why before it closed, or taken the run all the same. */
    if (next_line(line, 0, open_mask)) {
        if (strncmp(line, "A ", 2) == 0) {
            size_t len = strlen(line);
            memmove(inbox + len + 1, inbox, inbox_len);
            memcpy(inbox, line, len);
            inbox[len] = '\n';
            inbox_len += len + 1;
            return;
        }
        if (strncmp(line, "R ", 2) == 0) {
            snprintf(why, sizeof why, "the resident runner went away (%s)", line + 2);
            cold(why);
        }
    }
    snprintf(why, sizeof why, "the resident runner went away (%s)", strerror(error));
    cold(why);
}

/* What the interpreter does to its own environment as it starts (PEP 538), so that the
 * run's, and its hooks', is the one a Python client would have sent: with LC_ALL unset
 * and the C or POSIX locale for LC_CTYPE, LC_CTYPE becomes a UTF-8 one. The launcher
 * runs isolated (-I), where PYTHONCOERCECLOCALE is not read. */
static void coerce_c_locale(void) {
    const char *all = getenv("LC_ALL");
    if (all != NULL && *all != '\0')
        return;
    const char *ctype = setlocale(LC_CTYPE, "");
    if (ctype == NULL)
        ctype = setlocale(LC_CTYPE, NULL);
    if (ctype == NULL || (strcmp(ctype, "C") != 0 && strcmp(ctype, "POSIX") != 0))
        return;
    static const char *const targets[] = {"C.UTF-8", "C.utf8", "UTF-8"};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        if (setlocale(LC_CTYPE, targets[i]) != NULL) {
            setenv("LC_CTYPE", targets[i], 1);
            return;
        }
}

int main(int argc, char **argv) {
    saved_argv = argv;
    sigprocmask(SIG_SETMASK, NULL, &given_mask);
    /* A closed stdin, stdout or stderr gets /dev/null, as in __main__: the socket must
     * not land on one of them. */
    for (int fd = 0; fd <= 2; fd++) {
        struct stat st;
        if (fstat(fd, &st) != 0)
            open("/dev/null", O_RDWR);
    }
    /* As the interpreter starts: a signal sent by kill cannot end the run either. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    const char *off = getenv("FORGE_WARM");
    if (off != NULL && strcmp(off, "0") == 0)
        cold("FORGE_WARM=0");
    install_handlers();
    coerce_c_locale();
    const char *directory = runtime_dir();
    check_private(directory);
    connect_runner(directory);
    await_hello(directory);
    struct buffer request = encode_request(argc, argv);

    /* From the request on, signals come in only inside ppoll, with the mask we were
     * given (one the caller blocked stays blocked, as in a Python client). */
    sigprocmask(SIG_BLOCK, &runner_signals, NULL);
    const sigset_t *open_mask = &given_mask;
    requested = 1;
    send_request(&request, open_mask);
    free(request.data);

    char line[MAX_LINE], why[MAX_LINE + 64];
    if (!next_line(line, 0, open_mask))
        cold("the resident runner closed the connection before taking the run");
    if (strncmp(line, "R ", 2) == 0) {
        snprintf(why, sizeof why, "the resident runner refused: %s", line + 2);
        cold(why);
    }
    if (strncmp(line, "A ", 2) != 0)
        cold("the resident runner closed the connection before taking the run");
    take_pending();
    relay_queued();

    for (;;) {
        if (!next_line(line, 1, open_mask))
            broken("the resident runner ended in the middle of the run");
        if (strcmp(line, "Q") == 0) { /* the barrier: every signal so far, then G */
            take_pending();
            relay_queued();
            tell("G\n");
            continue;
        }
        int number = -1;
        if ((line[0] == 'X' || line[0] == 'S') && line[1] == ' ')
            number = parse_number(line + 2);
        if (line[0] == 'X' && number >= 0)
            _exit(number);
        if (line[0] == 'S' && number > 0) {
            if (number == last_signal) { /* it died of our signal: so do we */
                sigset_t one;
                sigemptyset(&one);
                sigaddset(&one, number);
                signal(number, SIG_DFL);
                sigprocmask(SIG_UNBLOCK, &one, NULL);
                raise(number);
            }
            struct text name = {.len = 0};
            add_signal_name(&name, number);
            snprintf(why, sizeof why,
                     "the resident runner's worker was killed by %s in the middle of the run", name.data);
            broken(why);
        }
        broken("the resident runner ended in the middle of the run");
    }
}
