package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

// Judge is the langchaingo-backed Judge: every Assess is a fresh
// two-message conversation whose reply must be a JSON object with a
// non-empty "reason" and a finite "score" in [0,1]. Anything else is a
// *Error, never a verdict. An Judge is safe for concurrent use.
type Judge struct {
	client *Client
	cache  *Cache // nil: no cache

	mu     sync.Mutex
	totals JudgeTotals
}

var _ score.Judge = (*Judge)(nil)

// JudgeTotals account for every judge call of a run, cache hits and failed
// calls included, exactly as the per-metric accounts the runner records
// (see models.CallAccount).
type JudgeTotals struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	models.CallAccount
}

// NewJudge validates the settings and builds the judge; cache may be nil.
// Errors wrap ErrInvalidSettings.
func NewJudge(s llm.Settings, o Options, cache *Cache) (*Judge, error) {
	c, err := NewClient(s, o)
	if err != nil {
		return nil, err
	}
	return &Judge{client: c, cache: cache, totals: JudgeTotals{Provider: s.Provider, Model: s.Model}}, nil
}

// Totals returns the usage of all judge calls so far.
func (j *Judge) Totals() JudgeTotals {
	j.mu.Lock()
	defer j.mu.Unlock()
	t := j.totals
	t.CallAccount = t.Clone()
	return t
}

// Cache returns the judge's cache, or nil.
func (j *Judge) Cache() *Cache { return j.cache }

// RunSummary is what a run's summary says about the judge:
//
//	judge        {provider, model}
//	judge_cache  {hits, misses} when the judge has a cache
//
// The judge's calls, errors, tokens and cost are in the summary's
// judge_usage account, which the runner sums from the per-metric accounts;
// they are not repeated here, so they cannot disagree.
func (j *Judge) RunSummary() map[string]any {
	t := j.Totals()
	out := map[string]any{"judge": map[string]any{"provider": t.Provider, "model": t.Model}}
	if c := j.Cache(); c != nil {
		st := c.Stats()
		out["judge_cache"] = map[string]any{"hits": st.Hits, "misses": st.Misses}
	}
	return out
}

// Assess asks the model for a verdict on one fresh conversation. Every
// call, failed or served from the cache, is accounted in Totals and in the
// UsageRecorder of ctx (models.WithUsageRecorder), if any.
func (j *Judge) Assess(ctx context.Context, system, user string) (score.Assessment, error) {
	s := j.client.Settings()
	judgeInfo := map[string]any{"provider": s.Provider, "model": s.Model}
	var key string
	if j.cache != nil {
		key = j.cache.Key(s, system, user)
		if a, ok := j.cache.get(key); ok {
			zero := 0.0
			j.account(ctx, models.CallAccount{Cached: 1, Cost: &zero})
			a.Usage = &score.Usage{Cost: &zero} // nothing was spent
			a.Details = map[string]any{"judge": judgeInfo, "judge_cache": "hit"}
			return a, nil
		}
	}
	reply, err := j.client.Generate(ctx, system, user, true)
	if err != nil {
		j.account(ctx, callAccount(s, j.client.prices, reply.Usage, len(reply.Attempts), true))
		var je *score.Error
		if errors.As(err, &je) && reply.Usage.InputTokens+reply.Usage.OutputTokens > 0 {
			je.Details["usage"] = reply.Usage
		}
		return score.Assessment{}, err
	}
	value, reason, perr := ParseVerdict(reply.Text)
	if perr != nil {
		j.account(ctx, callAccount(s, j.client.prices, reply.Usage, len(reply.Attempts), true))
		details := map[string]any{
			"provider": s.Provider, "model": s.Model,
			"problem":  perr.Error(),
			"reply":    score.RawReply(reply.Text),
			"attempts": reply.Attempts,
			"usage":    reply.Usage,
		}
		if reply.StopReason != "" {
			details["stop_reason"] = reply.StopReason
		}
		return score.Assessment{}, &score.Error{
			Kind:    score.KindInvalidReply,
			Message: fmt.Sprintf("%s %s: %v", s.Provider, s.Model, perr),
			Details: details,
		}
	}
	j.account(ctx, callAccount(s, j.client.prices, reply.Usage, len(reply.Attempts), false))
	usage := reply.Usage
	a := score.Assessment{Score: value, Reason: reason, Usage: &usage,
		Details: map[string]any{"judge": judgeInfo, "raw_reply": score.RawReply(reply.Text)}}
	if len(reply.Attempts) > 1 {
		a.Details["attempts"] = reply.Attempts
	}
	if j.cache != nil {
		a.Details["judge_cache"] = "miss"
		// A cache that cannot be written costs a later call, not this verdict.
		_ = j.cache.put(key, value, reason)
	}
	return a, nil
}

// account adds one call (or cache hit) to the totals and to ctx's recorder.
func (j *Judge) account(ctx context.Context, a models.CallAccount) {
	j.mu.Lock()
	j.totals.CallAccount = j.totals.Add(a)
	j.mu.Unlock()
	if r := models.UsageRecorderOf(ctx); r != nil {
		r.Add(a)
	}
}

// ParseVerdict reads a judge reply: one JSON object (optionally inside a
// single ```json fence) with a non-empty string "reason" and a JSON number
// "score" that is finite and in [0,1]. Other keys are ignored.
func ParseVerdict(text string) (score float64, reason string, err error) {
	body := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(body, "```"); ok {
		rest = strings.TrimPrefix(rest, "json")
		if inner, ok := strings.CutSuffix(strings.TrimSpace(rest), "```"); ok {
			body = strings.TrimSpace(inner)
		}
	}
	if body == "" {
		return 0, "", errors.New("empty reply")
	}
	if err := bounds.Defaults().CheckJSON([]byte(body)); err != nil {
		return 0, "", fmt.Errorf("reply is out of bounds: %w", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &fields); err != nil || fields == nil {
		return 0, "", fmt.Errorf("reply is not a JSON object: %s", clipReply(body, 200))
	}
	rawReason, ok := fields["reason"]
	if !ok {
		return 0, "", errors.New(`reply has no "reason"`)
	}
	if err := json.Unmarshal(rawReason, &reason); err != nil {
		return 0, "", errors.New(`"reason" is not a string`)
	}
	if strings.TrimSpace(reason) == "" {
		return 0, "", errors.New(`"reason" is empty`)
	}
	rawScore, ok := fields["score"]
	if !ok || string(rawScore) == "null" {
		return 0, "", errors.New(`reply has no "score"`)
	}
	if err := json.Unmarshal(rawScore, &score); err != nil {
		return 0, "", fmt.Errorf(`"score" is not a number: %s`, clipReply(string(rawScore), 100))
	}
	if math.IsNaN(score) || math.IsInf(score, 0) || score < 0 || score > 1 {
		return 0, "", fmt.Errorf(`"score" %v is outside [0,1]`, score)
	}
	return score, strings.TrimSpace(reason), nil
}

func clipReply(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…[truncated]"
}
