package suite

import (
	"encoding/json"
	"strings"
	"testing"
)

// conversationSuite wraps questions in a suite.
func conversationSuite(questions string) string {
	return `{"suite": "S", "version": "1", "agent": {"name": "A", "command": ["true"]}, "questions": [` + questions + `]}`
}

// TestConversation_Parse reads turns and scenarios: the first user message
// (or the goal) names the question, turn checks become turn<N> metrics of
// their turn, a scenario's cap defaults to DefaultMaxTurns.
func TestConversation_Parse(t *testing.T) {
	s := mustLoad(t, conversationSuite(`{"turns": ["Hi", {"content": "It is A-1", "expected": "ok",
	    "checks": [{"type": "exact_match"}, {"type": "contains", "value": "A-1", "name": "order"}]}],
	  "checks": [{"type": "conversation_turns", "max": 2}]},
	  {"id": "sim", "scenario": {"goal": "Get a refund"}, "checks": [{"type": "conversation_turns", "max": 3}]}`))
	c, sim := s.Cases[0], s.Cases[1]
	if c.ID != "Hi" || string(c.Question) != `"Hi"` || len(c.Conversation.Turns) != 2 || string(c.Conversation.Turns[1].Expected) != `"ok"` {
		t.Fatalf("scripted case: id %q question %s turns %+v", c.ID, c.Question, c.Conversation.Turns)
	}
	var names []string
	for _, m := range c.Metrics {
		turn, ok := c.Conversation.TurnOf(m.Name)
		if !ok {
			turn = -1
		}
		names = append(names, m.Name+"@"+string(rune('0'+turn+1)))
	}
	if got := strings.Join(names, ","); got != "conversation_turns@0,turn2.exact_match@2,turn2.order@2" {
		t.Errorf("metrics %s", got)
	}
	if sim.Conversation.Scenario == nil || sim.Conversation.Scenario.MaxTurns != DefaultMaxTurns || string(sim.Question) != `"Get a refund"` {
		t.Errorf("scenario case: %+v question %s", sim.Conversation.Scenario, sim.Question)
	}
}

// TestConversation_Digest: a conversation's definition covers its turns
// (and their expected answers) or its scenario, so changing any of them
// starts a new baseline; a suite without conversations keeps its digest
// (TestSuite_Digest_Algorithm and the golden files pin that).
func TestConversation_Digest(t *testing.T) {
	base := `{"id": "q", "turns": ["Hi", {"content": "It is A-1", "expected": "ok"}], "checks": [{"type": "conversation_turns", "max": 2}]}`
	scen := `{"id": "q", "scenario": {"goal": "g", "max_turns": 3}, "checks": [{"type": "conversation_turns", "max": 2}]}`
	digest := func(q string) string {
		s := mustLoad(t, conversationSuite(q))
		d, err := s.Digest(s.Calculated(false))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	ref := digest(base)
	if digest(strings.ReplaceAll(base, `": `, `":  `)) != ref {
		t.Error("reformatting the suite changed the digest")
	}
	for _, changed := range []string{
		strings.Replace(base, `"Hi"`, `"Hello"`, 1),
		strings.Replace(base, `"expected": "ok"`, `"expected": "fine"`, 1),
		strings.Replace(base, `"Hi", `, `"Hi", "Again", `, 1),
	} {
		if digest(changed) == ref {
			t.Errorf("%s has the digest of %s", changed, base)
		}
	}
	sref := digest(scen)
	for _, changed := range []string{strings.Replace(scen, `"max_turns": 3`, `"max_turns": 4`, 1), strings.Replace(scen, `"g"`, `"h"`, 1)} {
		if digest(changed) == sref {
			t.Errorf("%s has the digest of %s", changed, scen)
		}
	}
	def := CaseDefinition(mustLoad(t, conversationSuite(base)).Cases[0])
	if b, _ := json.Marshal(def["turns"]); string(b) != `[{"content":"Hi","expected":null},{"content":"It is A-1","expected":"ok"}]` {
		t.Errorf("turns definition %s", b)
	}
}
