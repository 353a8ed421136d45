package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
)

// orderNumber finds the order a question asks about.
var orderNumber = regexp.MustCompile(`order (\d{1,9})`)

// reply is the command agent's answer (evalrun's agent protocol): the
// output and the tool call it made, with its outcome.
type reply struct {
	Output  string   `json:"output"`
	Actions []action `json:"actions"`
}

type action struct {
	Name      string         `json:"name"`
	Arguments map[string]int `json:"arguments"`
	Status    string         `json:"status"`
}

// answerOne is the agent as evalrun run calls it: one question as JSON on
// in, one reply on out, decided as in production.
func answerOne(in io.Reader, out io.Writer, name string) error {
	rev, ok := revisions[name]
	if !ok {
		return fmt.Errorf("revision %q: want reference or regressed", name)
	}
	line, err := bufio.NewReader(io.LimitReader(in, 1<<20)).ReadBytes('\n')
	if err != nil && err != io.EOF {
		return err
	}
	var q struct {
		Question string `json:"question"`
	}
	if err := json.Unmarshal(line, &q); err != nil {
		return fmt.Errorf("question: %w", err)
	}
	r := reply{Output: "Which order do you mean? Please give its number.", Actions: []action{}}
	if m := orderNumber.FindStringSubmatch(q.Question); m != nil {
		order, _ := strconv.Atoi(m[1])
		d := rev.decide(order)
		r.Output = d.reply
		if d.called {
			status := "ok"
			if d.failed {
				status = "error"
			}
			r.Actions = append(r.Actions, action{Name: "lookup_order", Arguments: map[string]int{"order": order}, Status: status})
		}
	}
	return json.NewEncoder(out).Encode(r)
}

// revisionFromEnv is the revision evalrun's suite passes through
// agent.env, else the flag's.
func revisionFromEnv(flagValue string) string {
	if v := os.Getenv("SHOP_REVISION"); v != "" {
		return v
	}
	return flagValue
}
