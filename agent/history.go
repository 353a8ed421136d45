package agent

// A question of a conversation (a suite question with "turns" or a
// "scenario") is asked once per user turn. Every protocol receives the
// conversation so far in the same Question: "question" is the current user
// message, "messages" the whole history in OpenAI chat form ending with
// that message, "turn" its 1-based number and "session_id" an identifier
// shared by every turn of one conversation (fresh for each conversation
// and each repeat), for agents that keep state themselves:
//
//	{"id": "order", "name": "…", "question": "It is A-1042.",
//	 "session_id": "5f0c…", "turn": 2,
//	 "messages": [{"role": "user", "content": "Where is my order?"},
//	              {"role": "assistant", "content": "What is the order number?"},
//	              {"role": "user", "content": "It is A-1042."}]}
//
// A command agent is started once per turn with that JSON on stdin: a
// stateless process that reads the history needs no session store, cannot
// leak state from one conversation into the next and fails one turn, not
// the rest of the run. A worker gets one such line per turn, an http agent
// one POST per turn (with the X-Session-Id header as well), an llm agent
// sends the history as the provider's chat messages, and a Go function
// reads Question.Messages. A single question carries none of these keys,
// so its JSON is what it always was.

// Roles of a Message.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one message of a conversation: who said it and its text.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Conversation is the conversation part of a Question; zero for a single
// question.
type Conversation struct {
	SessionID string    `json:"session_id,omitempty"`
	Turn      int       `json:"turn,omitempty"`
	Messages  []Message `json:"messages,omitempty"`
}

// InConversation reports whether q is a turn of a conversation.
func (q Question) InConversation() bool { return q.Turn > 0 }
