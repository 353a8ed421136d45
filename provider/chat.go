package provider

import (
	"context"

	"github.com/tmc/langchaingo/llms"

	"github.com/agentevals-go/agentevals/llm"
)

// chatMessages is the system message (sent even when empty, as Generate
// always has) and the history as langchaingo messages; a role other than
// assistant is the user's.
func chatMessages(system string, history []llm.ChatMessage) []llms.MessageContent {
	msgs := make([]llms.MessageContent, 0, len(history)+1)
	msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeSystem, system))
	for _, m := range history {
		role := llms.ChatMessageTypeHuman
		if m.Role == llm.RoleAssistant {
			role = llms.ChatMessageTypeAI
		}
		msgs = append(msgs, llms.TextParts(role, m.Content))
	}
	return msgs
}

// Generate sends a system and a user message as a new conversation and
// returns the text. jsonMode asks the provider for a JSON object where it
// supports that (OpenAI, Ollama; Anthropic ignores it). Failures are *Error
// values whose Details hold the provider, model and every attempt.
func (c *Client) Generate(ctx context.Context, system, user string, jsonMode bool) (Reply, error) {
	return c.Chat(ctx, system, []llm.ChatMessage{{Role: llm.RoleUser, Content: user}}, jsonMode)
}
