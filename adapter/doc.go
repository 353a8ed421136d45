// Package adapter calls an agent under test that is not a Go function:
// command, worker, http and llm agents, each answering one agent.Question
// with one agent.Response, with bounded answers, timeouts and process
// hygiene.
//
// # Agents in any language
//
// Every agent receives the same question JSON, and never the expected
// answer, the expected actions, the context or the evaluation metadata:
//
//	{"id": "returns", "name": "How long…?", "question": "How long…?"}
//
// ("question" is the suite's string or object; a turn of a conversation
// adds "session_id", "turn" and the "messages" so far: agent/history.go)
// and answers with a Response JSON object:
//
//	{"output": "You can return it within 30 days.",
//	 "actions": [{"group": "policies", "name": "lookup_policy", "arguments": {"topic": "returns"}}],
//	 "input_tokens": 120, "output_tokens": 18, "cost": 0.0002, "metadata": {"model": "…"}}
//
// Every key is optional:
//
//   - output: the answer, any JSON value (usually a string).
//   - actions: the tool calls the agent observed itself make, in order, each
//     {"group", "name", "arguments"} with a non-empty name and optionally
//     its outcome, read like calls from spans: "status" ("ok" or "error"),
//     "result" (any JSON value) and "duration_ms"; null (or no key) means
//     the agent is not instrumented, [] that it made no call.
//   - input_tokens, output_tokens: integers in [0, 2147483647].
//   - cost: USD, finite and non-negative.
//   - metadata: an object, kept with the case as evidence.
//
// Keys match exactly (case included). Any other key, in the Response or in
// an action, makes the case an agent error (bad_response) whose message
// lists the allowed keys: put extra data such as a trace id under
// "metadata" rather than lose it.
//
// Plain text, per agent type:
//
//   - command: stdout whose first non-space character is not "{" is plain
//     text: trimmed, it becomes the output (a string) with actions null. It
//     must be UTF-8. Stdout starting with "{" must be one Response.
//   - http: the 2xx body follows the same rule, whatever its Content-Type
//     (a JSON object is a Response even when labelled text/plain, as
//     servers that do not set the header send it).
//   - worker: no plain text. Each reply is one Response JSON object on one
//     line; a line of text (a boot banner, a log line) is an agent error
//     ("worker protocol: each reply must be one JSON object on one line;
//     got text …") and the worker is replaced, since a stray line would
//     otherwise be read as the next question's answer. Write logs to
//     stderr.
//
// The agent types:
//
//   - command: one process per question; the question on stdin as one line
//     ending in a newline, then end of input; the reply on stdout. A non-zero exit, a timeout or a malformed reply is an agent
//     error keeping the last 8 KiB of stderr.
//   - worker: long-lived processes, one per unit of concurrency, started on
//     first use, each reading one question per line on stdin and writing one
//     reply per line on stdout. A worker that crashes, times out or breaks
//     the protocol is killed and replaced. At the end of the run stdin is
//     closed; a worker still running two seconds later is killed.
//   - http: a POST of the question (Content-Type application/json) to
//     agent.url with agent.headers, plus agent.header_env's headers read
//     from evalrun's environment; a 2xx reply back, anything else is an
//     agent error keeping the start of the body.
//   - llm: a model called directly (agent.llm).
//   - Go: an agent.Func; it should make outgoing HTTP requests with
//     agent.HTTPClient(ctx).
//
// Each call is bounded by agent.timeout (default 5m; evalrun run
// --timeout overrides it). One failing case never stops the others.
//
// Command and worker processes run in agent.dir, resolved against the
// suite file's directory, or in the suite file's directory when agent.dir
// is absent: never in evalrun's working directory. Their environment is
// minimal: PATH, HOME, TMPDIR, LANG, LC_ALL and TZ, plus the variables
// agent.env names, each copied from evalrun's environment when set there
// (unset ones are left out). For cases with api_interactions, replay
// adds its proxy variables (HTTP_PROXY, HTTPS_PROXY, SSL_CERT_FILE and the
// others replay.Proxy.Env lists), and a run with tracing on adds the
// case's TRACEPARENT and the OTLP endpoint variables (agent.WithTrace). Nothing
// of the environment is persisted.
package adapter
