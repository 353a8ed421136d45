package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// plantedSecret is one credential planted in one origin.
type plantedSecret struct{ origin, shape, secret string }

// plant writes every credential shape the sanitizer covers into one text
// for the origin tag, each with a secret unique to the origin and shape:
// keys after escape sequences (a literal \n, \t, \" and \u0022), a Bearer
// token after \n, name: value forms, a quoted field, a JSON-encoded field
// and a URL's password and api_key.
func plant(tag string) (string, []plantedSecret) {
	up := strings.ToUpper(tag)
	shapes := []struct{ shape, before, secret, after string }{
		{"sk after \\n", `see\n`, "sk-proj" + tag + "x0123456789abcdef", ""},
		{"ghp after \\t", `\t`, "ghp_" + tag + "ABCDEFGHIJKLMNOP", ""},
		{"AKIA after \\\"", `\"`, "AKIA" + up + "ABCDEFGHIJKLMN", `\"`},
		{"JWT after \\u0022", `\u0022`, "eyJhbGci" + tag + ".eyJzdWIi" + tag + ".c2ln" + tag, `\u0022`},
		{"Bearer after \\n", `\nBearer `, "tok" + tag + "9f8e7d6c", ""},
		{"password: value", "password: ", "pw" + tag + "Hunter2", ""},
		{"api_key: value", "api_key: ", "ak" + tag + "Value9", ""},
		{"db_password: value", "db_password: ", "db" + tag + "Secret7", ""},
		{"quoted secret", `"secret": "`, "qs" + tag + "Quoted5", `"`},
		{"JSON-encoded client_secret", `{\"client_secret\": \"`, "cs" + tag + "Encoded3", `\"}`},
		{"URL password", "https://bob:", "up" + tag + "Pass1", "@db.example/x"},
		{"URL api_key", "https://api.example/v1?api_key=", "uk" + tag + "Query8", "&lang=en"},
	}
	var parts []string
	var secrets []plantedSecret
	for _, s := range shapes {
		parts = append(parts, s.before+s.secret+s.after)
		secrets = append(secrets, plantedSecret{tag, s.shape, s.secret})
	}
	return strings.Join(parts, " | "), secrets
}

