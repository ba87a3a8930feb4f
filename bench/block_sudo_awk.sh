# The block_sudo template as it was before issue 22 (forge_hookd/templates.py at f09b540):
# a shell hook in POSIX awk that reads data.tool_args.command from the event JSON on
# stdin and exits 1 with "Blocked: WORD not allowed" on sudo, doas, sudoedit, pkexec, su.
# Kept here only as the baseline of bench/guard_run.py: the template is the
# privilege_escalation guard now, judged in-process. The hook command is everything
# below this comment, as one `sh -c` string.
awk '{ s = s $0 "\n" }
END {
  gsub(/"([^"\\]|\\.)*"|[][{}:,]/, "\n&\n", s)
  n = split(s, t, "\n"); d = 0
  for (i = 1; i <= n; i++) {
    x = t[i]; sub(/^[ \t\r]+/, "", x); sub(/[ \t\r]+$/, "", x)
    if (x == "") continue
    if (x == "{" || x == "[") { d++; key[d] = ""; continue }
    if (x == "}" || x == "]") { d--; continue }
    if (substr(x, 1, 1) != "\"") continue
    for (j = i + 1; j <= n && t[j] ~ /^[ \t\r]*$/; j++) ;
    if (t[j] ~ /^[ \t\r]*:/) { key[d] = x; i = j; continue }
    if (d == 3 && key[1] == "\"data\"" && key[2] == "\"tool_args\"" && key[3] == "\"command\"") cmd = cmd "\n" x
  }
  c = cmd
  gsub(/\\\\/, "\001", c)
  gsub(/\\[nr]/, "\n", c); gsub(/\\u[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]|\\[tbf]/, " ", c)
  gsub(/\\/, "", c); gsub(/\001/, "\\", c)
  split("sudo doas sudoedit pkexec su", w, " ")
  for (k = 1; k <= 5; k++)
    if (c ~ ("(^|[\n;&|(`{!\"\047])[ \t]*(([A-Za-z_][A-Za-z0-9_]*=[^ \t;&|()]*|env|exec|command|nohup|nice|time|builtin|then|do|else|xargs)[ \t]+)*([^ \t\n;&|()`]*/)?\\\\?[\"\047]?" w[k] "[\"\047]?([ \t\n;&|)`]|$)")) {
      print "Blocked: " w[k] " not allowed"; exit 1
    }
}
'
