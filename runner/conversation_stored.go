package runner

import (
	"encoding/json"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// StoredMetricSample is the scorer input of metric name for a saved case
// of c whose row gave base (its answer, actions and usage): base itself
// for a single question; for a conversation, the sample the run scored,
// rebuilt from the transcript in meta (the turn's exchange for a turn
// check, every turn for the others), so re-judging a conversation judges
// what the run judged.
func StoredMetricSample(c *suite.Case, meta models.JSON, name string, base score.Sample) score.Sample {
	if c.Conversation == nil {
		return base
	}
	m, err := models.DecodeCaseMetadata(meta)
	if err != nil || m.Transcript == nil {
		return base
	}
	cv := &conversationRun{c: c, tr: *m.Transcript}
	for _, t := range m.Transcript.Turns {
		if !t.Error.IsNull() {
			break
		}
		st := score.Turn{User: t.User, Output: json.RawMessage(t.Output), DurationMS: t.DurationMS,
			InputTokens: t.InputTokens, OutputTokens: t.OutputTokens}
		if !t.Actions.IsNull() {
			_ = json.Unmarshal(t.Actions, &st.Actions) // the runner wrote them from []score.Action
		}
		if t.Cost != nil {
			f := t.Cost.Float64()
			st.Cost = &f
		}
		cv.turns = append(cv.turns, st)
	}
	return cv.sample(name, base)
}
