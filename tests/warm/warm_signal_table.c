/* Test harness for tests/warm/test_warm_tables.py: the native client's signal tables and its
 * start-up answer, for every signal number, printed for the Python side to compare with
 * forge_hookd/signalnames.py and forge_hookd/__main__.py (issue 29 item 3). The client is
 * included whole, its main renamed, so what is tested is the code that ships. */
#define main forge_native_client_main
#include "client.c"
#undef main

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "answer") == 0) { /* the start-up answer to one signal */
        saved_argv = argv + 2; /* its command line: the rest (--dialect NAME, say) */
        answer_startup_signal(atoi(argv[2]));
        return 99; /* not reached: it _exits 128+n */
    }
    sigprocmask(SIG_SETMASK, NULL, &given_mask);
    install_handlers();
    for (int signum = 1; signum < NSIG; signum++) {
        struct text name = {.len = 0};
        add_signal_name(&name, signum);
        printf("%d %s %d\n", signum, name.data, is_runner_signal(signum));
    }
    return 0;
}
