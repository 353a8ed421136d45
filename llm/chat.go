package llm

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