// TestPlantedCredentials_NeverStoredOrShown plants every credential shape
// in every origin a user reaches through the real binary (the suite's
// question, expected answer, name, metadata and expected actions, a
// conversation's turns, the agent's answer, actions, metadata, spans and
// stderr, the judge's reasons and raw replies, --metadata, the
// --export-otlp URL, and an evidence file's columns and names through
// db:import) and finds none of them in the database file, the reports,
// stdout or stderr.
func TestPlantedCredentials_NeverStoredOrShown(t *testing.T) {
	bin := buildEvalrun(t)
	dir := t.TempDir()
	var all []plantedSecret
	text := func(tag string) string {
		s, secrets := plant(tag)
		all = append(all, secrets...)
		return s
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	question, expected, name, qmeta, args := text("qu"), text("ex"), text("nm"), text("md"), text("ea")
	answer, actArgs, actResult, ameta, stderr := text("an"), text("aa"), text("ar"), text("am"), text("se")
	reason, raw, runMeta, spanAttr, turn := text("jr"), text("jw"), text("rm"), text("sp"), text("ct")
	judge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), "RAWREPLY") {
			content := "not a verdict: " + raw
			out, _ := json.Marshal(map[string]any{"id": "1", "object": "chat.completion", "model": "judge",
				"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
				"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
			w.Header().Set("Content-Type", "application/json")
			w.Write(out)
			return
		}
		writeVerdict(w, reason, 0.1)
	}))
	defer judge.Close()
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer collector.Close()
	reply := js(map[string]any{"output": answer, "metadata": map[string]any{"note": ameta, "tool_result": actResult},
		"actions": []any{map[string]any{"group": "g", "name": "login", "arguments": map[string]any{"q": actArgs}}}})
	writeTestFile(t, filepath.Join(dir, "reply.json"), reply)
	writeTestFile(t, filepath.Join(dir, "stderr.txt"), stderr)
	// the agent's span: a tool call whose arguments hold the credentials,
	// and usage counts, posted as OTLP/JSON to the run's receiver
	span := js(map[string]any{"resourceSpans": []any{map[string]any{"scopeSpans": []any{map[string]any{"spans": []any{map[string]any{
		"traceId": "TRACEID", "spanId": "0102030405060708", "parentSpanId": "PARENTID", "name": "execute_tool login", "kind": 1,
		"startTimeUnixNano": "NOW", "endTimeUnixNano": "NOW", "attributes": []any{
			map[string]any{"key": "gen_ai.operation.name", "value": map[string]any{"stringValue": "execute_tool"}},
			map[string]any{"key": "gen_ai.tool.name", "value": map[string]any{"stringValue": "login"}},
			map[string]any{"key": "gen_ai.tool.call.arguments", "value": map[string]any{"stringValue": js(map[string]string{"q": spanAttr})}},
			map[string]any{"key": "note", "value": map[string]any{"stringValue": spanAttr}},
			map[string]any{"key": "gen_ai.usage.input_tokens", "value": map[string]any{"intValue": "812"}}}}}}}}}})
	writeTestFile(t, filepath.Join(dir, "span.json"), span)
	writeTestFile(t, filepath.Join(dir, "agent.sh"), `in=$(cat)
case "$in" in
  *fails*) cat stderr.txt >&2; exit 3 ;;
  *) tid=$(echo "$TRACEPARENT" | cut -d- -f2); pid=$(echo "$TRACEPARENT" | cut -d- -f3); now=$(date +%s%N)
     sed -e "s/TRACEID/$tid/" -e "s/PARENTID/$pid/" -e "s/NOW/$now/g" span.json |
       curl -s -o /dev/null -H 'Content-Type: application/json' --data-binary @- "$OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
     cat reply.json ;;
esac
`)
	suitePath := filepath.Join(dir, "suite.json")
	writeTestFile(t, suitePath, fmt.Sprintf(`{"suite": "Planted", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "evaluators": {"exact": {"type": "exact_match"}, "kind": {"type": "llm_judge", "threshold": 0.5, "params": {"rubric": "Polite."}},
	                 "raw": {"type": "llm_judge", "threshold": 0.5, "params": {"rubric": "RAWREPLY"}}},
	  "questions": [{"id": "answers", "name": %s, "question": %s, "expected_answer": %s, "metadata": {"note": %s},
	                 "expected_actions": [{"group": "g", "name": "login", "arguments": {"q": %s}}]},
	                {"id": "talk", "turns": [%s, "and then?"], "checks": [{"type": "contains", "value": "nothing"}]},
	                {"id": "fails", "question": "this one fails", "expected_answer": "x"}]}`,
		js(name), js(question), js(expected), js(qmeta), js(args), js(turn)))
	dbURL := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
	var shown strings.Builder
	evalrunBin := func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "OPENAI_API_KEY=")
		out, err := cmd.CombinedOutput()
		shown.Write(out)
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatalf("%v: %v", args, err)
		}
		t.Logf("evalrun %s: exit %d", args[min(2, len(args)-1)], cmd.ProcessState.ExitCode())
	}
	judgeFlags := []string{"--judge-base-url", judge.URL + "/v1", "--judge-model", "judge"}
	evalrunBin(append([]string{"--database-url", dbURL, "run", suitePath, "--traces", "--metadata", js(map[string]string{"note": runMeta}),
		"--report", "r.json", "--report", "r.md", "--report", "r.html", "--report", "r.xml", "--report", "r.txt",
		"--export-otlp", "http://bob:" + "upotHunter9" + "@" + strings.TrimPrefix(collector.URL, "http://") + "/v1/traces?api_key=ukotQuery4"}, judgeFlags...)...)
	all = append(all, plantedSecret{"export URL", "URL password", "upotHunter9"}, plantedSecret{"export URL", "URL api_key", "ukotQuery4"})
	if strings.Contains(shown.String(), "exported ") {
		t.Errorf("a failed export was reported as done:\n%s", shown.String())
	}
	evalrunBin(append([]string{"run", suitePath, "--save-to", "run.evidence.json"}, judgeFlags...)...)
	plantEvidence(t, filepath.Join(dir, "run.evidence.json"), filepath.Join(dir, "planted.evidence.json"), text)
	evalrunBin("--database-url", dbURL, "db:import", "planted.evidence.json")
	evalrunBin("--database-url", dbURL, "report", "-o", "r2.json")
	evalrunBin("--database-url", dbURL, "report", "-o", "r2.html")
	evalrunBin("--database-url", dbURL, "report", "-f", "text")
	if !strings.Contains(shown.String(), "Imported run") {
		t.Fatalf("db:import did not import:\n%s", shown.String())
	}
	findPlanted(t, dir, []string{"runs.sqlite3", "runs.sqlite3-wal", "r.json", "r.md", "r.html", "r.xml", "r.txt", "r2.json", "r2.html"},
		shown.String(), []string{"[REDACTED]", "execute_tool login", `"gen_ai.usage.input_tokens":"812"`, "and then?"}, all)
}

// plantEvidence copies the evidence file from to to with credentials of
// every shape in the suite and agent names and in each case's name,
// question, expected answer, expected actions, metadata and answer.
func plantEvidence(t *testing.T, from, to string, text func(string) string) {
	t.Helper()
	raw, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	run := doc["run"].(map[string]any)
	run["suite"], run["agent"] = text("es"), text("eg")
	for _, row := range doc["case_results"].([]any) {
		c := row.(map[string]any)
		c["name"], c["question"], c["expected_answer"], c["output"] = text("en"), text("eq"), text("ee"), text("eo")
		c["metadata"] = map[string]any{"note": text("et")}
		c["expected_actions"] = []any{map[string]any{"group": "g", "name": "login", "arguments": map[string]any{"q": text("ex2")}}}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, to, string(out))
}
