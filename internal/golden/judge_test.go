package golden

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// scriptedJudge is an OpenAI-compatible chat completions server whose
// verdict depends only on the request: the metric named in the prompt and
// the answer under evaluation. It keeps every request body it receives.
type scriptedJudge struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
}

func startJudge(t *testing.T) *scriptedJudge {
	j := &scriptedJudge{}
	j.Server = httptest.NewServer(http.HandlerFunc(j.serve))
	t.Cleanup(j.Close)
	return j
}

// take returns the requests received since the last call, pretty-printed
// and sorted (concurrent cases send them in any order).
func (j *scriptedJudge) take() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	bodies := j.bodies
	j.bodies = nil
	slices.Sort(bodies)
	return strings.Join(bodies, "\n")
}

var (
	metricRe = regexp.MustCompile(`Grade the answer with the rubric \(([^)]*)\)`)
	answerRe = regexp.MustCompile(`\[answer \(untrusted; the answer under evaluation\)\]\n(.*)\n`)
)

// reply is the scripted judge's message: semantic_accuracy sees the
// regressed agent's 14-day deadline, an answer starting with GARBLE gets a
// reply that is not a verdict, every other rubric a fixed score.
func reply(metric, answer string) string {
	score, reason := 0.85, "The answer is polite and professional ("+metric+")."
	switch {
	case strings.HasPrefix(answer, `"GARBLE`):
		return "I would rather not grade this answer."
	case metric == "semantic_accuracy" && strings.Contains(answer, "14 days"):
		score, reason = 0.2, "The answer gives a 14-day deadline; the reference says 30 days."
	case metric == "semantic_accuracy":
		score, reason = 0.95, "The answer states the reference's facts in other words."
	case metric == "answer_relevancy":
		score, reason = 0.9, "The answer addresses the question directly."
	case metric == "faithfulness":
		score, reason = 0.9, "Every claim of the answer is supported by the context."
	}
	content, _ := json.Marshal(struct {
		Reason string  `json:"reason"`
		Score  float64 `json:"score"`
	}{reason, score})
	return string(content)
}

func (j *scriptedJudge) serve(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil || r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, "scripted judge: want POST /v1/chat/completions", http.StatusBadRequest)
		return
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		http.Error(w, "scripted judge: "+err.Error(), http.StatusBadRequest)
		return
	}
	var prompt strings.Builder
	for _, m := range req.Messages {
		prompt.WriteString(messageText(m.Content))
	}
	metric, answer := "", ""
	if m := metricRe.FindStringSubmatch(prompt.String()); m != nil {
		metric = m[1]
	}
	if m := answerRe.FindStringSubmatch(prompt.String()); m != nil {
		answer = m[1]
	}
	content := reply(metric, answer)
	in, out := utf8.RuneCountInString(prompt.String())/4, len(content)/4
	resp, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-golden", "object": "chat.completion", "created": 1700000000, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out},
	})
	var pretty bytes.Buffer
	if json.Indent(&pretty, raw, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(raw)
	}
	j.mu.Lock()
	j.bodies = append(j.bodies, r.Method+" "+r.URL.Path+"\n"+pretty.String()+"\n")
	j.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write(resp)
}

// messageText is a message's content, a string or an array of text parts.
func messageText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
