package suite

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentevals-go/agentevals/replay"
	"github.com/agentevals-go/agentevals/score"
)

// Conversations: a question asked over several turns.
//
// Instead of "question", a question may give "turns", the user's messages
// in order, each a string or {"content", "expected", "checks"}:
//
//	"turns": ["Where is my order?",
//	          {"content": "It is A-1042.", "expected": "…",
//	           "checks": [{"type": "contains", "value": "A-1042"}]}]
//
// or a "scenario" that an LLM plays the user of:
//
//	"scenario": {"goal": "…", "user_description": "…", "expected_outcome": "…",
//	             "opening_message": "…", "max_turns": 6}
//
// The question's own metrics (minimum_scores, checks, the defaults) score
// the whole conversation: the output is the agent's last message. A
// turn's checks score that turn only, on its message, its expected answer
// and its actions; each becomes a metric of the question named
// "turn<N>.<name>" (e.g. "turn2.contains"), so a failing turn is named in
// every report. Absent keys change nothing: a question without them is
// defined, and fingerprinted, as before.

// MaxTurns bounds a scenario's max_turns; DefaultMaxTurns is its default.
const (
	MaxTurns        = 50
	DefaultMaxTurns = 10
)

// Conversation is a question asked over several turns: scripted Turns, or
// a Scenario played by a simulated user (exactly one of them).
type Conversation struct {
	Turns    []Turn
	Scenario *Scenario
	// checkTurn maps a turn check's metric name to its 0-based turn.
	checkTurn map[string]int
}

// Turn is one scripted user turn.
type Turn struct {
	Content string
	// Expected is the turn's expected answer (nil when absent).
	Expected json.RawMessage
	// Replay is the turn's own strict API replay fixtures (nil when
	// absent): a session of this turn alone.
	Replay *replay.Fixtures
}

// Scenario is a simulated user: what it wants, who it is, what should come
// of it, how it opens (empty: the simulated user writes the first message)
// and how many agent turns it allows.
type Scenario struct {
	Goal, UserDescription, ExpectedOutcome, OpeningMessage string
	MaxTurns                                               int
}

// TurnOf returns the 0-based turn of the turn check called metric; false
// for a metric of the whole question (and on a nil conversation).
func (cv *Conversation) TurnOf(metric string) (int, bool) {
	if cv == nil {
		return 0, false
	}
	t, ok := cv.checkTurn[metric]
	return t, ok
}

// TurnMetric is the metric name of the check called name on turn (0-based).
func TurnMetric(turn int, name string) string { return "turn" + strconv.Itoa(turn+1) + "." + name }

var turnKeys = []string{"content", "expected", "checks", "api_interactions"}

var scenarioKeys = []string{"goal", "user_description", "expected_outcome", "opening_message", "max_turns"}

// isConversation reports whether a question object declares a conversation.
func isConversation(obj map[string]json.RawMessage) bool {
	_, turns := obj["turns"]
	_, scenario := obj["scenario"]
	return turns || scenario
}

// parseConversation reads "turns" or "scenario" into c, and sets
// c.Question to the first user message (or the scenario's goal), which
// names the question and is the question whole-conversation judges see.
func (s *Suite) parseConversation(p Problems, path string, obj map[string]json.RawMessage, c *Case) bool {
	rawTurns, hasTurns := obj["turns"]
	rawScenario, hasScenario := obj["scenario"]
	if _, ok := obj["question"]; ok {
		p.add(child(path, "question"), "a conversation gives turns or a scenario instead of question: remove one")
		return false
	}
	if hasTurns && hasScenario {
		p.add(child(path, "scenario"), "give turns (a scripted conversation) or a scenario (a simulated user), not both")
		return false
	}
	cv := &Conversation{checkTurn: map[string]int{}}
	first := ""
	if hasTurns {
		cv.Turns = s.parseTurns(p, child(path, "turns"), rawTurns)
		if cv.Turns == nil {
			return false
		}
		first = cv.Turns[0].Content
	} else {
		cv.Scenario = parseScenario(p, child(path, "scenario"), rawScenario)
		if cv.Scenario == nil {
			return false
		}
		first = cmpOr(cv.Scenario.OpeningMessage, cv.Scenario.Goal)
	}
	if _, whole := obj["api_interactions"]; whole && cv.hasTurnReplay() {
		p.add(child(path, "api_interactions"), "declare api_interactions for the whole conversation or on its turns, not both")
		return false
	}
	c.Question, _ = json.Marshal(first)
	c.Conversation = cv
	return true
}

// hasTurnReplay reports whether a turn declares its own fixtures.
func (cv *Conversation) hasTurnReplay() bool {
	for _, t := range cv.Turns {
		if t.Replay != nil {
			return true
		}
	}
	return false
}

// HasTurnReplay reports whether c is a conversation with a turn that
// declares its own fixtures.
func (c *Case) HasTurnReplay() bool { return c.Conversation != nil && c.Conversation.hasTurnReplay() }

