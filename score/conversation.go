package score

import "encoding/json"

// NeedConversation is Sample.Conversation: the question is a conversation
// (scripted turns or a scenario). The conversation metrics need it.
const NeedConversation = "conversation"

// Conversation is what a conversation metric reads of a question asked
// over several turns: every turn as it happened and, for a simulated
// user, its scenario.
type Conversation struct {
	Turns []Turn
	// Goal, UserDescription and ExpectedOutcome are the scenario's (empty
	// for a scripted conversation).
	Goal, UserDescription, ExpectedOutcome string
	// StopReason says why the conversation ended ("script_end",
	// "goal_reached", "user_done", "max_turns").
	StopReason string
}

// Turn is one exchange: the user's message and the agent's reply, its
// actions (nil: not instrumented), duration and usage.
type Turn struct {
	User         string
	Output       json.RawMessage
	Actions      []Action
	DurationMS   float64
	InputTokens  *int64
	OutputTokens *int64
	Cost         *float64
}

// OutputText is the reply as text, like Sample.OutputText.
func (t Turn) OutputText() string { return text(t.Output) }

// hasConversation is Sample.Has(NeedConversation).
func (s Sample) hasConversation() bool { return s.Conversation != nil }
