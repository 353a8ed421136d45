package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/provider"
)

// simServer is a local OpenAI-compatible server that plays the simulated
// user and the goal judge of simulatedSuite, by the goal in the prompt:
//
//	reach-goal   user: "next"; goal judge: reached once the agent said GOAL
//	user-done    user: done once the agent said BYE; judge: never reached
//	hit-cap      user: "next" forever; judge: never reached
//	bad-user     user: a reply that is not JSON
//	user-500     user: HTTP 500 on every attempt
//
// The judge's provider plays the simulated user.
var _ UserSimulator = (*provider.Judge)(nil)

func simServer(tb testing.TB) *httptest.Server {
	tb.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &req) != nil || len(req.Messages) < 2 {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		system, user := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
		prompt := system + user
		content := `{"reason":"Not reached yet.","score":0}`
		if strings.Contains(system, "You play a user") {
			content = `{"message":"next","done":false}`
			switch {
			case strings.Contains(prompt, "user-500"):
				http.Error(w, "overloaded", http.StatusInternalServerError)
				return
			case strings.Contains(prompt, "bad-user"):
				content = "Sure, I will write the next message."
			case strings.Contains(prompt, "user-done") && strings.Contains(user, "BYE"):
				content = `{"message":"","done":true}`
			}
		} else if strings.Contains(prompt, "reach-goal") && strings.Contains(user, "GOAL") {
			content = `{"reason":"The agent delivered it.","score":1}`
		}
		enc, _ := json.Marshal(content)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"1","object":"chat.completion","model":"sim","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}}`, enc)
	}))
	tb.Cleanup(srv.Close)
	return srv
}

const simulatedSuite = `{"suite": "Simulated", "version": "1", "agent": {"name": "Bot", "command": ["true"]},
  "questions": [
    {"id": "goal", "scenario": {"goal": "reach-goal", "opening_message": "hello", "max_turns": 6}, "checks": [{"type": "conversation_turns", "max": 6}]},
    {"id": "done", "scenario": {"goal": "user-done", "max_turns": 6}, "checks": [{"type": "conversation_turns", "max": 6}]},
    {"id": "cap", "scenario": {"goal": "hit-cap", "opening_message": "hello", "max_turns": 3}, "checks": [{"type": "conversation_turns", "max": 6}]},
    {"id": "bad", "scenario": {"goal": "bad-user", "opening_message": "hello", "max_turns": 6}, "checks": [{"type": "conversation_turns", "max": 6}]},
    {"id": "down", "scenario": {"goal": "user-500", "opening_message": "hello", "max_turns": 6}, "checks": [{"type": "conversation_turns", "max": 6}]}
  ]}`

