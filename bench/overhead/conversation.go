package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// conversationTurns is how many turns each conversation of the
// conversation comparison has.
const conversationTurns = 10

// newConversationComparison is the python worker answering N/10 scripted
// conversations of 10 turns (N agent calls) against the same worker
// answering N single questions, both run by evalrun -j j with the save:
// the ratio is what a turn costs against a single question.
func newConversationComparison(root string, o options) (*comparison, error) {
	dir := filepath.Join(root, "conversation")
	python, err := pythonWorker(dir)
	if err != nil {
		return nil, err
	}
	agentSection := map[string]any{"name": "python worker", "type": "worker", "command": []string{python, filepath.Join(dir, "worker.py")}}
	single, err := writeSuite(dir, "Overhead single", agentSection, o.cases)
	if err != nil {
		return nil, err
	}
	single2 := filepath.Join(dir, "single.json")
	if err := os.Rename(single, single2); err != nil {
		return nil, err
	}
	conv, err := writeConversationSuite(dir, agentSection, max(1, o.cases/conversationTurns))
	if err != nil {
		return nil, err
	}
	bins := []string{o.evalrun}
	if o.compare != "" {
		bins = append(bins, o.compare)
	}
	c := &comparison{name: "conversation"}
	var singles []*side
	var warm []*evalrunSide
	for i, exe := range bins {
		who := []string{"evalrun", "compare"}[i]
		db := filepath.Join(root, fmt.Sprintf("conversation-%d", i))
		turns := &evalrunSide{exe: exe, suite: conv, j: o.workerJ, cases: max(1, o.cases/conversationTurns), base: db + "-turns.sqlite3", tag: "turns"}
		one := &evalrunSide{exe: exe, suite: single2, j: o.workerJ, cases: o.cases, base: db + "-single.sqlite3", tag: "single"}
		s := &side{label: fmt.Sprintf("%s: %d single questions", who, o.cases), run: one.round}
		c.sides = append(c.sides, &side{label: fmt.Sprintf("%s: %d turns (conversations of %d)", who, max(1, o.cases/conversationTurns)*conversationTurns, conversationTurns), run: turns.round, base: s})
		singles = append(singles, s)
		warm = append(warm, turns, one)
	}
	c.sides = append(c.sides, singles...)
	c.warmUp = func() error {
		for _, w := range warm {
			if err := w.prepare(o.history); err != nil {
				return err
			}
		}
		return nil
	}
	return c, nil
}

// writeConversationSuite writes dir/conversation.json: n conversations of
// conversationTurns turns, each scored by exact_match on the last reply.
func writeConversationSuite(dir string, agent map[string]any, n int) (string, error) {
	qs := make([]map[string]any, n)
	for i := range qs {
		turns := make([]string, conversationTurns)
		for t := range turns {
			turns[t] = fmt.Sprintf("Message %d of conversation %d?", t+1, i)
		}
		qs[i] = map[string]any{"id": fmt.Sprintf("c%d", i), "turns": turns, "expected_answer": "ok"}
	}
	b, err := json.Marshal(map[string]any{"suite": "Overhead conversation", "version": "1", "agent": agent,
		"evaluators": map[string]any{"exact": map[string]any{"type": "exact_match"}}, "questions": qs})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "conversation.json")
	return path, os.WriteFile(path, b, 0o644)
}
