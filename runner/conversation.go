package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// A conversation (suite/conversation.go) is one case: the agent is asked
// once per user turn with the history so far (agent/history.go), each
// call under the case timeout, and the case row is one ordinary row whose
// output is the last reply (models.Transcript says what else it holds).
// The question's metrics score the whole conversation; a turn check scores
// its turn. An agent error at any turn ends the conversation and makes
// the case an agent error naming the turn; so does a simulated user or
// goal judge that fails: an error, never a pass.

// conversationRun is one conversation in progress, then its record.
type conversationRun struct {
	c     *suite.Case
	tr    models.Transcript
	turns []score.Turn
	// last is the last reply (its metadata becomes the case's).
	last agent.Response
	// simUsage accounts the simulator's and goal judge's calls.
	simUsage models.UsageRecorder
	// size is the conversation's text so far and budgetNotes what the
	// budget cut (runner/conversation_budget.go).
	size        int
	budgetNotes []string
	// spanActions says the last turn's actions were read from its spans;
	// anySpanActions says some turn's were.
	spanActions, anySpanActions bool
}

// newSessionID is a fresh random conversation id in the form of a
// version 4 UUID (a form the sanitizer does not take for a credential).
func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// converse runs conversation case c into rec.
func (e *executor) converse(ctx context.Context, c *suite.Case, rec *models.CaseResult) {
	cv := &conversationRun{c: c, tr: models.Transcript{Kind: "scripted", ConversationID: newSessionID()}}
	if sc := c.Conversation.Scenario; sc != nil {
		cv.tr.Kind, cv.tr.MaxTurns = "simulated", sc.MaxTurns
	}
	var after afterCall
	if e.hook != nil {
		var err error
		if ctx, after, err = e.hook(ctx, c); err != nil {
			e.conversationFailed(c, rec, cv, nil, &adapter.Error{Kind: "setup", Message: err.Error()}, false)
			return
		}
	}
	start := time.Now()
	err := e.talk(ctx, cv)
	rec.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	resp := cv.combined()
	var ev *models.APIReplay
	if after != nil {
		resp, ev, err = after(resp, err)
	}
	e.calls.agent(err)
	if err != nil {
		e.conversationFailed(c, rec, cv, ev, err, len(cv.turns) > 0)
		return
	}
	e.record(ctx, c, rec, resp, ev, cv, nil)
	rec.Cost = cv.cost()
	e.calls.judged(rec, e.judgeMetrics)
}

// talk asks the agent turn after turn until the conversation ends; the
// error is the agent's, the simulator's or the goal judge's.
func (e *executor) talk(ctx context.Context, cv *conversationRun) error {
	var history []agent.Message
	sim := newSimulation(e, cv)
	for turn := 0; ; turn++ {
		user, stop, err := sim.next(ctx, turn, history)
		if err != nil {
			cv.tr.StopReason = models.StopSimulatorError
			cv.failAt(turn + 1)
			return err
		}
		if stop != "" {
			cv.tr.StopReason = stop
			return nil
		}
		history = append(history, agent.Message{Role: agent.RoleUser, Content: user})
		sent, cutSent := boundedHistory(history)
		if cutSent {
			cv.note(fmt.Sprintf("the history sent to the agent was cut to %d bytes from turn %d on", MaxSentBytes, turn+1))
		}
		q := agent.Question{ID: cv.c.ID, Name: cv.c.Name, Question: jsonString(sent[len(sent)-1].Content),
			Conversation: agent.Conversation{SessionID: cv.tr.ConversationID, Turn: turn + 1, Messages: sent}}
		resp, dur, ev, err := e.askScoped(ctx, cv, turn, q)
		cv.add(user, resp, dur, err)
		cv.tr.Turns[len(cv.tr.Turns)-1].APIReplay = ev
		if err == nil {
			if err = cv.grow(turn+1, user, resp.Output); err != nil {
				cv.tr.StopReason = models.StopSizeCap
				cv.failAt(turn + 1)
				return err
			}
		}
		if err != nil {
			cv.tr.StopReason = models.StopAgentError
			cv.failAt(turn + 1)
			return &adapter.Error{Kind: agentErrorKind(err), Message: fmt.Sprintf("turn %d: %v", turn+1, agentErrorMessage(err)),
				Details: map[string]any{"turn": turn + 1}}
		}
		history = append(history, agent.Message{Role: agent.RoleAssistant, Content: score.Turn{Output: resp.Output}.OutputText()})
		if reached, err := sim.reached(ctx, cv); err != nil {
			cv.tr.StopReason = models.StopSimulatorError
			cv.failAt(turn + 1)
			return err
		} else if reached {
			cv.tr.StopReason = models.StopGoalReached
			return nil
		}
	}
}

