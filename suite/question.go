package suite

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/score"
)

// checkJudge stands in for the real judge while a suite is validated, so
// judge-backed evaluator parameters are checked without a configured judge.
type checkJudge struct{}

var _ score.Judge = checkJudge{}

// Assess always fails: checkJudge is never used to score.
func (checkJudge) Assess(context.Context, string, string) (score.Assessment, error) {
	return score.Assessment{}, errors.New("no judge configured")
}

var questionKeys = []string{"id", "name", "question", "expected_answer", "expected_actions",
	"minimum_scores", "checks", "metadata", "context", "api_interactions",
	"turns", "scenario"} // a conversation: suite/conversation.go

// parseQuestion reads one inline question.
func (s *Suite) parseQuestion(p Problems, path string, raw json.RawMessage) *Case {
	obj := p.object(path, raw, questionKeys...)
	if obj == nil {
		return nil
	}
	c := &Case{Source: p.File + ": " + path, file: p.File, path: path}
	if isConversation(obj) {
		if !s.parseConversation(p, path, obj, c) {
			return nil
		}
	} else if q, ok := obj["question"]; !ok {
		p.add(child(path, "question"), "missing: want the question text or object sent to the agent, or the turns or scenario of a conversation")
		return nil
	} else if !s.questionData(p, child(path, "question"), q, c) {
		return nil
	}
	if raw, ok := obj["name"]; ok {
		c.Name, _ = p.nonEmpty(child(path, "name"), raw)
	}
	if raw, ok := obj["id"]; ok {
		c.ID, _ = p.nonEmpty(child(path, "id"), raw)
	}
	c.ExpectedAnswer = compact(obj["expected_answer"])
	if raw, ok := obj["expected_actions"]; ok && !isNull(raw) {
		c.ExpectedActions = compact(raw)
		c.ExpectedActionList = parseActions(p, child(path, "expected_actions"), raw)
	}
	var turnChecks []turnCheck
	if c.Conversation != nil {
		turnChecks = s.parseTurnChecks(p, child(path, "turns"), obj["turns"])
	}
	s.caseMetrics(p, path, obj["minimum_scores"], obj["checks"], turnChecks, c)
	c.Metadata = parseMetadata(p, child(path, "metadata"), obj["metadata"])
	if raw, ok := obj["context"]; ok {
		c.Context = parseContext(p, child(path, "context"), raw)
	}
	if raw, ok := obj["api_interactions"]; ok && !isNull(raw) {
		c.APIInteractions = compact(raw)
		c.Replay = loadReplay(p, child(path, "api_interactions"), raw, s.Dir) // runner/replay.go
	}
	s.defaults(c, len(s.Cases))
	s.checkNeeds(p, c, needSource{path: path, explicit: obj["minimum_scores"] != nil && !isNull(obj["minimum_scores"])})
	s.checkTurnNeeds(p, path, c)
	return c
}

// questionData checks and stores the question sent to the agent.
func (s *Suite) questionData(p Problems, path string, raw json.RawMessage, c *Case) bool {
	switch {
	case len(raw) > 0 && raw[0] == '"':
		if _, ok := p.nonEmpty(path, raw); ok {
			c.Question = compact(raw)
			return true
		}
		return false
	case len(raw) > 0 && raw[0] == '{':
		c.Question = compact(raw)
		return true
	default:
		p.add(path, "want a string or an object, got %s", describe(raw))
		return false
	}
}

// defaults fills the name (question text, or "Question N" for structured
// questions) and the id (the name).
func (s *Suite) defaults(c *Case, position int) {
	if c.Name == "" {
		var text string
		if json.Unmarshal(c.Question, &text) == nil {
			c.Name = text
		} else {
			c.Name = "Question " + strconv.Itoa(position+1)
		}
	}
	if c.ID == "" {
		c.ID = c.Name
	}
}

