package models

// Transcript is the response_metadata "transcript" of a case that was a
// conversation: every turn's messages, checks, actions, usage and timing,
// and why the conversation ended. The case row itself stays an ordinary
// row: output is the agent's last message, actions every turn's actions in
// order, tokens and cost summed over the turns, duration the whole
// conversation's.
type Transcript struct {
	// Kind is "scripted" (turns) or "simulated" (a scenario).
	Kind string `json:"kind"`
	// FailingTurn is the first turn (1-based) whose check failed or errored,
	// or where the conversation broke off; nil when none did.
	FailingTurn *int `json:"failing_turn"`
	// MaxTurns is a scenario's cap (0 for a scripted conversation).
	MaxTurns int `json:"max_turns,omitempty"`
	// ConversationID is what the agent received as session_id (stored
	// under another name: the sanitizer redacts every "session_id").
	ConversationID string `json:"conversation_id"`
	// SimulatorUsage accounts the simulated user's and the goal judge's
	// calls (kept apart from the agent's usage and from the metrics').
	SimulatorUsage *CallAccount `json:"simulator_usage,omitempty"`
	// StopReason is why the conversation ended: StopScriptEnd,
	// StopGoalReached, StopUserDone, StopMaxTurns, StopAgentError,
	// StopSimulatorError or StopSizeCap.
	StopReason string `json:"stop_reason"`
	// BudgetNotes say what the conversation budget cut: messages sent
	// to the agent, a judge or the simulated user, or kept in Turns.
	BudgetNotes []string `json:"budget_notes,omitempty"`
	// Turns are the exchanges in order.
	Turns []TranscriptTurn `json:"turns"`
}

// Reasons a conversation ended (Transcript.StopReason).
const (
	StopScriptEnd      = "script_end"
	StopGoalReached    = "goal_reached"
	StopUserDone       = "user_done"
	StopMaxTurns       = "max_turns"
	StopAgentError     = "agent_error"
	StopSimulatorError = "simulator_error"
	StopSizeCap        = "size_cap"
)

// TranscriptTurn is one exchange: the user's message, the agent's reply
// (Output; null when the agent failed), what it did and spent, its agent
// error, its own metadata and the results of the turn's checks.
type TranscriptTurn struct {
	Actions JSON `json:"actions"`
	// APIReplay is what the turn's own strict API replay session saw (nil
	// unless the turn declares api_interactions).
	APIReplay    *APIReplay  `json:"api_replay,omitempty"`
	Checks       []TurnCheck `json:"checks,omitempty"`
	Cost         *Decimal    `json:"cost"`
	DurationMS   float64     `json:"duration_ms"`
	Error        JSON        `json:"error,omitempty"`
	InputTokens  *int64      `json:"input_tokens"`
	Metadata     JSON        `json:"metadata,omitempty"`
	Output       JSON        `json:"output"`
	OutputTokens *int64      `json:"output_tokens"`
	Turn         int         `json:"turn"`
	User         string      `json:"user"`
}

// TurnCheck is the result of one turn check (its metric row holds the
// same): the metric's name, threshold, score (nil when it errored or was
// not calculated), whether it passed and why.
type TurnCheck struct {
	Errored   bool     `json:"errored,omitempty"`
	Name      string   `json:"name"`
	Passed    bool     `json:"passed"`
	Reason    *string  `json:"reason"`
	Score     *float64 `json:"score"`
	Threshold float64  `json:"threshold"`
}

// Failed reports whether the check failed or errored (a check that was
// not calculated did neither).
func (c TurnCheck) Failed() bool { return c.Errored || (c.Score != nil && !c.Passed) }
