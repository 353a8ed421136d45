// Package apireplay is the Go half of the strict API replay example: the
// same shipping agent as agent.py, written as a Go function agent. Go
// agents make their requests with agent.HTTPClient(ctx), which replays the
// question's api_interactions in process (no proxy, no CA).
package apireplay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/score"
)

// API is the shipping API the agent calls; it never exists: replay answers.
const API = "https://shipping.example"

var _ agent.Agent = Agent("reference")

// Agent returns the shipping agent. Revision "regressed" looks orders up
// with an off-by-one id and asks for express labels; it rescues the errors
// replay returns and still answers, and replay still fails the case.
func Agent(revision string) agent.Func {
	regressed := revision == "regressed"
	return func(ctx context.Context, q agent.Question) (agent.Response, error) {
		text, ok := q.Text()
		if !ok {
			return agent.Response{}, fmt.Errorf("shipping agent: want a text question, got %s", text)
		}
		m := regexp.MustCompile(`\d+`).FindString(text)
		order, err := strconv.Atoi(m)
		if err != nil {
			return agent.Response{}, fmt.Errorf("shipping agent: no order number in %q", text)
		}
		t := &tools{client: agent.HTTPClient(ctx), actions: []score.Action{}}
		out := t.answer(ctx, text, order, regressed)
		b, err := json.Marshal(out)
		if err != nil {
			return agent.Response{}, err
		}
		return agent.Response{Output: b, Actions: t.actions, Metadata: map[string]any{"revision": revision}}, nil
	}
}

// tools are the agent's API calls, recorded as observed actions.
type tools struct {
	client  *http.Client
	actions []score.Action
}

func (t *tools) answer(ctx context.Context, question string, order int, regressed bool) string {
	asked := order
	if regressed {
		asked++
	}
	var found struct{ Status string }
	if err := t.call(ctx, "get_order", http.MethodGet, fmt.Sprintf("/orders?id=%d", asked), map[string]any{"id": asked}, nil, &found); err != nil {
		return "The shipping service is unavailable (" + err.Error() + ")."
	}
	if !strings.Contains(strings.ToLower(question), "label") {
		return fmt.Sprintf("Order %d is %s.", order, found.Status)
	}
	args := map[string]any{"order": order, "express": regressed}
	var label struct{ Label, Carrier string }
	if err := t.call(ctx, "create_label", http.MethodPost, "/labels", args, args, &label); err != nil {
		return "The shipping service is unavailable (" + err.Error() + ")."
	}
	return fmt.Sprintf("Label %s created for order %d (%s).", label.Label, order, label.Carrier)
}

// call records the action, sends the request and decodes the JSON reply.
func (t *tools) call(ctx context.Context, name, method, path string, args, body, out any) error {
	a, err := json.Marshal(args)
	if err != nil {
		return err
	}
	t.actions = append(t.actions, score.Action{Group: "shipping", Name: name, Arguments: a})
	var rd io.Reader // a nil *bytes.Reader would not be a nil io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, API+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Region", "eu")
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return errors.New(resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