// NeedsSimulator reports whether a case is a scenario whose user a model
// plays after the opening message: the judge's model, so the judge is
// needed even when no metric is judge-scored.
func (s *Suite) NeedsSimulator() bool {
	if s.whole != nil {
		return s.whole.NeedsSimulator()
	}
	for _, c := range s.Cases {
		if sc := c.Conversation; sc != nil && sc.Scenario != nil && (sc.Scenario.OpeningMessage == "" || sc.Scenario.MaxTurns > 1) {
			return true
		}
	}
	return false
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// parseTurns reads the scripted turns; nil after a problem.
func (s *Suite) parseTurns(p Problems, path string, raw json.RawMessage) []Turn {
	var items []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		p.add(path, "want an array of user turns (a string, or an object with \"content\"), got %s", describe(raw))
		return nil
	}
	if len(items) == 0 {
		p.add(path, "want at least one user turn, got an empty array")
		return nil
	}
	out := make([]Turn, 0, len(items))
	ok := true
	for i, item := range items {
		ip := Index(path, i)
		switch {
		case len(item) > 0 && item[0] == '"':
			text, good := p.nonEmpty(ip, item)
			ok = ok && good
			out = append(out, Turn{Content: text})
		case len(item) > 0 && item[0] == '{':
			obj := p.object(ip, item, turnKeys...)
			if obj == nil {
				ok = false
				continue
			}
			var t Turn
			if raw, has := obj["content"]; has {
				var good bool
				t.Content, good = p.nonEmpty(child(ip, "content"), raw)
				ok = ok && good
			} else {
				p.add(child(ip, "content"), "missing: want the user's message")
				ok = false
			}
			if raw, has := obj["expected"]; has && !isNull(raw) {
				t.Expected = compact(raw)
			}
			if raw, has := obj["api_interactions"]; has && !isNull(raw) {
				t.Replay = loadReplay(p, child(ip, "api_interactions"), raw, s.Dir) // runner/replay.go
			}
			out = append(out, t)
		default:
			p.add(ip, "want a user turn: a string or an object with \"content\", got %s", describe(item))
			ok = false
		}
	}
	if !ok {
		return nil
	}
	return out
}

// parseScenario reads a simulated user's scenario; nil after a problem.
func parseScenario(p Problems, path string, raw json.RawMessage) *Scenario {
	obj := p.object(path, raw, scenarioKeys...)
	if obj == nil {
		return nil
	}
	sc := &Scenario{MaxTurns: DefaultMaxTurns}
	ok := true
	text := func(key string, required bool) string {
		v, has := obj[key]
		if !has || isNull(v) {
			if required {
				p.add(child(path, key), "missing: want what the simulated user wants to achieve")
				ok = false
			}
			return ""
		}
		s, good := p.nonEmpty(child(path, key), v)
		ok = ok && good
		return s
	}
	sc.Goal = text("goal", true)
	sc.UserDescription = text("user_description", false)
	sc.ExpectedOutcome = text("expected_outcome", false)
	sc.OpeningMessage = text("opening_message", false)
	if v, has := obj["max_turns"]; has {
		var n int
		if len(v) == 0 || v[0] == '"' || json.Unmarshal(v, &n) != nil || n < 1 || n > MaxTurns {
			p.add(child(path, "max_turns"), "want a whole number of turns from 1 to %d, got %s", MaxTurns, describe(v))
			ok = false
		}
		sc.MaxTurns = n
	}
	if !ok {
		return nil
	}
	return sc
}

// turnCheck is one turn's check, named for its turn.
type turnCheck struct {
	ev   Evaluator
	turn int
	path string
}

// parseTurnChecks reads the checks of every scripted turn (the turns
// themselves were read by parseTurns).
func (s *Suite) parseTurnChecks(p Problems, path string, raw json.RawMessage) []turnCheck {
	var items []json.RawMessage
	if raw == nil || json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []turnCheck
	for i, item := range items {
		ms, ok := members(item)
		if !ok {
			continue
		}
		for _, m := range ms {
			if m.key != "checks" {
				continue
			}
			cp := child(Index(path, i), "checks")
			for _, ev := range s.parseChecks(p, cp, m.value, nil) {
				ev.Name = TurnMetric(i, ev.Name)
				out = append(out, turnCheck{ev: ev, turn: i, path: cp})
			}
		}
	}
	return out
}

// checkTurnNeeds refuses a turn check whose evaluator needs what its turn
// lacks: an expected answer (the turn's "expected"), or anything a turn
// cannot give.
func (s *Suite) checkTurnNeeds(p Problems, path string, c *Case) {
	if c.Conversation == nil {
		return
	}
	for _, ev := range c.Checks {
		turn, ok := c.Conversation.TurnOf(ev.Name)
		if !ok {
			continue
		}
		def := s.Registry[ev.Type]
		t := c.Conversation.Turns[turn]
		sample := score.Sample{ExpectedAnswer: t.Expected, Context: c.Context, ExpectedActions: c.ExpectedActionList}
		for _, need := range def.Required(ev.Params) {
			if sample.Has(need) {
				continue
			}
			what := need
			if need == score.NeedExpectedAnswer {
				what = "the turn's expected"
			}
			p.add(child(Index(child(path, "turns"), turn), "checks"), "check %q needs %s (none given)", strings.TrimPrefix(ev.Name, fmt.Sprintf("turn%d.", turn+1)), what)
		}
	}
}

// conversationDefinition is what the digest covers of a conversation.
func conversationDefinition(cv *Conversation) (string, any) {
	if cv.Scenario != nil {
		sc := cv.Scenario
		return "scenario", map[string]any{"goal": sc.Goal, "user_description": sc.UserDescription,
			"expected_outcome": sc.ExpectedOutcome, "opening_message": sc.OpeningMessage, "max_turns": sc.MaxTurns}
	}
	turns := make([]any, len(cv.Turns))
	for i, t := range cv.Turns {
		def := map[string]any{"content": t.Content, "expected": nullable(t.Expected)}
		if t.Replay != nil {
			def["api_interactions"] = t.Replay.Definition()
		}
		turns[i] = def
	}
	return "turns", turns
}
