package score

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/agentevals-go/agentevals/sanitize"
)

// Prompt is the two messages of one judge call: the rubric and reply
// format (System) and the sample's data as untrusted context (User).
type Prompt struct {
	System string
	User   string
}

// prompt builds the messages the metric sends for s; LLMMetric.Score and
// RebuildPrompt both call it, so a rebuilt prompt is the one that was sent.
func (spec metricSpec) prompt(s Sample, answerFirst bool) Prompt {
	return Prompt{System: systemPrompt(spec.rubric), User: userPrompt(spec, s, answerFirst)}
}

// StoredCase is the part of a saved case row a judge prompt is made of:
// the question, expected_answer, output and metadata columns as JSON.
type StoredCase struct {
	Question       json.RawMessage
	ExpectedAnswer json.RawMessage
	Output         json.RawMessage
	// Metadata is the row's metadata; the runner saves a question's
	// retrieval context there under "context" (an array of strings).
	Metadata json.RawMessage
}

// RebuildPrompt rebuilds the messages the built-in judge metric metricType
// (e.g. "semantic_accuracy") sends for a saved case, with this version's
// prompt template; answerFirst is the position-swapped reading. It reports
// false for a type that is not a built-in judge metric (llm_judge's rubric
// lives in the suite, not in the row). A "context" array of strings in the
// metadata is read as the retrieval context, as the runner saves it.
func RebuildPrompt(metricType string, c StoredCase, answerFirst bool) (Prompt, bool) {
	for _, spec := range builtinMetricSpecs() {
		if spec.name == metricType {
			return spec.prompt(storedSample(c), answerFirst), true
		}
	}
	return Prompt{}, false
}

// storedSample is the Sample the runner gave the judge, read back from a
// saved row.
func storedSample(c StoredCase) Sample {
	s := Sample{Question: c.Question, ExpectedAnswer: c.ExpectedAnswer, Output: c.Output, Metadata: map[string]any{}}
	_ = json.Unmarshal(c.Metadata, &s.Metadata) // a saved row's metadata is an object
	if s.Metadata == nil {
		s.Metadata = map[string]any{}
	}
	if raw, ok := s.Metadata["context"]; ok {
		enc, _ := json.Marshal(raw)
		var passages []string
		if json.Unmarshal(enc, &passages) == nil {
			s.Context = passages
			delete(s.Metadata, "context")
		}
	}
	return s
}

// MaxRawReply is how many bytes of a judge's raw reply the evidence keeps.
const MaxRawReply = 8 << 10

// RawReply is a judge's reply text as evidence: sanitized (repaired and
// redacted), then cut to MaxRawReply bytes on a character boundary with a
// note saying how much was kept.
func RawReply(text string) string {
	text = sanitize.String(text)
	if len(text) <= MaxRawReply {
		return text
	}
	cut := MaxRawReply
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return fmt.Sprintf("%s\n…[cut: the first %d of %d bytes are kept]", text[:cut], cut, len(text))
}
