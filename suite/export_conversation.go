package suite

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// exportedScenario fixes the key order of an exported scenario.
type exportedScenario struct {
	Goal     string `json:"goal"`
	MaxTurns int    `json:"max_turns,omitempty"`
}

// exportConversation writes back the turns or scenario of a case that was
// a conversation, from its saved transcript: the user's messages of a
// scripted conversation, or a simulated one's goal and turn cap. What the
// run did not save (turn expected answers and checks, a scenario's user
// description and expected outcome) is named in notes. ok is false for a
// case that was not a conversation.
func exportConversation(c *models.CaseResult) (q exportedQuestion, notes []string, ok bool) {
	var meta struct {
		Transcript *models.Transcript `json:"transcript"`
	}
	if c.ResponseMetadata.IsNull() || json.Unmarshal(c.ResponseMetadata, &meta) != nil || meta.Transcript == nil {
		return q, nil, false
	}
	tr := meta.Transcript
	if tr.Kind == "simulated" {
		var goal string
		_ = json.Unmarshal(c.Question, &goal)
		q.Scenario, _ = json.Marshal(exportedScenario{Goal: goal, MaxTurns: tr.MaxTurns})
		notes = append(notes, fmt.Sprintf("question %q: a simulated conversation: its scenario's goal is the saved question (the opening message, if it had one) and its "+
			"user_description, expected_outcome and opening_message were not saved: fill them in", c.CaseID))
		return q, notes, true
	}
	turns := make([]string, 0, len(tr.Turns))
	for _, t := range tr.Turns {
		turns = append(turns, t.User)
	}
	if len(turns) == 0 {
		var first string
		_ = json.Unmarshal(c.Question, &first)
		turns = append(turns, first)
	}
	q.Turns, _ = json.Marshal(turns)
	notes = append(notes, fmt.Sprintf("question %q: its turns are the user messages the run saved; a turn's expected answer was not saved: add any back", c.CaseID))
	if tr.StopReason != models.StopScriptEnd {
		notes = append(notes, fmt.Sprintf("question %q: the conversation stopped at turn %d (%s): later turns of its script were not saved: add them",
			c.CaseID, len(tr.Turns), strings.ReplaceAll(tr.StopReason, "_", " ")))
	}
	return q, notes, true
}

// isTurnMetric reports whether a metric name is a turn check's
// ("turn2.contains"), whose params the run did not save.
func isTurnMetric(name string) bool {
	rest, ok := strings.CutPrefix(name, "turn")
	digits, _, dot := strings.Cut(rest, ".")
	if !ok || !dot || digits == "" {
		return false
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
