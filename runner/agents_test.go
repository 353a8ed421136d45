package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/suite"
)

var question = agent.Question{ID: "q1", Name: "n", Question: json.RawMessage(`"How long?"`)}

func TestCommandAgent_Answer(t *testing.T) {
	tests := []struct {
		name, script string
		output       string // JSON; "" means an error is expected
		actionsNil   bool
		kind         string
	}{
		{"plain text", `cat >/dev/null; echo "  30 days  "`, `"30 days"`, true, ""},
		{"response json", `cat >/dev/null; echo '{"output": {"days": 30}, "actions": [], "input_tokens": 3}'`, `{"days": 30}`, false, ""},
		{"reads the question", `printf '%s' "$(cat)"  | sed 's/^/echo:/'`, `"echo:{\"id\":\"q1\",\"name\":\"n\",\"question\":\"How long?\"}"`, true, ""},
		{"bad json", `cat >/dev/null; echo '{"output": '`, "", false, "bad_response"},
		{"unknown key", `cat >/dev/null; echo '{"answer": "x"}'`, "", false, "bad_response"},
		{"unknown action key", `cat >/dev/null; echo '{"output": "x", "actions": [{"group": "g", "name": "n", "outcome": 1}]}'`, "", false, "bad_response"},
		{"action without name", `cat >/dev/null; echo '{"output": "x", "actions": [{"group": "g"}]}'`, "", false, "bad_response"},
		{"exit status", `cat >/dev/null; echo oops >&2; exit 3`, "", false, "exit_status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := mustAgent(t, shAgent(t, suite.AgentCommand, tt.script), adapter.Options{})
			resp, err := a.Answer(context.Background(), question)
			if tt.output == "" {
				if ae := agentErr(t, err); ae.Kind != tt.kind {
					t.Errorf("kind = %s, want %s (%v)", ae.Kind, tt.kind, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(resp.Output) != tt.output {
				t.Errorf("output = %s, want %s", resp.Output, tt.output)
			}
			if (resp.Actions == nil) != tt.actionsNil {
				t.Errorf("actions = %#v, want nil: %v", resp.Actions, tt.actionsNil)
			}
		})
	}
}

// TestCommandAgent_QuestionSizes: a question that fits in a pipe's
// buffer is there before the agent starts, a longer one is written while
// the agent reads it; either way the agent reads all of it, and an agent
// that reads none of a long one still answers.
func TestCommandAgent_QuestionSizes(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		text         int // bytes of question text
		want         string
	}{
		{"short, read", `wc -c`, 10, ""},
		{"PIPE_BUF, read", `wc -c`, 4096 - len(`{"id":"q","name":"n","question":""}`+"\n"), ""},
		{"long, read", `wc -c`, 1 << 20, ""},
		{"long, unread", `echo ok`, 1 << 20, `"ok"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := mustAgent(t, shAgent(t, suite.AgentCommand, tc.script), adapter.Options{})
			q := agent.Question{ID: "q", Name: "n", Question: json.RawMessage(`"` + strings.Repeat("x", tc.text) + `"`)}
			want := tc.want
			if want == "" { // wc -c: the question line, newline included
				line, _ := json.Marshal(q)
				want = fmt.Sprintf(`"%d"`, len(line)+1)
			}
			resp, err := a.Answer(context.Background(), q)
			if err != nil || string(resp.Output) != want {
				t.Errorf("output %s, %v; want %s", resp.Output, err, want)
			}
		})
	}
}

func TestCommandAgent_StderrIsBounded(t *testing.T) {
	a := mustAgent(t, shAgent(t, suite.AgentCommand, `cat >/dev/null; i=0; while [ $i -lt 3000 ]; do echo "line $i of noise" >&2; i=$((i+1)); done; exit 1`), adapter.Options{})
	_, err := a.Answer(context.Background(), question)
	ae := agentErr(t, err)
	stderr, _ := ae.Details["stderr"].(string)
	if len(stderr) > adapter.MaxStderr+8 || !strings.HasSuffix(stderr, "line 2999 of noise\n") || !strings.HasPrefix(stderr, "…") {
		t.Errorf("stderr kept %d bytes, ends %q", len(stderr), stderr[max(0, len(stderr)-30):])
	}
	if ae.Details["exit_code"] != 1 {
		t.Errorf("exit_code = %v", ae.Details["exit_code"])
	}
}

func TestCommandAgent_Timeout(t *testing.T) {
	cfg := shAgent(t, suite.AgentCommand, `cat >/dev/null; echo started >&2; sleep 30; echo late`)
	cfg.Timeout = suite.Duration(200 * time.Millisecond)
	a := mustAgent(t, cfg, adapter.Options{})
	start := time.Now()
	_, err := a.Answer(context.Background(), question)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("timeout took %s (the sleeping child kept the pipes open?)", el)
	}
	ae := agentErr(t, err)
	if ae.Kind != "timeout" || ae.Details["stderr"] != "started\n" {
		t.Errorf("error = %v, details %v", err, ae.Details)
	}
}

func TestCommandAgent_Environment(t *testing.T) {
	t.Setenv("EVAL_SECRET", "hunter2")
	t.Setenv("EVAL_PASSED", "yes")
	cfg := shAgent(t, suite.AgentCommand, `cat >/dev/null; echo "secret=${EVAL_SECRET:-unset} passed=${EVAL_PASSED:-unset} case=${CASE_VAR:-unset} path=${PATH:+set}"`)
	cfg.Env = []string{"EVAL_PASSED"}
	a := mustAgent(t, cfg, adapter.Options{})
	resp, err := a.Answer(adapter.WithEnv(context.Background(), []string{"CASE_VAR=1"}), question)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"secret=unset passed=yes case=1 path=set"`; string(resp.Output) != want {
		t.Errorf("output = %s, want %s", resp.Output, want)
	}
}

func TestWorkerAgent_Answer(t *testing.T) {
	script := `while IFS= read -r line; do
  case "$line" in
    *crash*) echo "dying" >&2; exit 7 ;;
    *garbage*) echo "not json" ;;
    *slow*) sleep 5; echo '{"output":"late"}' ;;
    *) printf '{"output":"%s","metadata":{"pid":%s,"worker":"%s"}}\n' "ok" "$$" "${WORKER_TAG:-}" ;;
  esac
done`
	cfg := shAgent(t, suite.AgentWorker, script)
	cfg.Timeout = suite.Duration(300 * time.Millisecond)
	a := mustAgent(t, cfg, adapter.Options{Concurrency: 1, WorkerEnv: func(n int) []string { return []string{"WORKER_TAG=w" + string(rune('0'+n))} }})
	ask := func(text string) (agent.Response, error) {
		return a.Answer(context.Background(), agent.Question{ID: "x", Name: "x", Question: json.RawMessage(`"` + text + `"`)})
	}
	first, err := ask("hello")
	if err != nil {
		t.Fatal(err)
	}
	second, err := ask("again")
	if err != nil {
		t.Fatal(err)
	}
	if first.Metadata["pid"] != second.Metadata["pid"] || first.Metadata["worker"] != "w0" {
		t.Errorf("worker not reused or env missing: %v, %v", first.Metadata, second.Metadata)
	}
	for _, tc := range []struct{ text, kind, message string }{
		{"garbage", "bad_response", `worker protocol: each reply must be one JSON object on one line; got text "not json" (not a JSON object: write logs and banners to stderr)`},
		{"crash", "exit_status", ""}, {"slow", "timeout", ""}} {
		_, err := ask(tc.text)
		if ae := agentErr(t, err); ae.Kind != tc.kind || (tc.message != "" && ae.Message != tc.message) {
			t.Errorf("%s: kind %s, want %s (%v)", tc.text, ae.Kind, tc.kind, err)
		}
		after, err := ask("hello")
		if err != nil {
			t.Fatalf("after %s: %v", tc.text, err)
		}
		if after.Metadata["pid"] == first.Metadata["pid"] {
			t.Errorf("after %s: the failed worker was reused", tc.text)
		}
	}
}

func TestHTTPAgent_Answer(t *testing.T) {
	t.Setenv("EVAL_TOKEN", "tok")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q agent.Question
		if err := json.NewDecoder(r.Body).Decode(&q); err != nil || r.Method != http.MethodPost {
			http.Error(w, "bad request", 400)
			return
		}
		switch q.ID {
		case "auth":
			json.NewEncoder(w).Encode(map[string]any{"output": r.Header.Get("Authorization")})
		case "fail":
			http.Error(w, "upstream exploded", 503)
		case "plain":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			io.WriteString(w, "  30 days\n")
		case "html":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<p>30 days</p>")
		case "latin1":
			io.WriteString(w, "caf\xe9")
		case "trace":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"output": "x", "trace_id": "t1"}`)
		case "slow":
			time.Sleep(time.Second)
		}
	}))
	defer srv.Close()
	cfg := suite.AgentConfig{Name: "A", Type: suite.AgentHTTP, URL: srv.URL, HeaderEnv: map[string]string{"Authorization": "EVAL_TOKEN"}, Timeout: suite.Duration(300 * time.Millisecond)}
	a := mustAgent(t, cfg, adapter.Options{Concurrency: 2})
	// "auth" answers JSON without a Content-Type, which net/http labels
	// text/plain: a JSON object is a Response whatever its label.
	resp, err := a.Answer(context.Background(), agent.Question{ID: "auth", Question: json.RawMessage(`"q"`)})
	if err != nil || string(resp.Output) != `"tok"` || resp.Actions != nil {
		t.Errorf("auth: %s, %v", resp.Output, err)
	}
	for id, want := range map[string]string{"plain": `"30 days"`, "html": `"\u003cp\u003e30 days\u003c/p\u003e"`} {
		resp, err := a.Answer(context.Background(), agent.Question{ID: id, Question: json.RawMessage(`"q"`)})
		if err != nil || string(resp.Output) != want || resp.Actions != nil {
			t.Errorf("%s: output %s, actions %v, err %v; want plain text %s with actions nil", id, resp.Output, resp.Actions, err, want)
		}
	}
	for id, kind := range map[string]string{"fail": "http_status", "latin1": "bad_response", "trace": "bad_response", "slow": "timeout"} {
		_, err := a.Answer(context.Background(), agent.Question{ID: id, Question: json.RawMessage(`"q"`)})
		if ae := agentErr(t, err); ae.Kind != kind {
			t.Errorf("%s: kind %s, want %s", id, ae.Kind, kind)
		}
	}
	if _, err := adapter.New(suite.AgentConfig{Name: "A", Type: suite.AgentHTTP, URL: srv.URL, HeaderEnv: map[string]string{"X": "EVAL_UNSET_VAR"}}, adapter.Options{}); err == nil {
		t.Errorf("NewAgent accepted a header from an unset variable")
	}
}

func TestWorkerAgent_OneProcessPerUnitOfConcurrency(t *testing.T) {
	cfg := shAgent(t, suite.AgentWorker, `while IFS= read -r line; do sleep 0.02; printf '{"output":"ok","metadata":{"pid":%s}}\n' "$$"; done`)
	s := mustLoad(t, `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [{"question": "1", "expected_answer": "ok"}, {"question": "2", "expected_answer": "ok"}, {"question": "3", "expected_answer": "ok"},
	    {"question": "4", "expected_answer": "ok"}, {"question": "5", "expected_answer": "ok"}, {"question": "6", "expected_answer": "ok"}]}`)
	a := mustAgent(t, cfg, adapter.Options{Concurrency: 2})
	run := mustExecute(t, s, a, ExecOptions{Concurrency: 2})
	pids := map[float64]bool{}
	for _, c := range run.Cases {
		var meta map[string]float64
		if err := c.ResponseMetadata.Decode(&meta); err != nil || c.Status != "passed" {
			t.Fatalf("%s: %s %s", c.CaseID, c.Status, c.ResponseMetadata)
		}
		pids[meta["pid"]] = true
	}
	if len(pids) != 2 {
		t.Errorf("%d worker processes served the run, want 2", len(pids))
	}
}

// TestWorkerAgent_ReturnsWhateverTheWorkerDoes: Answer runs on the
// executor's goroutine, so it must return even when the worker reads no
// question (one larger than the pipe holds) or closes stdout and goes on
// running: the agent timeout ends both, and the worker is replaced.
func TestWorkerAgent_ReturnsWhateverTheWorkerDoes(t *testing.T) {
	big := agent.Question{ID: "big", Name: "big", Question: json.RawMessage(`"` + strings.Repeat("x", 1<<20) + `"`)}
	for _, tc := range []struct {
		name, script string
		q            agent.Question
		kind         string
	}{
		{"reads nothing", `exec sleep 60`, big, "timeout"},
		{"closes stdout", `exec >&-; exec sleep 60`, question, "exit_status"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := shAgent(t, suite.AgentWorker, tc.script)
			cfg.Timeout = suite.Duration(300 * time.Millisecond)
			a := mustAgent(t, cfg, adapter.Options{Concurrency: 1})
			for range 2 {
				_, err := a.Answer(context.Background(), tc.q)
				if ae := agentErr(t, err); ae.Kind != tc.kind {
					t.Errorf("kind %s, want %s (%v)", ae.Kind, tc.kind, err)
				}
			}
		})
	}
}

// TestWorkerAgent_CloseStopsEveryWorker: Close ends every worker, the
// ones that exit at the end of their stdin and the one that does not
// (killed when the grace period is over).
func TestWorkerAgent_CloseStopsEveryWorker(t *testing.T) {
	cfg := shAgent(t, suite.AgentWorker, `while IFS= read -r line; do printf '{"output":"ok","metadata":{"pid":%s}}\n' "$$"; done
[ "$WORKER_TAG" = w1 ] && exec sleep 60
exit 0`)
	a, err := adapter.New(cfg, adapter.Options{Concurrency: 3, WorkerEnv: func(n int) []string { return []string{"WORKER_TAG=w" + string(rune('0'+n))} }})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[float64]bool{} // the free workers take turns: three questions start three
	for range 3 {
		resp, err := a.Answer(context.Background(), question)
		if err != nil {
			t.Fatal(err)
		}
		pid, _ := resp.Metadata["pid"].(json.Number).Float64()
		seen[pid] = true
	}
	if len(seen) != 3 {
		t.Fatalf("%d workers answered, want 3", len(seen))
	}
	if err := a.(io.Closer).Close(); err != nil {
		t.Fatal(err)
	}
	for pid := range seen {
		if err := syscall.Kill(int(pid), 0); err == nil {
			t.Errorf("worker %v still runs after Close", pid)
		}
	}
}

// TestParseReply_UnknownKeys: a key a Response (or an action) does not
// have is refused with a message naming the allowed keys and saying where
// extra data goes, instead of encoding/json's bare "unknown field".
func TestParseReply_UnknownKeys(t *testing.T) {
	tests := []struct{ reply, want string }{
		{`{"output": "x", "trace_id": "t", "Cost": 1}`,
			`unknown keys "Cost", "trace_id" in the Response: its keys are output, actions, input_tokens, output_tokens, cost and metadata; put anything else under "metadata"`},
		{`{"output": "x", "actions": [{"group": "g", "name": "n"}, {"name": "n", "outcome": "r"}]}`,
			`actions[1]: unknown key "outcome": an action's keys are group, name, arguments, status, result and duration_ms; put anything else under the Response's "metadata"`},
	}
	for _, tt := range tests {
		if _, err := adapter.ParseReply([]byte(tt.reply), true); err == nil || err.Error() != tt.want {
			t.Errorf("parseReply(%s) = %v\nwant %s", tt.reply, err, tt.want)
		}
	}
	r, err := adapter.ParseReply([]byte(`{"output": "x", "metadata": {"trace_id": "t"}}`), true)
	if err != nil || r.Metadata["trace_id"] != "t" {
		t.Errorf("metadata: %+v, %v", r, err)
	}
}
