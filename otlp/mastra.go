package otlp

import "go.opentelemetry.io/collector/pdata/pcommon"

// Mastra's OTel exporter names one span per model call "chat" when the
// installed @mastra/core and @mastra/observability both emit model
// inference spans. With a pairing that does not, the "chat" span is the
// whole generation (mastra.span.type model_generation, the usage summed
// over its steps) and each model call is one of its model_step children
// (gen_ai.operation.name agent_step), which carry no usage. Such a
// generation counts as one model call per step; its usage is counted once.

const (
	attrMastraType      = "mastra.span.type"
	mastraGeneration    = "model_generation"
	mastraStep          = "model_step"
	mastraMaxGeneration = 64 // generations tracked per case; more are counted as one call each
)

// mastraSteps counts the model calls of legacy Mastra generations.
type mastraSteps struct {
	generations map[pcommon.SpanID]bool // span ids of generations read as one model call
	steps       map[pcommon.SpanID]int  // generation span id → its model_step children
}

// see notes a span: a generation read as a model call, or a step (one
// without a parent is no generation's).
func (m *mastraSteps) see(s *keptSpan, modelCall bool) {
	switch s.attrs.get(keyMastraType) {
	case mastraGeneration:
		if modelCall && len(m.generations) < mastraMaxGeneration {
			if m.generations == nil {
				m.generations = map[pcommon.SpanID]bool{}
			}
			m.generations[s.id] = true
		}
	case mastraStep:
		if s.parent.IsEmpty() {
			return
		}
		if m.steps == nil {
			m.steps = map[pcommon.SpanID]int{}
		}
		m.steps[s.parent]++
	}
}

// extraCalls is how many model calls the generations hold beyond the one
// each was counted as.
func (m *mastraSteps) extraCalls() int {
	extra := 0
	for id := range m.generations {
		if n := m.steps[id]; n > 1 {
			extra += n - 1
		}
	}
	return extra
}