// caseMetrics sets the case's metrics and inline checks from its
// minimum_scores and checks (either may be nil) and, for a conversation,
// its turns' checks, applying the defaults as runner/checks.go describes:
// a question with checks of its own or on its turns gets no defaults.
// path is the question's JSON path.
func (s *Suite) caseMetrics(p Problems, path string, scores, checks json.RawMessage, turnChecks []turnCheck, c *Case) {
	explicit := scores != nil && !isNull(scores)
	hasChecks := checks != nil && !isNull(checks) || len(turnChecks) > 0
	switch {
	case explicit:
		c.Metrics = s.parseScores(p, child(path, "minimum_scores"), scores)
	case !hasChecks || s.DefaultsStated:
		c.Metrics = s.parseScores(p, child(path, "minimum_scores"), nil)
		for _, m := range c.Metrics {
			c.defaulted = append(c.defaulted, m.Name)
		}
	}
	c.Checks = s.parseChecks(p, child(path, "checks"), checks, c.Metrics)
	for _, tc := range turnChecks {
		c.Checks = append(c.Checks, tc.ev)
		c.Conversation.checkTurn[tc.ev.Name] = tc.turn
	}
	for _, ev := range c.Checks {
		c.Metrics = append(c.Metrics, Metric{Name: ev.Name, Threshold: ev.Threshold})
	}
	if len(c.Metrics) == 0 && len(*p.List) == 0 {
		what := "the question has neither minimum_scores nor checks"
		if c.Conversation != nil {
			what = "the conversation has neither minimum_scores, checks nor turn checks"
		}
		p.add(path, "no metric: the suite's defaults are [] and %s", what)
	}
}

// parseScores reads minimum_scores, or applies the defaults when absent.
func (s *Suite) parseScores(p Problems, path string, raw json.RawMessage) []Metric {
	if raw == nil || isNull(raw) {
		list := s.defaultMetricList()
		for _, m := range list {
			if _, _, ok := s.MetricDefinition(m.Name); !ok {
				p.add(path, "missing, and the default metric %q is not available (declare minimum_scores or evaluators)", m.Name)
			}
		}
		return list
	}
	ms, ok := members(raw)
	if !ok {
		p.add(path, "want an object of metric name to threshold in [0,1], got %s", describe(raw))
		return nil
	}
	if len(ms) == 0 {
		p.add(path, "want at least one metric (omit minimum_scores for the defaults)")
		return nil
	}
	var out []Metric
	for _, m := range ms {
		mp := child(path, m.key)
		t, ok := p.threshold(mp, m.value)
		if _, _, known := s.MetricDefinition(m.key); !known {
			p.add(mp, "unknown metric %q (want a suite evaluator name or a type usable without params: %s)", m.key, s.usableTypes())
			ok = false
		}
		if ok {
			out = append(out, Metric{Name: m.key, Threshold: t})
		}
	}
	return out
}

// usableTypes lists the names a minimum_scores key may use.
func (s *Suite) usableTypes() string {
	var names []string
	for _, ev := range s.Evaluators {
		names = append(names, ev.Name)
	}
	for _, n := range s.Registry.Names() {
		if _, _, ok := s.MetricDefinition(n); ok {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "none available"
	}
	out, _ := json.Marshal(names)
	return string(out)
}

// parseActions reads an expected action trace: each action names a group
// and a name; arguments are any JSON value.
func parseActions(p Problems, path string, raw json.RawMessage) []score.Action {
	var items []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		p.add(path, "want an array of actions such as %s (arguments optional; [] expects no call), got %s", actionsExample, describe(raw))
		return nil
	}
	out := make([]score.Action, 0, len(items))
	for i, it := range items {
		ip := Index(path, i)
		obj := p.objectHint(ip, it, ": an expected action is "+actionExample, "group", "name", "arguments")
		if obj == nil {
			continue
		}
		var a score.Action
		if g, ok := obj["group"]; ok { // optional: without one the call matches on name and arguments
			a.Group, _ = p.nonEmpty(child(ip, "group"), g)
		}
		if n, ok := obj["name"]; ok {
			a.Name, _ = p.nonEmpty(child(ip, "name"), n)
		} else {
			p.add(child(ip, "name"), "missing: want the action's name")
		}
		if args, ok := obj["arguments"]; ok {
			a.Arguments = compact(args)
		}
		out = append(out, a)
	}
	return out
}

