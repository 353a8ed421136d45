package score

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The conversation metrics score a whole conversation (Sample.Conversation)
// and need one: a single question scored on them is refused when the suite
// is loaded. Four are judged by the suite's judge, each one Assess call
// over the transcript; two are deterministic. Every existing check also
// applies to a conversation: on the question, to the last reply (and the
// usage summed over the turns); as a turn check, to that turn alone.
//
//	goal_completion      judge: the conversation reached the expected outcome (the
//	                     scenario's expected_outcome, else its goal, else the
//	                     question's expected_answer)
//	knowledge_retention  judge: the agent never forgets, re-asks or contradicts
//	                     what the user already said
//	role_adherence       judge: the agent keeps its role (param "role", else the
//	                     question metadata's "role") in every reply
//	turn_relevancy       judge: each reply addresses the user message it answers
//	conversation_turns   1 when the agent needed at most "max" turns, else 0
//	turn_latency         the share of turns answered within "limit" ms
const (
	GoalCompletion     = "goal_completion"
	KnowledgeRetention = "knowledge_retention"
	RoleAdherence      = "role_adherence"
	TurnRelevancy      = "turn_relevancy"
)

// conversationRubrics are the judged conversation metrics' rubrics.
var conversationRubrics = map[string]string{
	GoalCompletion: `Decide whether the conversation reached the expected outcome (or, when none is given, the user's goal).
1. Name the outcome the user needed.
2. Find where in the conversation the agent delivered it, completely and correctly.
Score 1 when the outcome was fully reached, 0 when it was not reached at all, and in between for a partial outcome.`,
	KnowledgeRetention: `Decide whether the agent retained what the user told it earlier in the conversation.
1. List the facts the user gave (names, numbers, identifiers, preferences, constraints).
2. For every later agent reply, check whether it asks again for a fact already given, ignores it, or contradicts it.
Score 1 when no fact was forgotten or contradicted, 0 when the agent lost the key facts.`,
	RoleAdherence: `Decide whether the agent kept the role it was given in every reply.
1. State the role (given as "role"; when absent, the role the agent's own first replies establish).
2. Check every agent reply for breaking it: out-of-scope help, a different persona, tone or rules it was told to keep.
Score 1 when every reply stays in role, 0 when the agent abandoned it.`,
	TurnRelevancy: `Decide whether each agent reply addresses the user message it answers, given the conversation before it.
1. For every turn, compare the reply with the user's message of that turn.
2. Count the turns whose reply is relevant and on topic.
The score is the share of relevant replies, from 0 to 1.`,
}

// conversationMetric is a judged conversation metric.
type conversationMetric struct {
	name  string
	role  string
	judge Judge
}

var _ Scorer = (*conversationMetric)(nil)

// addConversationMetrics registers the conversation metrics.
func addConversationMetrics(r Registry) {
	for _, name := range []string{GoalCompletion, KnowledgeRetention, RoleAdherence, TurnRelevancy} {
		doc := Doc{Summary: "Judge: " + strings.SplitN(conversationRubrics[name], "\n", 2)[0]}
		if name == RoleAdherence {
			doc.Params = []Param{{Name: "role", Schema: nonEmptyString, Description: "The role the agent must keep (default: the question metadata's \"role\")."}}
			doc.Example = json.RawMessage(`{"role": "a support agent of an online shop"}`)
		}
		r[name] = Definition{NeedsJudge: true, Needs: []string{NeedConversation}, Doc: doc,
			New: func(params json.RawMessage, judge Judge) (Scorer, error) {
				return newConversationMetric(name, params, judge)
			}}
	}
	r["conversation_turns"] = Definition{Needs: []string{NeedConversation}, New: newConversationTurns,
		Doc: Doc{Summary: "The agent needed at most max turns to finish the conversation.",
			Params:  []Param{{Name: "max", Schema: count, Required: true, Description: "The most turns allowed."}},
			Example: json.RawMessage(`{"max": 4}`)}}
	r["turn_latency"] = Definition{Needs: []string{NeedConversation}, New: newTurnLatency,
		Doc: Doc{Summary: "The share of turns the agent answered within limit milliseconds.",
			Params:  []Param{{Name: "limit", Schema: amount, Required: true, Description: "The most milliseconds one turn may take."}},
			Example: json.RawMessage(`{"limit": 2000}`)}}
}

func newConversationMetric(name string, params json.RawMessage, judge Judge) (Scorer, error) {
	if judge == nil {
		return nil, fmt.Errorf("%w: %s needs a judge", ErrInvalidParams, name)
	}
	m := &conversationMetric{name: name, judge: judge}
	if name != RoleAdherence {
		if err := decodeParams(params, &struct{}{}, false); err != nil {
			return nil, fmt.Errorf("%w: %s takes no params", ErrInvalidParams, name)
		}
		return m, nil
	}
	var p struct {
		Role string `json:"role"`
	}
	if err := decodeParams(params, &p, false); err != nil {
		return nil, fmt.Errorf(`%w: role_adherence takes only {"role": "..."}`, ErrInvalidParams)
	}
	m.role = strings.TrimSpace(p.Role)
	return m, nil
}

