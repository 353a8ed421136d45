// Package gotest is the agent of the "Evaluations in go test" example: a
// deterministic, offline support agent written as a Go function, evaluated
// by its own _test.go with the evaltest package.
//
// It answers from a fixed policy table and looks orders up in an orders
// API through agent.HTTPClient(ctx), which the suite's api_interactions
// replay strictly (the API does not exist).
//
// Revisions, chosen by the AGENT_REVISION environment variable in the
// tests (Agent takes it as a parameter):
//
//   - reference (default): every answer right.
//   - regressed: the warranty answer says 7 years instead of 2, and order
//     lookups ask for the wrong order (replay refuses the request).
//   - drifted: every answer right, but every lookup is made twice. The
//     lookup check (action_group, threshold 0.5: one redundant call is
//     tolerated) scores 0.5 instead of 1 and still passes: only the
//     regression gate (evaltest.FailOnRegression) catches the drift, as a
//     significant drop of the lookup metric over the five questions that
//     look something up (exact sign-flip test, p = 1/32 < 0.05).
package gotest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/score"
)

// OrdersAPI is the orders API the agent calls; replay answers for it.
const OrdersAPI = "https://orders.example"

// Policies are the texts the agent answers from, by topic.
var Policies = map[string]string{
	"returns":  "You can return it within 30 days.",
	"shipping": "Standard shipping takes 3 to 5 business days.",
	"warranty": "Electronics carry a 2-year warranty.",
	"payment":  "We accept credit cards and PayPal.",
}

var _ agent.Agent = Agent("reference")

// Agent returns the agent at a revision ("reference", "regressed" or
// "drifted"; anything else is the reference).
func Agent(revision string) agent.Func {
	return func(ctx context.Context, q agent.Question) (agent.Response, error) {
		text, ok := q.Text()
		if !ok {
			return agent.Response{}, fmt.Errorf("support agent: want a text question, got %s", text)
		}
		answer, action, err := respond(ctx, text, revision)
		if err != nil {
			return agent.Response{}, err
		}
		out, err := json.Marshal(answer)
		if err != nil {
			return agent.Response{}, err
		}
		actions := []score.Action{action}
		if revision == "drifted" {
			actions = append(actions, action) // the drift: a redundant second lookup
		}
		return agent.Response{Output: out, Actions: actions, Metadata: map[string]any{"revision": revision}}, nil
	}
}

// topics route a question to a policy by its words.
var topics = []struct{ word, topic string }{
	{"return", "returns"}, {"shipping", "shipping"}, {"warranty", "warranty"}, {"pay", "payment"},
}

var orderNumber = regexp.MustCompile(`order (\d+)`)

// respond answers one question and says which tool it used.
func respond(ctx context.Context, question, revision string) (string, score.Action, error) {
	if m := orderNumber.FindStringSubmatch(strings.ToLower(question)); m != nil {
		id, _ := strconv.Atoi(m[1])
		return lookUpOrder(ctx, id, revision)
	}
	lower := strings.ToLower(question)
	for _, t := range topics {
		if strings.Contains(lower, t.word) {
			args, _ := json.Marshal(map[string]string{"topic": t.topic})
			answer := Policies[t.topic]
			if t.topic == "warranty" && revision == "regressed" {
				answer = "Electronics carry a 7-year warranty."
			}
			return answer, score.Action{Group: "policies", Name: "lookup_policy", Arguments: args}, nil
		}
	}
	return "", score.Action{}, fmt.Errorf("support agent: no policy for %q", question)
}

// lookUpOrder asks the orders API for the order's status.
func lookUpOrder(ctx context.Context, id int, revision string) (string, score.Action, error) {
	asked := id
	if revision == "regressed" {
		asked++ // the bug under test: an off-by-one order id
	}
	args, _ := json.Marshal(map[string]int{"id": asked})
	action := score.Action{Group: "orders", Name: "get_order", Arguments: args}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/orders/%d", OrdersAPI, asked), nil)
	if err != nil {
		return "", action, err
	}
	resp, err := agent.HTTPClient(ctx).Do(req)
	if err != nil {
		return "", action, fmt.Errorf("support agent: orders API: %w", err)
	}
	defer resp.Body.Close()
	var order struct{ Status string }
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&order) != nil {
		return fmt.Sprintf("Sorry, I could not find order %d.", id), action, nil
	}
	return fmt.Sprintf("Order %d is %s.", id, order.Status), action, nil
}
