// Package runner loads and validates suite files, fingerprints their
// definitions, calls the agent under test for every question (command,
// worker, http, llm or Go function agents), scores the answers with the
// judges package and builds the run record that models saves.
//
// # Agents in any language
//
// Every agent receives the same question JSON, and never the expected
// answer or the evaluation metadata:
//
//	{"id": "returns", "name": "How long…?", "question": "How long…?"}
//
// ("question" is the suite's string or object) and answers with a Response:
//
//	{"output": "You can return it within 30 days.",
//	 "actions": [{"group": "policies", "name": "lookup_policy", "arguments": {"topic": "returns"}}],
//	 "input_tokens": 120, "output_tokens": 18, "cost": 0.0002, "metadata": {"model": "…"}}
//
// Only the reported, observed tool calls belong in "actions": null (or no
// key) means the agent is not instrumented, [] means it made no call. Unknown
// keys are an error.
//
//   - command: one process per question, run in the suite file's directory
//     (or agent.dir); the question on stdin, the Response (or plain text, which
//     becomes the output with actions null) on stdout. A non-zero exit, a
//     timeout or a malformed reply is an agent error keeping the last 8 KiB of
//     stderr.
//   - worker: long-lived processes, one per unit of concurrency, reading one
//     question per line on stdin and writing one Response per line on stdout.
//     A worker that crashes, times out or answers garbage is replaced.
//   - http: a POST of the question to agent.url; a 2xx Response back.
//   - Go: a Func; it should make outgoing HTTP requests with HTTPClient(ctx).
//
// Process agents get a minimal environment (PATH, HOME, TMPDIR, LANG,
// LC_ALL, TZ) plus the variables named in agent.env; nothing of the
// environment is persisted.
package runner