// askScoped is askTurn inside the turn's own replay session when the turn
// declares fixtures (not while recording: the conversation's session
// records every turn); ev is that session's evidence.
func (e *executor) askScoped(ctx context.Context, cv *conversationRun, turn int, q agent.Question) (agent.Response, time.Duration, *models.APIReplay, error) {
	turns := cv.c.Conversation.Turns
	if e.hook == nil || e.opts.Record != nil || turn >= len(turns) || turns[turn].Replay == nil {
		resp, dur, err := e.askTurn(ctx, cv, q)
		return resp, dur, nil, err
	}
	scoped := *cv.c
	scoped.Replay = turns[turn].Replay
	tctx, after, err := e.hook(ctx, &scoped)
	if err != nil {
		return agent.Response{}, 0, nil, &adapter.Error{Kind: "setup", Message: err.Error()}
	}
	resp, dur, err := e.askTurn(tctx, cv, q)
	resp, ev, err := after(resp, err)
	return resp, dur, ev, err
}

// askTurn is one agent call of a conversation: the case timeout, the
// panic and deadline handling of call, and the reply's checks.
func (e *executor) askTurn(ctx context.Context, cv *conversationRun, q agent.Question) (agent.Response, time.Duration, error) {
	if e.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.opts.Timeout)
		defer cancel()
	}
	runCtx := ctx
	tc, ctx := e.beginTrace(ctx) // each turn its own trace (runner/trace.go)
	start := time.Now()
	resp, err := call(ctx, e.agent, q)
	dur := time.Since(start)
	tr := endTrace(runCtx, tc)
	if err == nil {
		if cerr := adapter.CheckResponse(&resp); cerr != nil {
			err = &adapter.Error{Kind: "bad_response", Message: cerr.Error()}
		}
	}
	cv.spanActions = false
	if err == nil {
		applyTrace(&resp, tr) // the turn's actions from its spans when it reported none
		cv.spanActions = tr != nil && tr.Record.ActionsFrom == "spans"
		cv.anySpanActions = cv.anySpanActions || cv.spanActions
	}
	if err != nil && ctx.Err() != nil && !isAgentError(err) {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = &adapter.Error{Kind: "timeout", Message: fmt.Sprintf("no answer within %s: %v", e.opts.Timeout, err)}
		} else {
			err = &adapter.Error{Kind: "interrupted", Message: err.Error()}
		}
	}
	return resp, dur, err
}

func agentErrorKind(err error) string {
	if ae := (*adapter.Error)(nil); errors.As(err, &ae) {
		return ae.Kind
	}
	return "agent_error"
}

func agentErrorMessage(err error) string {
	if ae := (*adapter.Error)(nil); errors.As(err, &ae) {
		return ae.Message
	}
	return err.Error()
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s) // a string always encodes
	return b
}

// add records one exchange (resp is zero when the agent failed).
func (cv *conversationRun) add(user string, resp agent.Response, dur time.Duration, err error) {
	n := len(cv.tr.Turns) + 1
	t := models.TranscriptTurn{Turn: n, User: user, DurationMS: float64(dur.Microseconds()) / 1000}
	if err != nil {
		t.Error = agentErrorJSON(err)
		cv.tr.Turns = append(cv.tr.Turns, t)
		return
	}
	t.Output = models.JSON(resp.Output)
	switch {
	case cv.spanActions:
		t.Actions = otlp.StoredActions(resp.Actions) // the gem's shape, as a single question's
	case resp.Actions != nil:
		t.Actions = models.MustJSON(resp.Actions)
	}
	t.InputTokens, t.OutputTokens, t.Cost = resp.InputTokens, resp.OutputTokens, resp.SavedCost()
	if resp.Metadata != nil {
		if j, merr := models.NewJSON(resp.Metadata); merr == nil {
			t.Metadata = j
		}
	}
	cv.tr.Turns = append(cv.tr.Turns, t)
	cv.turns = append(cv.turns, score.Turn{User: user, Output: resp.Output, Actions: resp.Actions,
		DurationMS: t.DurationMS, InputTokens: resp.InputTokens, OutputTokens: resp.OutputTokens, Cost: resp.Cost})
	cv.last = resp
}

// failAt marks turn (1-based) as the failing one unless an earlier is.
func (cv *conversationRun) failAt(turn int) {
	if cv.tr.FailingTurn == nil || turn < *cv.tr.FailingTurn {
		cv.tr.FailingTurn = &turn
	}
}

