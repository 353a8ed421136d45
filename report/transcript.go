package report

import (
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// maxTranscriptTurns bounds the turns a report or the case page lists for
// one conversation; the rest are counted.
const maxTranscriptTurns = 60

// TranscriptView is a conversation's transcript (models.Transcript in a
// case's response_metadata) as the reports and the dashboard show it: a
// chat of user and agent messages, each turn's check results beside it,
// the failing turn marked and why the conversation ended. Every string is
// raw, untrusted evidence: the templates escape it.
type TranscriptView struct {
	Kind string
	// Stop says why the conversation ended, in words.
	Stop string
	// FailingTurn is the first failing turn (1-based), 0 for none.
	FailingTurn int
	Turns       []TranscriptTurnView
	// More counts turns not listed.
	More int
	// Summary is the one line the text outputs print.
	Summary string
}

// TranscriptTurnView is one exchange.
type TranscriptTurnView struct {
	Turn       int
	User       string
	Agent      string
	Actions    string
	Error      string
	DurationMS float64
	Failing    bool
	Checks     []TurnCheckView
}

// TurnCheckView is one turn check's result.
type TurnCheckView struct {
	Name, Score, State, Reason string
}

// NewTranscriptView reads the transcript of a case's response metadata;
// nil when the case is not a conversation.
func NewTranscriptView(meta models.JSON) *TranscriptView {
	m, err := models.DecodeCaseMetadata(meta)
	if err != nil || m.Transcript == nil {
		return nil
	}
	tr := m.Transcript
	v := &TranscriptView{Kind: tr.Kind, Stop: StopText(tr)}
	if tr.FailingTurn != nil {
		v.FailingTurn = *tr.FailingTurn
	}
	for i, t := range tr.Turns {
		if i == maxTranscriptTurns {
			v.More = len(tr.Turns) - i
			break
		}
		tv := TranscriptTurnView{Turn: t.Turn, User: t.User, Agent: jsonText(t.Output), Actions: jsonText(t.Actions),
			Error: errorText(t.Error), DurationMS: t.DurationMS, Failing: t.Turn == v.FailingTurn}
		for _, c := range t.Checks {
			cv := TurnCheckView{Name: c.Name, Score: "—", State: "pass"}
			if c.Score != nil {
				cv.Score = fmt.Sprintf("%.3f", *c.Score)
			}
			switch {
			case c.Errored:
				cv.State = "error"
			case c.Score == nil:
				cv.State = "not calculated"
			case !c.Passed:
				cv.State = "fail"
			}
			if c.Reason != nil {
				cv.Reason = *c.Reason
			}
			tv.Checks = append(tv.Checks, cv)
		}
		v.Turns = append(v.Turns, tv)
	}
	v.Summary = summaryLine(tr, v.FailingTurn)
	return v
}

// errorText is an agent error's "kind: message".
func errorText(j models.JSON) string {
	if j.IsNull() {
		return ""
	}
	var e struct{ Kind, Message string }
	if j.Decode(&e) != nil {
		return jsonText(j)
	}
	return strings.TrimPrefix(e.Kind+": "+e.Message, ": ")
}

// StopText says why a conversation ended.
func StopText(tr *models.Transcript) string {
	n := len(tr.Turns)
	switch tr.StopReason {
	case models.StopScriptEnd:
		return fmt.Sprintf("the script ended after %d turns", n)
	case models.StopGoalReached:
		return fmt.Sprintf("the judge found the goal reached at turn %d", n)
	case models.StopUserDone:
		return fmt.Sprintf("the simulated user said it was done after %d turns", n)
	case models.StopMaxTurns:
		return fmt.Sprintf("stopped at the turn cap (%d) without reaching the goal", tr.MaxTurns)
	case models.StopAgentError:
		return fmt.Sprintf("the agent failed at turn %d", n)
	case models.StopSimulatorError:
		return "the simulated user or the goal judge failed"
	case models.StopSizeCap:
		return fmt.Sprintf("stopped at turn %d: the conversation reached its size cap", n)
	}
	return "stopped: " + tr.StopReason
}

// summaryLine is "failing turn 2 of 3 (“When will it arrive?”); the script
// ended after 3 turns", or only the stop when no turn failed.
func summaryLine(tr *models.Transcript, failing int) string {
	stop := StopText(tr)
	if failing == 0 || failing > len(tr.Turns) {
		return stop
	}
	user := []rune(strings.Join(strings.Fields(tr.Turns[failing-1].User), " "))
	if len(user) > 80 {
		user = append(user[:79], '…')
	}
	return fmt.Sprintf("failing turn %d of %d (%q); %s", failing, len(tr.Turns), string(user), stop)
}

// Exchanges are the turns as "user → agent" lines (the failing one marked
// "✗"), for side-by-side comparison.
func (v *TranscriptView) Exchanges() []string {
	out := make([]string, 0, len(v.Turns))
	for _, t := range v.Turns {
		agent := t.Agent
		if t.Error != "" {
			agent = "error: " + t.Error
		}
		mark := ""
		if t.Failing {
			mark = "✗ "
		}
		out = append(out, fmt.Sprintf("%s%d. %s → %s", mark, t.Turn, t.User, agent))
	}
	return out
}
