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

// bigTurns is a suite of one scripted conversation of n turns checked by
// knowledge_retention (a judge) and conversation_turns.
func bigTurns(n int) string {
	turns := make([]string, n)
	for i := range turns {
		turns[i] = fmt.Sprintf(`"message %d"`, i+1)
	}
	return `{"suite": "Budget", "version": "1", "agent": {"name": "Bot", "command": ["true"]},
	  "questions": [{"id": "big", "turns": [` + strings.Join(turns, ",") + `],
	    "minimum_scores": {"knowledge_retention": 0.5}, "checks": [{"type": "conversation_turns", "max": 60}]}]}`
}

// largestJudgeRequest is a local OpenAI-compatible judge that scores 1 and
// remembers the largest request body it was sent.
func largestJudgeRequest(t *testing.T) (*provider.Judge, func() int) {
	var mu sync.Mutex
	largest := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		largest = max(largest, len(body))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"1","object":"chat.completion","model":"j","choices":[{"index":0,"message":{"role":"assistant","content":"{\"reason\":\"Fine.\",\"score\":1}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":5,"total_tokens":10}}`)
	}))
	t.Cleanup(srv.Close)
	judge, err := provider.NewJudge(llm.Settings{Provider: "openai", Model: "j", BaseURL: srv.URL + "/v1", Timeout: 10 * time.Second,
		Retry: llm.Retry{MaxAttempts: 1}}, provider.Options{Getenv: func(string) string { return "" }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return judge, func() int { mu.Lock(); defer mu.Unlock(); return largest }
}

// megabyteBot replies 1 MiB every turn and remembers the most history
// text one turn received.
func megabyteBot() (agent.Func, func() int) {
	var mu sync.Mutex
	most := 0
	reply, _ := json.Marshal(strings.Repeat("x", 1<<20))
	return func(_ context.Context, q agent.Question) (agent.Response, error) {
		n := len(q.Question)
		for _, m := range q.Messages {
			n += len(m.Content)
		}
		mu.Lock()
		most = max(most, n)
		mu.Unlock()
		return agent.Response{Output: reply}, nil
	}, func() int { mu.Lock(); defer mu.Unlock(); return most }
}

// TestConverse_budget: 50 turns of 1 MiB stop at the size cap, an agent
// error, with a bounded row; no agent turn and no judge request carries
// the whole conversation; a conversation under the cap is judged on a
// bounded copy, and the transcript says what was cut.
func TestConverse_budget(t *testing.T) {
	judge, largest := largestJudgeRequest(t)
	bot, most := megabyteBot()
	run := mustExecute(t, mustLoad(t, bigTurns(50)), bot, ExecOptions{Judge: judge})
	c := run.Cases[0]
	tr := transcriptOf(t, c)
	if c.Status != models.StatusError || tr.StopReason != models.StopSizeCap || len(tr.Turns) >= 50 || !strings.Contains(string(c.ErrorDetails), "conversation_too_large") {
		t.Errorf("status %s, stop %q after %d turns, error %s; want an agent error at the size cap", c.Status, tr.StopReason, len(tr.Turns), c.ErrorDetails)
	}
	if size := len(c.ResponseMetadata) + len(c.Output); size > 3<<20 {
		t.Errorf("the case row holds %d bytes of metadata and output, want at most 3 MiB", size)
	}
	if n := most(); n > 2*MaxSentBytes {
		t.Errorf("an agent turn received %d bytes of conversation, want at most %d", n, 2*MaxSentBytes)
	}
	if len(tr.BudgetNotes) == 0 {
		t.Error("no budget notes for the cut history and transcript")
	}

	run = mustExecute(t, mustLoad(t, bigTurns(5)), bot, ExecOptions{Judge: judge})
	c = run.Cases[0]
	if c.Status != models.StatusPassed {
		t.Fatalf("5 turns of 1 MiB: status %s (%s), want passed", c.Status, c.ErrorDetails)
	}
	if n := largest(); n == 0 || n > MaxSentBytes+64<<10 {
		t.Errorf("the largest judge request is %d bytes, want at most %d", n, MaxSentBytes+64<<10)
	}
	if notes := strings.Join(transcriptOf(t, c).BudgetNotes, " | "); !strings.Contains(notes, "judge") || !strings.Contains(notes, "stored transcript") {
		t.Errorf("budget notes %q, want the judge's cut and the stored transcript's", notes)
	}
}

func transcriptOf(t *testing.T, c *models.CaseResult) *models.Transcript {
	t.Helper()
	meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil || meta.Transcript == nil {
		t.Fatalf("case %s: no transcript (%v)", c.CaseID, err)
	}
	return meta.Transcript
}