// combined is the conversation as one reply: the last output and
// metadata, every turn's actions (nil when no turn was instrumented) and
// the usage summed over the turns.
func (cv *conversationRun) combined() agent.Response {
	out := agent.Response{Output: cv.last.Output, Metadata: cv.last.Metadata}
	if out.Metadata == nil {
		out.Metadata = map[string]any{}
	}
	var cost float64
	costKnown := false
	for _, t := range cv.turns {
		if t.Actions != nil {
			if out.Actions == nil {
				out.Actions = []score.Action{}
			}
			out.Actions = append(out.Actions, t.Actions...)
		}
		out.InputTokens = models.AddTokens(out.InputTokens, t.InputTokens)
		out.OutputTokens = models.AddTokens(out.OutputTokens, t.OutputTokens)
		if t.Cost != nil {
			cost, costKnown = cost+*t.Cost, true
		}
	}
	if costKnown {
		out.Cost = &cost
	}
	return out
}

// cost is the case's cost column: the turns' exact costs summed.
func (cv *conversationRun) cost() *models.Decimal {
	var total *models.Decimal
	for _, t := range cv.tr.Turns {
		total = models.AddCost(total, t.Cost)
	}
	return total
}

// sample is the scorer input of metric name: its turn's exchange for a
// turn check, else the whole conversation (base: the last reply, the
// summed usage) with every turn.
func (cv *conversationRun) sample(name string, base score.Sample) score.Sample {
	if turn, ok := cv.c.Conversation.TurnOf(name); ok && turn < len(cv.turns) {
		t, def := cv.turns[turn], cv.c.Conversation.Turns[turn]
		base.Question, base.ExpectedAnswer = jsonString(t.User), def.Expected
		base.Output, base.Actions, base.DurationMS = t.Output, t.Actions, t.DurationMS
		base.InputTokens, base.OutputTokens, base.Cost = t.InputTokens, t.OutputTokens, t.Cost
		base.ResponseMetadata = DecodeObject(json.RawMessage(cv.tr.Turns[turn].Metadata))
		return base
	}
	base.Conversation = cv.scoreConversation()
	return base
}

// scoreConversation is what the conversation metrics read: the turns
// within MaxSentBytes, as a judge is sent them.
func (cv *conversationRun) scoreConversation() *score.Conversation {
	turns, cutSent := boundedTurns(cv.turns, MaxSentBytes)
	if cutSent {
		cv.note(fmt.Sprintf("the conversation a judge reads was cut to %d bytes", MaxSentBytes))
	}
	out := &score.Conversation{Turns: turns, StopReason: cv.tr.StopReason}
	if sc := cv.c.Conversation.Scenario; sc != nil {
		out.Goal, out.UserDescription, out.ExpectedOutcome = sc.Goal, sc.UserDescription, sc.ExpectedOutcome
	}
	return out
}

// noteCheck keeps a turn check's result beside its turn.
func (cv *conversationRun) noteCheck(mr *models.MetricResult) {
	turn, ok := cv.c.Conversation.TurnOf(mr.Name)
	if !ok || turn >= len(cv.tr.Turns) {
		return
	}
	tc := models.TurnCheck{Name: mr.Name, Threshold: mr.Threshold, Score: mr.Score, Passed: mr.Passed, Reason: mr.Reason, Errored: mr.Errored()}
	cv.tr.Turns[turn].Checks = append(cv.tr.Turns[turn].Checks, tc)
	if tc.Failed() {
		cv.failAt(turn + 1)
	}
}

// transcript is the finished record.
func (cv *conversationRun) transcript() *models.Transcript {
	tr := cv.tr
	if acc, ok := cv.simUsage.Account(); ok {
		tr.SimulatorUsage = &acc
	}
	tr.Turns = append([]models.TranscriptTurn(nil), cv.tr.Turns...)
	tr.BudgetNotes = slices.Clone(cv.budgetNotes)
	boundStored(&tr)
	return &tr
}

// conversationFailed records a conversation that broke off: an agent
// error (setup, agent, simulator or replay) with the transcript so far.
func (e *executor) conversationFailed(c *suite.Case, rec *models.CaseResult, cv *conversationRun, ev *models.APIReplay, err error, answered bool) {
	rec.Status = models.StatusError
	rec.ErrorDetails = agentErrorJSON(err)
	agentMeta := map[string]any{}
	if answered {
		agentMeta = storeReply(rec, cv.combined())
		rec.Cost = cv.cost()
	}
	setResponseMetadata(rec, agentMeta, models.CaseMetadata{APIReplay: ev, Transcript: cv.transcript()})
	for pos, m := range c.Metrics {
		rec.Metrics = append(rec.Metrics, notCalculated(pos, m, reasonAgentError))
	}
}
