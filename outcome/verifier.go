package outcome

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/agentevals-go/agentevals/score"
)

// verifier is a bound verifier check.
type verifier struct {
	p    score.VerifierParams
	prog Exchanger
}

var _ score.Scorer = (*verifier)(nil)

func (rt *Runtime) newVerifier(params json.RawMessage) (score.Scorer, error) {
	p, timeout, err := score.ParseVerifier(params)
	if err != nil {
		return nil, err
	}
	prog, err := rt.program(ProgramSpec{Command: p.Command, Env: p.Env, Dir: rt.suite.Dir, Timeout: timeout, Worker: p.Worker})
	if err != nil {
		return nil, err
	}
	return &verifier{p: p, prog: prog}, nil
}

// Input is the document a verifier reads: one JSON object on stdin (on
// one line, for a worker).
type Input struct {
	Check           string          `json:"check"`
	RunID           string          `json:"run_id"`
	CaseID          string          `json:"case_id"`
	Name            string          `json:"name,omitempty"`
	Question        json.RawMessage `json:"question"`
	ExpectedAnswer  json.RawMessage `json:"expected_answer"`
	ExpectedActions []score.Action  `json:"expected_actions"`
	Metadata        map[string]any  `json:"metadata"`
	Output          json.RawMessage `json:"output"`
	Actions         []score.Action  `json:"actions"`
	// Transcript is every turn of a conversation (absent for one question).
	Transcript []Turn `json:"transcript,omitempty"`
}

// Turn is one turn of a conversation in an Input.
type Turn struct {
	User    string          `json:"user"`
	Output  json.RawMessage `json:"output"`
	Actions []score.Action  `json:"actions"`
}

// Reply is a verifier's verdict: a score in [0,1], or passed alone (1 or
// 0), and a reason.
type Reply struct {
	Score  *float64 `json:"score,omitempty"`
	Passed *bool    `json:"passed,omitempty"`
	Reason string   `json:"reason"`
}

// InputOf is the verifier's document for the sample.
func InputOf(s score.Sample) Input {
	in := Input{Check: s.Metric, RunID: s.RunID, CaseID: s.CaseID, Name: s.Name, Question: s.Question,
		ExpectedAnswer: s.ExpectedAnswer, ExpectedActions: s.ExpectedActions, Metadata: s.Metadata,
		Output: s.Output, Actions: s.Actions}
	if in.Metadata == nil {
		in.Metadata = map[string]any{}
	}
	if s.Conversation != nil {
		for _, t := range s.Conversation.Turns {
			in.Transcript = append(in.Transcript, Turn{User: t.User, Output: t.Output, Actions: t.Actions})
		}
	}
	return in
}

// Score sends the case to the program and reads its verdict. A crash, a
// timeout, a flood or a reply that is not a verdict is an error, never a
// pass.
func (v *verifier) Score(ctx context.Context, s score.Sample) (score.Assessment, error) {
	in, err := json.Marshal(InputOf(s))
	if err != nil {
		return score.Assessment{}, &score.Error{Kind: "verifier_input", Message: err.Error()}
	}
	details := map[string]any{"check_type": score.Verifier, "program": v.p.Command}
	out, err := v.prog.Exchange(ctx, in)
	if err != nil {
		var ae *ProgramError
		if errors.As(err, &ae) {
			for k, val := range ae.Details {
				details[k] = val
			}
			return score.Assessment{}, &score.Error{Kind: "verifier_" + ae.Kind,
				Message: fmt.Sprintf("verifier %s: %s", strings.Join(v.p.Command, " "), ae.Message), Details: details}
		}
		return score.Assessment{}, &score.Error{Kind: "verifier_failed", Message: err.Error(), Details: details}
	}
	r, err := ParseReply(out)
	if err != nil {
		details["stdout"] = excerpt(out)
		return score.Assessment{}, &score.Error{Kind: "verifier_bad_reply",
			Message: fmt.Sprintf("verifier %s: %v", strings.Join(v.p.Command, " "), err), Details: details}
	}
	details["verdict"] = r
	a := score.Assessment{Reason: fmt.Sprintf("%s (verifier %s)", r.Reason, strings.Join(v.p.Command, " ")), Details: details}
	switch {
	case r.Score != nil:
		a.Score = *r.Score
	case *r.Passed:
		a.Score = 1
	}
	if r.Passed != nil {
		details["passed"] = *r.Passed
	}
	return a, nil
}

// ParseReply reads a verdict: one JSON object with "score" (a number in
// [0,1]) or "passed" (a boolean) and a non-empty "reason".
func ParseReply(b []byte) (Reply, error) {
	var r Reply
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return r, errors.New(`printed nothing: want one JSON object such as {"score": 1, "reason": "the refund row exists"} on stdout`)
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.DisallowUnknownFields()
	if t[0] != '{' || dec.Decode(&r) != nil || dec.More() {
		return r, fmt.Errorf(`want one JSON object {"score", "passed", "reason"} on stdout (logs go to stderr), got %q`, excerpt(t))
	}
	switch {
	case r.Score == nil && r.Passed == nil:
		return r, errors.New(`the reply has neither "score" (a number in [0,1]) nor "passed" (true or false)`)
	case r.Score != nil && (math.IsNaN(*r.Score) || *r.Score < 0 || *r.Score > 1):
		return r, fmt.Errorf(`"score" %v is not in [0,1]`, *r.Score)
	case strings.TrimSpace(r.Reason) == "":
		return r, errors.New(`the reply has no "reason": say why, it is the evidence`)
	}
	return r, nil
}

// excerpt is the start of an untrusted reply kept as evidence.
func excerpt(b []byte) string {
	const n = 512
	if len(b) > n {
		b = b[:n]
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}