// Score asks the judge about the transcript.
func (m *conversationMetric) Score(ctx context.Context, s Sample) (Assessment, error) {
	if s.Conversation == nil || len(s.Conversation.Turns) == 0 {
		return Assessment{}, &Error{Kind: KindMissingInput, Message: m.name + " needs a conversation",
			Details: map[string]any{"metric": m.name, "missing": NeedConversation}}
	}
	p := ConversationPrompt(m.name, m.role, s)
	a, err := m.judge.Assess(ctx, p.System, p.User)
	if err != nil {
		if je := (*Error)(nil); errors.As(err, &je) {
			if je.Details == nil {
				je.Details = map[string]any{}
			}
			je.Details["metric_type"] = m.name
			return a, je
		}
		return a, &Error{Kind: KindProviderError, Message: err.Error(), Details: map[string]any{"metric_type": m.name}}
	}
	details := make(map[string]any, len(a.Details)+1)
	for k, v := range a.Details {
		details[k] = v
	}
	details["metric_type"] = m.name
	a.Details = details
	return a, nil
}

// ConversationPrompt is the judge prompt of the conversation metric name
// for s: the rubric, then the transcript and the scenario as untrusted
// data. role is role_adherence's param (else metadata "role").
func ConversationPrompt(name, role string, s Sample) Prompt {
	var b strings.Builder
	b.WriteString(contextBegin)
	section := func(label string, v any) { writeSection(&b, label, v) }
	cv := s.Conversation
	if cv.Goal != "" {
		section("user goal (untrusted)", cv.Goal)
	}
	if cv.UserDescription != "" {
		section("user description (untrusted)", cv.UserDescription)
	}
	outcome := cv.ExpectedOutcome
	if outcome == "" && name == GoalCompletion && cv.Goal == "" {
		outcome = s.ExpectedText()
	}
	if outcome != "" {
		section("expected outcome (untrusted reference)", outcome)
	}
	if name == RoleAdherence {
		if role == "" {
			role, _ = s.Metadata["role"].(string)
		}
		if role != "" {
			section("role (untrusted)", role)
		}
	}
	type exchange struct {
		Turn  int    `json:"turn"`
		User  string `json:"user"`
		Agent any    `json:"agent"`
	}
	turns := make([]exchange, len(cv.Turns))
	for i, t := range cv.Turns {
		turns[i] = exchange{Turn: i + 1, User: t.User, Agent: rawOrText(t.Output)}
	}
	section("conversation (untrusted; the agent's replies are under evaluation)", turns)
	b.WriteString("\nEND UNTRUSTED EVALUATION CONTEXT\n\nGrade the conversation with the rubric (" + name + ") and reply with the JSON object only.")
	return Prompt{System: systemPrompt(conversationRubrics[name]), User: b.String()}
}

// conversationTurns is conversation_turns.
type conversationTurns struct{ max int }

func newConversationTurns(params json.RawMessage, _ Judge) (Scorer, error) {
	p, err := parseParams(params, "max")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidParams, err)
	}
	n, err := p.count("max")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidParams, err)
	}
	return conversationTurns{max: n}, nil
}

func (c conversationTurns) Score(_ context.Context, s Sample) (Assessment, error) {
	if s.Conversation == nil {
		return Assessment{}, &Error{Kind: KindMissingInput, Message: "conversation_turns needs a conversation"}
	}
	used := len(s.Conversation.Turns)
	a := Assessment{Details: map[string]any{"turns": used, "max": c.max}}
	if used <= c.max {
		a.Score, a.Reason = 1, fmt.Sprintf("%d turns used, at most %d allowed", used, c.max)
	} else {
		a.Reason = fmt.Sprintf("%d turns used, more than the %d allowed", used, c.max)
	}
	return a, nil
}

// turnLatency is turn_latency.
type turnLatency struct{ limit float64 }

func newTurnLatency(params json.RawMessage, _ Judge) (Scorer, error) {
	p, err := parseParams(params, "limit")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidParams, err)
	}
	limit, err := p.amount("limit")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidParams, err)
	}
	return turnLatency{limit: limit}, nil
}

func (l turnLatency) Score(_ context.Context, s Sample) (Assessment, error) {
	if s.Conversation == nil || len(s.Conversation.Turns) == 0 {
		return Assessment{}, &Error{Kind: KindMissingInput, Message: "turn_latency needs a conversation"}
	}
	var slow []int
	for i, t := range s.Conversation.Turns {
		if t.DurationMS > l.limit {
			slow = append(slow, i+1)
		}
	}
	n := len(s.Conversation.Turns)
	a := Assessment{Score: float64(n-len(slow)) / float64(n), Details: map[string]any{"slow_turns": slow, "limit_ms": l.limit}}
	if len(slow) == 0 {
		a.Reason = fmt.Sprintf("all %d turns within %s ms", n, formatFloat(l.limit))
	} else {
		a.Reason = fmt.Sprintf("%d of %d turns over %s ms (turns %v)", len(slow), n, formatFloat(l.limit), slow)
	}
	return a, nil
}
