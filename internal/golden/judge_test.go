package golden

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentevals-go/agentevals/examples/scriptedjudge/judge"
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
	j.Server = httptest.NewServer(&judge.Handler{Reply: reply, ID: "chatcmpl-golden", Seen: j.record})
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

// record keeps a request body, pretty-printed.
func (j *scriptedJudge) record(raw []byte) {
	var pretty bytes.Buffer
	if json.Indent(&pretty, raw, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(raw)
	}
	j.mu.Lock()
	j.bodies = append(j.bodies, "POST /v1/chat/completions\n"+pretty.String()+"\n")
	j.mu.Unlock()
}
