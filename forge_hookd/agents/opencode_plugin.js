// forge-hook-run as the guard of OpenCode (and Kilo, on the same runtime).
// Written by `forge-hook install --agent __AGENT__`; `forge-hook install --agent __AGENT__ --uninstall`
// removes it. OpenCode has no shell hooks: its hooks are in-process plugins, so this one turns
// them into forge events and runs forge-hook-run with forge's own event JSON on stdin.
//
// - tool.execute.before: a deny throws with the reason (OpenCode fails the tool call and the
//   model reads the message); an ask throws too (a plugin cannot ask: a person must decide);
//   a rewrite replaces output.args; forge-hook-run that cannot be started, fails or answers
//   nothing readable throws (fail closed).
// - tool.execute.after and the event bus (session.created, session.idle, session.compacted,
//   session.deleted): observed only; OpenCode takes no answer there.
import { spawn } from "node:child_process";

const RUNNER = __RUNNER__;
const AGENT = "__AGENT__";
const TIMEOUT_MS = 600000;
const TOOLS = { bash: "bash", read: "read", write: "write", edit: "edit", apply_patch: "edit", multiedit: "edit",
                glob: "glob", grep: "grep", webfetch: "web_fetch", websearch: "web_search" };
const BUS = { "session.created": "session:start", "session.idle": "agent:stop",
              "session.compacted": "session:post_compact", "session.deleted": "session:end" };
const PERSON = "a person must decide (this agent cannot ask here)";

function forge(event, cwd) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(RUNNER[0], [...RUNNER.slice(1)], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      resolve({ failed: `forge-hook-run could not be started: ${error.message}` });
      return;
    }
    const out = [], err = [];
    const timer = setTimeout(() => child.kill("SIGTERM"), TIMEOUT_MS);
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ failed: `forge-hook-run could not be started: ${error.message}` });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString("utf8"), stderr = Buffer.concat(err).toString("utf8").trim();
      let doc = null;
      try { doc = JSON.parse(stdout); } catch { doc = null; }
      resolve({ code, signal, doc, stderr });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(event));
  });
}

function verdict(result) {
  if (result.failed) return { stop: result.failed };
  const { code, signal, doc, stderr } = result;
  const reason = doc && typeof doc.reason === "string" && doc.reason.trim() ? doc.reason.trim() : null;
  if (code === 1) return { stop: reason || "blocked by a forge hook" };
  if (code === 4) return { stop: reason ? `${PERSON}: ${reason}` : PERSON };
  if (code !== 0 || !doc) {
    const why = (doc && doc.error && doc.error.message) || stderr || (signal ? `killed by ${signal}` : `exit ${code}`);
    return { stop: `forge-hook-run could not check this call: ${why}` };
  }
  return { doc };
}

function event(type, tool, sessionID, data, native) {
  return { type, ...(tool ? { tool_name: TOOLS[tool] || tool } : {}), ...(sessionID ? { session_id: sessionID } : {}),
           data: { ...data, agent: { name: AGENT, event: native, tool: tool || null } } };
}

export const ForgeHookRun = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const args = output.args && typeof output.args === "object" ? output.args : {};
    const seen = verdict(await forge(event("tool:pre_execute", input.tool, input.sessionID, { tool_args: args },
                                           "tool.execute.before"), directory));
    if (seen.stop) throw new Error(seen.stop);
    const rewritten = seen.doc.data && seen.doc.data.tool_args;
    if (rewritten && typeof rewritten === "object" && output.args && typeof output.args === "object") {
      for (const key of Object.keys(output.args)) if (!(key in rewritten)) delete output.args[key];
      Object.assign(output.args, rewritten);
    }
  },
  "tool.execute.after": async (input, output) => {
    await forge(event("tool:post_execute", input.tool, input.sessionID,
                      { tool_args: input.args || {}, tool_result: output && output.output }, "tool.execute.after"),
                directory);
  },
  event: async ({ event: bus }) => {
    const type = bus && BUS[bus.type];
    if (!type) return;
    const props = bus.properties || {};
    await forge(event(type, null, props.sessionID || (props.info && props.info.id), {}, bus.type), directory);
  },
});
