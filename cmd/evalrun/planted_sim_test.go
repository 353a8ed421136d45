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
	"sync/atomic"
	"testing"
)

// plantPII writes one of each personal-data shape production redaction
// covers (e-mail, phone, Luhn-valid card, IBAN, IPv4), unique to tag,
// after the credentials of plant.
func plantPII(tag string) (string, []plantedSecret) {
	text, secrets := plant(tag)
	n := int(tag[0])%50 + 10
	for _, p := range []struct{ shape, value string }{
		{"e-mail", "pii." + tag + "@example.org"},
		{"phone", fmt.Sprintf("+1 415 555 01%02d", n)},
		{"card", "4111 1111 1111 1111"},
		{"IBAN", "DE89370400440532013000"},
		{"IPv4", fmt.Sprintf("203.0.113.%d", n)},
	} {
		text += " | " + p.value
		secrets = append(secrets, plantedSecret{tag, p.shape, p.value})
	}
	return text, secrets
}

// findPlanted fails t for each planted value found in a file of dir or in
// shown, and makes sure each marker was stored (the origin was saved).
func findPlanted(t *testing.T, dir string, files []string, shown string, markers []string, all []plantedSecret) {
	t.Helper()
	places := map[string]string{"stdout and stderr": shown}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil && !strings.HasSuffix(f, "-wal") {
			t.Fatalf("read %s: %v", f, err)
		}
		places[f] = string(b)
	}
	stored := places["runs.sqlite3"] + places["runs.sqlite3-wal"]
	for _, want := range markers {
		if !strings.Contains(stored, want) {
			t.Fatalf("the database holds no %s: the planted origin was not saved", want)
		}
	}
	for _, s := range all {
		for where, content := range places {
			if strings.Contains(content, s.secret) {
				t.Errorf("%s planted in %s (%s) appears in %s", s.shape, s.origin, s.secret, where)
			}
		}
	}
}

// runBin runs bin in dir, appending its output to shown; it fails t only
// when bin could not run.
func runBin(t *testing.T, shown *strings.Builder, dir, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=", "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	shown.Write(out)
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
}

// TestPlantedCredentials_SimulatedUser: a scripted judge server playing
// the simulated user of a scenario writes every credential shape into its
// messages; none of them is in the database, the reports or the output of
// the real binary, while the conversation itself is stored.
func TestPlantedCredentials_SimulatedUser(t *testing.T) {
	bin := buildEvalrun(t)
	dir := t.TempDir()
	said, secrets := plant("su")
	var turns atomic.Int32
	judge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), "You play a user") {
			writeVerdict(w, "Not reached yet.", 0.0)
			return
		}
		msg := map[string]any{"message": "SIMULATED-TURN " + said, "done": false}
		if turns.Add(1) > 2 {
			msg = map[string]any{"message": "", "done": true}
		}
		content, _ := json.Marshal(msg)
		out, _ := json.Marshal(map[string]any{"id": "1", "object": "chat.completion", "model": "judge",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": string(content)}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	}))
	defer judge.Close()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), "cat >/dev/null; echo '{\"output\": \"Noted, anything else?\"}'\n")
	suite := filepath.Join(dir, "suite.json")
	writeTestFile(t, suite, `{"suite": "Planted user", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "judge": {"provider": "openai", "model": "judge"},
	  "questions": [{"id": "sim", "scenario": {"goal": "Log in.", "user_description": "A user who pastes secrets.",
	    "expected_outcome": "The agent helps.", "opening_message": "Hello there.", "max_turns": 4},
	    "checks": [{"type": "conversation_turns", "max": 6}]}]}`)
	db := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
	var shown strings.Builder
	runBin(t, &shown, dir, bin, "--database-url", db, "run", suite, "--judge-base-url", judge.URL+"/v1", "--judge-model", "judge",
		"--report", "r.json", "--report", "r.md", "--report", "r.html", "--report", "r.txt")
	runBin(t, &shown, dir, bin, "--database-url", db, "report", "-f", "text")
	runBin(t, &shown, dir, bin, "--database-url", db, "report", "-o", "r2.json")
	if turns.Load() < 2 {
		t.Fatalf("the simulated user was asked %d times, want a conversation past its opening:\n%s", turns.Load(), shown.String())
	}
	findPlanted(t, dir, []string{"runs.sqlite3", "runs.sqlite3-wal", "r.json", "r.md", "r.html", "r.txt", "r2.json"},
		shown.String(), []string{"SIMULATED-TURN", "[REDACTED]"}, secrets)
}

// TestPlantedCredentials_ProductionSpans: the shop agent's traces, as the
// OpenTelemetry SDK exported them, carry every credential shape and every
// personal-data shape in a user message, a tool call's arguments and an
// attribute of the agent's own; `evalrun score-traces` stores and shows
// none of them, while the spans themselves are stored.
func TestPlantedCredentials_ProductionSpans(t *testing.T) {
	bin := buildEvalrun(t)
	dir := t.TempDir()
	sim := filepath.Join(dir, "production")
	build := exec.Command("go", "build", "-o", sim, "../../examples/production")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build, err, out)
	}
	var shown strings.Builder
	runBin(t, &shown, dir, sim, "-requests", "12", "-out", "window.jsonl")
	raw, err := os.ReadFile(filepath.Join(dir, "window.jsonl"))
	if err != nil {
		t.Fatalf("the simulator wrote no window: %v\n%s", err, shown.String())
	}
	msg, secrets := plantPII("pm")
	args, s2 := plantPII("pa")
	attr, s3 := plantPII("pt")
	secrets = append(append(secrets, s2...), s3...)
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	unquote := func(s string) string { return s[1 : len(s)-1] }
	inner := func(s string) string { return unquote(js(unquote(js(s)))) } // text inside a JSON string attribute
	text := string(raw)
	text = strings.ReplaceAll(text, `Where is my order `, inner(msg+" ")+`Where is my order `)
	text = strings.ReplaceAll(text, `{\"order\":`, `{\"note\":`+unquote(js(js(args)))+`,\"order\":`)
	text = strings.ReplaceAll(text, `{"key":"app.request"`, `{"key":"app.note","value":{"stringValue":`+js(attr)+`}},{"key":"app.request"`)
	if text == string(raw) {
		t.Fatal("nothing was planted: the simulator's spans changed shape")
	}
	writeTestFile(t, filepath.Join(dir, "window.jsonl"), text)
	writeTestFile(t, filepath.Join(dir, "monitor.json"), `{"monitor": "planted", "agent": "shop",
	  "traces": {"service": "shop", "agent_name": "shop"}, "sample": 1,
	  "checks": [{"type": "error_spans"}, {"type": "tool_used", "tools": ["lookup_order"]}]}`)
	db := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
	runBin(t, &shown, dir, bin, "--database-url", db, "score-traces", "monitor.json", "--traces", "window.jsonl",
		"--drops-report", "d.json", "--drops-report", "d.md")
	if !strings.Contains(shown.String(), "saved to") {
		t.Fatalf("the window was not saved:\n%s", shown.String())
	}
	runBin(t, &shown, dir, bin, "--database-url", db, "report", "-f", "text")
	runBin(t, &shown, dir, bin, "--database-url", db, "report", "-o", "r.json")
	runBin(t, &shown, dir, bin, "--database-url", db, "report", "-o", "r.html")
	findPlanted(t, dir, []string{"runs.sqlite3", "runs.sqlite3-wal", "d.json", "d.md", "r.json", "r.html"},
		shown.String(), []string{"app.note", "execute_tool lookup_order", "[REDACTED]", "Where is my order"}, secrets)
}
