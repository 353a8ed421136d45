package interop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// conversationSuite is a 3-turn scripted conversation for agent, each
// turn checked for what the agent must have received at that turn.
func conversationSuite(agentJSON string, want [3]string) string {
	turn := func(i int, content string) string {
		return fmt.Sprintf(`{"content": %q, "checks": [{"type": "contains", "value": %q}]}`, content, want[i])
	}
	return `{"suite": "Conversation protocols", "version": "1", "agent": ` + agentJSON + `,
  "questions": [{"id": "order", "turns": [` +
		turn(0, "Where is my order?") + `, ` + turn(1, "It is A-1042.") + `, ` + turn(2, "Thanks!") + `]}]}`
}

// TestConversation_Protocols asks a 3-turn scripted conversation through
// the evalrun binary with every agent protocol: each turn must receive the whole
// history (checked by the turn's check), one session id across the turns,
// and the case row holds the last answer, every turn's actions and usage.
func TestConversation_Protocols(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("python3 is needed (apt-get install -y python3): %v", err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "conversation_agent.py"))
	if err != nil {
		t.Fatal(err)
	}
	echo := [3]string{"turn 1: 1 messages; first: Where is my order?", "turn 2: 3 messages; first: Where is my order?", "turn 3: 5 messages; first: Where is my order?"}
	httpAgent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct {
			Turn      int    `json:"turn"`
			SessionID string `json:"session_id"`
			Messages  []struct{ Content string }
		}
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &q) != nil || r.Header.Get("X-Session-Id") != q.SessionID || len(q.Messages) == 0 {
			http.Error(w, "bad conversation request: "+string(body), http.StatusBadRequest)
			return
		}
		out, _ := json.Marshal(map[string]any{"output": fmt.Sprintf("turn %d: %d messages; first: %s; session %s", q.Turn, len(q.Messages), q.Messages[0].Content, q.SessionID),
			"actions":      []any{map[string]any{"group": "probe", "name": "turn", "arguments": map[string]any{"turn": q.Turn}}},
			"input_tokens": 10, "output_tokens": 2, "cost": 0.001})
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	}))
	defer httpAgent.Close()
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string }
		}
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &req) != nil || len(req.Messages) < 2 {
			http.Error(w, "bad chat request", http.StatusBadRequest)
			return
		}
		roles := make([]string, len(req.Messages))
		for i, m := range req.Messages {
			roles[i] = m.Role
		}
		text := fmt.Sprintf("history %s; first: %s", strings.Join(roles, ","), req.Messages[1].Content)
		content, _ := json.Marshal(text)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"1","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}}`, content)
	}))
	defer model.Close()
	t.Setenv("OPENAI_API_KEY", "")
	for _, tc := range []struct {
		name, agent string
		want        [3]string
		llm         bool
	}{
		{name: "command", agent: fmt.Sprintf(`{"name": "Echo", "command": ["python3", %q]}`, script), want: echo},
		{name: "worker", agent: fmt.Sprintf(`{"name": "Echo", "type": "worker", "command": ["python3", %q, "--worker"]}`, script), want: echo},
		{name: "http", agent: fmt.Sprintf(`{"name": "Echo", "type": "http", "url": %q}`, httpAgent.URL), want: echo},
		{name: "llm", llm: true, agent: fmt.Sprintf(`{"name": "Echo", "type": "llm", "llm": {"provider": "openai", "model": "m", "base_url": %q, "system_prompt": "You help."}}`, model.URL+"/v1"),
			want: [3]string{"history system,user; first: Where", "history system,user,assistant,user; first: Where", "history system,user,assistant,user,assistant,user; first: Where"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.mustEvalrun(t, "db:migrate")
			if code, out := e.evalrun(t, "run", writeSuite(t, conversationSuite(tc.agent, tc.want))); code != 0 {
				t.Fatalf("run: exit %d\n%s", code, out)
			}
			c := onlyCase(t, e)
			tr := transcriptOf(t, c)
			if len(tr.Turns) != 3 || tr.StopReason != models.StopScriptEnd || tr.FailingTurn != nil || tr.Kind != "scripted" {
				t.Fatalf("transcript: %d turns, stop %q, failing %v", len(tr.Turns), tr.StopReason, tr.FailingTurn)
			}
			var last string
			if err := json.Unmarshal(c.Output, &last); err != nil || !strings.Contains(last, tc.want[2]) {
				t.Errorf("output %s: want the last turn's answer", c.Output)
			}
			for i, turn := range tr.Turns {
				if len(turn.Checks) != 1 || !turn.Checks[0].Passed || turn.Checks[0].Name != fmt.Sprintf("turn%d.contains", i+1) {
					t.Errorf("turn %d checks: %+v", i+1, turn.Checks)
				}
				if !tc.llm && !strings.Contains(string(turn.Output), "session "+tr.ConversationID) {
					t.Errorf("turn %d: output %s lacks the conversation's session id %s", i+1, turn.Output, tr.ConversationID)
				}
			}
			if tc.llm {
				if *c.InputTokens != 30 || *c.OutputTokens != 6 {
					t.Errorf("tokens %d/%d, want 30/6 summed over 3 turns", *c.InputTokens, *c.OutputTokens)
				}
				return
			}
			var actions []map[string]any
			if err := json.Unmarshal(c.Actions, &actions); err != nil || len(actions) != 3 {
				t.Errorf("actions %s: want the 3 turns' actions", c.Actions)
			}
			if *c.InputTokens != 30 || c.Cost == nil || c.Cost.String() != "0.003" {
				t.Errorf("input tokens %d, cost %v: want 30 and 0.003 summed exactly", *c.InputTokens, c.Cost)
			}
		})
	}
}

// onlyCase is the one case of the newest run in e's schema.
func onlyCase(t *testing.T, e *env) *models.CaseResult {
	t.Helper()
	runs, _, err := e.db.ListRuns(context.Background(), models.RunFilter{Limit: 1})
	if err != nil || len(runs) != 1 {
		t.Fatalf("ListRuns: %v (%d runs)", err, len(runs))
	}
	run, err := e.db.GetRun(context.Background(), runs[0].ID)
	if err != nil || len(run.Cases) != 1 {
		t.Fatalf("GetRun: %v", err)
	}
	return run.Cases[0]
}

// transcriptOf decodes the case's transcript.
func transcriptOf(t *testing.T, c *models.CaseResult) *models.Transcript {
	t.Helper()
	meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil || meta.Transcript == nil {
		t.Fatalf("no transcript in %s (%v)", c.ResponseMetadata, err)
	}
	return meta.Transcript
}