// TestConverse_SimulatedUserStops runs the simulated-user loop against a
// scripted provider: it stops when the judge finds the goal reached, when
// the simulated user says it is done, at the turn cap (never past it),
// and a failing or unusable simulated user is an agent error, never a pass.
func TestConverse_SimulatedUserStops(t *testing.T) {
	s := mustLoad(t, simulatedSuite)
	srv := simServer(t)
	judge, err := provider.NewJudge(llm.Settings{Provider: "openai", Model: "sim", BaseURL: srv.URL + "/v1",
		Timeout: 5 * time.Second, Retry: llm.Retry{MaxAttempts: 2, Backoff: time.Millisecond}},
		provider.Options{Getenv: func(string) string { return "" }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	calls := map[string]int{}
	bot := agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		mu.Lock()
		calls[q.ID]++
		mu.Unlock()
		if len(q.Messages) != 2*q.Turn-1 || q.Messages[len(q.Messages)-1].Role != agent.RoleUser {
			return agent.Response{}, fmt.Errorf("turn %d got %d messages", q.Turn, len(q.Messages))
		}
		text := fmt.Sprintf("working, turn %d", q.Turn)
		if (q.ID == "goal" && q.Turn == 3) || (q.ID == "done" && q.Turn == 2) {
			text = map[string]string{"goal": "GOAL delivered", "done": "BYE for now"}[q.ID]
		}
		out, _ := json.Marshal(text)
		return agent.Response{Output: out}, nil
	})
	run, err := Execute(context.Background(), s, bot, ExecOptions{Judge: judge, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id, stop, status string
		turns            int
	}{
		{"goal", models.StopGoalReached, models.StatusPassed, 3},
		{"done", models.StopUserDone, models.StatusPassed, 2},
		{"cap", models.StopMaxTurns, models.StatusPassed, 3},
		{"bad", models.StopSimulatorError, models.StatusError, 1},
		{"down", models.StopSimulatorError, models.StatusError, 1},
	} {
		t.Run(tc.id, func(t *testing.T) {
			c := caseByID(t, run, tc.id)
			meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
			if err != nil || meta.Transcript == nil {
				t.Fatalf("no transcript: %v %s", err, c.ResponseMetadata)
			}
			tr := meta.Transcript
			if tr.StopReason != tc.stop || len(tr.Turns) != tc.turns || calls[tc.id] != tc.turns || c.Status != tc.status {
				t.Errorf("stop %q after %d turns (%d agent calls), status %s; want %q after %d, %s",
					tr.StopReason, len(tr.Turns), calls[tc.id], c.Status, tc.stop, tc.turns, tc.status)
			}
			if tr.SimulatorUsage == nil || tr.SimulatorUsage.Calls == 0 {
				t.Errorf("simulator usage not accounted: %+v", tr.SimulatorUsage)
			}
			if tc.status == models.StatusError {
				if !strings.Contains(string(c.ErrorDetails), "simulator_error") || c.Metrics[0].Score != nil {
					t.Errorf("error %s, metric %+v: want a simulator_error and no score", c.ErrorDetails, c.Metrics[0])
				}
				if tr.FailingTurn == nil || *tr.FailingTurn != 2 {
					t.Errorf("failing turn %v, want 2 (the turn the simulated user could not write)", tr.FailingTurn)
				}
			}
		})
	}
}

// TestConverse_NoSimulator: a scenario without a judge or simulator is an
// agent error that says what to configure, not a pass.
func TestConverse_NoSimulator(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "version": "1", "agent": {"name": "Bot", "command": ["true"]},
  "questions": [{"id": "q", "scenario": {"goal": "g", "max_turns": 2}, "checks": [{"type": "conversation_turns", "max": 2}]}]}`)
	run, err := Execute(context.Background(), s, agent.Func(func(context.Context, agent.Question) (agent.Response, error) {
		return agent.Response{Output: json.RawMessage(`"hi"`)}, nil
	}), ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := run.Cases[0]
	if c.Status != models.StatusError || !strings.Contains(string(c.ErrorDetails), "configure a judge") {
		t.Errorf("status %s, error %s: want an agent error asking for a judge", c.Status, c.ErrorDetails)
	}
}

// TestConverse_GoFunction: a Go agent receives the history, the turn and
// one session id; a turn's agent error ends the conversation, names the
// turn and keeps the transcript so far.
func TestConverse_GoFunction(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "version": "1", "agent": {"name": "Bot", "command": ["true"]},
  "questions": [
    {"id": "ok", "turns": ["a", "b", {"content": "c", "checks": [{"type": "contains", "value": "4 messages before"}]}]},
    {"id": "breaks", "turns": ["a", "b", "c"], "checks": [{"type": "contains", "value": "x"}]}
  ]}`)
	var mu sync.Mutex
	sessions := map[string]map[string]bool{}
	bot := agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		mu.Lock()
		if sessions[q.ID] == nil {
			sessions[q.ID] = map[string]bool{}
		}
		sessions[q.ID][q.SessionID] = true
		mu.Unlock()
		if q.ID == "breaks" && q.Turn == 2 {
			return agent.Response{}, fmt.Errorf("backend down")
		}
		out, _ := json.Marshal(fmt.Sprintf("%d messages before %s", len(q.Messages)-1, string(q.Question)))
		return agent.Response{Output: out}, nil
	})
	run, err := Execute(context.Background(), s, bot, ExecOptions{Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	ok := caseByID(t, run, "ok")
	if ok.Status != models.StatusPassed || string(ok.Output) != `"4 messages before \"c\""` || len(sessions["ok"]) != 1 {
		t.Errorf("ok: status %s output %s sessions %v", ok.Status, ok.Output, sessions["ok"])
	}
	br := caseByID(t, run, "breaks")
	meta, _ := models.DecodeCaseMetadata(br.ResponseMetadata)
	if br.Status != models.StatusError || !strings.Contains(string(br.ErrorDetails), "turn 2: backend down") ||
		meta.Transcript == nil || len(meta.Transcript.Turns) != 2 || *meta.Transcript.FailingTurn != 2 || string(br.Output) != `"0 messages before \"a\""` {
		t.Errorf("breaks: status %s error %s output %s transcript %+v", br.Status, br.ErrorDetails, br.Output, meta.Transcript)
	}
}

// caseByID is the run's case with that id.
func caseByID(t *testing.T, run *models.Run, id string) *models.CaseResult {
	t.Helper()
	for _, c := range run.Cases {
		if c.CaseID == id {
			return c
		}
	}
	t.Fatalf("no case %q", id)
	return nil
}

// TestConverse_Repeat: a conversation answered K times keeps one row whose
// metric is the mean, every repeat's transcript in the repeats' evidence,
// each repeat with its own session.
func TestConverse_Repeat(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "version": "1", "agent": {"name": "Bot", "command": ["true"]},
  "questions": [{"id": "q", "turns": ["a", {"content": "b", "checks": [{"type": "contains", "value": "even"}]}]}]}`)
	var mu sync.Mutex
	n := 0
	bot := agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		mu.Lock()
		n++
		k := n
		mu.Unlock()
		text := "odd"
		if k == 4 { // the second turn of the second conversation only
			text = "even"
		}
		out, _ := json.Marshal(text + " " + q.SessionID)
		return agent.Response{Output: out}, nil
	})
	run, err := Execute(context.Background(), s, bot, ExecOptions{Repeat: 3, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := run.Cases[0]
	meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil || !meta.Repeated() || len(meta.Repeats) != 3 {
		t.Fatalf("repeats: %v %s", err, c.ResponseMetadata)
	}
	if m := c.Metrics[0]; m.Score == nil || *m.Score < 0.33 || *m.Score > 0.34 || m.Passed {
		t.Errorf("turn2.contains over 3 repeats = %+v, want the mean 1/3, failed", m)
	}
	sessions := map[string]bool{}
	for i, r := range meta.Repeats {
		rm, err := models.DecodeCaseMetadata(r.ResponseMetadata)
		if err != nil || rm.Transcript == nil || len(rm.Transcript.Turns) != 2 {
			t.Fatalf("repeat %d has no transcript: %s", i+1, r.ResponseMetadata)
		}
		sessions[rm.Transcript.ConversationID] = true
	}
	if len(sessions) != 3 {
		t.Errorf("%d sessions over 3 repeats, want a fresh one each", len(sessions))
	}
}
