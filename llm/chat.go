package llm

import "github.com/tmc/langchaingo/llms"

// Roles of a ChatMessage.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// ChatMessage is one message of a conversation sent with Client.Chat.
type ChatMessage struct {
	Role    string
	Content string
}

// chatMessages is the system message (sent even when empty, as Generate
// always has) and the history as langchaingo messages; a role other than
// assistant is the user's.
func chatMessages(system string, history []ChatMessage) []llms.MessageContent {
	msgs := make([]llms.MessageContent, 0, len(history)+1)
	msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeSystem, system))
	for _, m := range history {
		role := llms.ChatMessageTypeHuman
		if m.Role == RoleAssistant {
			role = llms.ChatMessageTypeAI
		}
		msgs = append(msgs, llms.TextParts(role, m.Content))
	}
	return msgs
}