// actionExample and actionsExample show the shape of expected_actions in
// problems.
const (
	actionExample  = `{"group": "policies", "name": "lookup_policy", "arguments": {"topic": "returns"}}`
	actionsExample = "[" + actionExample + "]"
)

// parseMetadata reads a metadata object ({} when absent).
func parseMetadata(p Problems, path string, raw json.RawMessage) json.RawMessage {
	if raw == nil || isNull(raw) {
		return json.RawMessage("{}")
	}
	if raw[0] != '{' {
		p.add(path, "want an object, got %s", describe(raw))
		return nil
	}
	return compact(raw)
}

// parseContext reads retrieval context: a string or an array of strings.
func parseContext(p Problems, path string, raw json.RawMessage) []string {
	if isNull(raw) {
		return nil
	}
	if len(raw) > 0 && raw[0] == '"' {
		s, _ := p.str(path, raw)
		return []string{s}
	}
	list, _ := p.strings(path, raw)
	return list
}

// compact removes insignificant whitespace; nil stays nil.
func compact(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return append(json.RawMessage(nil), raw...)
	}
	return json.RawMessage(b.Bytes())
}

// maxGoldenLine bounds one golden-set line.
const maxGoldenLine = 16 << 20

// loadGolden appends the questions of a JSONL golden set (id, input,
// expected, context, meta), resolved against the suite's directory.
func (s *Suite) loadGolden(p Problems, rel string) {
	path := rel
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.Dir, rel)
	}
	f, err := bounds.Open(path)
	if err != nil {
		p.add("$.golden_set", "cannot read the golden set: %v", err)
		return
	}
	defer f.Close()
	gp := Problems{File: rel, List: p.List}
	sc := bufio.NewScanner(bounds.NewReader(f, bounds.DefaultMaxBytes))
	sc.Buffer(make([]byte, 64<<10), maxGoldenLine)
	for line := 1; sc.Scan(); line++ {
		raw := sc.Bytes()
		data := bytes.TrimSpace(raw)
		if len(data) == 0 {
			continue
		}
		indent := utf8.RuneCount(raw[:len(raw)-len(bytes.TrimLeftFunc(raw, unicode.IsSpace))])
		lp := Problems{File: fmt.Sprintf("%s:%d", rel, line), List: p.List, line: true, indent: indent}
		if !lp.bounded(data, false) || !lp.Portable(data) {
			continue
		}
		obj := lp.object("$", data, "id", "input", "expected", "context", "meta", "minimum_scores", "checks")
		if obj == nil {
			continue
		}
		c := &Case{Source: lp.File + ": $", file: lp.File, path: "$"}
		in, ok := obj["input"]
		if !ok {
			lp.add("$.input", "missing: want the question text or object sent to the agent")
			continue
		}
		if !s.questionData(lp, "$.input", in, c) {
			continue
		}
		if raw, ok := obj["id"]; ok {
			c.ID, _ = lp.nonEmpty("$.id", raw)
		}
		c.ExpectedAnswer = compact(obj["expected"])
		c.Metadata = parseMetadata(lp, "$.meta", obj["meta"])
		if raw, ok := obj["context"]; ok {
			c.Context = parseContext(lp, "$.context", raw)
		}
		s.caseMetrics(lp, "$", obj["minimum_scores"], obj["checks"], nil, c)
		s.defaults(c, len(s.Cases))
		s.checkNeeds(lp, c, needSource{path: "$", golden: true, explicit: obj["minimum_scores"] != nil && !isNull(obj["minimum_scores"])})
		s.Cases = append(s.Cases, c)
	}
	if err := sc.Err(); err != nil {
		gp.add("", "cannot read the golden set: %v", err)
	}
}
