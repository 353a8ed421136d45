package adapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/money"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// responseKeys are the keys of a Response JSON object, actionKeys those of
// one of its actions: anything else is refused (see unknownKeys).
var (
	responseKeys = []string{"output", "actions", "input_tokens", "output_tokens", "cost", "metadata"}
	actionKeys   = []string{"group", "name", "arguments", "status", "result", "duration_ms"}
)

// errNotObject is parseReply's error for a reply that is not a JSON object
// when plain text is not allowed (worker agents).
var errNotObject = errors.New("not a JSON object")

// ParseReply reads an agent's reply: a Response JSON object when its first
// non-space byte is "{", otherwise (when plainOK) plain text, which becomes
// the output string with actions nil. Without plainOK, text is an error
// wrapping errNotObject.
func ParseReply(b []byte, plainOK bool) (agent.Response, error) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] != '{' {
		if !plainOK {
			return agent.Response{}, fmt.Errorf("got text %s (%w: write logs and banners to stderr)", quoteReply(t), errNotObject)
		}
		if !utf8.Valid(t) {
			return agent.Response{}, errors.New("want UTF-8 text or a Response JSON object")
		}
		out, err := json.Marshal(string(t))
		if err != nil {
			return agent.Response{}, err
		}
		return agent.Response{Output: out}, nil
	}
	if err := bounds.Defaults().CheckJSON(t); err != nil {
		return agent.Response{}, fmt.Errorf("want a Response JSON object within bounds: %w", err)
	}
	if err := unknownKeys(t); err != nil {
		return agent.Response{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.DisallowUnknownFields() // unknownKeys has named them; this keeps the guarantee
	dec.UseNumber()             // metadata numbers keep every digit (a 20-digit id stays itself)
	var r agent.Response
	if err := dec.Decode(&r); err != nil {
		return agent.Response{}, fmt.Errorf("want a Response JSON object {output, actions, input_tokens, output_tokens, cost, metadata}: %w", err)
	}
	var top struct {
		Cost json.RawMessage `json:"cost"`
	}
	if r.Cost != nil && json.Unmarshal(t, &top) == nil { // a third decode of the reply, only for a cost
		if d, err := money.ParseDecimal(string(top.Cost)); err == nil {
			r.CostText = d // the cost's digits as written, not its float64
		}
	}
	if dec.More() {
		return agent.Response{}, errors.New("want one Response JSON object, found more after it")
	}
	if err := CheckResponse(&r); err != nil {
		return agent.Response{}, err
	}
	return r, nil
}

// unknownKeys refuses keys a Response or an action does not have, naming
// the allowed ones: an agent in another language that adds, say, a
// trace_id must move it under "metadata", which is kept as evidence,
// rather than see it silently dropped. Keys match exactly (case included).
// Malformed JSON is left to the decoder's error.
func unknownKeys(t []byte) error {
	var top map[string]json.RawMessage
	if json.Unmarshal(t, &top) != nil {
		return nil
	}
	if bad := notIn(top, responseKeys); bad != "" {
		return fmt.Errorf("%s in the Response: its keys are output, actions, input_tokens, output_tokens, cost and metadata; put anything else under \"metadata\"", bad)
	}
	var actions []map[string]json.RawMessage
	if json.Unmarshal(top["actions"], &actions) != nil {
		return nil
	}
	for i, a := range actions {
		if bad := notIn(a, actionKeys); bad != "" {
			return fmt.Errorf("actions[%d]: %s: an action's keys are group, name, arguments, status, result and duration_ms; put anything else under the Response's \"metadata\"", i, bad)
		}
	}
	return nil
}

// notIn names the keys of obj missing from allowed, quoted and sorted:
// `unknown key "a"`, `unknown keys "a", "b"`; "" when there is none.
func notIn(obj map[string]json.RawMessage, allowed []string) string {
	var bad []string
	for k := range obj {
		if !slices.Contains(allowed, k) {
			bad = append(bad, strconv.Quote(k))
		}
	}
	switch len(bad) {
	case 0:
		return ""
	case 1:
		return "unknown key " + bad[0]
	}
	slices.Sort(bad)
	return "unknown keys " + strings.Join(bad, ", ")
}

// quoteReply quotes the start of an untrusted reply for an error message.
func quoteReply(t []byte) string {
	const n = 80
	s := string(bytes.ToValidUTF8(t, []byte("\uFFFD")))
	if utf8.RuneCountInString(s) <= n {
		return strconv.Quote(s)
	}
	return strconv.Quote(string([]rune(s)[:n])) + "…"
}

// replyRepaired is the response-metadata note of a repaired reply.
const replyRepaired = "reply_repaired"

// repairResponse replaces NUL characters, invalid UTF-8 and lone
// surrogate escapes in the answer and the action arguments with U+FFFD
// (PostgreSQL jsonb refuses them) and notes it in the metadata.
func repairResponse(r *agent.Response) {
	fixed := false
	if out, ok := sanitize.RepairJSON(r.Output); ok {
		r.Output, fixed = out, true
	}
	for i := range r.Actions {
		if args, ok := sanitize.RepairJSON(r.Actions[i].Arguments); ok {
			r.Actions[i].Arguments, fixed = args, true
		}
		if res, ok := sanitize.RepairJSON(r.Actions[i].Result); ok {
			r.Actions[i].Result, fixed = res, true
		}
	}
	if fixed {
		r.Metadata = maps.Clone(r.Metadata)
		if r.Metadata == nil {
			r.Metadata = map[string]any{}
		}
		r.Metadata[replyRepaired] = "NUL characters, invalid UTF-8 or lone UTF-16 surrogates in the answer were replaced with U+FFFD"
	}
}

// CheckResponse repairs what can be repaired (repairResponse) and rejects
// replies that cannot be evidence.
func CheckResponse(r *agent.Response) error {
	repairResponse(r)
	var list []suite.Problem
	p := suite.Problems{File: "response", List: &list}
	if r.Output != nil && !p.Portable(r.Output) {
		return fmt.Errorf("output: %s", list[0].Message)
	}
	for i, a := range r.Actions {
		if a.Name == "" {
			return fmt.Errorf("actions[%d]: want a name", i)
		}
		if a.Arguments != nil && !p.Portable(a.Arguments) {
			return fmt.Errorf("actions[%d].arguments: %s", i, list[0].Message)
		}
		if a.Result != nil && !p.Portable(a.Result) {
			return fmt.Errorf("actions[%d].result: %s", i, list[0].Message)
		}
		if a.Status != "" && a.Status != score.StatusOK && a.Status != score.StatusError {
			return fmt.Errorf("actions[%d].status: want %q or %q, got %s", i, score.StatusOK, score.StatusError, quoteReply([]byte(a.Status)))
		}
		if d := a.DurationMS; d != nil && (*d < 0 || math.IsNaN(*d) || math.IsInf(*d, 0)) {
			return fmt.Errorf("actions[%d].duration_ms: want a finite, non-negative number of milliseconds", i)
		}
	}
	for _, n := range []*int64{r.InputTokens, r.OutputTokens} {
		if n != nil && (*n < 0 || *n > math.MaxInt32) { // the columns are 32-bit integers
			return fmt.Errorf("want token counts in [0, %d], got %d", math.MaxInt32, *n)
		}
	}
	if r.Cost != nil && (*r.Cost < 0 || math.IsNaN(*r.Cost) || math.IsInf(*r.Cost, 0)) {
		return errors.New("want a finite, non-negative cost")
	}
	return nil
}
