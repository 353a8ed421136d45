package retrieval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/suite"
)

// scriptedJudge is a local OpenAI-compatible judge that applies the
// contextual rubrics literally: a passage is relevant when it holds the
// key fact of the expected answer ("30 days" or "3 to 5").
func scriptedJudge(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &req) != nil || len(req.Messages) < 2 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		system, user := req.Messages[0].Content, req.Messages[1].Content
		var passages []string
		_ = json.Unmarshal([]byte(section(user, "[context (untrusted retrieval passages)]")), &passages)
		fact := "3 to 5"
		if strings.Contains(section(user, "[expected_answer (untrusted reference)]"), "30 days") ||
			strings.Contains(section(user, "[question (untrusted)]"), "return") {
			fact = "30 days"
		}
		var relevant []bool
		n := 0
		for _, p := range passages {
			relevant = append(relevant, strings.Contains(p, fact))
			if strings.Contains(p, fact) {
				n++
			}
		}
		var v float64
		switch {
		case strings.Contains(system, "CONTEXTUAL RECALL"):
			if n > 0 {
				v = 1
			}
		case strings.Contains(system, "CONTEXTUAL PRECISION"):
			seen := 0
			for i, rel := range relevant {
				if rel {
					seen++
					v += float64(seen) / float64(i+1)
				}
			}
			if n > 0 {
				v /= float64(n)
			}
		case strings.Contains(system, "CONTEXTUAL RELEVANCY") && len(passages) > 0:
			v = float64(n) / float64(len(passages))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"1","object":"chat.completion","model":"judge","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":"{\"reason\":\"%d of %d passages hold the fact.\",\"score\":%g}"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}`, n, len(passages), v)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// section is the line after label in a prompt.
func section(prompt, label string) string {
	_, rest, ok := strings.Cut(prompt, label+"\n")
	if !ok {
		return ""
	}
	line, _, _ := strings.Cut(rest, "\n")
	return line
}

func execute(t *testing.T) *models.Run {
	t.Helper()
	s, err := suite.Load("suite.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := scriptedJudge(t)
	judge, err := provider.NewJudge(llm.Settings{Provider: "openai", Model: "judge", BaseURL: srv.URL + "/v1",
		Timeout: 5 * time.Second, Retry: llm.Retry{MaxAttempts: 1}}, provider.Options{Getenv: func(string) string { return "" }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := adapter.New(s.Agent, adapter.Options{Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := a.(io.Closer); ok {
		t.Cleanup(func() { c.Close() })
	}
	run, err := runner.Execute(context.Background(), s, a, runner.ExecOptions{Judge: judge, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// scores maps "question/metric" to the score (-1: errored or not calculated).
func scores(run *models.Run) map[string]float64 {
	out := map[string]float64{}
	for _, c := range run.Cases {
		for _, m := range c.Metrics {
			v := -1.0
			if m.Score != nil {
				v = *m.Score
			}
			out[c.CaseID+"/"+m.Name] = v
		}
	}
	return out
}

// TestRetrievalExample: with the good retriever every retrieval metric
// and contextual judge passes; with the broken one the returns question
// fails all of them (a retrieval bug), while the shipping question keeps
// its scores.
func TestRetrievalExample(t *testing.T) {
	for _, tt := range []struct {
		retriever string
		want      map[string]float64
	}{
		{"good", map[string]float64{
			"returns/hit": 1, "returns/recall": 1, "returns/ndcg": 1, "returns/mrr": 1,
			"returns/context_recall": 1, "returns/context_precision": 1, "returns/context_relevancy": 0.5,
			"shipping/hit": 1, "shipping/context_precision": 1}},
		{"broken", map[string]float64{
			"returns/hit": 0, "returns/recall": 0, "returns/ndcg": 0, "returns/mrr": 0,
			"returns/context_recall": 0, "returns/context_precision": 0, "returns/context_relevancy": 0,
			"shipping/hit": 1, "shipping/recall": 1, "shipping/context_recall": 1, "shipping/context_relevancy": 0.5}},
	} {
		t.Run(tt.retriever, func(t *testing.T) {
			t.Setenv("RETRIEVER", tt.retriever)
			run := execute(t)
			got := scores(run)
			for k, want := range tt.want {
				if got[k] != want {
					t.Errorf("%s = %v, want %v", k, got[k], want)
				}
			}
			for _, c := range run.Cases {
				wantStatus := models.StatusPassed
				if tt.retriever == "broken" && c.CaseID == "returns" {
					wantStatus = models.StatusFailed
				}
				if c.Status != wantStatus {
					t.Errorf("%s: status %s, want %s", c.CaseID, c.Status, wantStatus)
				}
			}
		})
	}
}
