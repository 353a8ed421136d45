package runner

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

// A conversation's budget (docs/conversations.md, "Budget") bounds what
// one conversation can cost whatever the agent or the simulated user
// writes: its whole text, what each call sends (the agent's history, the
// simulated user's prompt, a judge's conversation) and the transcript
// stored. A cut message keeps its head and says how much was cut; every
// cut is noted in the transcript (budget_notes), as a cut answer is.
const (
	// MaxConversationBytes caps the conversation's text: the user
	// messages and the agent's replies summed. A conversation that reaches
	// it stops there (stop reason size_cap) and is an agent error: its
	// later turns were never asked.
	MaxConversationBytes = 8 << 20
	// MaxSentBytes caps the conversation text one call sends: the history
	// an agent turn receives, the simulated user's prompt and the
	// conversation a judge reads. Beyond it every message gets an equal
	// share of the budget (a shorter one lends the rest to the longer).
	MaxSentBytes = 256 << 10
	// MaxStoredBytes caps the text the stored transcript keeps of the
	// user messages and replies, shared the same way, at most
	// maxStoredMessage each.
	MaxStoredBytes   = 1 << 20
	maxStoredMessage = 64 << 10
)

// share is the most bytes each of texts may keep so that they sum to at
// most budget: texts shorter than an equal share keep their length and
// leave the rest to the longer ones. -1 when all fit whole.
func share(lens []int, budget int) int {
	total := 0
	for _, l := range lens {
		total += l
	}
	if total <= budget {
		return -1
	}
	sorted := slices.Sorted(slices.Values(lens))
	left := budget
	for i, l := range sorted {
		each := left / (len(sorted) - i)
		if l > each {
			return each
		}
		left -= l
	}
	return -1
}

// cut keeps the head of s within n bytes (at a character boundary) and
// says how much was cut; s when it fits or n < 0.
func cut(s string, n int) (string, bool) {
	if n < 0 || len(s) <= n {
		return s, false
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + fmt.Sprintf("…[%d of %d bytes cut by the conversation budget]", len(s)-n, len(s)), true
}

// boundedHistory is history as the agent receives it: within MaxSentBytes.
func boundedHistory(history []agent.Message) ([]agent.Message, bool) {
	lens := make([]int, len(history))
	for i, m := range history {
		lens[i] = len(m.Content)
	}
	each := share(lens, MaxSentBytes)
	out := append([]agent.Message(nil), history...)
	if each < 0 {
		return out, false
	}
	for i := range out {
		out[i].Content, _ = cut(out[i].Content, each)
	}
	return out, true
}

// boundedTurns are turns as a judge or the simulated user reads them:
// their messages within budget (outputs as text).
func boundedTurns(turns []score.Turn, budget int) ([]score.Turn, bool) {
	lens := make([]int, 0, 2*len(turns))
	for _, t := range turns {
		lens = append(lens, len(t.User), len(t.Output))
	}
	each := share(lens, budget)
	if each < 0 {
		return turns, false
	}
	out := make([]score.Turn, len(turns))
	for i, t := range turns {
		out[i] = t
		out[i].User, _ = cut(t.User, each)
		if len(t.Output) > each {
			text, _ := cut(t.OutputText(), each)
			out[i].Output = jsonString(text)
		}
	}
	return out, true
}

// boundStored cuts the stored transcript's messages to MaxStoredBytes
// (at most maxStoredMessage each) and notes it.
func boundStored(tr *models.Transcript) {
	lens := make([]int, 0, 2*len(tr.Turns))
	for _, t := range tr.Turns {
		lens = append(lens, len(t.User), len(t.Output))
	}
	each := share(lens, MaxStoredBytes)
	if each < 0 || each > maxStoredMessage {
		each = maxStoredMessage
	}
	cuts := 0
	for i := range tr.Turns {
		t := &tr.Turns[i]
		var did bool
		if t.User, did = cut(t.User, each); did {
			cuts++
		}
		if len(t.Output) > each {
			text, _ := cut(score.Turn{Output: json.RawMessage(t.Output)}.OutputText(), each)
			t.Output = models.JSON(jsonString(text))
			cuts++
		}
	}
	if cuts > 0 {
		tr.BudgetNotes = append(tr.BudgetNotes, fmt.Sprintf("the stored transcript keeps at most %d bytes of each message (%d bytes in all): %d messages cut", each, MaxStoredBytes, cuts))
	}
}

// note records a budget cut once per conversation.
func (cv *conversationRun) note(n string) {
	if !slices.Contains(cv.budgetNotes, n) {
		cv.budgetNotes = append(cv.budgetNotes, n)
	}
}

// grow adds a turn's text to the conversation's size; an error once it
// reaches MaxConversationBytes.
func (cv *conversationRun) grow(turn int, user string, output json.RawMessage) error {
	cv.size += len(user) + len(output)
	if cv.size < MaxConversationBytes {
		return nil
	}
	return &adapter.Error{Kind: "conversation_too_large", Message: fmt.Sprintf(
		"turn %d: the conversation reached %d bytes of messages, the cap of %d (the conversation budget); its later turns were not asked", turn, cv.size, MaxConversationBytes),
		Details: map[string]any{"turn": turn, "bytes": cv.size, "max_bytes": MaxConversationBytes}}
}
