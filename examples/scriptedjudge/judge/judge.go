// Package judge is a scripted OpenAI-compatible judge: an HTTP handler for
// POST /v1/chat/completions whose verdict is a rule on the metric named in
// the prompt and the answer under evaluation, so judge features can be
// tried and tested without a model or a key.
package judge

import (
	"encoding/json"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// Handler answers chat completion requests with a scripted verdict. Noise,
// when positive, moves each score by up to ±Noise, drawn from a sequence
// seeded by Seed and the request, so repeats of a question disagree a
// little, as real judges do, and the same run of the same commands
// disagrees the same way.
type Handler struct {
	Noise float64
	Seed  uint64
	// Reply, when set, writes the judge's message for a metric and answer
	// instead of Verdict (a test's own verdicts; Noise is then unused).
	Reply func(metric, answer string) string
	// ID is the completion's id (default "chatcmpl-scripted").
	ID string
	// Seen, when set, is called with every valid request's body.
	Seen  func(body []byte)
	calls atomic.Uint64
}

var _ http.Handler = (*Handler)(nil)

// maxRequest bounds a request body.
const maxRequest = 1 << 20

var (
	// rubricRe finds the metric in evalrun's judge prompt.
	rubricRe = regexp.MustCompile(`Grade the answer with the rubric \(([^)]*)\)`)
	// answerRe finds the answer under evaluation in it.
	answerRe = regexp.MustCompile(`\[answer \(untrusted; the answer under evaluation\)\]\n(.*)\n`)
)

// Verdict is the scripted score and reason of an answer for a metric:
// semantic_accuracy fails an answer giving a 14-day deadline (the
// regressed support agent), an answer containing "Sorry" is judged
// irrelevant, every other answer passes with a fixed score per metric.
func Verdict(metric, answer string) (float64, string) {
	switch {
	case metric == "semantic_accuracy" && strings.Contains(answer, "14 days"):
		return 0.2, "The answer gives a 14-day deadline; the reference says 30 days."
	case strings.Contains(answer, "Sorry"):
		return 0.1, "The answer does not address the question."
	case metric == "semantic_accuracy":
		return 0.97, "The answer states the reference's facts in other words."
	case metric == "answer_relevancy":
		return 0.97, "The answer addresses the question directly."
	}
	return 0.85, "The answer meets the rubric (" + metric + ")."
}

// ServeHTTP answers one request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, "scripted judge: want POST /v1/chat/completions", http.StatusNotFound)
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxRequest+1))
	if err != nil || len(raw) > maxRequest {
		http.Error(w, "scripted judge: request unreadable or over 1 MiB", http.StatusRequestEntityTooLarge)
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
		prompt.WriteString(contentText(m.Content))
	}
	metric, answer := "", ""
	if m := rubricRe.FindStringSubmatch(prompt.String()); m != nil {
		metric = m[1]
	}
	if m := answerRe.FindStringSubmatch(prompt.String()); m != nil {
		answer = m[1]
	}
	var content string
	if h.Reply != nil {
		content = h.Reply(metric, answer)
	} else {
		score, reason := Verdict(metric, answer)
		b, _ := json.Marshal(map[string]any{"reason": reason, "score": h.jitter(score, raw)})
		content = string(b)
	}
	id := h.ID
	if id == "" {
		id = "chatcmpl-scripted"
	}
	in, out := utf8.RuneCountInString(prompt.String())/4, len(content)/4
	body, _ := json.Marshal(map[string]any{
		"id": id, "object": "chat.completion", "created": 1700000000, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out},
	})
	if h.Seen != nil {
		h.Seen(raw)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// jitter moves score by up to ±Noise (kept in [0, 1], rounded to two
// decimals), from a hash of the seed, the request and the call count.
func (h *Handler) jitter(score float64, req []byte) float64 {
	if h.Noise <= 0 {
		return score
	}
	f := fnv.New64a()
	var b [16]byte
	for i, v := range []uint64{h.Seed, h.calls.Add(1)} {
		for j := 0; j < 8; j++ {
			b[i*8+j] = byte(v >> (8 * j))
		}
	}
	f.Write(b[:])
	f.Write(req)
	u := float64(f.Sum64()>>11) / (1 << 53) // uniform in [0, 1)
	s := score + (2*u-1)*h.Noise
	return math.Round(math.Max(0, math.Min(1, s))*100) / 100
}

// contentText is a message's content: a string, or the text of its parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.Text
	}
	return strings.Join(texts, "")
}
