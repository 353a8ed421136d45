package agent

import (
	"bytes"
	"encoding/json"
)

// Text is the question as text: the value of a JSON string question
// ("What is the capital of Japan?"), ok true. A question that is not a
// JSON string (a suite's object question) gives its JSON text as written
// and ok false; Question keeps the raw JSON for such questions, to
// json.Unmarshal into a struct.
func (q Question) Text() (text string, ok bool) {
	t := bytes.TrimSpace(q.Question)
	if len(t) > 0 && t[0] == '"' && json.Unmarshal(t, &text) == nil {
		return text, true
	}
	return string(t), false
}
