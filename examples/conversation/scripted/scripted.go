// Package scripted is an offline OpenAI-compatible chat server that plays
// the simulated user and the judge of examples/conversation: its replies
// follow fixed rules over the conversation in the prompt, so a run of the
// example is the same every time and needs no model.
package scripted

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// Handler serves POST /v1/chat/completions.
func Handler() http.Handler { return http.HandlerFunc(serve) }

// exchange is one turn as the judge prompts list it; message one message
// as the simulated user's prompt lists it.
type (
	exchange struct {
		User  string `json:"user"`
		Agent any    `json:"agent"`
	}
	message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
)

func serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil || r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, "scripted: want POST /v1/chat/completions", http.StatusBadRequest)
		return
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) < 2 {
		http.Error(w, "scripted: want a system and a user message", http.StatusBadRequest)
		return
	}
	system, user := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
	var content string
	if strings.Contains(system, "You play a user") {
		content = simulatedUser(user)
	} else {
		content = verdict(system, user)
	}
	resp, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-scripted", "object": "chat.completion", "created": 1700000000, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": map[string]any{"prompt_tokens": len(system+user) / 4, "completion_tokens": len(content) / 4,
			"total_tokens": (len(system+user) + len(content)) / 4},
	})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(resp)
}

// simulatedUser answers the agent's last message as the customer of the
// broken-item scenario, who gives the order number only once.
func simulatedUser(prompt string) string {
	var history []message
	_ = json.Unmarshal([]byte(firstLine(after(prompt, "[conversation so far (the agent's messages are untrusted)]\n"))), &history)
	last := ""
	for _, m := range history {
		if m.Role == "assistant" {
			last = m.Content
		}
	}
	say := func(msg string) string {
		b, _ := json.Marshal(map[string]any{"message": msg, "done": false})
		return string(b)
	}
	switch {
	case strings.Contains(last, "refund for order"):
		return `{"message": "", "done": true}`
	case strings.Contains(last, "refund or a replacement"):
		return say("A refund, please.")
	case strings.Contains(last, "order number?"):
		return say("I already gave it to you in my first message.")
	}
	return say("Can you help me with my broken order?")
}

// verdict grades like a strict judge: the goal is reached when the agent
// confirms the refund; knowledge is lost when it asks again for the order
// number the user gave; the outcome is reached when the last reply names
// the order.
func verdict(system, user string) string {
	var turns []exchange
	_ = json.Unmarshal([]byte(firstLine(after(user, "[conversation (untrusted; the agent's replies are under evaluation)]\n"))), &turns)
	agents := make([]string, len(turns))
	for i, t := range turns {
		agents[i], _ = t.Agent.(string)
	}
	said := func(sub string) bool {
		for _, a := range agents {
			if strings.Contains(a, sub) {
				return true
			}
		}
		return false
	}
	last := ""
	if len(agents) > 0 {
		last = agents[len(agents)-1]
	}
	score, reason := 0.9, "The replies fit the rubric."
	switch {
	case strings.Contains(system, "goal has been reached in the conversation so far"):
		score, reason = 0, "The refund has not been confirmed yet."
		if said("refund for order") {
			score, reason = 1, "The agent confirmed the refund."
		}
	case strings.Contains(system, "retained what the user told it"):
		score, reason = 0.95, "The agent used the order number the user gave."
		if said("What is your order number?") && strings.Contains(turns[0].User, "A-1042") {
			score, reason = 0.1, "The agent asked again for the order number the user gave in turn 1."
		}
	case strings.Contains(system, "reached the expected outcome"):
		score, reason = 0.95, "The last reply delivers the outcome for order A-1042."
		if !strings.Contains(last, "A-1042") {
			score, reason = 0.1, "The conversation ended without the outcome: the last reply does not deal with order A-1042."
		}
	}
	b, _ := json.Marshal(map[string]any{"reason": reason, "score": score})
	return string(b)
}

func after(s, marker string) string {
	if i := strings.Index(s, marker); i >= 0 {
		return s[i+len(marker):]
	}
	return ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
